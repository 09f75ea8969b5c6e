"""GvG matches in local .xlsx workbooks on the one sync, typed into as players would with a spreadsheet program:
a whole match equals the engine's, a crash while saving leaves every workbook whole and the next poll completes
the turn, anything saved in a player's cells gets text feedback and no formula is ever written.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.gvg.enums import Action
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset, sheet_spec
from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend, create_workbook
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.matchfiles import SEED, TEAMS, bots, engine_match, order_cell, roster, state_of, sync
from tests.quick import soak_but

GVG = get_ruleset("gvg")
SPEC = sheet_spec("gvg")
ROLE_FILES = ("board", "engine", "red", "blue")
SKILLS = tuple(f"skill{i}" for i in range(1, 8))
#: Cells are compared as (value, openpyxl data type).
Cells = dict[str, dict[str, dict[str, tuple[Any, str]]]]


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
    return MatchSheets(TEAMS, board, engine, (red, blue), None)


def new_match_files(folder: Path, layout: str, size: int = 5, match_settings: GvgSettings | None = None) -> MatchSheets:
    folder.mkdir(parents=True, exist_ok=True)
    if layout == "single":
        blank_workbook(folder / "match.xlsx")
    else:
        for role in ROLE_FILES:
            (engine_workbook if role == "engine" else blank_workbook)(folder / f"{role}.xlsx")
    sheets = open_sheets(folder, layout)
    create_match(sheets, create_ruleset("gvg", match_settings or GvgSettings()), roster(size), seed=SEED)
    return sheets


def team_file(sheets: MatchSheets, team: int) -> Path:
    backend = sheets.orders[team]
    assert isinstance(backend, LocalWorkbookBackend)
    return backend.path


def as_typed(order: PlayerOrder) -> dict[str, Any]:
    """What a person types for ``order``: sloppy case and spacing, words rather than keys."""
    dest = order.move.label if order.move else None
    words = {Action.ACT: "Attack", Action.BUFF: "buff", Action.REVIVE: "Revive", Action.PICKUP: "pick up"}
    return {"destination": f" {dest[0].lower()} {dest[1:]}" if dest else None, "action": words[order.action],
            "teleport": order.teleport.label.lower() if order.teleport else None}


def type_in_files(sheets: MatchSheets, players: Mapping[str, Any]) -> dict[str, TurnOrders]:
    """Each team decides (with its bot) and types its orders into its own .xlsx with openpyxl, then saves."""
    read = read_match(sheets, GVG)
    rules = read.record.ruleset
    state = read.record.state
    dice = rules.dice(read.record.seed, state)
    decided = {team: players[team].orders(state, team, dice) for team in TEAMS}
    books: dict[Path, Any] = {}
    for i, team in enumerate(TEAMS):
        path = team_file(sheets, i)
        if path not in books:  # one workbook for both teams in the single layout: loaded once
            books[path] = openpyxl.load_workbook(path)
        wb = books[path]
        ws = wb[read.tabs.orders(team).name]
        for name, order in decided[team].players.items():
            for key, value in as_typed(order).items():
                ws[order_cell(read, team, "players", name, key)] = value
        for key, skill in zip(SKILLS, decided[team].skills[i], strict=False):
            ws[order_cell(read, team, "captain", team, key)] = skill.display
        ws[order_cell(read, team, "captain", team, "ready")] = True
    for path, wb in books.items():
        wb.save(path)
    return decided


def workbook_cells(path: Path, only: str | None = None) -> dict[str, dict[str, tuple[Any, str]]]:
    """Every cell holding a value, (value, data type) by tab and coordinate; ``only``: that tab's alone (a read-only
    workbook parses only the tabs walked)."""
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return {ws.title: {c.coordinate: (c.value, c.data_type) for row in ws.iter_rows() for c in row
                           if c.value is not None} for ws in wb.worksheets if only in (None, ws.title)}
    finally:
        wb.close()


def all_cells(folder: Path) -> Cells:
    return {p.name: workbook_cells(p) for p in sorted(folder.glob("*.xlsx"))}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --------------------------------------------------------------------------- whole matches


TURN_LIMIT = 4


@pytest.mark.parametrize("layout", ["single", "per-role"], ids=["one-workbook", "a-file-per-role"])
def test_a_whole_match_in_workbooks_edited_by_players_equals_the_engine(tmp_path: Path, layout: str) -> None:
    """A 5v5 match to its end (4 turns, then the turn-limit rule), every other turn typed by
    the players into the saved files, the others by the bots through the backend (each path twice: more turns walk
    the same path again)."""
    match_settings = GvgSettings(max_turns=TURN_LIMIT)
    sheets = new_match_files(tmp_path, layout, 5, match_settings)
    if layout == "per-role":
        assert sorted(p.name for p in tmp_path.glob("*.xlsx")) == sorted(f"{r}.xlsx" for r in ROLE_FILES)
        assert openpyxl.load_workbook(tmp_path / "engine.xlsx")[SPEC.tabs.engine].sheet_state == "hidden"
        for i, team in enumerate(TEAMS):  # a team's file holds its own orders, not the other team's
            names = openpyxl.load_workbook(team_file(sheets, i)).sheetnames
            assert names[:3] == [f"Orders {team}", f"Archive {team}", f"View {team}"]
            assert not any(TEAMS[1 - i] in n for n in names)
    players = bots()
    turns = 0
    while True:
        if turns % 2 == 0:
            type_in_files(sheets, players)
        else:
            type_bot_orders(sheets, GVG, players)
        report = sync(sheets)
        assert report.resolved and report.window_key == str(turns + 1), report
        turns += 1
        if report.finished:
            break
    state, direct_turns = engine_match(5, match_settings)
    assert state_of(sheets).to_json() == state.to_json()  # typed by people or by the bots: the same match
    assert turns == direct_turns == TURN_LIMIT and state.finished
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
            assert sync(sheets).resolved
        type_in_files(sheets, players)
        reference = tmp_path_factory.mktemp(f"after-{layout}")
        shutil.copytree(folder, reference, dirs_exist_ok=True)
        assert sync(open_sheets(reference, layout)).resolved
        out[layout] = (folder, all_cells(reference))
    return out


SAVES = [("single", 1, OSError), ("single", 1, Crash)] + [("per-role", k, OSError) for k in (1, 2, 3, 4)] + [
    ("per-role", 3, Crash)
]
#: The quick run's cuts: each kind once (the first save of four, the last, one between), each error once a layout;
#: the other saves between under ``-m soak``.
QUICK_SAVES = [save for save in SAVES if save[:2] != ("per-role", 2) and save != ("per-role", 3, OSError)]


@pytest.mark.xdist_group("before-and-after")  # one worker builds the before_and_after folders, not each
@pytest.mark.parametrize(("layout", "failing_save", "error"), soak_but(SAVES, *QUICK_SAVES),
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
        sync(sheets)
    monkeypatch.setattr(os, "replace", real_replace)
    assert saves[-1] == failing.name and len(saves) == failing_save  # nothing saved after the failure
    assert failing.read_bytes() == original, "the workbook whose save failed was changed"
    openpyxl.load_workbook(failing)  # and it still opens
    assert leftovers(tmp_path) == []
    assert state_of(sheets).turn == TURNS_BEFORE + 1

    report = sync(sheets)
    assert report.resolved and report.window_key == str(TURNS_BEFORE + 1)
    assert all_cells(tmp_path) == after
    again = sync(sheets)
    assert not again.resolved and again.window_key == str(TURNS_BEFORE + 2)
    assert all_cells(tmp_path) == after


# --------------------------------------------------------------------------- fuzz


@pytest.fixture(scope="module")
def fuzz_base(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A fresh 2v2 match in one workbook, as bytes (each example starts from a copy)."""
    folder = tmp_path_factory.mktemp("fuzz-base")
    new_match_files(folder, "single", 2)
    return (folder / "match.xlsx").read_bytes()


