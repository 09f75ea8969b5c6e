"""A workbook the local backend lets go of is freed by reference counting at once (``sheets/local/release.py``), not
left to the cycle collector: whatever way the backend drops one (a newer file read, a write, a write refused, the
changes of ``saved_once`` dropped or made again on a player's save, the backend itself gone), the cells alive with the
collector off are those of the workbooks it still holds, however many it loaded."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path

import openpyxl
import pytest
from openpyxl.cell.cell import Cell

from sheets_gm.sheets.backend import RangeWrite, SavedMeanwhileError
from sheets_gm.sheets.layout import ReadGuard
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.local.release import release_workbook
from sheets_gm.sheets.xlsx import collector_paused
from tests.quick import soak_but

ROWS, COLS = 50, 10  # 500 cells a workbook: a leaked one shows in the count at once
ROUNDS = 4


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The cycle collector off for the test (what it would free is counted, not freed), as it was after."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _cells_alive() -> int:
    return sum(type(o) is Cell for o in gc.get_objects())


def _typed(path: Path, value: str) -> None:
    """A player's save: every cell of Orders typed, a note on A1 (a comment points back at its cell)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Orders"
    for row in range(1, ROWS + 1):
        ws.append([f"{value} {row}.{col}" for col in range(COLS)])
    ws["A1"].comment = openpyxl.comments.Comment("a note", "player")
    wb.save(path)
    release_workbook(wb)  # the office program's copy is not counted


def _read_newer(backend: LocalWorkbookBackend, turn: int) -> None:
    _typed(backend.path, f"read {turn}")
    assert backend.read(["Orders!A1"]) == [[[f"read {turn} 1.0"]]]


def _written(backend: LocalWorkbookBackend, turn: int) -> None:
    _typed(backend.path, f"newer {turn}")
    backend.write([RangeWrite("Orders!B1", [[f"written {turn}"]])], read_back=["Orders!B1"])


def _refused(backend: LocalWorkbookBackend, turn: int) -> None:
    (seen,) = backend.read(["Orders!A1"])
    _typed(backend.path, f"meanwhile {turn}")
    with pytest.raises(SavedMeanwhileError):
        backend.write([RangeWrite("Orders!B1", [["late"]])], guard=[ReadGuard("Orders!A1", seen)])


def _held_then_dropped(backend: LocalWorkbookBackend, turn: int) -> None:
    _typed(backend.path, f"held {turn}")
    with pytest.raises(RuntimeError), backend.saved_once():
        backend.write([RangeWrite("Orders!B1", [["held"]])])
        raise RuntimeError("cut")


def _held_made_again(backend: LocalWorkbookBackend, turn: int) -> None:
    with backend.saved_once():
        backend.write([RangeWrite("Orders!B1", [[f"again {turn}"]])])
        _typed(backend.path, f"saved meanwhile {turn}")
    assert backend.read(["Orders!B1"]) == [[[f"again {turn}"]]]


def _backend_gone(backend: LocalWorkbookBackend, turn: int) -> None:
    other = LocalWorkbookBackend(backend.path)
    _typed(backend.path, f"other {turn}")
    assert other.read(["Orders!A1"]) == [[[f"other {turn} 1.0"]]]
    del other


DROPS: dict[str, Callable[[LocalWorkbookBackend, int], None]] = {
    "a newer file read": _read_newer, "a write on a newer file": _written, "a write refused": _refused,
    "saved_once dropped": _held_then_dropped, "saved_once made again": _held_made_again,
    "the backend gone": _backend_gone,
}


@pytest.mark.parametrize("drop", soak_but(DROPS, "a newer file read", "the backend gone"))
def test_a_workbook_the_backend_drops_is_freed_without_the_collector(tmp_path: Path, collector_off: None,
                                                                    drop: str) -> None:
    """Workbooks loaded and dropped one way, round after round, leave no cell behind: the cells alive are at most
    one workbook's (the one cached; none once the backend is gone), and the objects the collector would have to walk
    grow by far less than a workbook a round (the load's own parser leaves some 200 in a cycle, freed by the next young
    collection). It fails with the backend's ``_let_go`` or ``__del__`` not taking the workbook apart, or with
    ``release_workbook`` leaving a comment bound to its cell or the cells in the dictionary the parser holds."""
    with collector_paused():  # its first use in a process freezes what is alive: done before counting
        pass
    others = _cells_alive()  # cells other tests of this process still hold (a module's cached workbook)
    _typed(tmp_path / "a.xlsx", "first")
    backend = LocalWorkbookBackend(tmp_path / "a.xlsx")
    backend.read(["Orders!A1"])
    DROPS[drop](backend, 0)
    cells, tracked = _cells_alive() - others, len(gc.get_objects())
    for turn in range(1, ROUNDS + 1):
        DROPS[drop](backend, turn)
    left = _cells_alive() - others
    assert cells <= ROWS * COLS and left <= cells, f"{drop} left the workbooks' cells to the collector"
    assert len(gc.get_objects()) - tracked < ROUNDS * ROWS * COLS
    del backend
    assert _cells_alive() == others
