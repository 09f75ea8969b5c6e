"""A match knows its history (``sync/history.py``): a file put back from an older copy, or a file of another match, is
never taken for the truth. Nothing is resolved from a rewound state, and the GM is told what happened and how to put
it right.

A GvG match in four memory spreadsheets (red's, blue's, the board, the engine), copies of each kept after every
resolution; any one of them is put back from a copy one or two resolutions old, every seat's orders typed and Ready
ticked, and the next sync must resolve nothing and say so.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.sync.history import HistoryError
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, undo_window
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.match_record import MatchRecord, engine_read_range, parse_match_record
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend
from tests.matchfiles import GVG, SEED, roster, sync, type_orders

NAMES = ("red", "blue", "board", "engine")
Copies = list[dict[str, MemoryBackend]]  # the spreadsheets after each resolution (0: as init left them)
_CACHE: dict[str, Copies] = {}


def _sheets(backends: dict[str, MemoryBackend], journal: Path | None = None) -> MatchSheets:
    return MatchSheets(("red", "blue"), backends["board"], backends["engine"], (backends["red"], backends["blue"]),
                       journal=journal)


def played(seed: bytes = SEED) -> Copies:
    """A match three turns in, with a copy of every spreadsheet after each resolution (built once per seed)."""
    key = seed.hex()
    if key not in _CACHE:
        backends = {n: MemoryBackend(n) for n in NAMES}
        sheets = _sheets(backends)
        create_match(sheets, create_ruleset("gvg"), roster(3), seed=seed)
        copies = [copy.deepcopy(backends)]
        for _ in range(3):
            type_orders(sheets)
            assert sync(sheets).resolved
            copies.append(copy.deepcopy(backends))
        _CACHE[key] = copies
    return copy.deepcopy(_CACHE[key])


def record_of(sheets: MatchSheets) -> MatchRecord:
    """The engine's record as its tab holds it (read alone: the match's other files may be refused)."""
    (grid,) = sheets.engine.read([engine_read_range("Engine")])
    return parse_match_record(grid[1:], "Engine")


def cells(backends: dict[str, MemoryBackend]) -> object:
    return copy.deepcopy({n: (b.tabs, b.notes) for n, b in backends.items()})


@pytest.mark.parametrize("back", [1, 2])
@pytest.mark.parametrize("name", NAMES)
def test_a_file_put_back_from_an_older_copy_resolves_nothing_and_the_gm_is_told(name: str, back: int) -> None:
    copies = played()
    backends = copies[-1]
    sheets = _sheets(backends)
    type_orders(sheets)  # every seat ready: a sync taking the files as they are would resolve
    latest = record_of(sheets)
    backends[name] = copies[-1 - back][name]  # the file as it was ``back`` resolutions ago
    sheets = _sheets(backends)
    try:
        report = sync(sheets)
    except HistoryError as exc:
        told = str(exc)
        assert "Nothing was resolved or written" in told and "repair" in told and "typed over" not in told
        what = {"engine": "the engine is older than the files it wrote", "board": "put back from an older copy"}
        assert what.get(name, "the engine is older") in told
        assert name in ("engine", "board")
        assert record_of(sheets).resolved == latest.resolved - (back if name == "engine" else 0)
    else:
        if name == "engine":  # one step back looks as a resolution cut before its commit: completed, the same one
            assert back == 1 and report.reason == "completing a resolution that was interrupted"
            assert record_of(sheets).values() == latest.values()
        else:  # a seat's own file saved from an older copy: drawn again, nothing resolved, said
            assert name in ("red", "blue") and not report.resolved and report.older_copies == [name]
            assert record_of(sheets).values() == latest.values()


def test_an_engine_put_back_two_resolutions_is_refused_by_every_command_and_repair_carries_on_from_it() -> None:
    """Issue 52, item 2: the sync used to rewind the match two turns with no undo entry and blame the players."""
    copies = played()
    backends = copies[-1]
    type_orders(_sheets(backends))
    backends["engine"] = copies[1]["engine"]
    sheets = _sheets(backends)
    before = cells(backends)
    for command in (sync, lambda s: undo_window(s, GVG, "go back")):
        with pytest.raises(HistoryError, match=r"the engine is older than the files it wrote: engine \(generation 1"):
            command(sheets)
    assert cells(backends) == before
    repair_match(sheets, GVG)  # the GM carries the match on from the engine as it is
    report = sync(sheets, force=True)
    assert report.resolved and not report.older_copies and not report.drawn_again
    assert record_of(sheets).resolved == 2


def test_a_file_of_another_match_is_refused_by_name() -> None:
    """Issue 52, item 3: two configs naming one file (a seat's, or the board) are refused, nothing written."""
    ours, theirs = played()[-1], played(b"another match's seed")[-1]
    for name in ("red", "board"):
        backends = {**ours, name: theirs[name]}
        sheets = _sheets(backends)
        before = cells(backends)
        with pytest.raises(HistoryError, match="another match"):
            sync(sheets)
        assert cells(backends) == before



def test_undo_with_a_window_takes_back_that_window_or_nothing() -> None:
    """Issue 52, item 11: ``undo --window KEY`` typed while a poll resolves the next window never undoes that one."""
    backends = played()[-1]
    sheets = _sheets(backends)
    before = cells(backends)
    with pytest.raises(BetweenWindowsError, match=r"window '2' is not the last one resolved: '3' \(turn 3\) is"):
        undo_window(sheets, GVG, "late orders", window_key="2")
    assert cells(backends) == before
    undo_window(sheets, GVG, "late orders", window_key="3")
    assert record_of(sheets).resolved == 2
