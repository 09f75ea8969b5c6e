"""The local workbook backend: RAW writes, Google-like reads, atomic saves, locks, layouts."""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from sheets_gm.sheets.backend import RangeWrite, SheetAccessError, SheetBackend, SheetError
from sheets_gm.sheets.layout import (
    Checkbox,
    ConditionalFill,
    Dropdown,
    Fill,
    Grid,
    Protection,
    TabLayout,
    WorkbookLayout,
    a1,
)
from sheets_gm.sheets.local.backend import LocalWorkbookBackend, create_workbook
from sheets_gm.sheets.local.cells import MAX_CELL_CHARS
from sheets_gm.sheets.local.layout import LISTS_TAB
from tests.office.office import Office
from tests.quick import soak_but


class FakeClock:
    """A clock that only moves when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def make_book(path: Path, tabs: dict[str, dict[str, Any]] | None = None) -> Path:
    """A workbook saved with openpyxl, as a user's office program would leave it."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, cells in (tabs or {"Board": {}, "Orders red": {}}).items():
        ws = wb.create_sheet(name)
        for ref, value in cells.items():
            ws[ref] = value
    wb.save(path)
    return path


def backend_for(path: Path, clock: FakeClock | None = None, timeout: float = 0.0) -> LocalWorkbookBackend:
    clock = clock or FakeClock()
    return LocalWorkbookBackend(path, lock_timeout=timeout, clock=clock, sleep=clock.sleep)