def _placed(fuzz_base: bytes) -> MatchRead:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.xlsx"
        path.write_bytes(fuzz_base)
        return read_match(MatchSheets.single(TEAMS, LocalWorkbookBackend(path)), GVG)


def player_cells(read: MatchRead) -> list[tuple[str, str]]:
    """(tab, cell) of every cell a red player or captain may type into, in a 2v2 match."""
    tab = read.tabs.orders("red").name
    cells = [(tab, order_cell(read, "red", "players", name, key)) for name in ("red0", "red1")
             for key in ("destination", "action", "teleport")]
    return cells + [(tab, order_cell(read, "red", "captain", "red", key)) for key in (*SKILLS, "ready")]


def feedback_cells(read: MatchRead) -> list[tuple[str, str]]:
    tab = read.tabs.orders("red").name
    return [(tab, order_cell(read, "red", "players", name, "feedback")) for name in ("red0", "red1")] + [
        (tab, order_cell(read, "red", "captain", "red", "feedback"))]


PLAYER_CELLS = 2 * 3 + len(SKILLS) + 1


# What a cell in an .xlsx can hold (not U+FFFE and U+FFFF either, which openpyxl writes unchecked: the test's own
# typing would make a file that no office program saves and no reader opens).
_printable = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
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


#: Values every quick run types, whatever the draw: each formula spelling, the longest texts, and each kind of value
#: a cell can hold (the random draws add more; the long walk under ``-m soak``).
SAVED_EXAMPLES = [
    ["=1+1", '=HYPERLINK("http://evil.example","click")', "=TRUE()", "=FALSE()", "=A1", "=NOW()", "+A1",
     "@SUM(1)", "-2+3", "x" * 50_000, "🐠" * 50_000, "F7" + " " * 49_998, "=" + "1+" * 24_999 + "1", "=1+1"],
    [None, True, False, -(10**15), 10**15, 1.5e300, dt.date(1900, 3, 1), dt.datetime(9999, 12, 31),
     dt.time(23, 59), "", " f 7 ", "👹" * 30, "TRUE", "2026-11-22"],
]


