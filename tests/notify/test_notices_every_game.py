"""Notices end to end in every game: ``sheets-gm sync`` on local workbooks tells the table by e-mail (a real SMTP
server on this machine) and by chat (a local webhook) that a window opened, that its deadline is near, that it
resolved; and when the servers fail (a refused connection, a 429 with Retry-After, a timeout) the poll goes on,
the notices wait in the outbox, and the next polls send each exactly once, an idle one without reading any
spreadsheet. The clock is the tests' (``commands.base.clock``): nothing sleeps."""

from __future__ import annotations

import copy
import datetime as dt
import os
import re
import stat
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.init import starter_config
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.registry import AnyRuleset, bots_of, create_ruleset, get_game, get_ruleset, ruleset_names
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.autoplay import type_bot_orders
from tests.conformance.test_leak_scan import email_of, roster_csv
from tests.made import made_into
from tests.notify.servers import CERT, PASSWORD, USER, Fault, Hook, Mailbox, free_port, smtp_server, webhook_server
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("notices")  # one worker runs these: it makes each game's new_match once a run

GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]
NOON = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)  # the deadline is 20:00 in Paris: 19:00 UTC
SEED = b"notices seed of the match"
GM = "judge@notices.example"


class Clock:
    """The time every poll command reads, moved by the test."""

    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = Clock(NOON)
    monkeypatch.setattr("sheets_gm.commands.base.clock", found)
    return found


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("NOTICES_SMTP_PASSWORD", PASSWORD)
    yield


def notify_table(smtp_port: int, first_seat: str) -> str:
    return f"""
[notify]
reminder = "2h"
timezones = {{ "{first_seat}" = "America/New_York" }}

[notify.email]
host = "127.0.0.1"
port = {smtp_port}
security = "starttls"
user = "{USER}"
password_env = "NOTICES_SMTP_PASSWORD"
sender = "Match GM <{USER}>"
ca_file = "{CERT}"
timeout = 5

[notify.chat]
style = "discord"
url_env = "NOTICES_WEBHOOK"
timeout = 1
"""


#: How a notice says its window is open: "Turn 1 is open", "Turn 1 · orders are open" (a label ending in a plural).
OPEN = re.compile(r" (is|are) open")


def new_match(game: str, tmp_path: Path, smtp_port: int) -> tuple[MatchConfig, dict[str, set[str]]]:
    """A match of ``game`` from its starter config with a deadline at 20:00 Paris time and ``[notify]``, created
    at noon with a roster of e-mails, in ``tmp_path`` with its mail sent to ``smtp_port``; returns its config and
    each seat's addresses. The match is made once per game and process (``init`` is a quarter of these tests'
    time) and each test gets a fresh copy of its folder: the same files ``init`` writes, as nothing in them but
    ``match.toml`` names the port or the folder."""
    made_into(tmp_path, ("notices", game), lambda folder: _ADDRESSES.__setitem__(game, _init_match(game, folder)))
    return _mailing_to(tmp_path, game, smtp_port)


def _mailing_to(folder: Path, game: str, smtp_port: int) -> tuple[MatchConfig, dict[str, set[str]]]:
    """The made match of ``game`` copied into ``folder``, its mail sent to ``smtp_port``: its config and each seat's
    addresses."""
    path = folder / "match.toml"
    _move_port(path, _MADE_PORT, smtp_port)
    config = load_config(path)
    assert config.notify is not None, config.notify_problems
    return config, {seat: set(found) for seat, found in _ADDRESSES[game].items()}


