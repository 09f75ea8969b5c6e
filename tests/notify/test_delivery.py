"""Notices a table can rely on (issue 55), each against the real local servers: an address the mail server refuses
for good or for now, a mail outage across a window's close, a webhook that takes a post and never answers, one that
refuses a post for good (400), hostile player text in each platform's markup, a webhook URL that is never printed,
the take-back after an undo, and the reminder's time in ``status``. The clock is the tests' own; the one wait is
the webhook's timeout, set short by the test."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session

from sheets_gm.cli import main
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.config_tables import SecretSource
from sheets_gm.match.env_file import env_file_path
from sheets_gm.match.notify_settings import ChatSettings, ChatStyle, NoticeKind, NotifySettings
from sheets_gm.notify.announce import letters_of
from sheets_gm.notify.chat import ChatHook
from sheets_gm.notify.notices import CHANNEL, CHANNEL_LINES, Notice
from sheets_gm.notify.outbox import Outbox
from sheets_gm.running.cron import cron_line
from tests.notify.servers import PASSWORD, Fault, Hook, Mailbox, free_port, smtp_server, webhook_server
from tests.notify.test_notices_every_game import (
    GM,
    NOON,
    OPEN,
    Clock,
    exactly_once,
    load_window,
    mails_to,
    new_match,
    next_turn,
    play,
    played_match,
    sync,
)
from tests.quick import soak_but

__all__ = ["clock", "secrets"]
from tests.notify.test_notices_every_game import clock, secrets  # the fixtures, shared

pytestmark = pytest.mark.xdist_group("notices")  # one worker runs these: it makes each game's new_match once a run


@contextlib.contextmanager
def notified_match(game: str, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Mailbox, Hook, MatchConfig, dict[str, set[str]]]]:
    """A match of ``game`` with ``[notify]`` (``new_match``) whose mail goes to a local SMTP server and whose chat
    goes to a local webhook (``NOTICES_WEBHOOK``): the mailbox, the webhook, the config, each seat's addresses."""
    with smtp_server() as (box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match(game, tmp_path, port)
        yield box, hook, config, addresses


@contextlib.contextmanager
def played_notified_match(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: Clock,
                          capsys: pytest.CaptureFixture[str], *steps: str,
                          ) -> Iterator[tuple[Mailbox, Hook, MatchConfig, dict[str, set[str]]]]:
    """``notified_match`` with ``steps`` done first (``played_match``: ``sync``, ``play``, ``turn``): a copy of the
    match they left, the servers holding what they told, the clock where they left it."""
    with smtp_server() as (box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = played_match(game, tmp_path, box, hook, port, clock, capsys, steps)
        yield box, hook, config, addresses


def status(config_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["status", "-c", str(config_path)]) == 0
    return capsys.readouterr().out


def subjects_of(box: Mailbox, address: str) -> list[str]:
    return [str(m["Subject"]) for m in box.to(address)]


def test_an_address_refused_for_good_is_dropped_and_named_and_the_team_gets_each_letter_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A GvG team of several, one address refused (550): the others get each letter once, however many polls
    follow; the GM is told by status and by an e-mail of her own, once."""
    with notified_match("gvg", tmp_path, monkeypatch) as (box, _hook, config, addresses):
        seat = config.seats[0]
        gone, *others = sorted(addresses[seat])
        assert others, "a team of several"
        box.refuse.add(gone)
        out = sync(config, capsys)
        assert f"{gone} ({seat})" in out and "refused for good" in out, out
        for minute in range(1, 11):  # ten more polls, a minute apart
            clock.now = NOON + dt.timedelta(minutes=minute)
            sync(config, capsys)
        for address in others:
            opened = [s for s in subjects_of(box, address) if "is open" in s]
            assert len(opened) == 1, (address, subjects_of(box, address))
        assert box.to(gone) == []
        assert Outbox.of(config.path).waiting() == []
        said = status(config.path, capsys)
        assert "Notices not delivered" in said and gone in said and "550" in said, said
        main(["doctor", "-c", str(config.path)])
        doctor = capsys.readouterr().out
        assert "⚠ notices: " in doctor and f"{gone} refused for good" in doctor, doctor
        assert f"the mail server refused {gone} ({seat}) for good" in doctor, doctor  # issue 63.8
        assert "every seat has an address" not in doctor, doctor
        to_gm = [s for s in subjects_of(box, GM) if "refused for good" in s]
        assert to_gm == [f"[{config.title}] An address refused for good: {gone}"]
        ids = [str(m["Message-ID"]) for _, m in box.messages]
        assert len(ids) == len(set(ids)), "a letter went twice"


def test_an_address_refused_for_now_is_tried_alone_after_growing_waits_and_a_mended_roster_applies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with notified_match("gvg", tmp_path, monkeypatch) as (box, _hook, config, addresses):
        seat = config.seats[0]
        full, *others = sorted(addresses[seat])
        box.busy.add(full)
        sync(config, capsys)
        (letter,) = [w for w in Outbox.of(config.path).waiting() if w.recipient == seat]
        assert letter.pending == (full,) and set(letter.sent_to) == set(others)
        waits = []
        for _ in range(3):  # each refusal doubles the wait; before it ends, nothing is tried
            (letter,) = [w for w in Outbox.of(config.path).waiting() if w.recipient == seat]
            until = letter.waits_until()
            assert until is not None
            waits.append(until - clock.now)
            clock.now = until - dt.timedelta(seconds=1)
            sync(config, capsys)
            assert [w.tries for w in Outbox.of(config.path).waiting() if w.recipient == seat] == [letter.tries]
            clock.now = until
            sync(config, capsys)
        assert waits[0] < waits[1] < waits[2], waits
        assert all(len([s for s in subjects_of(box, a) if "is open" in s]) == 1 for a in others)
        box.busy.clear()
        clock.now += dt.timedelta(hours=3)
        sync(config, capsys)
        assert [s for s in subjects_of(box, full) if "is open" in s], "the address taken at last"
        assert all(len([s for s in subjects_of(box, a) if "is open" in s]) == 1 for a in others), \
            "an address that had the letter got it again"

        # The roster mended while a letter waits: the new address gets it, the old one never
        box.busy.add(others[0])
        play(config)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # the resolution's news waits for others[0]
        roster = tmp_path / "roster.csv"
        roster.write_text(roster.read_text(encoding="utf-8").replace(others[0], "mended@notices.example"),
                          encoding="utf-8")
        play(config, seed="m")
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # a poll that reads: the waiting letters follow the roster
        assert any("news for" in s for s in subjects_of(box, "mended@notices.example"))
        assert not any("news for" in s for s in subjects_of(box, others[0]))


def test_a_notice_of_a_window_gone_by_is_never_sent_and_the_next_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The mail server down from the window's opening to past its close: its "is open" and its reminder are
    dropped, the news of its resolution goes, with one line on what went stale; status names what was dropped."""
    port = free_port()
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match("winordie", tmp_path, port)
        sync(config, capsys)
        label, first = _first_label(hook.texts()), load_window(config)
        clock.now = NOON + dt.timedelta(hours=5, minutes=30)  # the reminder falls due: queued, not sent
        sync(config, capsys)
        assert any("closes in" in w.subject for w in Outbox.of(config.path).waiting())
        play(config)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # resolved while the mail is down
        with smtp_server(port=port) as (box, _):
            clock.now += dt.timedelta(minutes=1)
            sync(config, capsys)
        for seat in first:
            subjects = mails_to(box, addresses[seat])
            assert not any(f"{label} is open" in s or f"{label} closes in" in s for s in subjects), subjects
            news = [m for rcpts, m in box.messages if min(addresses[seat]) in rcpts
                    and "news for" in str(m["Subject"])]
            assert len(news) == 1 and "While the mail was down" in news[0].get_content(), subjects
        said = status(config.path, capsys)
        assert "its window closed before it could be sent" in said, said


def _first_label(texts: list[str]) -> str:
    """The label of the window the first "is open" post names (``Turn 1``, ``Deployment · Ann``)."""
    first = next(t for t in texts if " is open" in t)
    return first.split("] ", 1)[1].split(" is open", 1)[0]


def test_a_post_the_webhook_takes_and_never_answers_is_posted_once_more_at_most_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with notified_match("winordie", tmp_path, monkeypatch) as (_box, hook, config, _):
        hook.faults += [Fault(hang=5, take=True), Fault(hang=5, take=True)]
        out = sync(config, capsys)
        assert "may have reached the channel" in out, out
        for minute in range(1, 6):
            clock.now = NOON + dt.timedelta(minutes=minute)
            sync(config, capsys)
        hook.release.set()
        texts = hook.texts()
        first = texts[0]
        assert texts.count(first) == 2, "posted once, and once more at most"
        assert len(texts) == len(set(texts)) + 1
        said = status(config.path, capsys)
        assert "in doubt: posted twice" in said, said


def test_a_post_refused_for_good_is_dropped_and_named_and_the_order_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with played_notified_match("winordie", tmp_path, monkeypatch, clock, capsys, "sync", "play") as (
            _box, hook, config, _):
        clock.now += dt.timedelta(minutes=1)
        hook.faults += [Fault(500), Fault(400, body=b'{"message": "Invalid Form Body"}')]
        out = sync(config, capsys)  # the 500 stops the channel for this poll: all its posts wait, in order
        assert "500" in out and hook.posts == [p for p in hook.posts if "resolved" not in str(p)], out
        clock.now += dt.timedelta(minutes=1)
        out = sync(config, capsys)  # the 400: that post dropped, the others go after it, in order
        assert "dropped" in out and "400" in out, out
        texts = hook.texts()
        assert not any(" resolved**" in t for t in texts), "the refused post went after all"
        assert len(texts) > 1 and " is open" in texts[-1] and _first_label(texts[-1:]) != _first_label(texts), texts
        box = Outbox.of(config.path)
        assert box.waiting() == []
        assert "refused it for good" in status(config.path, capsys)
        ledger = box.ledger()
        refused = [k for k, v in ledger.items() if v.startswith("dropped") and "resolved/#channel" in k]
        assert refused, ledger
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        assert hook.texts() == texts, "a dropped post is never tried again"


HOSTILE = ("<!channel> @everyone <https://evil.example|board> **loud** [board](https://evil.example) & co "
           "~struck~ `code` _slanted_")


@pytest.mark.parametrize("style", [ChatStyle.SLACK, ChatStyle.DISCORD])
def test_player_text_reaches_the_chat_as_the_characters_typed(style: ChatStyle, monkeypatch: pytest.MonkeyPatch,
                                                              ) -> None:
    """A recruit named with each platform's markup: Slack gets entities for ``&``, ``<`` and ``>`` (no ping, no
    disguised link), its marks (``~strike~``, code, bold, italic) broken by zero-width spaces (issue 63.8), and
    its own ``*bold*``; Discord gets its markdown escaped, links left whole, and no mention
    parsed."""
    notify = NotifySettings(frozenset(NoticeKind), None, {}, chat=ChatSettings(style, SecretSource(env="HOOK")))
    notice = Notice("m/1@1/resolved/#channel", NoticeKind.RESOLVED, CHANNEL, "[Night] Turn 1 resolved",
                    f"Ann recruits {HOSTILE}.")
    (letter,) = letters_of([notice], notify, {}, NOON)
    with webhook_server() as hook:
        monkeypatch.setenv("HOOK", hook.url)
        ChatHook(notify.chat).post(letter, NOON)  # type: ignore[arg-type]
    (posted,) = hook.posts
    if style is ChatStyle.SLACK:
        text = posted["text"]
        assert text.startswith("*[Night] Turn 1 resolved*\n") and "**" not in text.split("\n")[0]
        assert "<" not in text and ">" not in text
        assert "&lt;!channel&gt;" in text and "&lt;https://evil.example|board&gt;" in text and "&amp; co" in text
        body = text.split("\n", 1)[1]  # a mark of Slack's mrkdwn between zero-width spaces: shown, never applied
        for mark in ("~struck~", "`code`", "_slanted_", "**loud**"):
            assert mark not in body and mark.replace(mark[0], f"\u200b{mark[0]}\u200b") in body, body
    else:
        text = posted["content"]
        assert posted["allowed_mentions"] == {"parse": []}
        assert text.startswith("**\\[Night\\] Turn 1 resolved**\n")
        body = text.split("\n", 1)[1]
        assert "\\<!channel\\>" in body and "\\*\\*loud\\*\\*" in body and "\\[board\\](https://evil.example)" in body
        assert "@everyone" not in body and "@\u200beveryone" in body


def test_a_webhook_url_with_a_space_is_never_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     clock: Clock, secrets: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A pasted URL cut by a space and a line break: sync, sync --watch's notices line, doctor --send-test --debug
    and status name the setting, never the token."""
    with smtp_server() as (_box, port):
        config, _ = new_match("winordie", tmp_path, port)
        monkeypatch.setenv("NOTICES_WEBHOOK", "http://127.0.0.1:9/api/webhooks/1/SECRET TOKENabc\nTAILtoken")
        printed = []
        for command in (["sync", "-c", str(config.path)], ["status", "-c", str(config.path)],
                        ["--debug", "doctor", "-c", str(config.path), "--send-test"]):
            main(command)
            out, err = capsys.readouterr()
            printed.append(out + err)
        everything = "\n".join(printed)
        assert "NOTICES_WEBHOOK" in everything and "a space or a line break" in everything, everything
        for piece in ("SECRET", "TOKENabc", "TAILtoken", "api/webhooks"):
            assert piece not in everything, piece


def undone(config: MatchConfig, capsys: pytest.CaptureFixture[str], reason: str) -> None:
    """The GM's undo of the last resolution, for ``reason``."""
    assert main(["undo", "-c", str(config.path), "--reason", reason]) == 0
    capsys.readouterr()


def test_an_undo_is_announced_as_a_turn_taken_back(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   clock: Clock, secrets: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The take-back names the GM's --reason, and the window's second resolution says it replaces the first (issue
    63.8: both were left out)."""
    with played_notified_match("winordie", tmp_path, monkeypatch, clock, capsys, "sync", "turn") as (
            box, hook, config, addresses):
        undone(config, capsys, "Ann ticked Ready too early")
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        (again,) = [t for t in hook.texts() if "took a turn back" in t]
        assert "is open again" in again and "tick Ready again" in again, again
        seat = load_window(config)[0]
        (mail,) = [m for rcpts, m in box.messages if min(addresses[seat]) in rcpts
                   and "took a turn back" in str(m["Subject"])]
        assert "tick Ready again" in mail.get_content()
        assert "Ann ticked Ready too early" in again and "Ann ticked Ready too early" in mail.get_content()
        play(config, seed="again")  # the window resolved anew: its news says it replaces the first
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        replayed = [t for t in hook.texts() if " resolved again" in t]
        assert len(replayed) == 1 and "This replaces the result of" in replayed[0] and \
            "Ann ticked Ready too early" in replayed[0], hook.texts()
        assert any("This replaces the result of" in m.get_content() for rcpts, m in box.messages
                   if min(addresses[seat]) in rcpts and "resolved again" in str(m["Subject"]))


def test_an_undo_and_a_new_deadline_before_the_next_poll_are_both_told_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM takes a turn back and moves the deadline before the next poll (found measuring under cron): the
    window is announced once, as taken back (with her reason) and with its new deadline; a later poll that reads
    a player's save announces nothing more. It was told only as "the deadline changed" (the take-back and its
    reason never went), and a poll reading a save would then have sent "open again" as a second letter."""
    from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
    from sheets_gm.running.connect import open_match_sheets
    from sheets_gm.sync.autoplay import type_bot_orders

    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync", "turn") as (
            box, hook, config, addresses):
        undone(config, capsys, "red ticked Ready too early")
        config.path.write_text(config.path.read_text(encoding="utf-8").replace('times = ["20:00"]',
                                                                               'times = ["22:00"]'), encoding="utf-8")
        capsys.readouterr()
        before = len(hook.texts())
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        make = next(iter(bots_of(create_ruleset("gvg")).values())).make
        seat = config.seats[0]
        type_bot_orders(open_match_sheets(config), get_ruleset("gvg"), {seat: make("typed")}, ready=False)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # reads the save: nothing resolves
        opened = [t for t in hook.texts()[before:] if OPEN.search(t.split("\n", 1)[0])]
        mails = [m for rcpts, m in box.messages if min(addresses[seat]) in rcpts and OPEN.search(str(m["Subject"]))]
    assert len(opened) == 1, opened
    assert "took a turn back" in opened[0] and "red ticked Ready too early" in opened[0], opened[0]
    assert "changed the deadline" in opened[0], opened[0]
    again = [m for m in mails if "took a turn back" in str(m["Subject"])]
    assert len(again) == 1 and "red ticked Ready too early" in again[0].get_content(), [m["Subject"] for m in mails]


# lists, not tuples: soak_but takes a tuple for the arguments of a test with several argument names
@pytest.mark.parametrize("reasons", soak_but([["only undo"], ["first undo", "second undo"]],
                                              ["first undo", "second undo"]))
def test_every_window_taken_back_before_a_poll_is_told_with_its_reason_and_resolves_again_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch, reasons: list[str]) -> None:
    """Turns 1 and 2 told resolved, then the GM's undos before the next poll: that poll tells every window taken
    back, each with its reason, to the channel and to each seat, once; each window's next resolution is "resolved
    again … This replaces the result … (undo: its reason)", once. Two undos were told as one (found in a GvG
    practice match): only the last reason, and turn 2 resolved anew as a plain "Turn 2 resolved"."""
    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync", "turn", "turn") as (
            box, hook, config, addresses):
        for reason in reasons:
            assert main(["undo", "-c", str(config.path), "--reason", reason]) == 0
        capsys.readouterr()
        before, mailed = len(hook.texts()), len(box.messages)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        undone = {2: reasons[0], 1: reasons[1]} if len(reasons) == 2 else {2: reasons[0]}
        (back,) = [t for t in hook.texts()[before:] if "took back" in t]
        seat = config.seats[0]
        (mail,) = [m.get_content() for rcpts, m in box.messages[mailed:] if min(addresses[seat]) in rcpts
                   and "took" in str(m["Subject"])]
        for turn, reason in undone.items():
            for text in (back, mail):
                assert f"The GM took back the resolution of turn {turn} (undo) ({reason})" in text, text
        for seed in ("again", "again too", "then")[:len(reasons) + 1]:  # the windows resolved anew, then turn 3
            clock.now += dt.timedelta(minutes=1)
            next_turn(config, capsys, clock, seed)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # a later poll tells nothing again
        texts = hook.texts()[before:]
        assert len([t for t in texts if "took back" in t]) == 1, texts
        heads = [t.split("\n", 1)[0].replace("*", "").replace("\\", "") for t in texts]  # Discord's bold, unescaped
        again = [t for t, head in zip(texts, heads, strict=True) if head.endswith(" resolved again")]
        assert [h for h in heads if h.endswith(" resolved again")] == [
            f"[{config.title}] Turn {turn} resolved again" for turn in sorted(undone)], heads
        for turn, reason in undone.items():
            (text,) = [t for t in again if f"Turn {turn} resolved again" in t]
            assert f"This replaces the result of turn {turn} told before the GM took it back (undo: {reason})" \
                in text, text
        assert f"[{config.title}] Turn 3 resolved" in heads, heads
        assert len([m for rcpts, m in box.messages[mailed:] if min(addresses[seat]) in rcpts
                    and "took back the resolution" in m.get_content()]) == 1