@pytest.fixture(scope="module")
def fuzz_placed(fuzz_base: bytes) -> MatchRead:
    """The fuzz match as read once (where each cell is: the same in every example's copy)."""
    return _placed(fuzz_base)


def check_saved_values(fuzz_base: bytes, read: MatchRead, values: list[Any]) -> None:
    """``values`` saved into red's player cells of a copy of the fuzz match: text feedback in each feedback cell,
    no formula written, the typed cells untouched until the forced resolution, which moves the engine on."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.xlsx"
        path.write_bytes(fuzz_base)
        cells = player_cells(read)
        wb = openpyxl.load_workbook(path)
        for (tab, ref), value in zip(cells, values, strict=True):
            wb[tab][ref] = value
        wb.save(path)
        typed = {(tab, ref): (v, t) for tab, found in workbook_cells(path, only=read.tabs.orders("red").name).items()
                 for ref, (v, t) in found.items() if (tab, ref) in cells}
        sheets = MatchSheets.single(TEAMS, LocalWorkbookBackend(path))

        report = sync(sheets)
        assert report.window_key == "1" and not report.resolved  # blue is not ready
        after_idle = workbook_cells(path)
        check_feedback(after_idle, feedback_cells(read))
        check_no_formula_written(after_idle, allowed=typed)
        for (tab, ref), kept in typed.items():  # a player's cell is never rewritten before resolution
            assert after_idle[tab].get(ref) == kept, (tab, ref)

        forced = sync(sheets, force=True)
        assert forced.resolved and forced.window_key == "1"
        after = workbook_cells(path)
        check_feedback(after, feedback_cells(read))
        check_no_formula_written(after, allowed={})
        assert read_match(sheets, GVG).record.resolved == 1  # the engine moved on
        assert leftovers(Path(tmp)) == []


@pytest.mark.parametrize("values", SAVED_EXAMPLES, ids=["formulas-and-longest-texts", "every-kind"])
def test_anything_saved_in_player_cells_gets_text_feedback_and_nothing_written_is_a_formula(
    fuzz_base: bytes, fuzz_placed: MatchRead, values: list[Any]
) -> None:
    """The values every run types, then a few random draws (the long walk: the ``-m soak`` test below)."""
    assert len(values) == PLAYER_CELLS
    check_saved_values(fuzz_base, fuzz_placed, values)


def test_a_formula_longer_than_a_cell_holds_is_written_back_as_text(fuzz_base: bytes, fuzz_placed: MatchRead) -> None:
    """A player's formula past a cell's 32,767 UTF-16 units (here of characters past the Basic Multilingual Plane,
    each two units) is not kept as a formula because its cut text differs from it: after the resolution it is text
    (found by the random walk below; it fails with ``cells.store`` keeping a long formula as typed)."""
    values: list[Any] = [None] * PLAYER_CELLS
    values[5] = ("=\U00010000" * 25_000)[:50_000]
    check_saved_values(fuzz_base, fuzz_placed, values)


#: The quick run's draws: two, beside the two named examples above that type every kind each run; the walk of 60 under
#: ``-m soak``.
@pytest.mark.parametrize("examples", [pytest.param(2, id="quick"),
                                      pytest.param(60, marks=pytest.mark.soak, id="long-walk")])
def test_anything_drawn_saved_in_player_cells_gets_text_feedback_and_nothing_written_is_a_formula(
    fuzz_base: bytes, fuzz_placed: MatchRead, examples: int
) -> None:
    """Random draws of every kind of value: a few in every run, the long walk under ``-m soak``."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(typed_values, min_size=PLAYER_CELLS, max_size=PLAYER_CELLS))
    def walk(values: list[Any]) -> None:
        check_saved_values(fuzz_base, fuzz_placed, values)

    walk()