def _move_port(path: Path, old: int, new: int) -> None:
    """The match configured at ``path`` sending its mail to port ``new`` instead of ``old``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(f"\nport = {old}\n") == 1, text
    path.write_text(text.replace(f"\nport = {old}\n", f"\nport = {new}\n"), encoding="utf-8")


#: The SMTP port a made match is created with, replaced by each test's own in its copy.
_MADE_PORT = 9
#: Each game's made match's addresses, by seat, kept when this process made it.
_ADDRESSES: dict[str, dict[str, set[str]]] = {}


def _init_match(game: str, folder: Path) -> dict[str, set[str]]:
    """``new_match``'s match made by ``init`` in ``folder``: each seat's addresses."""
    text = starter_config(game).read_text(encoding="utf-8")
    text = text.replace("\n[sheets]\n", f"\ngm_emails = [\"{GM}\"]\nroster = \"roster.csv\"\n\n[sheets]\n", 1)
    head, _, rest = text.partition("\n[deadlines]")
    rest = rest.split("\n[", 1)[1]
    text = f'{head}\n[deadlines]\ntimes = ["20:00"]\ntimezone = "Europe/Paris"\n\n[{rest}'
    rules: AnyRuleset = create_ruleset(game)
    path = folder / "match.toml"
    seats = load_config(_write(path, text.replace('roster = "roster.csv"', ""))).seats
    path.write_text(text + notify_table(_MADE_PORT, seats[0]), encoding="utf-8")
    config = load_config(path)
    assert config.notify is not None, config.notify_problems
    roster = roster_csv(rules, folder / "roster.csv", config.seats)
    init_match(config, now=NOON, share=False, seed=SEED)
    addresses = {seat: {email_of(m.name) for m in roster.members if m.seat == seat} for seat in config.seats}
    return {**addresses, JUDGE: {GM}}


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def sync(config: MatchConfig, capsys: pytest.CaptureFixture[str], *more: str) -> str:
    code = main(["sync", "-c", str(config.path), *more])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def play(config: MatchConfig, seed: str = "n") -> None:
    """The bots of the seats acting type their orders and tick Ready."""
    rules: AnyRuleset = create_ruleset(config.ruleset)
    make = next(iter(bots_of(rules).values())).make
    bots = {seat: make(f"{seed}/{seat}") for seat in (*config.seats, JUDGE)}
    type_bot_orders(open_match_sheets(config), get_ruleset(config.ruleset), bots, ready=True)


def next_turn(config: MatchConfig, capsys: pytest.CaptureFixture[str], clock: Clock, seed: str = "n") -> str:
    """The bots play the window open, a minute passes and a sync resolves it: what it printed."""
    play(config, seed)
    clock.now += dt.timedelta(minutes=1)
    return sync(config, capsys)


#: What a step of ``played_match`` does: a poll, the bots' orders typed (``play``), a turn played and resolved a minute
#: later (``next_turn``).
STEPS: dict[str, Callable[[MatchConfig, pytest.CaptureFixture[str], Clock], object]] = {
    "sync": lambda config, capsys, clock: sync(config, capsys),
    "play": lambda config, capsys, clock: play(config),
    "turn": next_turn,
}
#: What the servers took while each played match was made, and the time its last step left: by ``played_match``'s key.
_PLAYED: dict[tuple[str, str, tuple[str, ...]], tuple[list[tuple[list[str], EmailMessage]], list[bytes],
                                                      list[dict[str, Any]], dt.datetime]] = {}


def played_match(game: str, tmp_path: Path, box: Mailbox, hook: Hook, port: int, clock: Clock,
                 capsys: pytest.CaptureFixture[str], steps: tuple[str, ...]) -> tuple[MatchConfig, dict[str, set[str]]]:
    """``new_match`` with ``steps`` (``STEPS``) done from noon, against servers of its own, made once a process
    (``made_into``, as each made on the one before) and copied into ``tmp_path``: its mail to ``port``, what the
    servers took meanwhile given to ``box`` and ``hook`` as though they had, the clock at the time its last step left.
    For a test whose set-up those steps are (another test checks what they tell); where the webhook's URL is in
    ``NOTICES_WEBHOOK``. The next poll of a copy is never an idle one: its poll state names the folder made."""
    if not steps:
        clock.now = NOON
        return new_match(game, tmp_path, port)
    key = ("notices played", game, steps)

    def make(folder: Path) -> None:
        url = os.environ["NOTICES_WEBHOOK"]
        with smtp_server() as (made_box, made_port), webhook_server() as made_hook:
            os.environ["NOTICES_WEBHOOK"] = made_hook.url
            try:
                config, _ = played_match(game, folder, made_box, made_hook, made_port, clock, capsys, steps[:-1])
                STEPS[steps[-1]](config, capsys, clock)
                capsys.readouterr()
            finally:
                os.environ["NOTICES_WEBHOOK"] = url
        _move_port(config.path, made_port, _MADE_PORT)
        _PLAYED[key] = list(made_box.messages), list(made_box.raw), list(made_hook.posts), clock.now

    made_into(tmp_path, key, make)
    messages, raw, posts, clock.now = _PLAYED[key]
    box.messages += messages
    box.raw += raw
    hook.posts += copy.deepcopy(posts)
    return _mailing_to(tmp_path, game, port)


def mails_to(box: Mailbox, addresses: set[str]) -> list[str]:
    """The subjects of the messages one player of ``addresses`` got (each has a message of her own)."""
    return [str(m["Subject"]) for rcpts, m in box.messages if min(addresses) in rcpts]


def exactly_once(box: Mailbox, hook: Hook) -> None:
    ids = [str(m["Message-ID"]) for _, m in box.messages]
    assert len(ids) == len(set(ids)), "an e-mail was sent twice"
    texts = hook.texts()
    assert len(texts) == len(set(texts)), "a chat post was sent twice"


@pytest.mark.parametrize("game", soak_but(GAMES, "gvg", "wesnoth"))
def test_the_table_hears_its_window_open_its_deadline_near_and_its_resolution(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with smtp_server() as (box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match(game, tmp_path, port)
        rules = create_ruleset(game)
        record_window = rules.window(rules.new_match(rules.sample_roster(), SEED))
        assert record_window is not None

        out = sync(config, capsys)
        assert "Notices:" in out and "sent" in out, out
        opened = [t for t in hook.texts() if OPEN.search(t)]
        assert len(opened) == 1 and "Orders close" in opened[0]
        first = config.seats[0]
        window = load_window(config)
        for seat in window:
            subjects = mails_to(box, addresses[seat])
            assert any(OPEN.search(s) for s in subjects), (seat, subjects)
        if first in window:
            (mail,) = [m for rcpts, m in box.messages if min(addresses[first]) in rcpts]
            body = mail.get_content()
            assert "14:00 (America/New_York)" in body and "What to type:" in body, body

        before = (len(box.messages), len(hook.posts))
        sync(config, capsys)
        assert (len(box.messages), len(hook.posts)) == before, "a poll of the same window sends nothing again"

        clock.now = NOON + dt.timedelta(hours=5, minutes=30)  # 17:30 UTC: the deadline is in 1 h 30 min
        sync(config, capsys)
        reminders = [t for t in hook.texts() if re.search(r"closes? in 1 h 30 min", t)]
        assert len(reminders) == 1 and "Not ready yet:" in reminders[0], hook.texts()
        assert any("not ready" in s for seat in window for s in mails_to(box, addresses[seat]))

        play(config)
        clock.now += dt.timedelta(minutes=1)
        out = sync(config, capsys)
        assert "resolved" in out, out
        resolved = [t for t in hook.texts() if " resolved**" in t]
        assert len(resolved) == 1 and "What happened (the public log):" in resolved[0]
        for seat in config.seats:
            news = [s for s in mails_to(box, addresses[seat]) if f"news for {seat}" in s]
            assert len(news) == 1, (seat, mails_to(box, addresses[seat]))
            assert all(set(rcpts) <= addresses[seat] for rcpts, m in box.messages
                       if f"news for {seat}" in str(m["Subject"])), "a seat's news went to another seat"
        if game == "coalition":  # the forum's posts: named in the summary, in full in its attachment
            (summary,) = [p for p in hook.posts if " resolved**" in str(p.get("content"))]
            assert "The game's posts:" in summary["content"] and "Movement Results, turn 1 (" in summary["content"]
            (attached,) = [text for name, text in summary["files"].items() if name.endswith(".txt")]
            assert "Movement Results, turn 1" in attached and "Battle Announcements, turn 1" in attached
        exactly_once(box, hook)
        assert load_config(config.path).notify is not None
        assert Outbox.of(config.path).waiting() == []


def load_window(config: MatchConfig) -> tuple[str, ...]:
    from sheets_gm.sync.read import read_match

    record = read_match(open_match_sheets(config), get_ruleset(config.ruleset)).record
    window = record.ruleset.window(record.state)
    assert window is not None
    return window.seats


@pytest.mark.parametrize("game", soak_but(GAMES, "winordie"))
def test_notices_that_cannot_be_sent_wait_and_go_once_at_the_next_polls(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()  # nothing listens there yet: the mail server is down
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match(game, tmp_path, port)
        hook.faults.append(Fault(429, {"Retry-After": "60"}))
        out = sync(config, capsys)  # the poll is done, whatever the servers say
        assert "waiting" in out and "connection refused" in out and "429" in out, out
        box = Outbox.of(config.path)
        waiting = box.waiting()
        assert waiting and hook.posts == []
        assert stat.S_IMODE(box.folder.stat().st_mode) == 0o700
        assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in box.folder.rglob("*") if p.is_file())

        code = main(["status", "-c", str(config.path)])
        status = capsys.readouterr().out
        assert code == 0 and f"Notices waiting ({len(waiting)}):" in status, status
        assert "not before" in status and "connection refused" in status

        def no_read(*args: object, **kwargs: object) -> None:
            raise AssertionError("an idle poll read a workbook to send notices")

        with monkeypatch.context() as idle:
            idle.setattr(LocalWorkbookBackend, "read", no_read)
            clock.now += dt.timedelta(seconds=30)  # neither the Retry-After nor the mail's minute of rest passed
            sync(config, capsys)
            assert hook.posts == []
            now_waiting = box.waiting()
            assert [w.tries for w in now_waiting if w.channel == "chat"][:1] == [1]  # not tried again
            mails = [w for w in now_waiting if w.channel == "email"]
            assert mails[0].tries == 1 and all("connection refused" in w.error for w in mails), mails
            with smtp_server(port=port) as (mail, _):
                hook.faults.append(Fault(hang=5))  # the webhook takes longer than the 1 s the config allows
                clock.now += dt.timedelta(seconds=31)
                out = sync(config, capsys)
                assert "no answer in time" in out, out
                hook.release.set()
                clock.now += dt.timedelta(seconds=1)  # a post in doubt is posted again minutes later, not now
                sync(config, capsys)
                assert [w for w in box.waiting() if w.channel == "chat"], "tried again a second later"
                clock.now += dt.timedelta(minutes=3)
                sync(config, capsys)
                sync(config, capsys)
        assert box.waiting() == []
        assert [t for t in hook.texts() if OPEN.search(t)], hook.texts()
        for seat in load_window(config):
            assert sum(bool(OPEN.search(s)) for s in mails_to(mail, addresses[seat])) == 1, seat
        exactly_once(mail, hook)
        ledger = box.ledger()
        assert ledger and all(v.startswith("sent ") for v in ledger.values())



@pytest.mark.parametrize("game", ["winordie", "gvg"])
def test_a_seat_or_member_a_bot_plays_is_mailed_nothing(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Win or Die's second player handed to a bot gets no e-mail (no "your turn", no news); in GvG a bot playing
    one member of red leaves that member's address out of red's mail, the others of red still hear. The channel,
    which the GM reads, still hears every window."""
    with smtp_server() as (box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, addresses = new_match(game, tmp_path, port)
        kind = next(iter(bots_of(create_ruleset(game))))
        seat = config.seats[1] if game == "winordie" else config.seats[0]
        name = seat if game == "winordie" else next(m for m in _members(tmp_path) if email_of(m) in addresses[seat])
        assert main(["adjust", "-c", str(config.path), "--bot", f"{name}={kind}", "--reason", "away"]) == 0
        capsys.readouterr()
        sync(config, capsys)
        assert [t for t in hook.texts() if " is open" in t]  # the channel hears the window
        played = addresses[seat] if game == "winordie" else {email_of(name)}
        assert mails_to(box, played) == [], "a mail went to what a bot plays"
        window = load_window(config)  # read once: nothing is saved while the seats are looked at
        for other in config.seats:
            if other in window and (game == "gvg" or other != seat):
                assert any("is open" in s for s in mails_to(box, addresses[other] - played)), other
        play(config)
        clock.now += dt.timedelta(minutes=1)
        sync(config, capsys)
        assert any(" resolved**" in t for t in hook.texts())
        assert mails_to(box, played) == [], "a mail went to what a bot plays"


def _members(folder: Path) -> list[str]:
    """The names of the roster file's members."""
    import csv

    with (folder / "roster.csv").open(encoding="utf-8") as f:
        return [row["name"] for row in csv.DictReader(f)]


def test_the_judges_window_is_told_closing_on_its_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Coalition judge's window closes on her results, as its status line, the page and the deadline's own line
    say ("results close …"): its "is open" said "Orders close …" to the channel and to the judge. The sides' window
    still says orders."""
    with smtp_server() as (box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config, _addresses = new_match("coalition", tmp_path, port)
        sync(config, capsys)
        next_turn(config, capsys, clock)
        judged = [t for t in hook.texts() if "battle results are open" in t]
        mailed = [m.get_content() for m in box.to(GM) if "battle results are open" in str(m["Subject"])]
        assert judged and mailed, hook.texts()
        assert all("Results close" in t and "Orders close" not in t for t in [*judged, *mailed]), [*judged, *mailed]
        ordered = [t for t in hook.texts() if "orders are open" in t]
        assert ordered and all("Orders close" in t for t in ordered), ordered
