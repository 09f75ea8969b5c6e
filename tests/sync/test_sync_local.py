"""The sync through the local workbook backend: .xlsx files edited by players with openpyxl.

Players type as they would in LibreOffice or Excel: they open the file, write their order cells
and save; the sync reads only what was saved. Everything runs in ``tmp_path``.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots import Bot, ObjectiveBot, RandomBot, TeamOrders, play_match
from sheets_gm.rulesets.gvg.enums import Action
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.sheet.positions import CaptainColumns, GvgPositions
from sheets_gm.rulesets.gvg.sheet.template import default_map_text, default_template
from sheets_gm.rulesets.gvg.state import GvgState, PlayerOrder
from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
from sheets_gm.sheets.local import LocalWorkbookBackend, create_workbook
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.create import create_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.snapshot import read_snapshot

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
TEAMS = ("red", "blue")
ROLES = ("dps", "dps", "tank", "tank", "healer")
SEED = b"sync-test-seed"
TEMPLATE = default_template()
ROLE_FILES = ("board", "engine", "red", "blue")
#: Cells are compared as (value, openpyxl data type).
Cells = dict[str, dict[str, dict[str, tuple[Any, str]]]]


def roster(size: int) -> list[RosterEntry]:
    return [RosterEntry(f"{team}{i}", team, ROLES[i % len(ROLES)]) for team in TEAMS for i in range(size)]


def bots() -> list[Bot]:
    return [ObjectiveBot(1), RandomBot(2)]


def blank_workbook(path: Path) -> LocalWorkbookBackend:
    """A new, empty .xlsx file (its empty default tab is dropped when the match is laid out)."""
    openpyxl.Workbook().save(path)
    return LocalWorkbookBackend(path)


def engine_workbook(path: Path) -> LocalWorkbookBackend:
    """A file for the engine alone: the engine tab is hidden, and a workbook needs a visible tab."""
    about = TabLayout("About", rows=2, cols=1, values={"A1": [["The engine of a sheets-gm match: do not edit."]]})
    return create_workbook(path, WorkbookLayout("sheets-gm engine", (about,)))


def open_sheets(folder: Path, layout: str) -> MatchSheets:
    """The backends of a match whose files are in ``folder`` (already created)."""
    if layout == "single":
        return MatchSheets.single(TEAMS, LocalWorkbookBackend(folder / "match.xlsx"))
    board, engine, red, blue = (LocalWorkbookBackend(folder / f"{role}.xlsx") for role in ROLE_FILES)
    return MatchSheets(TEAMS, board, engine, (red, blue))


def new_match_files(folder: Path, layout: str, size: int = 5, match_settings: GvgSettings | None = None) -> MatchSheets:
    folder.mkdir(parents=True, exist_ok=True)
    if layout == "single":
        blank_workbook(folder / "match.xlsx")
    else:
        for role in ROLE_FILES:
            (engine_workbook if role == "engine" else blank_workbook)(folder / f"{role}.xlsx")
    sheets = open_sheets(folder, layout)
    create_match(sheets, roster(size), settings=match_settings or GvgSettings(), map_text=default_map_text(),
                 seed=SEED)
    return sheets


def team_file(sheets: MatchSheets, team: int) -> Path:
    backend = sheets.orders[team]
    assert isinstance(backend, LocalWorkbookBackend)
    return backend.path


def as_typed(order: PlayerOrder) -> list[Any]:
    """What a person types for ``order``: sloppy case and spacing, words rather than keys."""
    dest = order.move.label if order.move else None
    words = {Action.ACT: "Attack", Action.BUFF: "buff", Action.REVIVE: "Revive", Action.PICKUP: "pick up"}
    return [f" {dest[0].lower()} {dest[1:]}" if dest else None, words[order.action],
            order.teleport.label.lower() if order.teleport else None]


def type_in_files(sheets: MatchSheets, players: Sequence[Bot]) -> list[TeamOrders]:
    """Each team decides (with its bot) and types its orders into its own .xlsx with openpyxl, then saves."""
    snap = read_snapshot(sheets, TEMPLATE)
    record = snap.record
    rules = record.rules()
    dice = TurnDice(record.seed, record.state.turn)
    cols = snap.positions.captain
    decided = [players[i].orders(rules, record.state, i, dice) for i in range(2)]
    books: dict[Path, Any] = {}
    for i, team in enumerate(snap.positions.teams):
        path = team_file(sheets, i)
        wb = books.setdefault(path, openpyxl.load_workbook(path))
        ws = wb[team.orders_tab]
        for index, name in enumerate(team.players):
            order = decided[i].players.get(name)
            if order is not None:
                row = team.player_row(index)
                for letter, value in zip("DEF", as_typed(order), strict=True):
                    ws[f"{letter}{row}"] = value
        for col, skill in zip(cols.skills, decided[i].skills, strict=False):
            ws.cell(row=team.captain_row, column=col + 1, value=skill.value)
        ws.cell(row=team.captain_row, column=cols.ready + 1, value=True)
    for path, wb in books.items():
        wb.save(path)
    return decided


def workbook_cells(path: Path) -> dict[str, dict[str, tuple[Any, str]]]:
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return {ws.title: {c.coordinate: (c.value, c.data_type) for row in ws.iter_rows() for c in row
                           if c.value is not None} for ws in wb.worksheets}
    finally:
        wb.close()


def all_cells(folder: Path) -> Cells:
    return {p.name: workbook_cells(p) for p in sorted(folder.glob("*.xlsx"))}


def engine_state(sheets: MatchSheets) -> GvgState:
    return read_snapshot(sheets, TEMPLATE).record.state


def direct_match(size: int, match_settings: GvgSettings) -> tuple[GvgState, int]:
    board = GvgMap.from_text(default_map_text())
    rules = GvgRules(board, match_settings)
    result = play_match(rules, new_match(board, TEAMS, roster(size), match_settings), bots(), SEED)
    return result.state, result.turns


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("layout", ["single", "per-role"], ids=["one-workbook", "a-file-per-role"])
def test_a_whole_match_in_workbooks_edited_by_players_equals_the_engine(tmp_path: Path, layout: str) -> None:
    """A 5v5 match to its end (12 turns, then the turn-limit rule), every other turn typed by
    the players into the saved files, the others by the bots through the backend."""
    match_settings = GvgSettings(max_turns=12)
    sheets = new_match_files(tmp_path, layout, 5, match_settings)
    if layout == "per-role":
        assert sorted(p.name for p in tmp_path.glob("*.xlsx")) == sorted(f"{r}.xlsx" for r in ROLE_FILES)
        assert openpyxl.load_workbook(tmp_path / "engine.xlsx")[TEMPLATE.tabs.engine].sheet_state == "hidden"
        for i, team in enumerate(TEAMS):  # a team's file holds its own orders, not the other team's
            names = openpyxl.load_workbook(team_file(sheets, i)).sheetnames
            assert names[:2] == [f"Orders {team}", f"Archive {team}"] and not any(TEAMS[1 - i] in n for n in names)
    players = bots()
    turns = 0
    while True:
        if turns % 2 == 0:
            type_in_files(sheets, players)
        else:
            type_bot_orders(sheets, players)
        report = poll(sheets, now=NOW)
        assert report.resolved and report.turn == turns + 1, report
        turns += 1
        if report.finished:
            break
    state, direct_turns = direct_match(5, match_settings)
    assert engine_state(sheets).to_json() == state.to_json()
    assert turns == direct_turns == 12 and state.finished
    assert leftovers(tmp_path) == []
    formulas = [(book, tab, ref) for book, tabs in all_cells(tmp_path).items() for tab, found in tabs.items()
                for ref, (_value, kind) in found.items() if kind == "f"]
    assert formulas == []


# --------------------------------------------------------------------------- a crash while saving

TURNS_BEFORE = 2


class Crash(BaseException):
    """The process dying in the middle of a save (nothing catches it)."""


@pytest.fixture(scope="module")
def before_and_after(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Cells]]:
    """Per layout: a folder just before a resolution (orders saved, captains ready), and the
    cells after the fault-free resolution."""
    out = {}
    for layout in ("single", "per-role"):
        folder = tmp_path_factory.mktemp(f"before-{layout}")
        sheets = new_match_files(folder, layout, 2)
        players = bots()
        for _ in range(TURNS_BEFORE):
            type_in_files(sheets, players)
            assert poll(sheets, now=NOW).resolved
        type_in_files(sheets, players)
        reference = tmp_path_factory.mktemp(f"after-{layout}")
        shutil.copytree(folder, reference, dirs_exist_ok=True)
        assert poll(open_sheets(reference, layout), now=NOW).resolved
        out[layout] = (folder, all_cells(reference))
    return out


SAVES = [("single", 1, OSError), ("single", 1, Crash)] + [("per-role", k, OSError) for k in (1, 2, 3, 4)] + [
    ("per-role", 3, Crash)
]


@pytest.mark.parametrize(("layout", "failing_save", "error"), SAVES,
                         ids=[f"{lay}-save{k}-{e.__name__}" for lay, k, e in SAVES])
def test_a_crash_during_a_save_leaves_the_workbook_intact_and_the_next_poll_completes_the_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before_and_after: dict[str, tuple[Path, Cells]],
    layout: str, failing_save: int, error: type[BaseException],
) -> None:
    before, after = before_and_after[layout]
    shutil.copytree(before, tmp_path, dirs_exist_ok=True)
    sheets = open_sheets(tmp_path, layout)
    order = [b for b in sheets.write_order() if isinstance(b, LocalWorkbookBackend)]
    failing = order[failing_save - 1].path
    original = failing.read_bytes()
    real_replace = os.replace
    saves: list[str] = []

    def replace(src: Any, dst: Any) -> None:
        saves.append(Path(dst).name)
        if len(saves) == failing_save:
            raise error("No space left on device") if error is OSError else error()
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    expected_error: type[BaseException] = SheetAccessError if error is OSError else error
    with pytest.raises(expected_error):
        poll(sheets, now=NOW)
    monkeypatch.setattr(os, "replace", real_replace)
    assert saves[-1] == failing.name and len(saves) == failing_save  # nothing saved after the failure
    assert failing.read_bytes() == original, "the workbook whose save failed was changed"
    openpyxl.load_workbook(failing)  # and it still opens
    assert leftovers(tmp_path) == []
    assert engine_state(sheets).turn == TURNS_BEFORE + 1

    report = poll(sheets, now=NOW)
    assert report.resolved and report.turn == TURNS_BEFORE + 1
    assert all_cells(tmp_path) == after
    again = poll(sheets, now=NOW)
    assert not again.resolved and again.turn == TURNS_BEFORE + 2
    assert all_cells(tmp_path) == after


# --------------------------------------------------------------------------- fuzz


@pytest.fixture(scope="module")
def fuzz_base(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A fresh 2v2 match in one workbook, as bytes (each example starts from a copy)."""
    folder = tmp_path_factory.mktemp("fuzz-base")
    new_match_files(folder, "single", 2)
    return (folder / "match.xlsx").read_bytes()