def check_feedback(found: dict[str, dict[str, tuple[Any, str]]], where: list[tuple[str, str]]) -> None:
    for tab, ref in where:
        value, kind = found[tab].get(ref, (None, "n"))
        assert isinstance(value, str) and value.strip() and kind == "s", (tab, ref, value, kind)


def check_no_formula_written(found: dict[str, dict[str, tuple[Any, str]]],
                             allowed: dict[tuple[str, str], tuple[Any, str]]) -> None:
    """A formula may only be a player's own, untouched, in the cell they typed it in."""
    for tab, tab_cells in found.items():
        for ref, (value, kind) in tab_cells.items():
            if kind == "f":
                assert allowed.get((tab, ref)) == (value, kind), f"the sync wrote a formula in {tab}!{ref}: {value!r}"


#: What cron's poll of a local match never needs: Google's client and numpy, whatever the poll does.
NEVER_LOCAL = ("gspread", "google.auth", "google.oauth2", "requests", "tenacity", "numpy")
#: What an idle poll never needs besides: the workbooks, the game, the config, the parsing of its command line,
#: and the standard library's heavier modules (``dataclasses`` brings ``inspect``, ``ast``, ``dis``, ``tokenize``).
NEVER_IDLE = (*NEVER_LOCAL, "openpyxl", "tomllib", "sheets_gm.rulesets", "sheets_gm.config", "sheets_gm.sheets.local",
              "sheets_gm.notify.outbox", "sheets_gm.commands.polls", "argparse", "typing", "dataclasses", "inspect",
              "ast", "dis", "tokenize", "shlex", "shutil", "bz2", "lzma", "locale", "gettext", "hashlib", "secrets",
              "random", "hmac", "base64", "uuid", "subprocess", "threading",
              # nor the engine and its models (a plain record, engine.plain, is light), the poll that reads, nor the
              # sending of notices
              "pydantic", "sheets_gm.engine.ruleset", "sheets_gm.engine.codecs", "sheets_gm.sync.poll",
              "sheets_gm.sync.read", "sheets_gm.notify.send", "sheets_gm.notify.mail")

