"""Workbooks swapped under a match: a seat's tabs found in a spreadsheet that is not the seat's.

Each seat's input tabs (its Orders, Archive and View; the judge's Judge, Archive and View) live in the
spreadsheet the config gives that seat, and that spreadsheet is shared with that seat alone. When two local
orders files are swapped (renamed into each other's place), or two keys are swapped in the config, each seat's
spreadsheet holds another seat's tabs, with what that seat typed: a sync would miss the tabs, and a repair laying
the tabs out again would leave each seat reading the other's orders. A workbook is recognised by its seat's tabs
(``find_misplaced``): the poll names the swap instead of a missing tab (``refuse_swapped``), ``repair`` puts the
files back (``upkeep.swap_back``) before anything else, and ``doctor`` names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.sheets.backend import SheetAccessError, SheetBackend, SheetError, SheetUnavailableError
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.sheets import MatchSheets, seat_backend

#: What to do about swapped workbooks, said wherever a read finds them.
SWAP_HINT = ("Run sheets-gm repair -c MATCH.toml: it puts local workbooks back in their places, tabs, typed rows and "
             "all (on Google, it names the keys to swap back under [sheets] orders in the config)")


class SwappedWorkbooksError(SheetError):
    """A seat's tabs are in a spreadsheet that is not the seat's (swapped workbooks); nothing was written."""


@dataclass(frozen=True)
class Misplaced:
    """The tabs of ``seat`` found in ``holder``, although the seat's spreadsheet is ``home``."""

    seat: str
    holder: SheetBackend
    home: SheetBackend
    tabs: tuple[str, ...]


def _owner(seat: str) -> str:
    return "the judge" if seat == JUDGE else seat


def find_misplaced(sheets: MatchSheets, tabs: MatchTabs) -> list[Misplaced]:
    """Every seat whose input tab is in a spreadsheet of the match other than its own (one tab list read per
    spreadsheet of a seat's input), with that spreadsheet's tabs of the seat."""
    homes = {seat: seat_backend(sheets, tabs, seat) for seat in tabs.input_seats()}
    distinct = list({id(b): b for b in homes.values()}.values())
    held = {id(backend): backend.tab_names() for backend in distinct}
    out: list[Misplaced] = []
    for seat, home in homes.items():
        own = tabs.seat_tab_names(seat)
        for backend in distinct:
            if backend is home or own[0] not in held[id(backend)]:
                continue
            out.append(Misplaced(seat, backend, home, tuple(t for t in own if t in held[id(backend)])))
    return out


def moves_back(sheets: MatchSheets, tabs: MatchTabs, found: Sequence[Misplaced]) -> list[tuple[SheetBackend,
                                                                                                SheetBackend]]:
    """How to put swapped spreadsheets back, as (holder, home) pairs: each holder holds no input tab of its own
    seats and the tabs of one home's seats alone, and the holders are the homes (a swap, or a ring of them). Empty
    when ``found`` is not such a permutation (then nothing is moved: the GM sorts it out)."""
    if not found:
        return []
    homes = {seat: seat_backend(sheets, tabs, seat) for seat in tabs.input_seats()}
    target: dict[int, SheetBackend] = {}
    by_id: dict[int, SheetBackend] = {}
    for m in found:
        by_id[id(m.holder)] = m.holder
        if target.setdefault(id(m.holder), m.home) is not m.home:
            return []  # one spreadsheet holds the tabs of two homes: not a plain swap
    for holder in by_id.values():
        names = holder.tab_names()
        if any(tabs.orders(seat).name in names for seat, home in homes.items() if home is holder):
            return []  # it holds its own seat's tabs too: a copy, not a swap
    if {id(t) for t in target.values()} != set(target):
        return []
    return [(by_id[i], target[i]) for i in target]


def describe_misplaced(found: Sequence[Misplaced]) -> str:
    """The misplaced tabs in words: ``red-orders.xlsx (red's) holds blue's tabs 'Orders blue', …``."""
    parts = [f"{m.holder.name} holds {_owner(m.seat)}'s tabs {', '.join(repr(t) for t in m.tabs)}, which belong in "
             f"{m.home.name}" for m in found]
    return "; ".join(parts)


def refuse_swapped(sheets: MatchSheets, tabs: MatchTabs, repair_hint: str) -> None:
    """SwappedWorkbooksError naming the swap, when a seat's tabs are in another seat's spreadsheet (called when a
    read failed: one tab list per spreadsheet, nothing written); ``repair_hint`` is the command that puts it right.
    Nothing when no tab is misplaced, or when the tab lists cannot be read."""
    try:
        found = find_misplaced(sheets, tabs)
    except (SheetAccessError, SheetUnavailableError, SheetError):
        return
    if found:
        raise SwappedWorkbooksError(f"workbooks were swapped: {describe_misplaced(found)}. Each seat's players would "
                                    f"read another seat's orders, so nothing was written. {repair_hint}")
