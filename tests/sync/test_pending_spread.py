"""A resolution's record holds whatever the tabs can hold (issue 89): the rows a side typed, read by a resolution,
that pack to more than a cell holds run down the side's pending row, and the engine's history row packs past the cells
it has; the turn resolves, its record reads back whole, ``verify`` replays it, and a resolution cut before its
commit is completed from those rows. The cell is made small here (``CELL_CHUNK``) so that a few armies' varied
Forum lines do what a 576-army war's mail did; ``test_mail_war.py`` plays the war itself under ``-m soak``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.engine.ruleset import JUDGE, Member, Roster
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import create_workbook
from sheets_gm.sheets.retry import RetryPolicy
from sheets_gm.sync import match_record
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.replay import match_history, replay_document, replay_states
from sheets_gm.sync.match_record import joined_cells
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.rows.pending_row import pending_block_range
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.google_api import GoogleApiFake, fake_client
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.matchfiles import NOW
from tests.rulesets.coalition.helpers import MAIL_ARMIES, ROSTER_COLUMNS, local_match

CLS = get_ruleset("coalition")
SEATS = ("coalition", "phyrexia")
SMALL_CELL = 400  # characters a cell keeps here: the rows read pack to several


def _roster() -> Roster:
    members = tuple(Member(f"{side.title()} army {n:02d}", side,
                           {"rank": "3", "at": f"Dominaria {2 * n + (2 if side == 'phyrexia' else 1)}A",
                            "units": "5000/2500/1500/1000",
                            **({"factions": "white blue", "primary": "white"} if side == "coalition" else {})})
                    for side in SEATS for n in range(6))
    return Roster(SEATS, members)


@pytest.fixture
def google() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as fake:
        yield fake


def _sheets(kind: str, tmp_path: Path, fake: GoogleApiFake) -> MatchSheets:
    if kind == "local":
        backend = create_workbook(tmp_path / "war.xlsx", WorkbookLayout("war", (TabLayout("Turn report", 2, 2),)))
        return MatchSheets.single(SEATS, backend)
    if kind == "memory":
        return MatchSheets(SEATS, MemoryBackend("board"), MemoryBackend("engine"),
                           (MemoryBackend("coalition"), MemoryBackend("phyrexia")), MemoryBackend(JUDGE))
    client, retry = fake_client(), RetryPolicy(deadline=5, sleep=lambda _s: None)
    made = {}
    for role in ("board", "engine", *SEATS, JUDGE):
        key = f"1{role.capitalize()}Spread_" + "x" * 20
        fake.create_spreadsheet(key, role, ("Sheet1",))
        made[role] = GoogleSheetBackend(client, key, retry=retry, title=role)
    return MatchSheets(SEATS, made["board"], made["engine"], (made["coalition"], made["phyrexia"]), made[JUDGE])


def _forum_typed(sheets: MatchSheets) -> None:
    """Every row of the Coalition's Forum tab typed with a line a player might write: greetings, orders, chatter,
    each worded differently (varied rows pack worse than tidy ones)."""
    words = random.Random(89)
    tab = read_match(sheets, CLS).seats["coalition"].tab
    table = tab.table("post")
    lines = []
    for n in range(table.rows):
        chatter = " ".join(words.choice(("onward", "hold", "the", "flank", "río", "Ça", "dawn", "🐉", "quick"))
                           for _ in range(words.randint(3, 12)))
        lines.append(f"Coalition army {n % 6:02d}: Dominaria; {2 * (n % 6) + 1}A > {2 * (n % 6) + 1}B {chatter}"
                     if n % 3 == 0 else f"{chatter} #{words.getrandbits(40):x}")
    cells = f"{table.cell(0, 'line')}:{table.cell(len(lines) - 1, 'line')}"
    sheets.of("coalition").write([RangeWrite(table.at(cells), [[line] for line in lines])])


@pytest.mark.parametrize("kind", ["local", "google"])
def test_rows_read_that_pack_past_a_cell_run_down_the_pending_row_and_the_turn_resolves(
        kind: str, tmp_path: Path, google: GoogleApiFake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_record, "CELL_CHUNK", SMALL_CELL)
    sheets = _sheets(kind, tmp_path, google)
    create_match(sheets, create_ruleset("coalition"), _roster(), seed=b"spread")
    _forum_typed(sheets)
    assert poll(sheets, CLS, now=NOW, force=True).resolved  # was: ValueTooLongError, "one cell keeps at most"
    read = read_match(sheets, CLS)
    (block,) = sheets.of("coalition").read([pending_block_range(read.tabs.copies("coalition"))])
    head = str(block[0][1])
    assert head.startswith("⧉") and int(head[1:head.index("⧉", 1)]) >= 3 and str(block[1][1])  # runs down C
    entries = match_history(sheets, read.record, read.tabs.spec.tabs.engine)
    archived = entries[0]["archived"]["coalition"]
    assert read.seats["coalition"].pending_cells[1] == archived  # the pending row reads back as the history keeps it
    rows = json.loads(joined_cells([archived], 0))["rows"]
    assert len(rows) == read.tabs.orders("coalition").table("post").rows  # every line read, none lost
    found = replay_states(replay_document(read.record, entries))  # what verify replays
    assert found.resolutions == 1 and found.difference is None
    if kind == "google":
        assert not google.violations


def test_a_resolution_cut_after_the_long_pending_row_is_completed_from_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, google: GoogleApiFake) -> None:
    """No journal (a demo's match): the cut resolution is completed from the pending row it wrote, read back whole
    from the cells it runs down; the match ends as the uncut one."""
    monkeypatch.setattr(match_record, "CELL_CHUNK", SMALL_CELL)
    whole, cut = (_sheets("memory", tmp_path, google) for _ in range(2))
    for sheets in (whole, cut):
        create_match(sheets, create_ruleset("coalition"), _roster(), seed=b"spread")
        _forum_typed(sheets)
    assert poll(whole, CLS, now=NOW, force=True).resolved
    engine = cut.engine
    assert isinstance(engine, MemoryBackend)
    engine.calls.clear()
    engine.fail_on_call = 2  # its read, then the commit: every seat's file is written, the engine is not
    with pytest.raises(InjectedFault):
        poll(cut, CLS, now=NOW, force=True)
    engine.fail_on_call = None
    assert read_match(cut, CLS).seats["coalition"].pending is not None  # the cut resolution, under way
    assert poll(cut, CLS, now=NOW).resolved
    assert read_match(cut, CLS).record.state == read_match(whole, CLS).record.state


def test_a_record_longer_than_the_engine_keeps_is_said_in_words_and_nothing_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``resolve --force`` of a turn whose record outgrows every cell the engine has (forced here by a tiny cell):
    one message naming the limit and what to do, exit code 1 (a problem the GM can fix), no traceback, and the
    match as it was."""
    config, sheets = local_match(tmp_path, MAIL_ARMIES, b"too long", NOW, (*ROSTER_COLUMNS, "player", "email"))
    _forum_typed(sheets)
    before = read_match(sheets, CLS)
    monkeypatch.setattr(match_record, "CELL_CHUNK", 40)
    monkeypatch.setattr(match_record, "VALUE_CELLS", 2)
    code = main(["resolve", "-c", str(config.path), "--force", "--window", before.record.window_key()])
    said = capsys.readouterr().err
    assert code == 1 and said.startswith("sheets-gm: ") and "Traceback" not in said, said
    assert "characters long" in said and "nothing was written" in said and "run the command again" in said, said
    monkeypatch.undo()
    after = read_match(sheets, CLS)
    assert after.record.resolved == 0 and after.seats["coalition"].rows == before.seats["coalition"].rows