def player_cells() -> list[tuple[str, str]]:
    """(tab, cell) of every cell a red player or captain may type into, in a 2v2 match."""
    pos = GvgPositions.build(TEMPLATE, TEAMS, (("red0", "red1"), ("blue0", "blue1")), 0, 0)
    team = pos.teams[0]
    cols = CaptainColumns.from_header(TEMPLATE.headers.captain)
    cells = [(team.orders_tab, f"{c}{team.player_row(i)}") for i in range(2) for c in "DEF"]
    cells += [(team.orders_tab, cols.label(c, team.captain_row)) for c in (*cols.skills, cols.ready)]
    return cells


def feedback_cells() -> list[tuple[str, str]]:
    pos = GvgPositions.build(TEMPLATE, TEAMS, (("red0", "red1"), ("blue0", "blue1")), 0, 0)
    team = pos.teams[0]
    cols = CaptainColumns.from_header(TEMPLATE.headers.captain)
    return [(team.orders_tab, team.feedback_cell(team.player_row(i))) for i in range(2)] + [
        (team.orders_tab, cols.label(cols.feedback, team.captain_row))
    ]


_printable = st.characters(blacklist_categories=("Cs", "Cc"))  # what a cell in an .xlsx can hold
typed_values: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**15), 10**15),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    st.dates(min_value=dt.date(1900, 3, 1), max_value=dt.date(9999, 12, 31)),
    st.datetimes(min_value=dt.datetime(1900, 3, 1), max_value=dt.datetime(9999, 12, 31)),
    st.times(),
    st.text(_printable, max_size=40),
    st.sampled_from([
        "=1+1", '=HYPERLINK("http://evil.example","click")', "=TRUE()", "=FALSE()", "=A1", "=NOW()",
        "+A1", "@SUM(1)", "-2+3", " f 7 ", "G 4", "F7", "buff", "Revive", "pick up", "Bulwark Damage",
        "ballista", "TRUE", "yes", "🍁🐠", "👹" * 30, "2026-11-22", "x" * 50_000, "🐠" * 50_000,
        "F7" + " " * 49_998, "=" + "1+" * 24_999 + "1",
    ]),
    st.text(_printable, min_size=1, max_size=3).map(lambda t: (t * 50_000)[:50_000]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(typed_values, min_size=len(player_cells()), max_size=len(player_cells())))
