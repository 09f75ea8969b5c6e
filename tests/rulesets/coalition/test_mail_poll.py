"""The judge's mailbox read at every poll, through the one poll path (``host.polls.poll_config``), end to end against
a real IMAP server (the Dovecot fixture, no mock): mail from two players and a stranger filed, answered and
receipted, each mail once (issue 73, item 5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sheets_gm.host.polls import Looked, poll_config
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.outbox import Outbox
from sheets_gm.poll_gate.run import IdlePoll
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.idle_poll import idle_local_sync
from sheets_gm.sheets.marks import file_mark
from sheets_gm.sync.read import read_match
from tests.fakes.dovecot import Dovecot, MailUser
from tests.mailbox.mails import plain
from tests.rulesets.coalition.helpers import looking
from tests.rulesets.coalition.test_mail_door import _match

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")


def _match_with_mailbox(tmp_path: Path, dovecot: Dovecot) -> tuple[MatchConfig, MailUser]:
    _match(tmp_path)  # the mail door tests' match: made once a process for all of them
    user = dovecot.add_user()
    (tmp_path / "mailbox.password").write_text(user.password, encoding="utf-8")
    with (tmp_path / "match.toml").open("a", encoding="utf-8") as f:
        f.write(f'\n[mailbox]\nhost = "{dovecot.host}"\nport = {dovecot.port}\nsecurity = "none"\n'
                f'user = "{user.name}"\npassword_file = "mailbox.password"\nfolder = "INBOX"\n')
    return load_config(tmp_path / "match.toml"), user


def poll(config: MatchConfig) -> Looked:
    """A poll as cron's ``sync`` makes it."""
    return poll_config(config, file_mark(config.path), lambda: NOW, quiet=True)


def test_mail_from_two_players_and_a_stranger_is_read_at_the_poll_and_once(tmp_path: Path, dovecot: Dovecot) -> None:
    config, user = _match_with_mailbox(tmp_path, dovecot)
    poll(config)  # the first poll: nothing in the mailbox
    assert isinstance(poll(config).gated, IdlePoll)  # an idle mailbox: the poll stays idle
    assert idle_local_sync(config.path, NOW, quiet=True) is not None  # cron's shortcut asks the mailbox: nothing
    assert not Outbox.of(config.path).waiting()
    dovecot.deliver(user, plain("Rabid Cat: Dominaria; 3C > 3D", sender="Ann <ann@example.org>",
                                subject="Turn 1 moves"), received=NOW)
    dovecot.deliver(user, plain("Various Puppies: Dominaria; 4C > 4D", sender="bo@example.org", subject="moves"),
                    received=NOW)
    dovecot.deliver(user, plain("Rabid Cat: Dominaria; 3C > 2C", sender="eve@example.net", subject="hi"),
                    received=NOW)
    assert idle_local_sync(config.path, NOW, quiet=True) is None  # mail waits: cron's shortcut steps aside
    looked = poll(config)
    assert not isinstance(looked.gated, IdlePoll)
    seats = read_match(looking(config), CLS).seats
    coalition = [r for r in sorted(seats["coalition"].rows, key=lambda r: r.row) if r.table == "post" and
                 r.text("line")]
    assert coalition[1].text("line") == "Rabid Cat: Dominaria; 3C > 3D"
    assert coalition[1].feedback.startswith("✔ read as Rabid Cat's order")
    said = {letter.recipient: letter.body for letter in Outbox.of(config.path).waiting()}
    assert set(said) == {"ann@example.org", "bo@example.org", "eve@example.net"}
    assert "✔ read as Rabid Cat's order" in said["ann@example.org"]
    assert "no player's address" in said["eve@example.net"]
    poll(config)  # read once: nothing more is typed or answered (the receipts wait: no [notify.email] here)
    assert len(Outbox.of(config.path).waiting()) == 3
    assert [r.text("line") for r in sorted(read_match(looking(config), CLS).seats["coalition"].rows,
                                           key=lambda r: r.row) if r.table == "post" and r.text("line")] == \
        [c.text("line") for c in coalition]


def test_the_receipts_sent_after_the_poll_are_counted_for_the_judge(tmp_path: Path, dovecot: Dovecot,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The receipts go after the poll's own notices: their count is said on a line of its own (a war's 303
    receipts were sent unsaid after a poll that said "Notices: 2 sent")."""
    from tests.notify.servers import CERT, PASSWORD, USER, smtp_server

    config, user = _match_with_mailbox(tmp_path, dovecot)
    monkeypatch.setenv("NOTICE_TEST_PASSWORD", PASSWORD)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    with smtp_server() as (server, port):
        with (tmp_path / "match.toml").open("a", encoding="utf-8") as f:
            f.write(f'\n[notify]\nsend = ["resolved"]\n[notify.email]\nhost = "127.0.0.1"\nport = {port}\n'
                    f'user = "{USER}"\npassword_env = "NOTICE_TEST_PASSWORD"\nsender = "Judge <{USER}>"\n'
                    f'ca_file = "{CERT}"\n')
        config = load_config(tmp_path / "match.toml")
        poll(config)
        for sender in ("ann@example.org", "bo@example.org", "eve@example.net"):
            dovecot.deliver(user, plain("Rabid Cat: Dominaria; 3C > 3D", sender=sender, subject="moves"), received=NOW)
        looked = poll(config)
    assert "Receipts and notices: 3 sent." in looked.notes, looked.notes
    assert sorted(to for (to,), _m in server.messages) == ["ann@example.org", "bo@example.org", "eve@example.net"]
