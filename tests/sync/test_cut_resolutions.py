"""A resolution is what it read (issue 60, item 1): cut after any of its saves, the next poll completes it from its
record (``sync/journal.py``), never from the sheets again, and every cell of every spreadsheet ends as the uncut run
leaves it.

The walk: a bot match of every game (the toy game too) on memory spreadsheets, its journal in a folder; at each
window the bots type, a seat that does not act types a standing reaction where its game has them (Win or Die's
Parry), then the window resolves whole in one copy of the match and, in another, is cut at the write to each
spreadsheet after the first (the seats' before it saved, as a kill there leaves them) and completed by the next
poll. Both copies must hold the same cells, notes and state. A practice Win or Die match (the stand-in GM on) walks
the windows where the stand-in GM acts. A few windows of each game run in the quick run; the rest under
``-m soak``.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.winordie.engine import WodRuleset
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.drawn_cells import typed_over_words
from sheets_gm.sync.journal import JournalUnwritableError
from sheets_gm.sync.life.board_check import board_edits
from sheets_gm.sync.life.replay import match_history
from sheets_gm.sync.life.typed_check import orders_read, typed_mismatch
from sheets_gm.sync.poll import COMPLETING, WindowReport, poll
from sheets_gm.sync.sheets import MatchSheets, seat_backend
from tests.fakes.memory import InjectedFault, MemoryBackend, copy_cells
from tests.quick import soak_but
from tests.sync.test_cut_commands import Cut
from tests.sync.test_typed_row_lifecycle import NOW, Match
from tests.toygame.registered import toy_registered

GAMES = ("champions", "coalition", "gvg", "tictactoe", "wesnoth", "winordie")


@contextmanager
def _known(name: str) -> Iterator[None]:
    """The toy game registered while ``name``'s match is played (the shipped games need nothing)."""
    if name == "tictactoe":
        with toy_registered():
            yield
    else:
        yield


def _cells(sheets: MatchSheets) -> dict[str, Any]:
    """Every value and note of every spreadsheet of the match, by name."""
    return {b.name: (copy_cells(b.tabs), copy_cells(b.notes)) for b in sheets.write_order()
            if isinstance(b, MemoryBackend)}


