"""The core binds every order to its window (issue 60, item 2), for every game and the toy game a new game copies.

The property: a resolution carries out what was typed for its window, or what a row said, before the window
closed, it was kept for (a refusal, the engine's "not resolved", an undo's "put back"), nothing else. It must hold
with a game whose adapter forgets to mark its rows as used (``SeatInput.consumed`` left empty: the one line a new
game's author forgets), since the core itself takes every row typed for a window when it closes.

The walk: the bots type every seat's orders for the first window, then nothing more is typed, and windows are
closed one after the other, by the GM's force, across a copy of a seat's file saved over the sync's write (from
before a resolution) and an undo. Before each resolution the test reads what the rows visibly kept for the window
would give (``_expected``); the history's orders of that resolution must be exactly those. Without the core's
binding (``fates.bound_to``) the first window's orders are carried out again in the second.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.registry import create_ruleset, get_game, ruleset_names, sheet_of
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, undo_window
from sheets_gm.sync.match_record import history_range, joined_cells
from sheets_gm.sync.poll import in_order, poll
from sheets_gm.sync.read import MatchRead
from sheets_gm.sync.rows.seat_read import cells_text
from sheets_gm.sync.sheets import seat_backend
from tests.conformance.test_input_lifecycle import NOW, Table, _do, _put, new_table
from tests.fakes.memory import MemoryBackend
from tests.quick import soak_but
from tests.toygame.registered import toy_registered

#: How a row's answer begins when its window closed and kept it for the next, saying why: what may be read again.
KEPT_WITH_WHY = ("✘", "Not resolved, kept for", "Put back by the GM's undo")


def _games() -> list[str]:
    return [*(n for n in ruleset_names() if get_game(n).sheet is not None), "tictactoe"]


@contextlib.contextmanager
def forgetful(game: str) -> Iterator[None]:
    """The game's adapter with its marking of used rows forgotten: every ``SeatInput`` it reads says none."""
    adapter_class = type(sheet_of(create_ruleset(game)))
    reading = adapter_class.read_orders

    def read_orders(self: Any, *args: Any, **kwargs: Any) -> Any:
        return dataclasses.replace(reading(self, *args, **kwargs), consumed=frozenset())

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(adapter_class, "read_orders", read_orders)
        yield


def _visibly_kept(read: MatchRead, seat: str, rows: list[TypedRow]) -> list[TypedRow]:
    """The rows of ``rows`` that the last resolution (or the GM's undo) kept for the open window saying why, and a
    standing table's rows (read in every window)."""
    tab = read.seats[seat].tab
    return [r for r in rows if tab.table(r.table).spec.standing or r.feedback.startswith(KEPT_WITH_WHY)]


def _typed_for(read: MatchRead) -> list[tuple[str, TypedRow]]:
    """Every seat's rows typed for the open window (a standing table's left out: they are read in every window)."""
    window = read.record.ruleset.window(read.record.state)
    assert window is not None
    return [(seat, r) for seat, seat_read in read.seats.items() for r in seat_read.bound(window)]


def _kept_only_with_why(table: Table, typed: list[tuple[str, TypedRow]]) -> None:
    """Every row typed for a window that closed, still in its cells, says why it was kept (a refusal, the engine's
    "not resolved"): never kept silently, to be read again in a later window as if typed for it."""
    read = table.read()
    for seat, row in typed:
        now = next((r for r in read.seats[seat].rows if (r.table, r.subject) == (row.table, row.subject)), None)
        if now is None or cells_text(now.values) != cells_text(row.values) or not now.typed:
            continue
        assert now.feedback.startswith(KEPT_WITH_WHY), \
            f"{table.name}: {seat}'s row {row.subject} ({row.table}), typed for window {row.window!r}, is still in " \
            f"its cells after it closed, saying {now.feedback!r}"


def _expected(read: MatchRead) -> Any:
    """The orders the open window may carry out with nothing typed for it: those of the rows visibly kept for it."""
    rules = read.record.ruleset
    window = rules.window(read.record.state)
    assert window is not None
    parts = {}
    for seat in window.seats:
        if seat not in read.seats:
            parts[seat] = rules.no_orders()
            continue
        rows = {t: _visibly_kept(read, seat, typed) for t, typed in in_order(read.seats[seat], window).items()}
        parts[seat] = read.adapter.read_orders(read.record.state, window, seat, rows).orders
    return rules.orders_codec.to_json(rules.merge_orders(parts))


def _history_orders(table: Table, resolution: int) -> Any:
    read = table.read()
    (grid,) = table.sheets.engine.read([history_range(read.tabs.spec.tabs.engine, resolution)])
    return json.loads(joined_cells(grid[0], 1))["orders"]


def _close(table: Table, how: str, *, typed: bool = False, undone: Any = None) -> None:
    """Close the open window by the GM's force (``how``: plainly, or with a seat's office program holding its file
    from before, saved over the sync's write after it), and check its orders against what was visibly kept (unless
    orders were ``typed`` for it), or, the window reopened by an undo, against the orders of the resolution it took
    back (``undone``): its rows are put back, and nothing was typed since."""
    read = table.read()
    if read.record.ruleset.window(read.record.state) is None:
        return
    expected = None if typed else undone if undone is not None else _expected(read)
    held: dict[str, Any] = {}
    if how == "stale":
        for seat in read.seats:
            backend = seat_backend(table.sheets, read.tabs, seat)
            assert isinstance(backend, MemoryBackend)
            held[seat] = (backend, copy.deepcopy(backend.tabs))
    report = poll(table.sheets, table.cls, now=NOW, force=True)
    assert report.resolved, report.reason
    number = table.read().record.resolved
    window = read.record.ruleset.window(read.record.state)
    assert expected is None or _history_orders(table, number) == expected, \
        f"{table.name}: {window.label if window else ''} carried out what was not typed for it, nor kept for it"
    for backend, tabs in held.values():  # the copies of before saved over the sync's write: the next poll sorts them
        backend.tabs = tabs
    if held:
        poll(table.sheets, table.cls, now=NOW)


