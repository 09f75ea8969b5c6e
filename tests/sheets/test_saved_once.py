"""A local workbook's changes held and saved once (``LocalWorkbookBackend.saved_once``), and a new workbook made by
its first save (``start_new``): read as made meanwhile, nothing saved on an error, and a player's save meanwhile
neither lost nor written over."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.sheets.backend import RangeWrite, SavedMeanwhileError
from sheets_gm.sheets.layout import ReadGuard, TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.sheets import each_saved_once


def _book(path: Path) -> LocalWorkbookBackend:
    """A workbook of one tab, Orders, as an office program saved it."""
    wb = openpyxl.Workbook()
    wb.active.title = "Orders"
    wb.save(path)
    return LocalWorkbookBackend(path)


def _typed(path: Path, cell: str, value: str) -> None:
    """A player's save of ``cell`` (her office program takes no lock of ours)."""
    wb = openpyxl.load_workbook(path)
    wb["Orders"][cell] = value
    wb.save(path)


def test_changes_held_are_read_as_made_and_saved_once_at_the_end(tmp_path: Path) -> None:
    backend = _book(tmp_path / "a.xlsx")
    before = (tmp_path / "a.xlsx").read_bytes()
    with backend.saved_once():
        backend.write([RangeWrite("Orders!A1", [["move"]])])
        backend.apply_layout(WorkbookLayout("t", (TabLayout("Board", rows=2, cols=2),)), [
            RangeWrite("Board!A1", [["drawn"]])])
        assert backend.read(["Orders!A1", "Board!A1"]) == [[["move"]], [["drawn"]]]
        assert (tmp_path / "a.xlsx").read_bytes() == before
    assert backend.changes == 1
    assert LocalWorkbookBackend(tmp_path / "a.xlsx").read(["Orders!A1", "Board!A1"]) == [[["move"]], [["drawn"]]]


def test_an_error_inside_saves_nothing(tmp_path: Path) -> None:
    backend = _book(tmp_path / "a.xlsx")
    before = (tmp_path / "a.xlsx").read_bytes()
    with pytest.raises(RuntimeError), backend.saved_once():
        backend.write([RangeWrite("Orders!A1", [["move"]])])
        raise RuntimeError("cut")
    assert (tmp_path / "a.xlsx").read_bytes() == before and backend.changes == 0
    assert backend.read(["Orders!A1"]) == [[]]


def test_a_players_save_meanwhile_is_kept_and_the_changes_made_again_on_it(tmp_path: Path) -> None:
    backend = _book(tmp_path / "a.xlsx")
    with backend.saved_once():
        backend.write([RangeWrite("Orders!A1", [["move"]])])
        _typed(tmp_path / "a.xlsx", "B2", "typed")
    assert LocalWorkbookBackend(tmp_path / "a.xlsx").read(["Orders!A1:B2"]) == [[["move"], ["", "typed"]]]


def test_a_guarded_cell_saved_meanwhile_stops_every_change(tmp_path: Path) -> None:
    backend = _book(tmp_path / "a.xlsx")
    (read,) = backend.read(["Orders!A1:A2"])
    with pytest.raises(SavedMeanwhileError), each_saved_once([backend]):
        backend.write([RangeWrite("Orders!C1", [["laid"]])])
        backend.write([RangeWrite("Orders!A1", [["drawn"]])], guard=[ReadGuard("Orders!A1:A2", read)])
        _typed(tmp_path / "a.xlsx", "A2", "typed")
    assert LocalWorkbookBackend(tmp_path / "a.xlsx").read(["Orders!A1:C2"]) == [[[], ["typed"]]]


def test_a_new_workbook_is_read_from_memory_and_made_by_its_first_save(tmp_path: Path) -> None:
    backend = LocalWorkbookBackend(tmp_path / "new.xlsx")
    backend.start_new(WorkbookLayout("t", (TabLayout("About", rows=1, cols=1, values={"A1": [["about"]]}),)),
                      private=True)
    assert backend.tab_names() == ["About"] and not (tmp_path / "new.xlsx").exists()
    backend.apply_layout(WorkbookLayout("t", (TabLayout("Board", rows=1, cols=1),)), [RangeWrite("Board!A1", [["x"]])])
    assert backend.changes == 1 and (tmp_path / "new.xlsx").stat().st_mode & 0o777 == 0o600
    assert LocalWorkbookBackend(tmp_path / "new.xlsx").read(["About!A1", "Board!A1"]) == [[["about"]], [["x"]]]
