"""``repair`` of a deleted View tab puts back the lines the replay cannot recompute: the public ones the sync
wrote of itself (a seat handed to a bot, an undo) and those of a window an undo took back, copied from the Log."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import cast

import openpyxl
import pytest

from sheets_gm.engine.words import counted
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, sheet_spec
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import VIEW_COLS
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import seat_backend
from tests.commands.test_commands import ROSTER
from tests.commands.test_repair_records import NOW, ROSTERS, _played, run
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("repair-played")  # one worker plays _played's matches once a run, not each


def _view(path: Path, tab: str) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(path)[tab]
    return [tuple(r) for r in ws.iter_rows(values_only=True) if any(v not in (None, "", False) for v in r)]


def _tabs(path: Path) -> list[str]:
    """The names of ``path``'s tabs, read without loading its cells."""
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(book.sheetnames)
    finally:
        book.close()


def _view_logs(config: Path, game: str, *only: str) -> dict[str, list[tuple[str, ...]]]:
    """The rows of each seat's View log (or ``only`` those seats') as the record counts them, each cell as text
    ('' when empty): the match read once for them all."""
    sheets = open_match_sheets(load_config(config))
    tabs = MatchTabs(sheet_spec(game), sheets.seats, get_ruleset(game).traits.judge)
    counts = read_match(sheets, get_ruleset(game)).record.seat_logs
    logs = {}
    for seat in only or sheets.seats:
        count = counts.get(seat, 0)
        (grid,) = seat_backend(sheets, tabs, seat).read([tabs.view_log_range(seat, 0, count, VIEW_COLS)])
        rows = [tuple(text_of(v) for v in (*row, *[""] * VIEW_COLS)[:VIEW_COLS]) for row in grid]
        logs[seat] = rows + [("",) * VIEW_COLS] * (count - len(rows))
    return logs


@pytest.mark.parametrize("game", ["gvg", "wesnoth"])
def test_a_view_deleted_after_an_undo_and_more_play_gets_each_line_back_in_the_row_it_held(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.setitem(ROSTERS, "gvg", ROSTER)
    config = _played(tmp_path, capsys, game, 2)
    sheets = open_match_sheets(load_config(config))
    cls = get_ruleset(game)
    bots = {s: next(iter(bots_of(create_ruleset(game)).values())).make(f"again/{s}") for s in sheets.seats}
    type_bot_orders(sheets, cls, bots)  # rows for the next window, which the undo sets aside
    assert run(capsys, "undo", "-c", config, "--reason", "a misread order")[0] == 0
    for _ in range(2):  # play on past the undone window
        type_bot_orders(sheets, cls, bots)
        poll(sheets, cls, now=NOW, force=True)
    seat = sheets.seats[0]
    before = _view_logs(config, game, seat)[seat]
    path = next(p for p in tmp_path.glob("*.xlsx") if f"View {seat}" in _tabs(p))
    book = openpyxl.load_workbook(path)
    del book[f"View {seat}"]
    book.save(path)
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    log = {tuple(text_of(cast(CellValue, v)) for v in r[:3]) for r in _view(tmp_path / "board.xlsx", "Log")}
    private = [i for i, r in enumerate(before) if any(r) and r[:3] not in log]  # this seat's alone: in no other tab
    blank = ("",) * VIEW_COLS
    assert _view_logs(config, game, seat)[seat] == [blank if i in private else r for i, r in enumerate(before)], out
    if private:
        assert f"({counted(len(private), 'line')} neither recomputed nor found in the Log" in out, out
        assert "not in the Log" not in out, out
    else:
        assert "cannot be recomputed" not in out, out


@pytest.mark.parametrize(("game", "bot"), [("wesnoth", "skirmisher"), ("gvg", "")])
def test_a_deleted_view_gets_back_the_public_lines_the_replay_cannot_recompute_from_the_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str,
        bot: str) -> None:
    monkeypatch.setitem(ROSTERS, "gvg", ROSTER)
    config = _played(tmp_path, capsys, game, 3)
    sheets = open_match_sheets(load_config(config))
    seat = sheets.seats[0]
    kind = bot or next(iter(bots_of(create_ruleset(game))))
    code, out, err = run(capsys, "adjust", "-c", config, "--bot", f"{seat}={kind}", "--reason", "away for a day")
    assert code == 0, out + err
    assert run(capsys, "undo", "-c", config, "--reason", "a misread order")[0] == 0
    path = next(p for p in tmp_path.glob("*.xlsx") if f"View {seat}" in _tabs(p))
    view = _view(path, f"View {seat}")
    book = openpyxl.load_workbook(path)
    del book[f"View {seat}"]
    book.save(path)
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    log = {r[:3] for r in _view(tmp_path / "board.xlsx", "Log")}
    private = [r for r in view if r[1] in ("undo", "set aside") and r[:3] not in log]  # this seat's alone
    assert _view(path, f"View {seat}") == [r for r in view if r not in private], out
    assert "copied from tab 'Log'" in out, out
    if private:  # in no other tab: counted, and said to be so
        assert f"({len(private)} line{'s' * (len(private) != 1)} neither recomputed nor found in the Log" in out, out
    else:
        assert "cannot be recomputed" not in out, out