def leftovers(folder: Path) -> list[str]:
    """Temporary files a save left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return make_book(tmp_path / "match.xlsx")


@pytest.fixture
def backend(book: Path) -> LocalWorkbookBackend:
    return backend_for(book)


def test_is_a_sheet_backend(backend: LocalWorkbookBackend, book: Path) -> None:
    as_protocol: SheetBackend = backend
    assert as_protocol.name == str(book)
    assert backend.lock_path == book.parent / ".match.xlsx.sheets-gm.lock"


# ---------------------------------------------------------------------------- reads and writes


def test_round_trip_of_many_ranges_in_one_save(
    backend: LocalWorkbookBackend, book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replaces: list[str] = []
    real_replace = os.replace

    def counting_replace(src: Any, dst: Any) -> None:
        replaces.append(str(dst))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", counting_replace)
    backend.write(
        [
            RangeWrite(a1("Board", "A1:C2"), [["turn", 3, 2.5], [True, False, "🐉 dragon"]]),
            RangeWrite(a1("Orders red", "B2"), [["F7", "attack"]]),
        ]
    )
    assert replaces == [str(book)]
    assert leftovers(book.parent) == []
    assert backend.read([a1("Board", "A1:C2"), a1("Orders red", "A1:C3"), "'Orders red'!B2"]) == [
        [["turn", 3, 2.5], [True, False, "🐉 dragon"]],
        [[], ["", "F7", "attack"]],
        [["F7"]],
    ]


def test_none_leaves_a_cell_and_empty_text_clears_it(backend: LocalWorkbookBackend) -> None:
    backend.write([RangeWrite("Board!A1:C1", [["a", "b", "c"]])])
    backend.write([RangeWrite("Board!A1:C1", [[None, "", "C"]])])
    assert backend.read(["Board!A1:C1"]) == [[["a", "", "C"]]]


def test_notes_are_cell_comments_an_office_program_shows_on_hover(backend: LocalWorkbookBackend, book: Path) -> None:
    backend.write([RangeWrite("Board!A1:B1", [["3C", "4C"]], [["Dominaria 3C\nAnn: 5000 Elves", "old"]])])
    backend.write([RangeWrite("Board!A1:B1", [[None, None]], [[None, ""]])])
    ws = openpyxl.load_workbook(book)["Board"]
    assert ws["A1"].comment.text == "Dominaria 3C\nAnn: 5000 Elves" and ws["A1"].value == "3C"
    assert ws["A1"].comment.width > 100  # sized to show its lines, not the default few words
    assert ws["B1"].comment is None and ws["B1"].value == "4C"
    assert backend.read(["Board!A1:B1"]) == [[["3C", "4C"]]]  # a note is never read as a value
    mark = book.stat().st_mtime_ns
    backend.write([RangeWrite("Board!A1", [["3C"]], [["Dominaria 3C\nAnn: 5000 Elves"]])])
    assert book.stat().st_mtime_ns == mark  # the same note again changes nothing


def test_a_single_cell_anchors_the_values(backend: LocalWorkbookBackend) -> None:
    backend.write([RangeWrite("Board!B2", [[1, 2], [3, 4]])])
    assert backend.read(["Board!A1:D4"]) == [[[], ["", 1, 2], ["", 3, 4]]]


def test_values_larger_than_the_range_write_nothing(backend: LocalWorkbookBackend, book: Path) -> None:
    before = book.read_bytes()
    with pytest.raises(SheetError, match="smaller than the 1 x 3 values"):
        backend.write([RangeWrite("Board!A1", [["ok"]]), RangeWrite("Board!A2:B2", [[1, 2, 3]])])
    assert book.read_bytes() == before


def test_an_unknown_tab_is_named(backend: LocalWorkbookBackend, book: Path) -> None:
    with pytest.raises(SheetError, match="no tab named 'Orders blue'"):
        backend.read(["'Orders blue'!A1"])
    with pytest.raises(SheetError, match="no tab named 'Nope'"):
        backend.write([RangeWrite("Nope!A1", [["x"]])])
    with pytest.raises(SheetError, match="not an A1 range"):
        backend.read(["Board!A1:B2:C3"])


def test_range_forms(tmp_path: Path) -> None:
    path = make_book(
        tmp_path / "forms.xlsx",
        {"Board": {"A1": "a1", "B2": "b2", "C3": "c3"}, "Bob's tab": {"A1": "bob"}},
    )
    be = backend_for(path)
    assert be.read(["Board", "Board!A:B", "Board!2:3", "Board!B2:C", "A1:A1", "'Bob''s tab'!A1", "board!C3"]) == [
        [["a1"], ["", "b2"], ["", "", "c3"]],
        [["a1"], ["", "b2"]],
        [["", "b2"], ["", "", "c3"]],
        [["b2"], ["", "c3"]],
        [["a1"]],
        [["bob"]],
        [["c3"]],
    ]


def test_reads_are_trimmed_like_google(tmp_path: Path) -> None:
    path = make_book(tmp_path / "trim.xlsx", {"Board": {"B2": "x", "D4": 0, "F6": "", "A8": None}})
    wb = openpyxl.load_workbook(path)
    wb["Board"]["E5"].fill = PatternFill(fill_type="solid", start_color="FFFF0000", end_color="FFFF0000")
    wb.save(path)
    be = backend_for(path)
    assert be.read(["Board!A1:H9", "Board!E5:H9", "Board!X100:Z200", "Board"]) == [
        [[], ["", "x"], [], ["", "", "", 0]],
        [],
        [],
        [[], ["", "x"], [], ["", "", "", 0]],
    ]


def test_reads_what_a_user_typed(tmp_path: Path) -> None:
    long_text = "x" * 49_999 + "🐉"
    path = tmp_path / "typed.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Orders red"
    ws["A1"] = 7
    ws["A2"] = 2.75
    ws["A3"] = True
    ws["A4"] = dt.datetime(2024, 3, 1)
    ws["A4"].number_format = "yyyy-mm-dd"
    ws["A5"] = dt.datetime(2024, 3, 1, 12, 30)
    ws["A6"] = dt.time(12, 30)
    ws["A7"] = dt.timedelta(hours=30, minutes=5)
    ws["A8"] = "=SUM(A1:A2)"
    ws["A9"] = "🏹 F7 ⚔️"
    ws["A10"].value = "#N/A"
    ws["A11"] = "  f 7  "
    ws["A12"] = dt.date(2024, 12, 31)
    # openpyxl cuts text at 32,767 characters; a user's office program may not: store 50,000.
    ws["A13"]._value = long_text
    ws["A13"].data_type = "s"
    wb.save(path)

    got = backend_for(path).read(["'Orders red'!A1:A13"])[0]
    assert [row[0] for row in got] == [
        7,
        2.75,
        True,
        "2024-03-01",
        "2024-03-01T12:30:00",
        "12:30:00",
        "30:05:00",
        "=SUM(A1:A2)",
        "🏹 F7 ⚔️",
        "#N/A",
        "  f 7  ",
        "2024-12-31",
        long_text,
    ]
    assert isinstance(got[0][0], int) and isinstance(got[2][0], bool)


def test_libreoffice_booleans_read_as_booleans(tmp_path: Path) -> None:
    # LibreOffice saves a typed or ticked TRUE as <c t="b"><f>TRUE()</f><v>1</v></c>.
    path = make_book(tmp_path / "lo.xlsx", {"Board": {"A1": "=TRUE()", "B1": "=FALSE()", "C1": "=TRUE()+0"}})
    assert backend_for(path).read(["Board!A1:C1"]) == [[[True, False, "=TRUE()+0"]]]


def count_loads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """From now on, every load of a workbook file (the arguments of each ``openpyxl.load_workbook``)."""
    loads: list[object] = []
    real_load = openpyxl.load_workbook

    def counting_load(*args: Any, **kwargs: Any) -> Any:
        loads.append(args)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(openpyxl, "load_workbook", counting_load)
    return loads


def test_one_load_per_read_and_a_cache_until_the_file_changes(
    backend: LocalWorkbookBackend, book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_load = openpyxl.load_workbook
    loads = count_loads(monkeypatch)
    backend.read(["Board!A1", "'Orders red'!A1:E6", "Board"])
    assert len(loads) == 1
    backend.read(["Board!A1"])
    assert len(loads) == 1
    wb = real_load(book)
    wb["Board"]["A1"] = "typed and saved"
    wb.save(book)
    assert backend.read(["Board!A1"]) == [[["typed and saved"]]]
    assert len(loads) == 2


# ---------------------------------------------------------------------------- RAW


@pytest.mark.parametrize(
    "text", ['=HYPERLINK("http://x")', "=1+1", "+1", "-1", "@SUM(A1)", "=", "'=quoted", "=A1\n=B2"]
)
def test_formula_like_text_is_written_as_text(backend: LocalWorkbookBackend, book: Path, text: str) -> None:
    backend.write([RangeWrite("Board!A1", [[text]])])
    cell = openpyxl.load_workbook(book)["Board"]["A1"]
    assert cell.data_type == "s"
    assert cell.value == text
    assert cell.quotePrefix == text.startswith(("=", "+", "-", "@"))
    with zipfile.ZipFile(book) as z:
        assert b"<f>" not in z.read("xl/worksheets/sheet1.xml")
    assert backend.read(["Board!A1"]) == [[[text]]]


def test_a_user_formula_echoed_back_becomes_text(tmp_path: Path) -> None:
    path = make_book(tmp_path / "f.xlsx", {"Board": {"A1": "=1+1"}})
    be = backend_for(path)
    [[[typed]]] = be.read(["Board!A1"])
    assert typed == "=1+1"
    be.write([RangeWrite("Board!A1", [[typed]])])
    cell = openpyxl.load_workbook(path)["Board"]["A1"]
    assert (cell.data_type, cell.value) == ("s", "=1+1")


def test_a_number_replaces_a_quote_prefix(backend: LocalWorkbookBackend, book: Path) -> None:
    backend.write([RangeWrite("Board!A1", [["-3"]])])
    backend.write([RangeWrite("Board!A1", [[-3]])])
    cell = openpyxl.load_workbook(book)["Board"]["A1"]
    assert (cell.value, cell.data_type, cell.quotePrefix) == (-3, "n", False)


def expected_text(text: str) -> str:
    """What a cell keeps of ``text``: the backend's documented clean-up."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(
        "\ufffd" if (ord(c) < 32 and c not in "\t\n") or 0xD800 <= ord(c) <= 0xDFFF or c in "\ufffe\uffff" else c
        for c in text
    )
    units = 0
    for i, c in enumerate(text):
        units += 2 if ord(c) > 0xFFFF else 1
        if units > MAX_CELL_CHARS:
            return text[:i]
    return text