def walk(name: str, steps: list[str]) -> None:
    """The bots type the first window's orders, then nothing more is typed: each step closes a window (``force``,
    ``stale``) or undoes the last resolution (``undo``, which the next step's resolves again); every resolution
    carries out only what was kept for it."""
    with toy_registered(), forgetful(name):
        table = new_table(name)
        _do(table, "bot", 0, 0, 0)
        typed = _typed_for(table.read())
        _close(table, "force", typed=True)
        _kept_only_with_why(table, typed)
        undone = None
        for step in steps:
            if step == "undo":
                number = table.read().record.resolved
                taken_back = _history_orders(table, number) if number else None
                with contextlib.suppress(BetweenWindowsError):
                    undo_window(table.sheets, table.cls, "the binding test takes it back")
                poll(table.sheets, table.cls, now=NOW)
                if table.read().record.resolved < number:
                    undone = taken_back
                continue
            _close(table, step, undone=undone)
            undone = None
            _kept_only_with_why(table, typed)


def _cleared_then_copied(table: Table) -> None:
    """The bots type the open window's orders and a poll answers them; every seat's office program holds its file
    then; every typed row is cleared before the window closes (it closes with nothing); then each copy of before is
    saved over the sync's write, and a poll sorts it. The rows it holds were read for a window closed since."""
    poll(table.sheets, table.cls, now=NOW)
    read = table.read()
    held = {}
    for seat in read.seats:
        backend = seat_backend(table.sheets, read.tabs, seat)
        assert isinstance(backend, MemoryBackend)
        held[seat] = (backend, copy.deepcopy(backend.tabs))
    for seat, row in _typed_for(read):
        for key, value in row.values.items():
            if value not in (None, "", False):
                _put(table, read, seat, row.table, row.subject, key, False if isinstance(value, bool) else "")
    poll(table.sheets, table.cls, now=NOW)
    _close(table, "force")
    window = table.read().record.ruleset.window(table.read().record.state)
    if window is not None and window.key == read.record.window_key():  # forced with nothing, it stays open (Win or
        return  # Die's deployment): what the copy holds is typed for the window open now
    for backend, tabs in held.values():
        backend.tabs = tabs
    poll(table.sheets, table.cls, now=NOW)


@pytest.mark.parametrize("name", soak_but(_games(), "gvg", "coalition"))
def test_a_row_cleared_before_its_window_closed_never_comes_back_from_an_older_copy(name: str) -> None:
    """Every game's form of the Coalition's finding: what was typed for the first window, cleared before it closed
    and brought back by a copy saved over the sync's write, is carried out in no later window (nor read for one)."""
    with toy_registered(), forgetful(name):
        table = new_table(name)
        _do(table, "bot", 0, 0, 0)
        _cleared_then_copied(table)
        for _ in range(3):
            _close(table, "force")


@pytest.mark.parametrize("name", soak_but(_games(), "wesnoth", "tictactoe"))
def test_a_game_whose_adapter_forgets_to_mark_rows_carries_out_nothing_twice(name: str) -> None:
    """Four windows closed with nothing typed after the first (a round of every seat's turns, and the first seat's
    next): none carries the first window's orders out again."""
    walk(name, ["force"] * 4)


@pytest.mark.parametrize("name", soak_but(_games(), "champions", "winordie"))
def test_nothing_comes_back_across_a_stale_copy_and_an_undo(name: str) -> None:
    """A copy of every seat's file from before a resolution saved over the sync's write, then an undo: the windows
    after carry out only what was kept for them."""
    walk(name, ["stale", "undo", "force"])


STEP_KINDS = st.sampled_from(["force", "stale", "undo"])


@pytest.mark.soak
@pytest.mark.parametrize("name", _games())
def test_the_long_walk_binds_every_order_to_its_window(name: str) -> None:
    """The soak run: many windows, forces, stale copies and undos in any order."""

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(steps=st.lists(STEP_KINDS, min_size=3, max_size=10))
    def run(steps: list[str]) -> None:
        walk(name, steps)

    run()


def test_a_line_typed_over_while_a_cut_resolution_waits_is_not_cleared_by_its_completion() -> None:
    """A post's line refused in turn 1 is set aside by the resolution, which is cut before its commit (the engine's
    write fails); she types a new line in that row; the poll that completes the resolution clears only what it set
    aside, not what she typed since (it was "gone without a trace" once the set-aside reached other tables)."""
    table = new_table("coalition")
    read = table.read()
    _put(table, read, "coalition", "post", "coalition line 1", "line", "Core Sentinels")  # no colon: refused
    poll(table.sheets, table.cls, now=NOW)
    _do(table, "cut", 0, 0, 0)
    read = table.read()
    assert read.seats["coalition"].pending is not None
    _put(table, read, "coalition", "post", "coalition line 1", "line", "Our moves, turn 2")
    poll(table.sheets, table.cls, now=NOW)
    read = table.read()
    assert read.record.resolved == 1 and read.seats["coalition"].pending is None
    line = next(r for r in read.seats["coalition"].rows if r.subject == "coalition line 1")
    assert line.text("line") == "Our moves, turn 2", line