def test_status_gives_the_reminder_in_utc(tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock,
                                          secrets: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is 20:00 in Paris (19:00 UTC) and the lead two hours: the reminder is due at 17:00 UTC."""
    with played_notified_match("winordie", tmp_path, monkeypatch, clock, capsys, "sync") as (_box, _hook, config, _):
        said = status(config.path, capsys)
        assert "due 2026-11-22 17:00 UTC" in said, said


def _run_cron_line(line: str) -> str:
    """The crontab line's command run as cron runs it: /bin/sh, with an empty environment (but this test's host
    folders, which cron finds through HOME)."""
    command = line.split(" ", 5)[5]
    host = {name: os.environ[name] for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME")}  # this test's host folders
    done = subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in host.items()), "/bin/sh", "-c", command],
                          capture_output=True, text=True, timeout=120, check=False)
    return done.stdout + done.stderr


def _sync_as_cron_line(line: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The crontab line's sync run by this process, with the line's own arguments (from its folder): what it
    printed."""
    command = shlex.split(line.split(" && ", 1)[1])
    main(command[command.index("sync"):])  # after the program (a path, or python -m sheets_gm.cli)
    return "".join(capsys.readouterr())


def test_the_printed_cron_line_sends_under_cron_s_bare_environment_and_quiet_says_a_failure_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The line doctor prints, run with nothing in the environment: the secrets come from the match's environment
    file, the notices go out; a channel that fails is said once by --quiet, and once when it works again."""
    with smtp_server() as (box, port), webhook_server() as hook:
        config, _ = new_match("winordie", tmp_path, port)
        env = env_file_path(config.path)
        env.parent.mkdir(exist_ok=True)
        env.write_text(f"# the notices' secrets, for cron\nNOTICES_SMTP_PASSWORD='{PASSWORD}'\n"
                       f"export NOTICES_WEBHOOK=http://127.0.0.1:{free_port()}/hooks/closed\n", encoding="utf-8")
        env.chmod(0o600)
        monkeypatch.delenv("NOTICES_SMTP_PASSWORD")
        monkeypatch.setenv("NOTICES_WEBHOOK", "")  # doctor fills what this process lacks from the file: kept here
        main(["doctor", "-c", str(config.path)])
        said = capsys.readouterr().out
        line = cron_line(config.path, secret_env=True)
        assert line in said and f"--env-file .sheets-gm/{config.path.stem}.env" in line, said
        assert "read by cron, serve and every command alike: NOTICES_SMTP_PASSWORD from" in said, said

        first = _run_cron_line(line)
        assert box.messages, first  # the mail password came from the file
        assert first.count("the chat channel fails") == 1 and "connection refused" in first, first
        # The line works under cron's bare environment: its next runs are the same command in this process (a
        # process start less each), at the time the line ran, with its folder and nothing of the secrets set
        clock.now = dt.datetime.now(dt.UTC)
        monkeypatch.chdir(config.path.parent)
        monkeypatch.delenv("NOTICES_WEBHOOK")
        again = _sync_as_cron_line(line, capsys)
        assert "chat channel" not in again, again  # said once
        env.write_text(env.read_text(encoding="utf-8").replace(
            next(w for w in env.read_text(encoding="utf-8").split() if "hooks/closed" in w),
            f"NOTICES_WEBHOOK={hook.url}"), encoding="utf-8")
        clock.now += dt.timedelta(minutes=20)  # past the letters' wait: the polls are idle (the deployment waits)
        mended = _sync_as_cron_line(line, capsys)
        assert "the chat channel works again" in mended, mended
        assert hook.posts, mended
        assert "secret-token" not in first + again + mended


def test_each_seat_is_told_where_its_orders_and_the_board_are(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Local workbooks: each seat's e-mail names its own orders workbook and the board's; the channel the board's.
    (A Google match's links are its spreadsheets' URLs: ``test_notices_google``.)"""
    with notified_match("gvg", tmp_path, monkeypatch) as (box, hook, config, addresses):
        sync(config, capsys)
        board = config.local_path(config.board).name
        assert f"The board: the workbook {board}" in hook.texts()[0], hook.texts()[0]
        for seat, where in zip(config.seats, config.orders, strict=True):
            (mail,) = [m for rcpts, m in box.messages if min(addresses[seat]) in rcpts]
            mine = config.local_path(where).name
            body = mail.get_content()
            assert (f"Your orders: the workbook {mine}" in body if mine != board else
                    f"Your orders and the board: the workbook {board}" in body), body
            others = {config.local_path(w).name for s, w in zip(config.seats, config.orders, strict=True)
                      if s != seat} - {mine, board}
            assert not any(other in body for other in others), "a seat was told another's workbook"