def test_anything_saved_in_player_cells_gets_text_feedback_and_nothing_written_is_a_formula(
    fuzz_base: bytes, values: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.xlsx"
        path.write_bytes(fuzz_base)
        cells = player_cells()
        wb = openpyxl.load_workbook(path)
        for (tab, ref), value in zip(cells, values, strict=True):
            wb[tab][ref] = value
        wb.save(path)
        typed = {(tab, ref): (v, t) for tab, found in workbook_cells(path).items() for ref, (v, t) in found.items()
                 if (tab, ref) in cells}
        sheets = MatchSheets.single(TEAMS, LocalWorkbookBackend(path))

        report = poll(sheets, now=NOW)
        assert report.turn == 1 and not report.resolved
        after_idle = workbook_cells(path)
        check_feedback(after_idle)
        check_no_formula_written(after_idle, allowed=typed)
        for (tab, ref), kept in typed.items():  # a player's cell is never rewritten before resolution
            assert after_idle[tab].get(ref) == kept, (tab, ref)

        forced = poll(sheets, now=NOW, force=True)
        assert forced.resolved and forced.turn == 1
        after = workbook_cells(path)
        check_feedback(after)
        check_no_formula_written(after, allowed={})
        assert after[TEMPLATE.tabs.engine]["B3"] == (2, "n")  # the turn counter moved on
        assert leftovers(Path(tmp)) == []


def check_feedback(found: dict[str, dict[str, tuple[Any, str]]]) -> None:
    for tab, ref in feedback_cells():
        value, kind = found[tab].get(ref, (None, "n"))
        assert isinstance(value, str) and value.strip() and kind == "s", (tab, ref, value, kind)


def check_no_formula_written(found: dict[str, dict[str, tuple[Any, str]]],
                             allowed: dict[tuple[str, str], tuple[Any, str]]) -> None:
    """A formula may only be a player's own, untouched, in the cell they typed it in."""
    for tab, tab_cells in found.items():
        for ref, (value, kind) in tab_cells.items():
            if kind == "f":
                assert allowed.get((tab, ref)) == (value, kind), f"the sync wrote a formula in {tab}!{ref}: {value!r}"


def test_a_local_sync_does_not_import_the_google_stack_or_numpy(tmp_path: Path) -> None:
    """cron starts a sync every few minutes: a local match must not pay for Google's client or numpy."""
    import json
    import subprocess
    import sys

    from tests.matchfiles import local_match

    config, _ = local_match(tmp_path)
    probe = ("import json, sys\nfrom sheets_gm.cli import main\n"
             "code = main(['sync', '-c', sys.argv[1], '--quiet'])\n"
             "print(json.dumps([code, sorted(m for m in ('gspread', 'google.auth', 'requests', 'tenacity', 'numpy')"
             " if m in sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", probe, str(config)], capture_output=True, text=True, timeout=120,
                          check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [0, []]


def test_a_workbook_changed_on_disk_is_read_again_not_served_from_memory(tmp_path: Path) -> None:
    """The backend keeps the workbook it saved; a save by another program must still be seen."""
    import openpyxl

    from sheets_gm.sheets.backend import RangeWrite
    from sheets_gm.sheets.local import LocalWorkbookBackend

    path = tmp_path / "book.xlsx"
    openpyxl.Workbook().save(path)
    backend = LocalWorkbookBackend(path)
    backend.write([RangeWrite("Sheet!A1", [["ours"]])])
    assert backend.read(["Sheet!A1"]) == [[["ours"]]]
    other = openpyxl.load_workbook(path)
    other["Sheet"]["A2"] = "theirs"
    other.save(path)
    backend.write([RangeWrite("Sheet!B1", [["again"]])])
    assert backend.read(["Sheet!A1:B2"]) == [[["ours", "again"], ["theirs"]]]