@pytest.mark.parametrize("examples", soak_but([60, 20], 20))  # a save and two loads an example: 20 quick, 60 soak
def test_any_text_round_trips_as_text(backend: LocalWorkbookBackend, book: Path, examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(text=st.text(min_size=1, max_size=80))
    def walk(text: str) -> None:
        backend.write([RangeWrite("Board!A1", [[text]])])
        cell = openpyxl.load_workbook(book)["Board"]["A1"]
        want = expected_text(text)
        if want:
            assert cell.data_type == "s"
        got = backend.read(["Board!A1"])[0]
        assert got == ([[want]] if want else [])

    walk()


cell_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.floats(min_value=-1e300, max_value=1e300, width=64),
    st.text(max_size=30),
)


@pytest.mark.parametrize("examples", soak_but([40, 15], 15))  # a new workbook an example: 15 quick, 40 soak
def test_any_grid_round_trips(tmp_path: Path, examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(grid=st.lists(st.lists(cell_values, min_size=1, max_size=4), min_size=1, max_size=4))
    def walk(grid: Grid) -> None:
        _grid_round_trips(tmp_path, grid)

    walk()


def _grid_round_trips(tmp_path: Path, grid: Grid) -> None:
    """``grid`` written in a new workbook reads back as written (empty cells and rows at the ends dropped)."""
    path = tmp_path / "grid.xlsx"
    if path.exists():
        path.unlink()
    make_book(path)
    be = backend_for(path)
    be.write([RangeWrite("Board!A1:D4", grid)])
    want: list[list[Any]] = []
    for row in grid:
        cells = ["" if v is None else expected_text(v) if isinstance(v, str) else v for v in row]
        while cells and cells[-1] == "":
            cells.pop()
        want.append(cells)
    while want and not want[-1]:
        want.pop()
    got = be.read(["Board!A1:D4"])[0]
    assert [len(r) for r in got] == [len(r) for r in want]
    for got_row, want_row in zip(got, want, strict=True):
        for g, w in zip(got_row, want_row, strict=True):
            assert isinstance(g, bool) == isinstance(w, bool)
            assert isinstance(g, str) == isinstance(w, str)
            if isinstance(w, float):  # 16 significant digits; an integral float may come back as an int
                assert g == pytest.approx(w, rel=1e-15, abs=1e-300)
            else:
                assert g == w


def test_text_is_made_storable(backend: LocalWorkbookBackend, book: Path) -> None:
    backend.write(
        [
            RangeWrite(
                "Board!A1:A4",
                [["bell\x07 nul\x00"], ["a\r\nb\rc"], ["y" * 50_000], ["🐉" * 20_000]],
            )
        ]
    )
    got = [row[0] for row in backend.read(["Board!A1:A4"])[0]]
    assert got[0] == "bell\ufffd nul\ufffd"
    assert got[1] == "a\nb\nc"
    assert got[2] == "y" * MAX_CELL_CHARS
    assert got[3] == "🐉" * (MAX_CELL_CHARS // 2)
    openpyxl.load_workbook(book)


def test_values_a_workbook_cannot_hold_are_refused(backend: LocalWorkbookBackend) -> None:
    for bad in (float("nan"), float("inf"), 1.7976931348623155e308):
        with pytest.raises(SheetError, match="cannot be stored"):
            backend.write([RangeWrite("Board!A1", [[bad]])])
    with pytest.raises(TypeError, match="date"):
        backend.write([RangeWrite("Board!A1", [[dt.date(2024, 1, 1)]])])  # type: ignore[list-item]


def test_merged_cells_are_not_written(tmp_path: Path) -> None:
    path = make_book(tmp_path / "merged.xlsx")
    wb = openpyxl.load_workbook(path)
    wb["Board"].merge_cells("A1:B1")
    wb.save(path)
    with pytest.raises(SheetError, match="B1 of tab 'Board' is inside merged cells"):
        backend_for(path).write([RangeWrite("Board!A1:B1", [["x", "y"]])])


# ---------------------------------------------------------------------------- atomic saves


def test_a_crash_before_the_rename_leaves_the_original(
    backend: LocalWorkbookBackend, book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend.write([RangeWrite("Board!A1", [["before"]])])
    original = book.read_bytes()

    def crash(src: Any, dst: Any) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SheetAccessError, match=f"cannot save {book}"):
        backend.write([RangeWrite("Board!A1", [["after"]])])
    assert book.read_bytes() == original
    assert leftovers(book.parent) == []
    assert backend.read(["Board!A1"]) == [[["before"]]]


def test_an_interrupt_while_writing_the_temporary_file_leaves_nothing(
    backend: LocalWorkbookBackend, book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = book.read_bytes()

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        backend.write([RangeWrite("Board!A1", [["after"]])])
    assert book.read_bytes() == original
    assert leftovers(book.parent) == []


def test_a_save_by_someone_else_during_the_write_is_kept(
    backend: LocalWorkbookBackend, book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_fsync = os.fsync
    calls: list[int] = []

    def user_saves_meanwhile(fd: int) -> None:
        real_fsync(fd)
        if not calls:
            wb = openpyxl.load_workbook(book)
            wb["Orders red"]["B2"] = "F7 typed meanwhile"
            wb.save(book)
        calls.append(fd)

    monkeypatch.setattr(os, "fsync", user_saves_meanwhile)
    backend.write([RangeWrite("Board!A1", [["turn 2"]])])
    assert backend.read(["Board!A1", "'Orders red'!B2"]) == [[["turn 2"]], [["F7 typed meanwhile"]]]
    assert leftovers(book.parent) == []


def test_an_edit_saved_between_read_and_write_is_kept(backend: LocalWorkbookBackend, book: Path) -> None:
    backend.write([RangeWrite("'Orders red'!A2:B2", [["Ada", "F7"]])])
    assert backend.read(["'Orders red'!A2:B3"]) == [[["Ada", "F7"]]]
    wb = openpyxl.load_workbook(book)
    wb["Orders red"]["A3"] = "Bob"
    wb["Orders red"]["B3"] = "G8"
    wb.save(book)
    backend.write([RangeWrite("'Orders red'!C2", [["ok: moving to F7"]])])
    assert backend.read(["'Orders red'!A2:C3"]) == [[["Ada", "F7", "ok: moving to F7"], ["Bob", "G8"]]]


def test_file_mode_is_kept_and_symlinks_stay_links(tmp_path: Path) -> None:
    real = make_book(tmp_path / "real.xlsx")
    os.chmod(real, 0o640)
    link = tmp_path / "link.xlsx"
    link.symlink_to(real)
    backend_for(link).write([RangeWrite("Board!A1", [["via link"]])])
    assert link.is_symlink()
    assert oct(os.stat(real).st_mode & 0o777) == oct(0o640)
    assert backend_for(real).read(["Board!A1"]) == [[["via link"]]]


def test_cells_outside_the_written_ranges_are_preserved(tmp_path: Path) -> None:
    path = tmp_path / "kept.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Orders red"
    ws["A1"] = "Player"
    ws["A1"].font = Font(bold=True)
    ws["A1"].fill = PatternFill(fill_type="solid", start_color="FFAABBCC", end_color="FFAABBCC")
    ws["C2"] = 12.5
    ws["C2"].number_format = "0.00"
    ws["D2"] = "=SUM(C2:C9)"
    ws["E2"].comment = Comment("GM note", "gm")
    dv = DataValidation(type="list", formula1='"move,attack"', allow_blank=True, showErrorMessage=True)
    dv.add("B2:B6")
    ws.add_data_validation(dv)
    ws.column_dimensions["B"].width = 30
    ws.freeze_panes = "A2"
    ws.protection.sheet = True
    wb.create_sheet("Board")["A1"] = "board"
    wb.save(path)

    backend_for(path).write([RangeWrite("'Orders red'!B2:B3", [["attack"], ["move"]])])

    ws = openpyxl.load_workbook(path)["Orders red"]
    assert [ws["B2"].value, ws["B3"].value] == ["attack", "move"]
    assert ws["A1"].value == "Player" and ws["A1"].font.b
    assert ws["A1"].fill.fgColor.rgb == "FFAABBCC"
    assert (ws["C2"].value, ws["C2"].number_format) == (12.5, "0.00")
    assert (ws["D2"].value, ws["D2"].data_type) == ("=SUM(C2:C9)", "f")
    assert ws["E2"].comment is not None and ws["E2"].comment.text == "GM note"
    [kept] = ws.data_validations.dataValidation
    assert (kept.formula1, str(kept.sqref), kept.showErrorMessage) == ('"move,attack"', "B2:B6", True)
    assert ws.column_dimensions["B"].width == 30
    assert ws.freeze_panes == "A2"
    assert ws.protection.sheet
    assert openpyxl.load_workbook(path)["Board"]["A1"].value == "board"


def test_an_unchanged_write_does_not_touch_the_file(backend: LocalWorkbookBackend, book: Path) -> None:
    backend.write([RangeWrite("Board!A1:B1", [["same", 1]])])
    stamp = os.stat(book)
    (book.parent / ".~lock.match.xlsx#").write_text("u,Ada,host,date,url;")
    backend.write([RangeWrite("Board!A1:B1", [["same", 1]])])  # open elsewhere, but nothing to save
    assert os.stat(book).st_mtime_ns == stamp.st_mtime_ns and os.stat(book).st_ino == stamp.st_ino


def test_export_is_the_file(backend: LocalWorkbookBackend, book: Path) -> None:
    backend.write([RangeWrite("Board!A1", [["exported"]])])
    data = backend.export_xlsx()
    assert data == book.read_bytes()
    assert data[:2] == b"PK"


# ---------------------------------------------------------------------------- locks and bad files


@pytest.mark.parametrize(
    ("lock_name", "program"),
    [(".~lock.match.xlsx#", "LibreOffice"), ("~$match.xlsx", "Excel"), ("~$tch.xlsx", "Excel")],
)
def test_a_workbook_open_in_an_office_program_is_not_written(
    backend: LocalWorkbookBackend, book: Path, lock_name: str, program: str
) -> None:
    original = book.read_bytes()
    lock = book.parent / lock_name
    lock.write_bytes(b"u,Ada Lovelace,ada-laptop,22.11.2025 10:00,file:///match.xlsx;" if "lock" in lock_name
                     else b"\x03Ada" + b" " * 50)
    with pytest.raises(SheetAccessError) as caught:
        backend.write([RangeWrite("Board!A1", [["x"]])])
    message = str(caught.value)
    assert f"open in {program}" in message and lock_name in message and str(book) in message
    assert "close the file" in message and "Ada" in message
    assert book.read_bytes() == original
    with pytest.raises(SheetAccessError, match="close the file"):
        backend.apply_layout(WorkbookLayout("t", (TabLayout("Board", rows=5, cols=5),)))
    assert backend.read(["Board!A1"]) == [[]]  # reading a workbook open elsewhere is fine
    lock.unlink()
    backend.write([RangeWrite("Board!A1", [["x"]])])


def test_another_sync_holding_the_lock_gives_a_clear_error_without_sleeping(book: Path) -> None:
    clock = FakeClock()
    be = backend_for(book, clock, timeout=2.0)
    fd = os.open(be.lock_path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(SheetAccessError, match=r"another sync is writing .*match\.xlsx"):
            be.write([RangeWrite("Board!A1", [["x"]])])
        assert clock.now >= 2.0 and clock.sleeps and max(clock.sleeps) <= 0.5
    finally:
        os.close(fd)
    be.write([RangeWrite("Board!A1", [["x"]])])
    assert be.read(["Board!A1"]) == [[["x"]]]


def test_the_lock_can_span_a_whole_sync_and_is_reentrant(book: Path) -> None:
    first = backend_for(book)
    second = backend_for(book)
    with first.hold_lock():
        first.read(["Board!A1"])
        first.write([RangeWrite("Board!A1", [["turn 2"]])])
        with pytest.raises(SheetAccessError, match="another sync"):
            second.write([RangeWrite("Board!A1", [["turn 2 again"]])])
    second.write([RangeWrite("Board!B1", [["after"]])])
    assert first.read(["Board!A1:B1"]) == [[["turn 2", "after"]]]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    be = backend_for(tmp_path / "nowhere.xlsx")
    for call in (lambda: be.read(["Board!A1"]), lambda: be.write([RangeWrite("Board!A1", [["x"]])]), be.export_xlsx):
        with pytest.raises(SheetAccessError, match=r"nowhere\.xlsx does not exist"):
            call()


@pytest.mark.parametrize("content", [b"not a zip at all", b"PK\x03\x04 truncated", b""])
def test_a_corrupt_file_is_named(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.xlsx"
    path.write_bytes(content)
    with pytest.raises(SheetAccessError, match=f"{path} is not a readable .xlsx workbook"):
        backend_for(path).read(["Board!A1"])
    with pytest.raises(SheetAccessError, match=str(path)):
        backend_for(path).write([RangeWrite("Board!A1", [["x"]])])
    assert path.read_bytes() == content


def test_a_zip_that_is_not_a_workbook_is_named(tmp_path: Path) -> None:
    path = tmp_path / "zip.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(SheetAccessError, match=str(path)):
        backend_for(path).read(["Board!A1"])


def test_other_formats_and_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SheetAccessError, match=r"match\.ods is not an \.xlsx workbook"):
        LocalWorkbookBackend(tmp_path / "match.ods")
    folder = tmp_path / "folder.xlsx"
    folder.mkdir()
    with pytest.raises(SheetAccessError, match=r"folder\.xlsx is not a file"):
        backend_for(folder).read(["A1"])


def test_an_unreadable_file_is_named(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_read_bytes = Path.read_bytes

    def denied(self: Path) -> bytes:
        if self == book:
            raise PermissionError(13, "Permission denied")
        return real_read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", denied)  # as root, chmod 000 would not stop a read
    be = backend_for(book)
    for call in (lambda: be.read(["Board!A1"]), lambda: be.write([RangeWrite("Board!A1", [["x"]])]), be.export_xlsx):
        with pytest.raises(SheetAccessError, match=f"cannot read {book}: Permission denied"):
            call()


# ---------------------------------------------------------------------------- layouts

ACTIONS = ("move", "attack", "defend", "revive", "buff")
LONG = tuple(f"skill number {i:02d} with a long name" for i in range(12))  # > 255 characters inline


def gvg_like_layout() -> WorkbookLayout:
    return WorkbookLayout(
        title="GvG test match",
        tabs=(
            TabLayout(
                "Board",
                rows=12,
                cols=8,
                frozen_rows=1,
                values={"A1": [["Turn", 1, "=not a formula"]]},
                fills=(Fill("A1:H1", "#1f4e79", bold=True), Fill("B3:C4", "#00AA00")),
                conditional_fills=(ConditionalFill("B3:H12", "●", "#F4CCCC", bold=True),
                                   ConditionalFill("B3:H12", 'a "b"', "#cfe2f3")),
                column_widths={0: 110, 1: 40},
            ),
            TabLayout(
                "Orders red",
                rows=6,
                cols=6,
                frozen_rows=1,
                values={"A1:F1": [["Player", "Destination", "Action", "Teleport", "Ready", "Feedback"]]},
                dropdowns=(Dropdown("C2:C6", ACTIONS),),
                checkboxes=(Checkbox("E2"),),
                protections=(
                    Protection("A1:F1", "headers"),
                    Protection("F2:F6", "feedback: the engine writes it"),
                    Protection("A2:D2", "Ada's orders", editors=("ada@example.com",)),
                ),
            ),
            TabLayout(
                "Settings",
                rows=5,
                cols=3,
                values={"A1": [["Skill", "Reach"]]},
                dropdowns=(Dropdown("A2:A5", LONG), Dropdown("B2:B5", ("1, king", "1, rook"))),
                protections=(Protection(None, "GM only"),),
            ),
            TabLayout(
                "Engine",
                rows=10,
                cols=4,
                hidden=True,
                values={"A1": [["state"]]},
                protections=(Protection(None, "engine state"),),
            ),
        ),
    )


def validation_at(ws: Any, ref: str) -> Any:
    found = [dv for dv in ws.data_validations.dataValidation if ref in dv.sqref]
    assert len(found) == 1, (ref, found)
    return found[0]


@pytest.fixture
def applied(tmp_path: Path) -> Path:
    path = tmp_path / "new.xlsx"
    create_workbook(path, gvg_like_layout())
    return path


def test_layout_tabs_in_order_and_the_default_sheet_gone(applied: Path) -> None:
    wb = openpyxl.load_workbook(applied)
    assert wb.sheetnames == ["Board", "Orders red", "Settings", "Engine", LISTS_TAB]
    assert wb.properties.title == "GvG test match"
    assert wb.active.title == "Board"


def test_layout_values_are_raw(applied: Path) -> None:
    ws = openpyxl.load_workbook(applied)["Board"]
    assert (ws["A1"].value, ws["B1"].value, ws["C1"].value, ws["C1"].data_type) == ("Turn", 1, "=not a formula", "s")


def test_layout_dropdowns_and_checkboxes(applied: Path) -> None:
    wb = openpyxl.load_workbook(applied)
    orders = wb["Orders red"]
    actions = validation_at(orders, "C4")
    assert (actions.type, actions.formula1) == ("list", '"move,attack,defend,revive,buff"')
    assert actions.allowBlank and actions.showErrorMessage and str(actions.sqref) == "C2:C6"
    ready = validation_at(orders, "E2")
    assert ready.formula1 == '"TRUE,FALSE"'
    assert orders["E2"].value is False
    assert backend_for(applied).read(["'Orders red'!E2"]) == [[[False]]]

    settings_ws = wb["Settings"]
    long_rule = validation_at(settings_ws, "A3")
    comma_rule = validation_at(settings_ws, "B3")
    assert long_rule.formula1 == f"'{LISTS_TAB}'!$A$1:$A${len(LONG)}"
    assert comma_rule.formula1 == f"'{LISTS_TAB}'!$B$1:$B$2"
    lists = wb[LISTS_TAB]
    assert lists.sheet_state == "hidden"
    assert [lists.cell(row=i + 1, column=1).value for i in range(len(LONG))] == list(LONG)
    assert [lists["B1"].value, lists["B2"].value] == ["1, king", "1, rook"]


def test_layout_frozen_rows_hidden_tabs_fills_widths(applied: Path) -> None:
    wb = openpyxl.load_workbook(applied)
    board = wb["Board"]
    assert board.freeze_panes == "A2"
    assert wb["Settings"].freeze_panes is None
    assert wb["Engine"].sheet_state == "hidden" and board.sheet_state == "visible"
    assert board["H1"].fill.fgColor.rgb == "FF1F4E79" and board["H1"].font.b
    assert board["C4"].fill.fgColor.rgb == "FF00AA00" and not board["C4"].font.b
    assert board["D4"].fill.fill_type is None
    assert board.column_dimensions["A"].width == pytest.approx(15.0)
    assert board.column_dimensions["B"].width == pytest.approx(5.0)


def conditional_rules(ws: Any) -> list[tuple[str, Any]]:
    return [(str(cf.sqref), rule) for cf in ws.conditional_formatting for rule in cf.rules]


def test_layout_conditional_fills(applied: Path) -> None:
    wb = openpyxl.load_workbook(applied)
    rules = conditional_rules(wb["Board"])
    assert [(ref, r.type, r.operator, r.text, r.formula) for ref, r in rules] == [
        ("B3:H12", "beginsWith", "beginsWith", "●", ['LEFT(B3,LEN("●"))="●"']),
        ("B3:H12", "beginsWith", "beginsWith", 'a "b"', ['LEFT(B3,LEN("a ""b"""))="a ""b"""']),
    ]
    dot, quoted = (r.dxf for _, r in rules)
    assert dot.fill.bgColor.rgb == "FFF4CCCC" and dot.fill.fill_type == "solid" and dot.font.b
    assert quoted.fill.bgColor.rgb == "FFCFE2F3" and quoted.font is None
    assert conditional_rules(wb["Orders red"]) == []


def test_layout_protections(applied: Path) -> None:
    wb = openpyxl.load_workbook(applied)
    assert not wb["Board"].protection.sheet  # no GM-only protection: everything editable

    orders = wb["Orders red"]
    assert orders.protection.sheet
    locked = {ref for ref in ("A1", "F1", "F2", "F6", "B2", "C3", "E2", "D6") if orders[ref].protection.locked}
    assert locked == {"A1", "F1", "F2", "F6"}  # headers and feedback; orders, dropdowns, the tick box are open

    settings_ws = wb["Settings"]
    assert settings_ws.protection.sheet
    assert settings_ws["A1"].protection.locked and settings_ws["C3"].protection.locked
    assert not settings_ws["A3"].protection.locked and not settings_ws["B5"].protection.locked

    engine = wb["Engine"]
    assert engine.protection.sheet and engine["A1"].protection.locked and engine["D10"].protection.locked


def test_applying_a_layout_again_reshapes_without_losing_data(applied: Path) -> None:
    be = backend_for(applied)
    be.write([RangeWrite("'Orders red'!A2:C2", [["Ada", "F7", "attack"]])])
    wb = openpyxl.load_workbook(applied)
    wb.create_sheet("GM notes")["A1"] = "remember the boss"
    wb.save(applied)

    be.apply_layout(gvg_like_layout())
    be.apply_layout(gvg_like_layout())

    wb = openpyxl.load_workbook(applied)
    assert wb.sheetnames == ["Board", "Orders red", "Settings", "Engine", "GM notes", LISTS_TAB]
    assert len(wb["Orders red"].data_validations.dataValidation) == 2
    assert [r.text for _, r in conditional_rules(wb["Board"])] == ["●", 'a "b"']
    assert len(wb._differential_styles.styles) == 2
    assert be.read(["'Orders red'!A2:C2", "'GM notes'!A1"]) == [[["Ada", "F7", "attack"]], [["remember the boss"]]]


def test_a_smaller_layout_drops_the_helper_tab(applied: Path) -> None:
    small = WorkbookLayout("t", (TabLayout("Board", rows=3, cols=3, dropdowns=(Dropdown("A1", ("a", "b")),)),))
    backend_for(applied).apply_layout(small)
    assert LISTS_TAB not in openpyxl.load_workbook(applied).sheetnames


@pytest.mark.parametrize(
    ("tab", "message"),
    [
        (TabLayout("Board", rows=3, cols=3, dropdowns=(Dropdown("D1", ("a",)),)), "outside its 3 x 3 cells"),
        (TabLayout("Board", rows=3, cols=3, fills=(Fill("A1", "red"),)), "is not #RRGGBB"),
        (TabLayout("Board", rows=3, cols=3, conditional_fills=(ConditionalFill("A1:C3", "●", "red"),)),
         "conditional fill 'A1:C3': colour 'red' is not #RRGGBB"),
        (TabLayout("Board", rows=3, cols=3, conditional_fills=(ConditionalFill("A1:D3", "●", "#FF0000"),)),
         "conditional fill range 'A1:D3' is outside its 3 x 3 cells"),
        (TabLayout("Board", rows=3, cols=3, values={"C3": [["a", "b"]]}), "run past"),
        (TabLayout("B" * 32, rows=3, cols=3), "31 characters"),
        (TabLayout("Bad/name", rows=3, cols=3), "cannot be a tab name"),
        (TabLayout(LISTS_TAB, rows=3, cols=3), "reserved"),
        (TabLayout("Board", rows=3, cols=3, hidden=True), "hides every tab"),
    ],
)
def test_bad_layouts_are_refused_and_nothing_is_written(tmp_path: Path, tab: TabLayout, message: str) -> None:
    path = tmp_path / "bad.xlsx"
    with pytest.raises(SheetError, match=message):
        create_workbook(path, WorkbookLayout("t", (tab,)))
    assert not path.exists()
    assert leftovers(tmp_path) == []


def test_a_layout_of_hidden_tabs_only_fits_beside_a_visible_tab_the_workbook_keeps(tmp_path: Path) -> None:
    """An engine-only workbook: its one layout tab is hidden, the file keeps a visible tab of its own."""
    about = TabLayout("About", rows=2, cols=1, values={"A1": [["the engine of a match"]]})
    backend = create_workbook(tmp_path / "engine.xlsx", WorkbookLayout("engine", (about,)))
    backend.apply_layout(WorkbookLayout("match", (TabLayout("Engine", rows=5, cols=2, hidden=True),)))
    wb = openpyxl.load_workbook(backend.path)
    assert wb.sheetnames == ["Engine", "About"]
    assert wb["Engine"].sheet_state == "hidden" and wb.active.title == "About"
    empty = create_workbook(tmp_path / "empty.xlsx", WorkbookLayout("e", (TabLayout("Blank", rows=2, cols=2),)))
    with pytest.raises(SheetError, match="hides every tab"):  # an empty tab is dropped: nothing would show
        empty.apply_layout(WorkbookLayout("match", (TabLayout("Engine", rows=5, cols=2, hidden=True),)))


def test_create_refuses_to_overwrite_unless_asked(applied: Path) -> None:
    original = applied.read_bytes()
    small = WorkbookLayout("small", (TabLayout("Only", rows=2, cols=2),))
    with pytest.raises(SheetAccessError, match=f"{applied} already exists"):
        create_workbook(applied, small)
    assert applied.read_bytes() == original
    create_workbook(applied, small, overwrite=True)
    assert openpyxl.load_workbook(applied).sheetnames == ["Only"]


def test_apply_layout_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(SheetAccessError, match="does not exist"):
        backend_for(tmp_path / "none.xlsx").apply_layout(gvg_like_layout())


def test_libreoffice_opens_an_applied_layout(applied: Path, tmp_path: Path, office: Office) -> None:
    (pdf,) = office.convert([applied], "pdf", tmp_path / "pdf")
    assert pdf.read_bytes().startswith(b"%PDF")


def test_libreoffice_colours_the_cells_a_conditional_fill_matches(applied: Path, tmp_path: Path,
                                                                  office: Office) -> None:
    """Written after the layout, as a resolution writes: the rule follows the values."""
    backend_for(applied).write([RangeWrite("Board!D5:F5", [["● Ann-L 20/20", "■ Bo-L", 'a "b" c']])])
    (page,) = office.convert([applied], "html", tmp_path / "html")
    html = page.read_text(encoding="utf-8")
    cell = re.compile(r'<td([^>]*)>(?:<b>)?(?:<font[^>]*>)?([^<]*)')
    background = re.compile(r'bgcolor="(#\w+)"')
    shown = {text: "".join(background.findall(attributes)).upper() for attributes, text in cell.findall(html)}
    assert shown["● Ann-L 20/20"] == "#F4CCCC"
    assert shown["a &quot;b&quot; c"] == "#CFE2F3"
    assert shown["■ Bo-L"] == ""  # no rule for it
    assert re.search(r"<b>(?:<font[^>]*>)?● Ann-L", html)


def test_a_workbook_saved_by_libreoffice_reads_the_same(applied: Path, tmp_path: Path, office: Office) -> None:
    be = backend_for(applied)
    be.write(
        [
            RangeWrite("'Orders red'!A2:E2", [["=1+1", "+5", "attack", "@x", True]]),
            RangeWrite("Board!A5:D5", [[1.5, 42, "🐉 F7", "-3"]]),
        ]
    )
    ranges = ["'Orders red'!A1:F6", "Board!A1:H12", "Settings!A1:C5", "Engine!A1:D10"]
    before = be.read(ranges)
    (saved,) = office.convert([applied], "xlsx", tmp_path / "saved")

    after = backend_for(saved)
    assert after.read(ranges) == before
    wb = openpyxl.load_workbook(saved)
    orders = wb["Orders red"]
    assert validation_at(orders, "C3").formula1 == '"move,attack,defend,revive,buff"'
    assert orders.protection.sheet and orders["F2"].protection.locked and not orders["B2"].protection.locked
    assert wb["Engine"].sheet_state == "hidden"
    assert validation_at(wb["Settings"], "A2").formula1 == f"'{LISTS_TAB}'!$A$1:$A${len(LONG)}"

    after.write([RangeWrite("'Orders red'!F2", [["=ok"]]), RangeWrite("'Orders red'!E2", [[False]])])
    assert after.read(["'Orders red'!E2:F2"]) == [[[False, "=ok"]]]


def test_row_heights_are_set_and_every_tab_prints_one_page_wide(tmp_path: Path) -> None:
    from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
    from sheets_gm.sheets.local.backend import create_workbook

    tab = TabLayout("Board", rows=10, cols=8, row_heights={0: 40, 3: 44}, column_widths={7: 400})
    narrow = TabLayout("Log", rows=10, cols=3, frozen_rows=1)
    create_workbook(tmp_path / "b.xlsx", WorkbookLayout("t", (tab, narrow)))
    ws = openpyxl.load_workbook(tmp_path / "b.xlsx")["Board"]
    assert (ws.row_dimensions[1].height, ws.row_dimensions[4].height) == (30, 33)
    assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToWidth == 1
    # Issue 54: sideways when wider than a portrait page (7 × 64 + 400 pixels), upright when not; a table's header
    # rows are repeated on every page
    assert ws.page_setup.fitToHeight == 0 and ws.page_setup.orientation == "landscape"
    log = openpyxl.load_workbook(tmp_path / "b.xlsx")["Log"]
    assert log.page_setup.orientation == "portrait" and log.print_title_rows == "$1:$1"


def test_a_tab_too_large_to_shrink_prints_across_pages_with_its_labels_repeated(tmp_path: Path) -> None:
    from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
    from sheets_gm.sheets.local.backend import create_workbook

    tab = TabLayout("Dominaria", rows=40, cols=30, print_pages_wide=0, print_title_rows=1, print_title_cols=1)
    create_workbook(tmp_path / "b.xlsx", WorkbookLayout("t", (tab,)))
    ws = openpyxl.load_workbook(tmp_path / "b.xlsx")["Dominaria"]
    assert not ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$1:$1" and ws.print_title_cols == "$A:$A"


def test_a_dropdown_listing_cells_of_another_tab_only_helps(tmp_path: Path) -> None:
    """A list read from a range (a player's bag in her View tab) is the range itself, and what is typed stays."""
    view = TabLayout("View Ann", rows=10, cols=8)
    orders = TabLayout("Orders Ann", rows=10, cols=4,
                       dropdowns=(Dropdown("C3:C6", (), source="'View Ann'!H4:H9"), Dropdown("D3:D6", ("a", "b"))))
    backend = create_workbook(tmp_path / "ann.xlsx", WorkbookLayout("t", (orders, view)))
    ws = openpyxl.load_workbook(backend.path)["Orders Ann"]
    listed = validation_at(ws, "C3")
    assert listed.formula1 == "'View Ann'!$H$4:$H$9" and not listed.showErrorMessage
    strict = validation_at(ws, "D3")
    assert strict.formula1 == '"a,b"' and strict.showErrorMessage


def test_a_row_grows_to_show_its_wrapped_text_whole_and_shrinks_back(tmp_path: Path) -> None:
    """LibreOffice and Excel draw a row at the height the file says: a long Feedback answer in a wrapping cell
    makes its row as tall as its lines (as Google Sheets does by itself), and a short one brings it back."""
    tab = TabLayout("Orders Ann", rows=6, cols=3, column_widths={2: 300},
                    fills=(Fill("C2:C6", "#EFEFEF", wrap=True),))
    book = create_workbook(tmp_path / "o.xlsx", WorkbookLayout("t", (tab,)))
    answer = "✘ action 2 (heal partner): only the Healer heals; a Gladiator may attack or evade. " * 3
    book.write([RangeWrite("'Orders Ann'!A2:C3", [["Ann.gladiator", "", answer], ["Ann.rogue", "", "✔ attack"]])])
    ws = openpyxl.load_workbook(tmp_path / "o.xlsx")["Orders Ann"]
    lines = ws.row_dimensions[2].height / 15
    assert 4 <= lines <= 7  # 250 characters in 300 pixels: five lines, give or take the font
    assert ws.row_dimensions[3].height is None  # one line: the default height
    assert ws["C2"].alignment.wrap_text and ws["C2"].alignment.vertical == "top"

    book.write([RangeWrite("'Orders Ann'!C2", [["✔ the Gladiator will attack"]])])
    assert openpyxl.load_workbook(tmp_path / "o.xlsx")["Orders Ann"].row_dimensions[2].height is None


def test_a_row_the_layout_gave_a_height_keeps_it_whatever_is_written(tmp_path: Path) -> None:
    """A board's map rows keep their height: the rows a layout fixed are recorded in the workbook (a custom
    document property LibreOffice keeps), so a later write, by another process, leaves them alone."""
    tab = TabLayout("Board", rows=4, cols=2, row_heights={1: 60}, fills=(Fill("A1:B4", "#FFFFFF", wrap=True),))
    create_workbook(tmp_path / "b.xlsx", WorkbookLayout("t", (tab,)))
    book = LocalWorkbookBackend(tmp_path / "b.xlsx")
    long_text = "a tile holding a structure, two attackers and two defenders, each on a line of its own " * 4
    book.write([RangeWrite("Board!A2:A3", [[long_text], [long_text]])])
    ws = openpyxl.load_workbook(tmp_path / "b.xlsx")["Board"]
    assert ws.row_dimensions[2].height == 45  # 60 pixels, as laid out
    assert ws.row_dimensions[3].height > 45  # not fixed: grown to its text
