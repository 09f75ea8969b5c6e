"""The judge's address is no relay of backscatter (issue 91, item 4), against the tests' real Dovecot: mail from
addresses of no player (forged senders, a spam link in the subject) gets at most one short answer a day each,
echoing nothing of the mail; an auto-responder that sets no robot header and replies to a receipt is never
answered (receipts carry In-Reply-To and References, and a reply to one is known); an address's receipts stop at
``[mailbox] receipts_per_day``; ``status`` counts each kind."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.mail import letter_id, message_of
from sheets_gm.notify.outbox import Letter, Outbox
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import poll_with_mail
from sheets_gm.running.mailroom.status import mail_status_lines
from sheets_gm.running.run import sync_once
from tests.fakes.dovecot import Dovecot, MailUser
from tests.mailbox.mails import plain, settings_of
from tests.rulesets.coalition.helpers import MAIL_ARMIES, ROSTER_COLUMNS, local_match

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SPAM = "Cheap pills at http://spam.example/buy"
ORDER = "Rabid Cat: Dominaria; 3C > 3D"


def _match(tmp_path: Path, dovecot: Dovecot, extra: str = "") -> tuple[MatchConfig, MailUser]:
    """A local Coalition match whose [mailbox] is a new mailbox of the tests' Dovecot."""
    config, _sheets = local_match(tmp_path, MAIL_ARMIES, b"backscatter", NOW, (*ROSTER_COLUMNS, "player", "email"))
    user = dovecot.add_user()
    settings = settings_of(dovecot, user, tmp_path)
    text = config.path.read_text(encoding="utf-8")
    config.path.write_text(text + f'\n[mailbox]\nhost = "{settings.host}"\nport = {settings.port}\nsecurity = "none"\n'
                           f'user = "{settings.user}"\npassword_file = "{settings.password.file}"\n{extra}',
                           encoding="utf-8")
    return load_config(config.path), user


def _poll(config: MatchConfig) -> None:
    sheets = open_match_sheets(config)
    _result, said = poll_with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW))
    assert not [line for line in said if "mailbox" in line], said


def _letters(config: MatchConfig) -> list[Letter]:
    return Outbox.of(config.path).waiting()


def test_mail_from_a_hundred_forged_addresses_gets_a_short_answer_each_once_a_day_echoing_nothing(
        tmp_path: Path, dovecot: Dovecot) -> None:
    # and together no more short answers a day than one address gets receipts: 100 forged senders got 100 answers
    config, user = _match(tmp_path, dovecot, "receipts_per_day = 30\n")
    for n in range(100):
        dovecot.deliver(user, plain(ORDER, sender=f"Mallory {n} <mallory{n}@spam.example>", subject=SPAM),
                        received=NOW)
    for n in range(3):  # the same forged addresses again, the same day
        dovecot.deliver(user, plain(ORDER, sender=f"<mallory{n}@spam.example>", subject=SPAM), received=NOW)
    _poll(config)
    letters = _letters(config)
    assert len(letters) == 30 and len({letter.recipient for letter in letters}) == 30
    for letter in letters:
        assert letter.subject == "Your mail to the judge" and "spam.example/buy" not in letter.body
        assert "Rabid Cat" not in letter.body and len(letter.body) < 400
    status = " ".join(mail_status_lines(config, open_match_sheets(config)))
    assert ("Not answered: 73 mails (3 from addresses of no player, 70 from addresses of no player past the day's "
            "short answers to them)") in status, status
    assert "30 short answers to addresses of no player (one a day each at most, and as many a day" in status, status


def test_strangers_get_no_answer_at_all_when_the_config_says_so(tmp_path: Path, dovecot: Dovecot) -> None:
    config, user = _match(tmp_path, dovecot, "answer_strangers = false\n")
    for n in range(5):
        dovecot.deliver(user, plain(ORDER, sender=f"<mallory{n}@spam.example>", subject=SPAM), received=NOW)
    _poll(config)
    assert _letters(config) == []


def test_an_auto_responder_replying_to_its_receipts_is_answered_once(tmp_path: Path, dovecot: Dovecot) -> None:
    """Ann's out-of-office, with no Auto-Submitted nor Precedence, answers each receipt: ten replies over three
    polls (one, one, then eight at once), one receipt (to her first mail), each reply filed and unanswered; the
    receipt names her mail in In-Reply-To and References."""
    config, user = _match(tmp_path, dovecot)
    dovecot.deliver(user, plain(ORDER, sender="Ann <ann@example.org>", subject="moves", message_id="<first@ann>"),
                    received=NOW)
    _poll(config)
    (receipt,) = _letters(config)
    assert receipt.in_reply_to == "<first@ann>"
    sent = message_of(receipt, "Judge <judge@mail.example>")
    assert sent["In-Reply-To"] == sent["References"] == "<first@ann>"
    for replies in (1, 1, 8):
        for _ in range(replies):
            dovecot.deliver(user, plain("I am away until Monday.", sender="Ann <ann@example.org>",
                                        subject=f"Re: {receipt.subject}",
                                        headers={"In-Reply-To": sent["Message-ID"]}), received=NOW)
        _poll(config)
    assert len(_letters(config)) == 1
    assert sent["Message-ID"] == f"<{letter_id(receipt.key)}@mail.example>"
    status = " ".join(mail_status_lines(config, open_match_sheets(config)))
    assert "Not answered: 10 mails (10 replying to the judge's answers)" in status, status


def test_an_address_gets_its_receipts_of_the_day_and_no_more(tmp_path: Path, dovecot: Dovecot) -> None:
    config, user = _match(tmp_path, dovecot, "receipts_per_day = 3\n")
    for n in range(5):
        dovecot.deliver(user, plain(ORDER, sender="Bo <bo@example.org>", subject=f"moves {n}"), received=NOW)
    dovecot.deliver(user, plain(ORDER, sender="Bo <bo@example.org>", subject="the next day"),
                    received=NOW + dt.timedelta(days=1))
    _poll(config)
    subjects = sorted(letter.subject for letter in _letters(config))
    assert subjects == ["Re: moves 0", "Re: moves 1", "Re: moves 2", "Re: the next day"]
    status = " ".join(mail_status_lines(config, open_match_sheets(config)))
    assert "Not answered: 2 mails (2 past an address's receipts of the day)" in status, status


def test_a_players_address_forged_gets_the_short_line_and_not_its_subject(tmp_path: Path, dovecot: Dovecot) -> None:
    """A mail in Ann's name that the judge's server found forged (DKIM fail for her domain): Ann's mailbox gets the
    one short line of the day, not the forger's subject."""
    config, user = _match(tmp_path, dovecot)
    for _ in range(3):
        dovecot.deliver(user, plain(ORDER, sender="Ann <ann@example.org>", subject=SPAM, headers={
            "Authentication-Results": "mx.judge.example; dkim=fail header.d=example.org"}), received=NOW)
    _poll(config)
    (letter,) = _letters(config)
    assert letter.recipient == "ann@example.org" and letter.subject == "Your mail to the judge"
    assert "could not confirm that it comes from this address" in letter.body and "spam" not in letter.body