def _differences(found: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """The first cells that differ between two ``_cells``: spreadsheet, tab, cell, the value found and expected."""
    out = []
    for name, (tabs, notes) in expected.items():
        got_tabs, got_notes = found.get(name, ({}, {}))
        for kind, want, got in (("value", tabs, got_tabs), ("note", notes, got_notes)):
            for tab in sorted(set(want) | set(got)):
                cells = set(want.get(tab, {})) | set(got.get(tab, {}))
                out += [f"{name} {tab} {cell} {kind}: {got.get(tab, {}).get(cell)!r} != {want.get(tab, {}).get(cell)!r}"
                        for cell in sorted(cells) if got.get(tab, {}).get(cell) != want.get(tab, {}).get(cell)]
    return out[:6]


def _copy(sheets: MatchSheets, journal: Path) -> MatchSheets:
    """An independent copy of the match's spreadsheets, its journal at ``journal``."""
    return dataclasses.replace(copy.deepcopy(dataclasses.replace(sheets, journal=None)), journal=journal)


def _react(match: Match) -> None:
    """Win or Die: the seat that does not act keeps a Parry standing on the first unit of hers that has it (the
    issue's reproducer: Ann's Parry, Bo's attack); nothing in another game."""
    read = match.read()
    state = read.record.state
    window = read.record.ruleset.window(state)
    if read.record.name != "winordie" or window is None or window.phase != "actions":
        return
    other = next(s for s in window.seats if s not in window.awaited)
    ruleset = read.record.ruleset
    assert isinstance(ruleset, WodRuleset)
    tables = ruleset.rules.tables
    parry = [u for u in state.units if u.owner == other and u.at is not None
             and any(a.name == "Parry" for a in getattr(tables.card(u.card), "abilities", ()))]
    if not parry:
        return
    rows = [r for r in read.seats[other].rows if r.table == "reactions"]
    if any(r.typed for r in rows):
        return
    tab = read.seats[other].tab
    placed = tab.table("reactions")
    backend = seat_backend(match.sheets, read.tabs, other)
    assert isinstance(backend, MemoryBackend)
    for key, value in (("unit", parry[0].id), ("ability", "Parry"), ("when", "attacked")):
        backend.type(tab.name, placed.cell(0, key), value)


def _resolve(match: Match, sheets: MatchSheets) -> WindowReport:
    return poll(sheets, match.cls, now=NOW, force=True)


def check_window(match: Match, tmp_path: Path, logged: list[str], cut_when: Callable[[list[str]], bool]) -> bool:
    """The open window, typed for, resolved whole, and (where ``cut_when`` says yes to what it logged) cut
    after each save then completed by the next poll: the same cells and state, and the same notices. Moves ``match``
    on as run whole, and adds to ``logged`` what the resolution logged; False once the match is over."""
    type_bot_orders(match.sheets, match.cls, match.bots)
    _react(match)
    order = match.sheets.write_order()
    whole = _copy(match.sheets, tmp_path / "whole.json")
    report = _resolve(match, whole)
    if not report.resolved:
        return False
    assert report.facts is not None
    logged += [e.text for e in report.facts.events]
    expected = _cells(whole)
    cuts = range(1, len(order)) if cut_when([e.text for e in report.facts.events]) else range(0)
    for at in cuts:  # cut at the write to spreadsheet ``at``: those before it saved
        cut = _copy(match.sheets, tmp_path / f"cut{at}.json")
        backends = {b.name: b for b in cut.write_order()}
        with Cut(backends, order[at].name), pytest.raises(InjectedFault):
            _resolve(match, cut)
        done = poll(cut, match.cls, now=NOW)
        found = _cells(cut)
        assert found == expected, f"{report.window_key}: cut at {order[at].name}: {_differences(found, expected)}"
        assert done.resolved and done.reason == COMPLETING and done.window_key == report.window_key
        assert done.facts is not None and [e.text for e in done.facts.events] == [e.text for e in report.facts.events]
        assert not (tmp_path / f"cut{at}.json").exists()
    match.sheets = dataclasses.replace(whole, journal=None)
    return match.read().record.ruleset.window(match.read().record.state) is not None


def _typed_mismatch(match: Match, entries: list[dict[str, Any]] | None = None) -> str | None:
    """What ``verify -c`` finds in the match's history that its table did not type (None: nothing)."""
    read = match.read()
    found = match_history(match.sheets, read.record, read.tabs.spec.tabs.engine) if entries is None else entries
    return typed_mismatch(read.record, read.tabs, read.adapter, found)


def walk(name: str, tmp_path: Path, windows: int, settings: Any = None,
         cut_when: Callable[[list[str]], bool] = lambda _logged: True) -> list[str]:
    """Up to ``windows`` windows of a bot match of ``name`` walked by ``check_window`` (cut where ``cut_when`` says
    yes to what the window's resolution logged: every window unless told), then its history checked against what its
    table typed (``verify -c``); what they logged."""
    logged: list[str] = []
    with _known(name):
        match = Match(name, settings)
        for done in range(windows):
            if not check_window(match, tmp_path / str(done), logged, cut_when):
                break
        assert _typed_mismatch(match) is None
    return logged


# The journal that completes a cut resolution is every game's: Champions (6 s) and Coalition (3 s) walk under -m soak
# alone; Coalition keeps its quick walks in tests/sync/test_bot_seats.py and test_window_waits.py.
@pytest.mark.parametrize("name", soak_but(GAMES, *(g for g in GAMES if g not in ("champions", "coalition"))))
def test_a_resolution_cut_after_any_save_is_completed_as_the_uncut_one(name: str, tmp_path: Path) -> None:
    walk(name, tmp_path, 3)


def test_a_standing_parry_is_carried_out_by_the_completion_of_a_cut_turn(tmp_path: Path) -> None:
    """The issue's reproducer: Win or Die, all bots, the other seat's Parry standing; cut right after the first
    seat's file was saved, the next poll completes the turn with the Parry, as the uncut run does. The windows
    before it resolve uncut (the first three are cut in ``test_a_resolution_cut_after_any_save_…[winordie]``)."""
    logged = walk("winordie", tmp_path, 6, cut_when=lambda said: any("uses Parry" in line for line in said))
    assert any("uses Parry" in line for line in logged), logged


def test_the_stand_in_gm_s_events_are_part_of_the_cut_resolution(tmp_path: Path) -> None:
    """A practice match: the stand-in GM's adjustments are in the resolution's one write, and a cut anywhere
    completes them with it: the windows where the stand-in GM acts are cut (the others are any match's windows,
    walked cut by the test above; all of them under ``-m soak``)."""
    logged = walk("winordie", tmp_path, 6, WodSettings(stand_in_gm=True),
                  cut_when=lambda said: any("stand-in GM" in line for line in said))
    assert any("stand-in GM: Charge" in line for line in logged), logged
    assert any("stand-in GM: Parry" in line for line in logged), logged


@pytest.mark.soak
@pytest.mark.parametrize("name", GAMES)
def test_every_window_of_a_match_cut_after_every_save_is_completed_as_the_uncut_one(name: str,
                                                                                    tmp_path: Path) -> None:
    walk(name, tmp_path, 40)


@pytest.mark.soak
def test_every_window_of_a_practice_match_cut_after_every_save_is_completed(tmp_path: Path) -> None:
    walk("winordie", tmp_path, 40, WodSettings(stand_in_gm=True))


def _to_parry(tmp_path: Path) -> Match:
    """A Win or Die bot match at the turn whose attack the other seat's standing Parry stops (the sixth window),
    the bots' orders typed and the Parry standing, its journal in ``tmp_path``."""
    match = Match("winordie")
    for _ in range(5):
        type_bot_orders(match.sheets, match.cls, match.bots)
        _react(match)
        assert _resolve(match, match.sheets).resolved
    type_bot_orders(match.sheets, match.cls, match.bots)
    _react(match)
    match.sheets = dataclasses.replace(match.sheets, journal=tmp_path / "journal.json")
    return match


def test_a_cut_turn_whose_unwritten_seat_saved_since_keeps_the_standing_parry_it_read(tmp_path: Path) -> None:
    """Cut after the reacting seat's file was saved, then the acting seat saves a row in his file (which the cut
    resolution had not written yet): his save is never written over, so the poll completes the resolution from its
    record, his save read as if made just before it, and the reacting seat's rows as it read them, her standing
    Parry included (her pending row lists only the rows carried out): the Parry fires, as in the uncut run."""
    match = _to_parry(tmp_path)
    read = match.read()
    window = read.record.ruleset.window(read.record.state)
    assert window is not None
    acting = window.awaited[0]
    order = match.sheets.write_order()
    assert order.index(match.sheets.of(acting)) > 0  # the reacting seat's file is written first
    with Cut({b.name: b for b in order}, acting), pytest.raises(InjectedFault):
        _resolve(match, match.sheets)
    tab = read.seats[acting].tab
    backend = seat_backend(match.sheets, read.tabs, acting)
    assert isinstance(backend, MemoryBackend)
    rows = [r for r in read.seats[acting].rows if r.table == "actions"]
    empty = next(i for i, r in enumerate(rows) if not r.typed)
    backend.type(tab.name, tab.table("actions").cell(empty, "unit"), f"{acting}-1")  # saved after the cut
    done = poll(match.sheets, match.cls, now=NOW)
    assert done.resolved and done.reason == COMPLETING and done.facts is not None
    said = [e.text for e in done.facts.events]
    assert any("uses Parry" in line for line in said), said
    after = [r for r in match.read().seats[acting].rows if r.table == "actions" and r.typed]
    assert any(r.values.get("unit") == f"{acting}-1" for r in after)  # his save, never written over
    assert not (tmp_path / "journal.json").exists()


def test_a_history_without_the_orders_the_table_typed_fails_verify_naming_the_window_and_seat(tmp_path: Path) -> None:
    """Issue 60, item 1: a history recording fewer orders than its table typed (the standing Parry lost, as a
    completion that read the sheets again recorded it) is a ``verify -c`` failure naming the window and the seat."""
    match = _to_parry(tmp_path)
    report = _resolve(match, match.sheets)
    assert report.facts is not None and any("uses Parry" in e.text for e in report.facts.events)
    read = match.read()
    entries = match_history(match.sheets, read.record, read.tabs.spec.tabs.engine)
    assert _typed_mismatch(match, entries) is None
    last = entries[-1]
    window = read.record.ruleset.window(read.record.ruleset.state_codec.from_json(last["state_before"]))
    assert window is not None
    other = next(s for s in window.seats if s not in window.awaited)
    reduced = {**last["read"], other: [r for r in last["read"][other] if r["table"] != "reactions"]}
    without = typed_mismatch(read.record, read.tabs, read.adapter,
                             [*entries[:-1], {**last, "read": reduced}])  # the rows it read, less her reaction
    assert without is not None and "records orders other than" in without  # it recorded orders she typed
    forged = [*entries[:-1], {**last, "orders": _orders_without(match, last, reduced)}]
    said = _typed_mismatch(match, forged)
    assert said is not None and f"window {window.key}, {window.label}" in said and f"those {other} typed" in said


def _orders_without(match: Match, entry: dict[str, Any], rows: dict[str, Any]) -> Any:
    """The orders a history row would record had its resolution read ``rows`` (by seat, as JSON)."""
    read = match.read()
    ruleset = read.record.ruleset
    state = ruleset.state_codec.from_json(entry["state_before"])
    window = ruleset.window(state)
    assert window is not None
    typed = {seat: [TypedRow.from_json(r) for r in found] for seat, found in rows.items()}
    return orders_read(read.record, read.tabs, read.adapter, state, window, typed)


def test_a_resolution_whose_record_cannot_be_kept_writes_nothing(tmp_path: Path) -> None:
    """The record is kept before the first write, or the resolution does not start: nothing written, and the GM is
    told where and why (a resolution cut without its record could only be completed from the sheets)."""
    match = Match("gvg")
    type_bot_orders(match.sheets, match.cls, match.bots)
    (tmp_path / "not-a-folder").write_text("", encoding="utf-8")
    sheets = dataclasses.replace(match.sheets, journal=tmp_path / "not-a-folder" / "journal.json")
    before = _cells(sheets)
    with pytest.raises(JournalUnwritableError, match=r"the record of resolution 1 \(window 1\).* nothing was written"):
        _resolve(match, sheets)
    assert _cells(sheets) == before


def _cut_before_the_engine(name: str, tmp_path: Path) -> Match:
    """A bot match of ``name`` two windows on, its third cut at the engine's write (every other spreadsheet saved,
    the board drawn for the state after it): what ``verify -c`` reads while the next poll has not completed it."""
    match = Match(name)
    for _ in range(2):
        type_bot_orders(match.sheets, match.cls, match.bots)
        assert _resolve(match, match.sheets).resolved
    type_bot_orders(match.sheets, match.cls, match.bots)
    match.sheets = dataclasses.replace(match.sheets, journal=tmp_path / "journal.json")
    order = match.sheets.write_order()
    with Cut({b.name: b for b in order}, order[-1].name), pytest.raises(InjectedFault):
        _resolve(match, match.sheets)
    return match


def _cut_verify_check(name: str, tmp_path: Path) -> None:
    match = _cut_before_the_engine(name, tmp_path)
    read = match.read()
    assert read.cut_under_way
    assert typed_over_words(match.sheets, read) == []  # the cut resolution's drawing is not typed over
    assert board_edits(match.sheets, read) == []
    board = match.sheets.board
    assert isinstance(board, MemoryBackend)
    board.type(read.tabs.spec.tabs.board, "A1", "typed by hand")  # a cell typed over is still named
    assert any("cell A1 says 'typed by hand'" in w for w in typed_over_words(match.sheets, match.read()))


@pytest.mark.parametrize("name", ["wesnoth"])
def test_verify_reads_a_cut_resolution_s_drawing_as_drawn_not_typed_over(name: str, tmp_path: Path) -> None:
    """``verify -c`` while a resolution cut before the engine's write is under way: the board and its other drawn
    tabs (Wesnoth's Units) hold the drawing of the state after it, from its record's writes, and are not named as
    typed over (every cell of them was, before); a cell typed over since is still named. Fails with the record's
    writes not read (28 cells of GvG's board named)."""
    _cut_verify_check(name, tmp_path)


@pytest.mark.soak
@pytest.mark.parametrize("name", ["champions", "coalition", "gvg", "winordie"])
def test_verify_reads_every_game_s_cut_drawing_as_drawn(name: str, tmp_path: Path) -> None:
    _cut_verify_check(name, tmp_path)