def _no_view_gets_a_line_it_never_showed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch, game: str, seed: int,
                                         undos: int = 1) -> None:
    """After ``undos`` undos in a row, every seat's View deleted and repaired: each View's lines are among those it
    showed, in their order (no line it never listed), and none of its lines the Log holds is lost. The lines shown
    to that seat alone in the windows the undos took back cannot come back (their rows are left empty)."""
    monkeypatch.setitem(ROSTERS, "gvg", ROSTER)
    config = _played(tmp_path, capsys, game, 3, str(seed))
    sheets = open_match_sheets(load_config(config))
    first = sheets.seats[0]
    kind = next(iter(bots_of(create_ruleset(game))))
    assert run(capsys, "adjust", "-c", config, "--bot", f"{first}={kind}", "--reason", "away")[0] == 0
    for _ in range(undos):
        assert run(capsys, "undo", "-c", config, "--reason", "a misread order")[0] == 0
    before = _view_logs(config, game)
    for path in tmp_path.glob("*.xlsx"):
        gone = [name for name in _tabs(path) if name in {f"View {s}" for s in sheets.seats}]
        if gone:
            book = openpyxl.load_workbook(path)
            for name in gone:
                del book[name]
            book.save(path)
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    log = {tuple(text_of(cast(CellValue, v)) for v in r[:3]) for r in _view(tmp_path / "board.xlsx", "Log")}
    after = _view_logs(config, game)
    for seat, rows in before.items():
        was = [r for r in rows if any(r)]
        now = [r for r in after[seat] if any(r)]
        left = iter(was)
        assert all(line in left for line in now), f"{seat}'s View got a line it never showed, or out of order:\n{out}"
        public = Counter(r for r in was if r[:3] in log)
        assert not public - Counter(now), f"{seat}'s View lost public lines: {public - Counter(now)}\n{out}"


#: Seeds of the walk: GvG's 4 and 10 each gave red's View, after an undo and a repair, a Log
#: line that names red but that red's View never listed (a knocked-down line of blue's player at red's bulwark).
#: Either catches both defects put back (the repair's and the second undo's), so the quick run plays seed 4 only.
#: Wesnoth's Views are deleted and repaired after a hand-over and an undo in the quick run by the two tests above (a
#: match of its own here, played for this example alone): its seeded match under ``-m soak``, with seed 10.
SEEDS = [("gvg", 4), ("gvg", 10), ("wesnoth", 1), ("coalition", 1), ("winordie", 1)]  # champions: 20 s, soak
QUICK_SEEDS = soak_but(SEEDS, ("gvg", 4), ("coalition", 1), ("winordie", 1))


@pytest.mark.parametrize(("game", "seed"), QUICK_SEEDS)
def test_repair_gives_no_view_a_line_of_an_undone_window_it_never_showed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str,
        seed: int) -> None:
    _no_view_gets_a_line_it_never_showed(tmp_path, capsys, monkeypatch, game, seed)


@pytest.mark.soak
@pytest.mark.parametrize("undos", [1, 2])
@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("game", ["gvg", "wesnoth", "coalition", "champions", "winordie"])
def test_repair_gives_no_view_a_line_of_an_undone_window_it_never_showed_over_many_matches(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str,
        seed: int, undos: int) -> None:
    _no_view_gets_a_line_it_never_showed(tmp_path, capsys, monkeypatch, game, seed, undos)


@pytest.mark.parametrize(("game", "seed"), soak_but([("gvg", 4), ("gvg", 10)], ("gvg", 4)))
def test_a_second_undo_in_a_row_keeps_what_the_first_kept_of_each_view(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str,
        seed: int) -> None:
    """The second undo takes back the window before the one the first took back: the first's listing (in the pending
    GM events, which the second replaces with those of the window it reopens) is carried on, not lost to the names."""
    _no_view_gets_a_line_it_never_showed(tmp_path, capsys, monkeypatch, game, seed, undos=2)