def test_each_player_reads_the_deadline_in_her_own_time_zone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A GvG team over two continents: the seat's zone for most, one player's own by her address; each gets one
    "is open" and one reminder, with the deadline in her zone."""
    with notified_match("gvg", tmp_path, monkeypatch) as (box, _hook, config, addresses):
        seat = config.seats[0]
        far, *near = sorted(addresses[seat])
        text = config.path.read_text(encoding="utf-8")
        config.path.write_text(text.replace(f'timezones = {{ "{seat}" = "America/New_York" }}',
                                            f'timezones = {{ "{seat}" = "America/New_York", "{far}" = "Asia/Tokyo" }}'),
                               encoding="utf-8")
        sync(config, capsys)
        clock.now = NOON + dt.timedelta(hours=5, minutes=30)
        sync(config, capsys)
        for address, when in [(far, "Mon 23 Nov, 04:00 (Asia/Tokyo)"),
                              *((a, "Sun 22 Nov, 14:00 (America/New_York)") for a in near)]:
            told = [m for m in box.to(address) if "is open" in str(m["Subject"]) or "closes in" in str(m["Subject"])]
            assert len(told) == 2, (address, [str(m["Subject"]) for m in told])
            assert all(when in m.get_content() for m in told), (address, when)
        assert all(set(rcpts) <= {far} or far not in rcpts for rcpts, _ in box.messages), "zones mixed in a letter"


def test_a_big_coalition_turn_is_one_short_channel_summary_with_the_whole_attached(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A war of many armies resolved: the channel gets one summary of a Discord message (the first lines of the
    report, the posts named with their length, where it stands, the board) with the whole report and the posts
    in full attached, and the next turn's notice: not the posts pasted in pieces."""
    from tests.notify.test_war_size import war_on_the_hook
    from tests.sync.test_table_sizes import coalition_war

    path = coalition_war(tmp_path, ARMIES_A_SIDE)
    path.write_text(path.read_text(encoding="utf-8") + '\n[notify]\n[notify.chat]\nstyle = "discord"\n'
                    'url_env = "NOTICES_WEBHOOK"\ntimeout = 5\n', encoding="utf-8")
    with war_on_the_hook(path, monkeypatch, capsys, b"a big war") as (hook, config):
        before = len(hook.posts)
        play(config)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        posts = hook.posts[before:]
        assert len(posts) <= 2, [str(p.get("content"))[:80] for p in posts]
        (summary,) = [p for p in posts if " resolved**" in str(p.get("content"))]
        text = summary["content"]
        assert len(text) <= 2000 and "more line" in text and "The game's posts:" in text, text
        (attached,) = [text for name, text in summary["files"].items() if name.endswith(".txt")]
        assert "Movement Results, turn 1" in attached and len(attached) > len(text)
        more = int(text.split("… and ", 1)[1].split(" more line", 1)[0])
        report = attached.split("What happened (the public log):\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert len(report) == CHANNEL_LINES + more, "the attachment holds every line of the report"
        assert all(line in attached for line in report)


ARMIES_A_SIDE = 60


def test_the_gm_drops_a_letter_that_would_wait_for_ever(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       clock: Clock, secrets: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A webhook deleted (404): the channel's letters wait; ``notices --drop`` takes one out for good, named in
    the notes, and it is never posted once the webhook works again."""
    with notified_match("winordie", tmp_path, monkeypatch) as (_box, hook, config, _):
        hook.faults.append(Fault(404, body=b'{"message": "Unknown Webhook"}'))
        sync(config, capsys)
        assert main(["notices", "-c", str(config.path)]) == 0
        listed = capsys.readouterr().out
        assert "Waiting (1):" in listed and "1. chat to the channel" in listed and "404" in listed, listed
        assert main(["notices", "-c", str(config.path), "--drop", "7"]) == 1
        assert "give a number from 1 to 1" in capsys.readouterr().err
        assert main(["notices", "-c", str(config.path), "--drop", "1"]) == 0
        out = capsys.readouterr().out
        assert "Dropped 1:" in out and "Nothing waits to be sent." in out and "dropped by the GM" in out, out
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        assert hook.posts == []


def test_the_last_net_takes_every_piece_of_a_pasted_url_out_of_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a library's message quotes of the webhook's URL, whole or a piece of a paste, the line the GM
    reads names the setting instead; a password is taken out whole, and no common word with it."""
    from sheets_gm.match.notify_settings import EmailSettings, Security
    from sheets_gm.notify.announce import redact

    monkeypatch.setenv("HOOK", "https://chat.example/api/webhooks/1/SECRET TOKENabcdef")
    monkeypatch.setenv("PASS", "correct horse battery staple")
    notify = NotifySettings(frozenset(), None, {}, chat=ChatSettings(ChatStyle.DISCORD, SecretSource(env="HOOK")),
                            email=EmailSettings("h", 587, Security.STARTTLS, "gm@x.example", "gm",
                                                SecretSource(env="PASS")))
    line = redact("InvalidURL: '/api/webhooks/1/SECRET TOKENabcdef' and TOKENabcdef; login correct horse battery "
                  "staple refused; the correct answer", notify)
    assert "SECRET" not in line and "TOKENabcdef" not in line and "battery" not in line, line
    assert "the environment variable HOOK" in line and "the environment variable PASS" in line
    assert "the correct answer" in line


@pytest.mark.parametrize("style", ["slack", "discord"])
def test_a_wesnoth_recruit_with_a_hostile_name_reaches_the_channel_as_typed(
        style: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player names her recruit ``<!channel> @everyone`` in her orders workbook: the resolution's channel post
    shows those characters and pings nobody, on Slack and on Discord; her e-mail (plain text) has them as typed."""
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
    from sheets_gm.running.connect import open_match_sheets
    from sheets_gm.sheets.backend import RangeWrite
    from sheets_gm.sync.read import read_match
    from tests.matchfiles import order_cell

    with notified_match("wesnoth", tmp_path, monkeypatch) as (box, hook, config, addresses):
        config.path.write_text(config.path.read_text(encoding="utf-8").replace('style = "discord"',
                                                                               f'style = "{style}"'), encoding="utf-8")
        sync(config, capsys)
        sheets = open_match_sheets(config)
        read = read_match(sheets, get_ruleset("wesnoth"))
        state = read.record.state
        window = read.record.ruleset.window(state)
        assert window is not None
        seat = window.seats[0]
        leader = read.adapter.rows(state, seat, read.tabs.orders(seat).table("units").spec)[0]
        rules = read.record.ruleset
        assert isinstance(rules, WesnothRuleset)
        recruit = rules.rules.tables.factions[state.player(seat).faction].recruits[0]
        typed: list[tuple[str, str, str, str | bool]] = [
            ("units", leader, "action", "recruit"), ("recruit", "Recruit 1", "type", recruit),
            ("recruit", "Recruit 1", "name", "<!channel> @everyone"), ("seat", seat, "ready", True)]
        for table, subject, key, value in typed:
            where = f"'{read.tabs.orders(seat).table(table).tab}'!{order_cell(read, seat, table, subject, key)}"
            sheets.of(seat).write([RangeWrite(where, [[value]])])
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        (post,) = [p for p in hook.posts if " resolved" in str(p.get("text", p.get("content")))]
        if style == "slack":
            text = post["text"]
            ours = re.sub(r"<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>", "", text)  # the deadline's mark
            assert "recruits &lt;!channel&gt; @everyone (" in text and "<" not in ours, text
        else:
            text = post["content"]
            assert post["allowed_mentions"] == {"parse": []}
            assert "recruits \\<!channel\\> @\u200beveryone (" in text and "@everyone" not in text, text
        news = [m for rcpts, m in box.messages if min(addresses[seat]) in rcpts and "news for" in str(m["Subject"])]
        assert news and "recruits <!channel> @everyone (" in news[0].get_content()


def test_a_notice_waiting_is_replaced_by_the_newer_one_of_its_window(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Mail down, the GM moves the deadline: when mail comes back each seat gets the window's "is open" once, with
    the new deadline (issue 63.2: it used to get the old one and, a second later, the new one). Fails with
    ``Outbox._replace_older`` taken out."""
    port = free_port()
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match("champions", tmp_path, port)
        sync(config, capsys)  # mail down: every seat's "is open" waits
        config.path.write_text(config.path.read_text(encoding="utf-8").replace('times = ["20:00"]',
                                                                               'times = ["22:00"]'), encoding="utf-8")
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # the deadline moved: the window is told anew
        with smtp_server(port=port) as (box, _):
            clock.now += dt.timedelta(minutes=5)  # past the channel's rest after two failures (1, then 2 minutes)
            sync(config, capsys)
        told = {address: [m for m in box.to(address) if "is open" in str(m["Subject"])]
                for seat in config.seats for address in addresses.get(seat, ())}
        ids = [str(m["Message-ID"]) for _, m in box.messages]
        print(f"{len(told)} players: 'is open' letters per player {sorted({len(o) for o in told.values()})}, "
              f"{len(ids) - len(set(ids))} duplicates, {len(Outbox.of(config.path).notes())} notes of losses")
        assert len(told) >= 2
        for address, opened in told.items():
            assert len(opened) == 1, (address, [str(m["Subject"]) for m in opened])
            assert "20:00 (Europe/Paris)" not in opened[0].get_content(), address


def test_a_lost_post_is_told_to_the_gm_once_under_quiet_and_by_mail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A "resolved" post refused for good (400) is dropped: cron's ``--quiet`` says so once (issue 63.3: it said
    nothing, and the GM learnt it from ``status`` alone), the GM gets one e-mail naming it, and a routine 429
    is not mailed as a channel failure. Fails with the losses left out of ``keep_alarms``."""
    with notified_match("winordie", tmp_path, monkeypatch) as (box, hook, config, _):
        sync(config, capsys, "--quiet")
        play(config)
        clock.now += dt.timedelta(minutes=1)
        hook.faults += [Fault(400, body=b'{"message": "Invalid Form Body"}')]
        out = sync(config, capsys, "--quiet")
        assert out.count("was dropped") == 1 and "resolved" in out and "400" in out, out
        hook.faults += [Fault(429, headers={"Retry-After": "5"})]
        play(config, seed="o")
        for _ in range(3):
            clock.now += dt.timedelta(minutes=1)
            out = sync(config, capsys, "--quiet")
            assert "was dropped" not in out and "429" not in out, out
        to_gm = [str(m["Subject"]) for m in box.to(GM) if "not delivered" in str(m["Subject"])]
        assert len(to_gm) == 1 and "resolved" in to_gm[0], to_gm


def test_one_address_refused_on_every_letter_hides_no_other_loss() -> None:
    """``status``'s notes: fifteen letters refused to one address are one line, and the lost post beside them is
    shown (issue 63.8: the refused address filled the last ten)."""
    from sheets_gm.notify.announce import describe_notes

    refused = [{"at": f"2026-11-22T12:{n:02d}:00+00:00", "channel": "email", "recipient": "Ann",
                "subject": f"Turn {n}", "what": "x@y.example refused for good (550 no such mailbox)"}
               for n in range(15)]
    lost = {"at": "2026-11-22T12:03:30+00:00", "channel": "chat", "recipient": CHANNEL, "subject": "Turn 3 resolved",
            "what": "the webhook refused it for good: 400"}
    lines = describe_notes([*refused[:4], lost, *refused[4:]])
    assert len(lines) == 2 and "Turn 3 resolved" in lines[0] and "14 letters before it alike" in lines[1], lines


class TracingMailbox(Mailbox):
    """A mail server whose refusal carries a trace of its own each time, as Gmail's does ("550-5.1.1 … The email
    account that you tried to reach does not exist … 41be03b00d2f7-5e3c5c8b5a2si12.34 - gsmtp")."""

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if address in self.refuse:
            return f"550 5.1.1 The email account does not exist {len(self.messages)}x{id(envelope)} - gsmtp"
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)


@pytest.mark.parametrize("game", ["gvg", "champions"])
def test_an_address_refused_in_new_words_each_time_is_one_line_of_status(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Letter after letter refused to one address by a server whose words differ each time are one line of
    ``status``, whether the address is one of a team's (GvG) or a seat's only one, whose letters are then dropped
    (Champions) (issue 63.8: the notes were alike only when the server's words were, so with Gmail one refused
    address filled the last ten again; and measured under cron, a seat's only address took two lines, its
    refusal's and its letters' drop's). Fails with notes grouped by their words, or with the drop noted too."""
    with smtp_server(box=TracingMailbox()) as (box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match(game, tmp_path, port)
        gone = sorted(addresses[config.seats[0]])[0]
        box.refuse.add(gone)
        sync(config, capsys)
        next_turn(config, capsys, clock)  # the window's letter, its news and the next window's: three refusals
        notes = [n for n in Outbox.of(config.path).notes() if gone in n["what"]]
        said = status(config.path, capsys).split("Notices not delivered", 1)[1]
    assert len({n["what"] for n in notes}) >= 3, notes  # the server's words differed each time
    assert len([line for line in said.splitlines() if gone in line]) == 1, said


LEAKY_BODIES = [  # a webhook's error replies that quote a token: Discord's, a proxy's, a query's
    (404, b'{"message": "Unknown Webhook at /api/webhooks/4242/TOK3Nsecretdiscord", "code": 10015}'),
    (500, b"<html>upstream error for POST /hooks/secret-token-123?token=QUERYsecret77 (proxy)</html>"),
    (401, b"bad signature for https://hooks.slack.com/services/T0001/B0002/SLACKsecretXYZ"),
]


def test_no_token_a_server_quotes_is_kept_or_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Error replies quoting a webhook's token (its path, a ?token=, a Slack hook, our own URL) are redacted before
    the outbox keeps them (letters, notes.json, ledger.json) and on every command's output: sync, status, notices,
    doctor --send-test (issue 63.5: the last two printed them, and the outbox kept them as they came). Fails with
    ``notify.redact``'s shapes taken out."""
    tokens = ("TOK3Nsecretdiscord", "QUERYsecret77", "SLACKsecretXYZ", "secret-token-123")
    with notified_match("winordie", tmp_path, monkeypatch) as (_box, hook, config, _):
        said: list[str] = []
        for status_code, body in LEAKY_BODIES:
            hook.faults.append(Fault(status_code, body=body))
            said.append(sync(config, capsys))
            clock.now += dt.timedelta(hours=3)
        hook.faults += [Fault(status_code, body=body) for status_code, body in LEAKY_BODIES]
        for command in (["status"], ["notices"], ["doctor", "--send-test"], ["doctor", "--send-test"],
                        ["doctor", "--send-test"]):
            main([command[0], "-c", str(config.path), *command[1:]])
            said.append("".join(capsys.readouterr()))
        hook.faults.clear()
        hook.faults += [Fault(400, body=LEAKY_BODIES[0][1])]
        play(config)
        clock.now += dt.timedelta(minutes=1)
        said.append(sync(config, capsys))  # a post dropped for good: its reason in the ledger and the notes
        kept = [p.read_text(encoding="utf-8") for p in Outbox.of(config.path).folder.rglob("*.json")]
        assert any("4242" in text for text in kept) and any("<hidden>" in text for text in said), said
        for text in [*said, *kept]:
            assert not any(token in text for token in tokens), [t for t in tokens if t in text]


def test_a_seat_s_zone_letters_gone_stale_are_named_once(tmp_path: Path) -> None:
    """A seat's "is open" went as one letter per zone among its players; gone stale, the next letter names the
    notice once, not once per zone (issue 63.8)."""
    from sheets_gm.notify.outbox import EMAIL, Letter
    from sheets_gm.notify.send import send_waiting

    box = Outbox(tmp_path / "outbox")
    opened = [Letter(f"m/1/opened/Ann{suffix}", EMAIL, "Ann", "[M] Turn 1 is open", "…", "2026-11-22T12:00:00+00:00",
                     (address,), window="1", zone=zone) for suffix, address, zone in
              (("", "a@x.example", "Europe/Paris"), ("@Asia/Tokyo", "b@x.example", "Asia/Tokyo"))]
    news = Letter("m/1@1/resolved/Ann", EMAIL, "Ann", "[M] Turn 1 resolved", "news", "2026-11-22T12:01:00+00:00",
                  ("a@x.example", "b@x.example"))
    box.add([*opened, news])
    box.open_at("2")
    send_waiting(box, None, lambda: NOON)
    (waiting,) = box.waiting()
    assert waiting.body.count("Turn 1 is open") == 1 and "1 notice went stale" in waiting.body, waiting.body


def test_a_seat_s_players_of_every_zone_hear_what_went_stale(tmp_path: Path) -> None:
    """The next news goes as one letter per zone too: each of them names the notice gone stale once, so that the
    players of the second zone hear of it as well (issue 63.8: only the first zone's letter said it). Fails with
    the note folded into the first letter alone."""
    from sheets_gm.notify.outbox import EMAIL, Letter
    from sheets_gm.notify.send import send_waiting

    zones = (("", "a@x.example", "Europe/Paris"), ("@Asia/Tokyo", "b@x.example", "Asia/Tokyo"))
    box = Outbox(tmp_path / "outbox")
    opened = [Letter(f"m/1/opened/Ann{suffix}", EMAIL, "Ann", "[M] Turn 1 is open", "…", "2026-11-22T12:00:00+00:00",
                     (address,), window="1", zone=zone) for suffix, address, zone in zones]
    news = [Letter(f"m/1@1/resolved/Ann{suffix}", EMAIL, "Ann", "[M] Turn 1 resolved", "news",
                   "2026-11-22T12:01:00+00:00", (address,), zone=zone) for suffix, address, zone in zones]
    box.add([*opened, *news])
    box.open_at("2")
    send_waiting(box, None, lambda: NOON)
    waiting = box.waiting()
    assert len(waiting) == 2
    for letter in waiting:
        assert letter.body.count("Turn 1 is open") == 1 and "1 notice went stale" in letter.body, letter


def test_a_player_refused_for_now_gets_her_letters_in_their_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An address refused for now (450) waits a growing time before its letter is tried again; a newer letter
    to her, queued when the server takes her again, must not overtake it (found measuring under the real cron
    daemon: a player got "resolved again" a minute before the news it replaced). Fails with only the letters due
    tried."""
    with notified_match("gvg", tmp_path, monkeypatch) as (box, _hook, config, addresses):
        slow = sorted(addresses[config.seats[0]])[0]
        box.busy.add(slow)
        sync(config, capsys)
        next_turn(config, capsys, clock, "a")  # Turn 1's news: refused for now for her, tried again in a minute
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)  # refused again: her next try in two minutes
        box.busy.clear()
        next_turn(config, capsys, clock, "b")  # Turn 2's news, queued while Turn 1's waits for her
        for _ in range(3):
            clock.now += dt.timedelta(minutes=1)
            sync(config, capsys)
        news = [s for s in subjects_of(box, slow) if " resolved" in s]
    assert len(news) == 2 and "Turn 1 resolved" in news[0] and "Turn 2 resolved" in news[1], news


def test_news_of_a_resolution_taken_back_before_the_mail_took_it_is_never_sent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 75: the mail is down when a window resolves, and the GM takes the window back before it is up again.
    Each resolution is told only while it stands: its letters still waiting are dropped by the undo (the GM reads why
    in status), never sent after it; the players hear the take-back once. They got the undone result, with a deadline
    already past, a second before the window's second result."""
    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync", "play") as (
            box, _hook, config, addresses):
        box.busy_hellos = 10_000  # the mail server answers "try later" to every connection
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        waiting = [w for w in Outbox.of(config.path).waiting() if " resolved" in w.subject]
        assert {w.recipient for w in waiting} >= set(config.seats), [w.subject for w in waiting]
        assert main(["undo", "-c", str(config.path), "--reason", "red ticked Ready too early"]) == 0
        capsys.readouterr()
        assert not [w for w in Outbox.of(config.path).waiting() if " resolved" in w.subject]
        box.busy_hellos = 0
        for _ in range(3):  # the mail is back: every letter still waiting goes
            clock.now += dt.timedelta(minutes=20)
            sync(config, capsys)
        for seat in config.seats:
            subjects = [str(m["Subject"]) for rcpts, m in box.messages if min(addresses[seat]) in rcpts]
            assert not [s for s in subjects if " resolved" in s], subjects
            assert len([s for s in subjects if "took a turn back" in s]) == 1, subjects
        said = status(config.path, capsys)
        assert "taken back (undo) before it could be sent" in said, said


def test_deadlines_set_before_the_first_poll_announce_the_window_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 75: the GM sets [deadlines] after init, before the first poll. The window went out as "is open: the
    deadline changed" and again 8 minutes later as "is open", with the same deadline; it goes out once."""
    with notified_match("gvg", tmp_path, monkeypatch) as (box, hook, config, addresses):
        config.path.write_text(config.path.read_text(encoding="utf-8").replace('times = ["20:00"]',
                                                                               'times = ["22:00"]'), encoding="utf-8")
        from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
        from sheets_gm.running.connect import open_match_sheets
        from sheets_gm.sync.autoplay import type_bot_orders

        make = next(iter(bots_of(create_ruleset("gvg")).values())).make
        for n in range(3):  # each poll after the first reads a player's save: nothing resolves
            sync(config, capsys)
            clock.now += dt.timedelta(minutes=8)
            type_bot_orders(open_match_sheets(config), get_ruleset("gvg"), {config.seats[0]: make(f"typed {n}")},
                            ready=False)
        opened = [t for t in hook.texts() if OPEN.search(t.split("\n", 1)[0])]
        assert len(opened) == 1 and "deadline changed" in opened[0], opened
        for seat in config.seats:
            mails = [s for s in subjects_of(box, sorted(addresses[seat])[0]) if OPEN.search(s)]
            assert len(mails) == 1, mails


def test_one_outage_of_a_channel_several_matches_share_is_said_once_to_the_gm(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 75: one webhook down under three matches polled by cron --quiet: cron mails each match's lines apart, so
    the GM got a "fails" mail per match and a "works again" per match. The host says each once, whichever match
    meets it first; the words give the waits the host keeps (1, 2, 4, 8 … minutes), not "at every poll"."""
    with smtp_server() as (_box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", f"http://127.0.0.1:{free_port()}/hooks/closed")
        configs = [new_match("gvg", tmp_path / name, port)[0] for name in ("a", "b", "c")]
        said = "".join(sync(config, capsys, "--quiet") for config in configs)
        assert said.count("the chat channel fails") == 1, said
        assert "at every poll" not in said and "1, 2, 4, 8 … minutes" in said, said
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        clock.now += dt.timedelta(minutes=30)
        again = "".join(sync(config, capsys, "--quiet") for config in configs)
        assert again.count("the chat channel works again") == 1, again
        assert len({config.path for config in configs}) == 3 and hook.posts


def test_a_due_window_held_by_a_workbook_open_in_an_office_program_is_told_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat Ready, but red's workbook is open in LibreOffice (its lock file beside it): nothing resolves, and
    the channel and the GM each hear it once over two polls, naming the window and the file (found by a tester: the
    table heard nothing for 90 minutes). Once the file is closed, the next poll resolves and says so as usual."""
    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync", "play") as (
            box, hook, config, addresses):
        red = config.local_path(config.orders[config.seats.index("red")])
        lock = red.parent / f".~lock.{red.name}#"
        lock.write_text(",Ann Smith,ann-laptop,22.11.2026 12:00,file:///home/ann;", encoding="utf-8")
        for _ in range(2):
            clock.now += dt.timedelta(minutes=1)
            assert main(["sync", "-c", str(config.path)]) != 0
            capsys.readouterr()
        posts = [t for t in hook.texts() if red.name in t and "closed" in t]
        assert len(posts) == 1, hook.texts()
        (post,) = posts
        assert "Turn 1" in post and "closed" in post and "Ann Smith" not in post, post
        gm = [m for rcpts, m in box.messages if min(addresses[JUDGE]) in rcpts and red.name in m.get_content()]
        assert len(gm) == 1 and "Turn 1" in gm[0].get_content(), [str(m["Subject"]) for _, m in box.messages]
        assert not [t for t in hook.texts() if " resolved" in t]
        lock.unlink()
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        assert len([t for t in hook.texts() if "Turn 1 resolved" in t]) == 1, hook.texts()
        assert len([t for t in hook.texts() if red.name in t and "closed" in t]) == 1
        exactly_once(box, hook)


def test_an_undo_of_the_end_tells_the_new_seed_s_hash_and_the_next_end_every_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 93, item 7: a concession typed in error ends the match (the "match is over" notice publishes the seed);
    the GM's undo reopens it with a new seed, and the next poll tells the channel and every seat, by chat and by
    mail, that the end was taken back, with the new seed's hash, where the end was told. The match's next end is
    news of its own (a notice key of its own), and its notice gives both seeds, each with its hash. Fails with the
    refusal of issue 75 put back in ``undo_window``."""
    with played_notified_match("winordie", tmp_path, monkeypatch, clock, capsys, "sync", "turn") as (
            box, hook, config, addresses):
        seats = config.seats
        concede = ["adjust", "-c", str(config.path), "--concede", seats[-1], "--reason", "typed in error"]
        assert main(concede) == 0
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        assert len([t for t in hook.texts() if "The match is over" in t]) == 1
        assert main(["undo", "-c", str(config.path), "--reason", "the concession was typed in error"]) == 0
        committed = re.search(r"committed as ([0-9a-f]{64})", capsys.readouterr().out)
        assert committed is not None
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        (again,) = [t for t in hook.texts() if "took back the end of the match" in t]
        assert committed[1] in again and "the concession was typed in error" in again, again
        seat = load_window(config)[0]
        assert any(committed[1] in m.get_content() for rcpts, m in box.messages if min(addresses[seat]) in rcpts)
        assert main(concede) == 0
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        ends = [t for t in hook.texts() if "The match is over" in t]
        assert len(ends) == 2 and committed[1] in ends[1] and "drawn when the GM undid the end" in ends[1], ends