#: Runs ``sheets-gm sync -c CONFIG --quiet`` in a fresh process; prints its exit code, what it wrote and which of
#: the modules named after the config it imported (as JSON).
_SYNC_PROBE = """
import contextlib, io, json, sys
from sheets_gm.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(['sync', '-c', sys.argv[1], '--quiet'])
print(json.dumps([code, out.getvalue(), sorted(m for m in sys.argv[2:] if m in sys.modules)]))
"""


def probe_sync(config: Path, modules: tuple[str, ...]) -> tuple[int, str, list[str]]:
    """The exit code, the output and which of ``modules`` a fresh process imports to poll ``config`` quietly."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _SYNC_PROBE, str(config), *modules], capture_output=True,
                          text=True, timeout=120, check=True, cwd=config.parent)
    code, out, found = json.loads(done.stdout.strip().splitlines()[-1])
    return code, out, found


@pytest.fixture(scope="module")
def first_gvg_poll(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[int, str, list[str]]]:
    """The practice GvG match (laid out in this process: ``practice_copy``) after its first poll in a fresh process
    (``probe_sync``), and what that poll gave: its exit code, its output and which of ``NEVER_LOCAL`` it imported.
    One process for the two tests below (a process start and the poll's imports were most of each)."""
    from tests.sheets.practice import practice_copy

    folder = tmp_path_factory.mktemp("first-gvg-poll")
    practice_copy(folder, "gvg")
    return folder, probe_sync(folder / "match.toml", NEVER_LOCAL)


FIRST_GVG_POLL = pytest.mark.xdist_group("first-gvg-poll")  # one worker makes ``first_gvg_poll``, not each


@FIRST_GVG_POLL
def test_a_local_sync_does_not_import_the_google_stack_or_numpy(
        first_gvg_poll: tuple[Path, tuple[int, str, list[str]]]) -> None:
    """cron starts a sync every few minutes: a local match must not pay for Google's client or numpy (the first poll
    of a match, which reads it whole)."""
    assert first_gvg_poll[1] == (0, "", [])


@FIRST_GVG_POLL
@pytest.mark.parametrize("game", soak_but(("gvg", "wesnoth", "champions", "coalition", "winordie"), "gvg"))
def test_an_idle_local_poll_imports_only_what_it_needs(tmp_path: Path, game: str,
                                                       request: pytest.FixtureRequest) -> None:
    """cron's idle poll (nothing changed since the last) is a process start every minute: for every game, it loads
    no workbook, game, config or command-line parser, nor the standard library's heavier modules (issue 66). The
    match is laid out in this process (``init`` is not what is measured; a process of its own cost 1.6 s of CPU: the
    practice match laid out once a test process, copied); each poll is a fresh process (``probe_sync``). GvG's first
    poll is ``first_gvg_poll``'s."""
    from tests.sheets.practice import practice_copy

    if game == "gvg":
        folder, (code, _out, _found) = request.getfixturevalue("first_gvg_poll")
    else:
        folder = tmp_path
        practice_copy(folder, game)
        code = probe_sync(folder / "match.toml", ())[0]
    config = folder / "match.toml"
    state = folder / ".sheets-gm" / "match.poll.json"
    assert code == 0 and state.is_file()  # the first poll reads, and keeps its state
    kept = state.read_bytes()
    assert probe_sync(config, NEVER_IDLE) == (0, "", [])
    assert state.read_bytes() == kept  # it stayed idle: nothing read, nothing written


def test_a_workbook_changed_on_disk_is_read_again_not_served_from_memory(tmp_path: Path) -> None:
    """The backend keeps the workbook it saved; a save by another program must still be seen."""
    import openpyxl

    from sheets_gm.sheets.backend import RangeWrite
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

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
