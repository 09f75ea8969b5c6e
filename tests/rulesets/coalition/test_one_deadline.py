"""Ruling "The players' deadline, then the judge" with the rulebook's one deadline a turn (2.3, 6.5): while the judge's
window of turn N is in its players' part, the sides send turn N+1's movement with turn N's strategies; both close at
the one players' deadline. When the judge's window closes (Results in, her deadline, ``resolve --force``), her results
are applied and turn N+1's movement is adjudicated in the same sync from what was sent before that deadline; what
came after it is late: kept, told, not read.

The class, as a property walked through the real commands (the mail poll, ``sync``, ``resolve --force``) at a fake
clock: no order or strategy sent before the players' deadline is lost or read for the wrong turn; nothing sent after
it is read; nothing the judge typed is applied before her window closes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.cli import main
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.mailbox.message import Mail
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.announce import seen_of
from sheets_gm.notify.notices import NoticeRules, poll_notices
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.coalition.state import CoalitionState
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.poll_words import describe_report
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.read import read_match, read_record
from tests.made import made_into
from tests.rulesets.coalition.helpers import MAIL_ARMIES, ROSTER_COLUMNS, local_match, looking
from tests.rulesets.coalition.test_mail_door import Box

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
PLAYERS = NOW.replace(hour=20)  # the players' deadline of turn 1's judge's window (a daily 20:00 schedule)
CLS = get_ruleset("coalition")
pytestmark = pytest.mark.xdist_group("coalition-one-deadline")  # one worker runs these: it walks _first_turn once a run
ARMIES = [*MAIL_ARMIES, ["Blight Hound", "phyrexia", 2, "Dominaria 7A", "2000/1000/600/600", "", "", "Di",
                         "di@example.org"]]


class Table:
    """The match as its players, its judge and its GM play it: mail to the judge's mailbox, cells typed in the
    workbooks, the commands at a fake clock."""

    def __init__(self, folder: Path, armies: Sequence[Sequence[object]] = ARMIES, *, new: bool = True) -> None:
        """A new match of ``armies`` in ``folder`` (``new``), or the match already there (a walked table's copy)."""
        path = folder / "match.toml"
        if new:
            local_match(folder, armies, b"one deadline", NOW, (*ROSTER_COLUMNS, "player", "email"))
            path.write_text(path.read_text(encoding="utf-8").replace("times = []", 'times = ["20:00"]', 1),
                            encoding="utf-8")
        self.config: MatchConfig = load_config(path)
        self.uid = 0
        self.box = Box([])

    def mail(self, sender: str, subject: str, *lines: str, at: dt.datetime) -> None:
        """A mail reaching the judge's mailbox at ``at``."""
        self.uid += 1
        self.box.mails.append(Mail(self.uid, 1, f"<m{self.uid}@example.org>", sender, "", at, subject,
                                   "\n".join(lines)))

    def sync(self, at: dt.datetime, *, force: bool = False) -> WindowReport:
        """One poll through the judge's mailbox's door, as cron's (``force``: the GM's ``resolve --force``)."""
        config = self.config
        return with_mail(config, lambda: at, lambda: sync_once(config, open_match_sheets(config), now=at, force=force),
                         self.box)

    def type(self, seat: str, table: str, subject: str, column: str, value: str | int | bool) -> None:
        """``value`` typed in ``seat``'s row of ``subject`` in ``table``, as in LibreOffice."""
        sheets = looking(self.config)
        found = read_match(sheets, CLS).seats[seat]
        (row,) = [r for r in found.rows if r.table == table and r.subject == subject]
        placed = found.tab.table(table)
        backend = sheets.judge_sheet() if seat == JUDGE else sheets.of(seat)
        backend.write([RangeWrite(placed.at(placed.cell(row.row - placed.first_row, column)), [[value]])])

    def at(self, army: str) -> str:
        """Where ``army`` stands."""
        return next(a.at for a in self.state().armies if a.name == army)

    def state(self) -> CoalitionState:
        """The engine's state as the record keeps it."""
        found: CoalitionState = read_record(looking(self.config), CLS).state
        return found

    def feedback(self, seat: str, subject: str, table: str = "armies") -> str:
        """What ``seat``'s row of ``subject`` says."""
        found = read_match(looking(self.config), CLS).seats[seat]
        return next(r.feedback for r in found.rows if r.table == table and r.subject == subject)

    def receipt(self, to: str) -> str:
        """Every receipt queued for ``to``."""
        return "\n".join(letter.body for letter in Outbox.of(self.config.path).waiting() if letter.recipient == to)


#: Each walk ``walked`` made this test process: its mailbox's last uid, its mails and the uids it finished.
_WALKED: dict[tuple[str, str], tuple[int, list[Mail], list[int]]] = {}


def walked(folder: Path, walk: Callable[[Path], Table]) -> Table:
    """``walk(folder)``'s table: walked once a test process in a folder of its own (``tests.made``, its checks with
    it), then its files copied into ``folder`` and its mailbox's mails given to the copy's table."""

    key = (walk.__module__, walk.__qualname__)

    def make(into: Path) -> None:
        table = walk(into)
        _WALKED[key] = (table.uid, list(table.box.mails), list(table.box.finished))

    made_into(folder, ("one deadline walk", *key), make)
    table = Table(folder, new=False)
    table.uid, mails, finished = _WALKED[key]
    table.box.mails, table.box.finished = list(mails), list(finished)
    return table


def test_movement_and_strategies_close_together_and_are_read_for_the_right_turn(tmp_path: Path) -> None:
    """The first judge's window, walked by ``_first_turn`` (once a test process: the next test plays on from it)."""
    walked(tmp_path, _first_turn)


def _first_turn(tmp_path: Path) -> Table:
    """Turn 1's battle announced; before the players' deadline Cy mails turn 2's movement and Di types hers in the
    sheet; after it Cy mails again and Di changes her row: neither is read. The judge's results are applied only once
    she ticks Results in, and turn 2's movement is adjudicated in that same sync from what came before the deadline."""
    table = Table(tmp_path)
    table.mail("ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies", at=NOW)
    assert table.sync(NOW, force=True).resolved  # turn 1's orders: the battle at 4C is announced
    assert table.state().phase.value == "results"
    table.mail("ann@example.org", "Ann: Rabid Cat attacks Various Puppies", "Charge!", at=NOW + dt.timedelta(hours=1))
    table.mail("cy@example.org", "turn 2", "Urza's Vanguard: Dominaria; 5C > 6C", at=NOW + dt.timedelta(hours=1))
    table.mail("ann@example.org", "turn 2 too", "Rabid Cat: Dominaria; 4C > 4D", at=NOW + dt.timedelta(hours=1))
    report = table.sync(NOW + dt.timedelta(hours=1))
    assert not report.resolved, describe_report(report)
    assert "read for turn 2's movement" in table.receipt("cy@example.org")
    assert "Rabid Cat fights in the battle at Dominaria 4C this turn" in table.receipt("ann@example.org")
    table.type("phyrexia", "armies", "Blight Hound", "line", "Blight Hound: Dominaria; 7A > 7B")
    assert not table.sync(PLAYERS - dt.timedelta(minutes=5)).resolved
    # the players' deadline passes: the judge's part opens
    assert not table.sync(PLAYERS + dt.timedelta(seconds=6)).resolved
    table.mail("cy@example.org", "turn 2 again", "Urza's Vanguard: Dominaria; 5C > 5D",
               at=PLAYERS + dt.timedelta(hours=1))
    table.type("phyrexia", "armies", "Blight Hound", "line", "Blight Hound: Dominaria; 7A > 8A")
    report = table.sync(PLAYERS + dt.timedelta(hours=1))
    assert not report.resolved and table.state().phase.value == "results"
    assert "after the players' (turn 1's strategies and turn 2's movement) deadline" in table.receipt("cy@example.org")
    assert table.feedback("phyrexia", "Blight Hound").startswith("✘ Late: typed or changed after the players' deadline")
    table.type(JUDGE, "losses", "Various Puppies", "slot1", 300)
    table.type(JUDGE, "judge", JUDGE, "ready", True)
    report = table.sync(PLAYERS + dt.timedelta(hours=2))
    said = describe_report(report)
    assert report.resolved and report.reason == "the judge marked the results done", said
    assert "then turn 2 · orders resolved" in said, said
    state = table.state()
    assert state.vp["coalition"] == 5 and state.turn >= 2
    assert table.at("Urza's Vanguard") == "Dominaria 6C"  # sent before the deadline: read for turn 2
    assert table.at("Blight Hound") == "Dominaria 7B"  # typed before the deadline; the change after it not read
    assert table.at("Rabid Cat") == "Dominaria 4C"  # it fought: no movement
    archive = load_workbook(tmp_path / "orders-phyrexia.xlsx")["Archive phyrexia"]
    kept = [str(c) for r in archive.iter_rows(values_only=True) for c in r if c]
    assert any("Not read for turn 2 · orders" in c for c in kept) and any("7A > 8A" in c for c in kept), kept
    return table


def test_the_gm_forces_the_judges_window_and_the_next_turns_movement_goes_with_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Two turns on: turn 3's orders close at their deadline and announce a battle; before the players' deadline Ann
    mails turn 4's movement; ``status`` says what closes when; after it the GM runs ``resolve --force``: the results
    and turn 4's movement go together."""
    table = walked(tmp_path, _first_turn)
    state = table.state()
    assert (state.turn, state.phase.value) == (3, "orders"), state  # turn 2 had no battle: turn 3's orders are open
    third = PLAYERS + dt.timedelta(days=1)  # turn 3's orders close at the next 20:00
    table.mail("cy@example.org", "turn 3", "Urza's Vanguard: Dominaria; 6C > 7C > 7B - engage Blight Hound",
               at=third - dt.timedelta(hours=2))
    assert table.sync(third - dt.timedelta(hours=2)).state.phase.value == "orders"
    assert table.sync(third + dt.timedelta(minutes=1)).resolved and table.state().phase.value == "results"
    fourth = third + dt.timedelta(days=1)  # the players' deadline of turn 3's judge's window
    table.mail("ann@example.org", "turn 4", "Rabid Cat: Dominaria; 4C > 4D", at=fourth - dt.timedelta(hours=1))
    table.mail("cy@example.org", "Cy: Urza's Vanguard attacks Blight Hound", "Flank them.",
               at=fourth - dt.timedelta(hours=1))
    now = [fourth - dt.timedelta(minutes=30)]
    monkeypatch.setattr("sheets_gm.commands.base.clock", lambda: now[0])

    def command(*args: str) -> str:
        capsys.readouterr()
        assert main([*args, "-c", str(table.config.path)]) == 0
        return capsys.readouterr().out

    report = table.sync(now[0])
    assert not report.resolved and report.facts is not None
    told = {n.recipient: n for n in poll_notices(report.facts, seen_of(report), NoticeRules(), now[0])
            if n.kind.value == "opened"}
    assert told["coalition"].subject == "[sheets-gm match] Turn 4 · orders are open: orders for coalition"
    assert "coalition's movement for turn 4 · orders and its strategies for turn 3 · battle results are awaited, " \
           "both by the players' deadline" in told["coalition"].body
    assert "Movement and strategies close Tue 24 Nov, 20:00 (UTC)." in told["phyrexia"].body
    said = command("status")
    assert "strategies and turn 4 · orders close Tue 24 Nov, 20:00 (UTC) (in 30 min), then the judge judges" in said
    assert "(stratless so far)" in said, said
    now[0] = fourth + dt.timedelta(minutes=1)
    assert not table.sync(now[0]).resolved  # the players' deadline: the judge's part opens, nothing applied
    said = command("status")
    assert "(stratless: the players' deadline passed, the judge confirms or changes it)" in said, said
    table.mail("ann@example.org", "turn 4 again", "Rabid Cat: Dominaria; 4C > 3C", at=now[0])  # late
    assert not table.sync(now[0]).resolved and table.state().phase.value == "results"
    table.type(JUDGE, "losses", "Blight Hound", "slot1", 100)
    now[0] += dt.timedelta(hours=1)
    said = command("resolve", "--force", "--window", "3/results")
    assert "Turn 3 · battle results resolved (forced by the GM" in said and "then turn 4 · orders resolved" in said, \
        said
    assert table.at("Rabid Cat") == "Dominaria 4D"  # mailed before the players' deadline: read for turn 4
    assert table.state().vp["coalition"] == 10
