"""A worksheet part read whole, its frame parsed once for each distinct frame and its rows kept for the next load of
the same bytes (``sheets/xlsx_read_cache.py``): a load gives what openpyxl's own reader gives (every value, style,
dimension, view, validation and conditional format), each load objects of its own, and a workbook so loaded saves
the very bytes it saves after openpyxl's own load."""

from __future__ import annotations

import io
import pickle
import sys
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import pytest
from openpyxl.formatting.rule import CellIsRule

from sheets_gm.sheets import xlsx, xlsx_read_cache
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.kept_parts import KeptParts
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.xlsx import openpyxl
from tests.at_rest.starter import STARTER_GAMES, starter_match
from tests.quick import soak_but

from openpyxl.packaging.manifest import Manifest  # isort: skip
from openpyxl.packaging.relationship import get_dependents  # isort: skip
from openpyxl.reader import excel  # isort: skip
from openpyxl.reader import workbook as workbook_reader  # isort: skip
from openpyxl.reader.excel import ExcelReader  # isort: skip
from openpyxl.reader.workbook import WorkbookParser  # isort: skip
from openpyxl.reader.strings import read_string_table  # isort: skip
from openpyxl.styles import Font  # isort: skip
from openpyxl.styles.stylesheet import apply_stylesheet  # isort: skip
from openpyxl.workbook import Workbook  # isort: skip
from openpyxl.workbook import child as workbook_child  # isort: skip
from openpyxl.worksheet._reader import WorkSheetParser, WorksheetReader  # isort: skip
from openpyxl.worksheet.datavalidation import DataValidation  # isort: skip
from openpyxl.worksheet.formula import ArrayFormula  # isort: skip
from openpyxl.worksheet.header_footer import HeaderFooter  # isort: skip
from openpyxl.worksheet.worksheet import Worksheet  # isort: skip
from openpyxl.xml.functions import fromstring, tostring  # isort: skip


@contextmanager
def openpyxl_own_reading() -> Iterator[None]:
    """openpyxl's own reading functions put back for a while (each one ``sheets/xlsx.py`` replaces)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WorksheetReader, "bind_cells", xlsx._openpyxl_bind_cells)
        patch.setattr(WorksheetReader, "bind_row_dimensions", xlsx._openpyxl_bind_row_dimensions)
        patch.setattr(WorksheetReader, "bind_col_dimensions", xlsx._openpyxl_bind_col_dimensions)
        patch.setattr(WorkSheetParser, "parse_cell", xlsx._openpyxl_parse_cell)
        patch.setattr(excel, "read_string_table", read_string_table)
        patch.setattr(excel, "apply_stylesheet", apply_stylesheet)
        patch.setattr(workbook_reader, "Workbook", Workbook)
        patch.setattr(workbook_reader, "get_dependents", get_dependents)
        patch.setattr(excel, "get_dependents", get_dependents)
        patch.setattr(WorkbookParser, "parse", xlsx_read_cache._openpyxl_parse_workbook)
        patch.setattr(ExcelReader, "read_manifest", xlsx_read_cache._openpyxl_read_manifest)
        patch.setattr(ExcelReader, "read_custom", xlsx_read_cache._openpyxl_read_custom)
        patch.setattr(ExcelReader, "read_properties", xlsx_read_cache._openpyxl_read_properties)
        patch.setattr(Worksheet, "_setup", xlsx_read_cache._openpyxl_setup)
        patch.setattr(Worksheet, "__init__", xlsx_read_cache._openpyxl_init_worksheet)
        patch.setattr(ExcelReader, "read_worksheets", xlsx_read_cache._openpyxl_read_worksheets)
        patch.setattr(workbook_child, "HeaderFooter", HeaderFooter)
        yield


def _load(data: bytes) -> Any:
    return openpyxl.load_workbook(io.BytesIO(data), data_only=False, rich_text=False)


def _parts(book: Any) -> dict[str, bytes]:
    """Each part of ``book`` saved, but the times of its properties."""
    saved = io.BytesIO()
    book.save(saved)
    with zipfile.ZipFile(saved) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def _read(book: Any, numbered: bool = True) -> list[object]:
    """What a load gives of each tab of ``book`` that the sync or a later save reads, as plain values; a row's or a
    column's style by its number in the workbook's list of styles too where ``numbered``."""
    def fields(dimension: Any) -> dict[str, str]:
        return {k: v for k, v in dimension if numbered or k not in ("s", "style")}

    tabs: list[object] = []
    for ws in book.worksheets:
        cells = sorted((key, _plain(c._value), c.data_type, tuple(c._style),
                        (c._comment.text, c._comment.author) if c._comment else None) for key, c in ws._cells.items())
        rows = {k: (fields(d), tuple(d._style) if d._style else None) for k, d in ws.row_dimensions.items()}
        columns = {k: (fields(d), tuple(d._style) if d._style else None) for k, d in ws.column_dimensions.items()}
        formats = [(str(cf.sqref), [r.to_tree().items() for r in cf.rules]) for cf in ws.conditional_formatting]
        frame = [ws.views, ws.sheet_properties, ws.sheet_format, ws.page_margins, ws.page_setup, ws.print_options,
                 ws.data_validations, ws.protection, ws.HeaderFooter, ws.auto_filter, ws.row_breaks, ws.col_breaks,
                 ws.scenarios]
        tabs.append((ws.title, cells, rows, columns, [tostring(part.to_tree()) for part in frame], formats,
                     str(ws.merged_cells), ws.max_row, ws.max_column, ws.sheet_state, ws.page_setup._parent is ws))
    return tabs


def _plain(value: object) -> object:
    """A cell's value as plain values (an array formula's range and text)."""
    return ("array", value.ref, value.text) if isinstance(value, ArrayFormula) else value


def reads_as_openpyxl_reads(data: bytes) -> None:
    """``data`` loaded here twice (its frames parsed and its tabs' rows read, then copied and kept) and by openpyxl's
    own reader: the same read, each cell's, row's and column's style the same, whatever its number in the list of
    styles (a workbook that lists a style twice, as LibreOffice saves it, has them numbered otherwise here)."""
    ours = [_load(data), _load(data)]
    with openpyxl_own_reading():
        theirs = _load(data)
    for book in ours:
        assert _read(book, numbered=False) == _read(theirs, numbered=False)


def loads_as_openpyxl_loads(data: bytes) -> None:
    """``data`` loaded here twice (its frames parsed and its tabs' rows read, then copied and kept) and by openpyxl's
    own reader: the same read, the same bytes saved."""
    ours = [_load(data), _load(data)]
    with openpyxl_own_reading():
        theirs = _load(data)
    read, saved = _read(theirs), _parts(theirs)  # (once: a save changes what it saves, its styles added)
    for book in ours:
        assert _read(book) == read
        assert _parts(book) == saved


@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "coalition"))
def test_each_games_made_workbooks_load_as_openpyxl_loads_them(game: str, tmp_path: Path) -> None:
    """Each workbook of a made match, loaded here, reads and saves as it does after openpyxl's own load. It fails
    with a frame's fields given to another tab, or the frame's copy left out of a load."""
    starter_match(tmp_path, game)
    books = sorted(tmp_path.rglob("*.xlsx"))
    assert books
    for path in books:
        loads_as_openpyxl_loads(path.read_bytes())


def _framed_book(colour: str) -> bytes:
    """A saved workbook with a frame of many kinds: widths, a frozen pane, a validation, a conditional format, a
    merge, margins, a header, a tab colour, two tabs."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Orders"
    for row in range(1, 30):
        sheet.append([f"unit {row}", row * 1.5, row, None, "=A1"])
    sheet.column_dimensions["A"].width = 31
    for letter in "CDE":  # columns of one kind: the same width and style
        sheet.column_dimensions[letter].width = 12
        sheet.column_dimensions[letter].font = Font(italic=True)
    sheet.row_dimensions[3].height = 40
    sheet.freeze_panes = "B2"
    sheet.merge_cells("F1:G2")
    check = DataValidation(type="list", formula1='"hold,move"', allow_blank=True)
    check.add("D2:D29")
    sheet.add_data_validation(check)
    sheet.conditional_formatting.add("B1:B29", CellIsRule(operator="greaterThan", formula=["10"],
                                                          font=Font(color=colour)))
    sheet.sheet_properties.tabColor = colour
    sheet.page_margins.left = 0.3
    sheet.oddHeader.center.text = "the board"
    other = book.create_sheet("Log")
    other.append(["a line"])
    saved = io.BytesIO()
    book.save(saved)
    return saved.getvalue()


def test_a_load_reads_each_frame_as_openpyxl_reads_it() -> None:
    """Two workbooks whose frames differ, each loaded twice in turn, read and save as after openpyxl's own load."""
    red, blue = _framed_book("FFCC0000"), _framed_book("FF0000CC")
    for data in (red, blue):
        loads_as_openpyxl_loads(data)
    assert _load(red)["Orders"].sheet_properties.tabColor.rgb == "FFCC0000"
    assert _load(blue)["Orders"].sheet_properties.tabColor.rgb == "FF0000CC"


def test_workbooks_loaded_from_the_same_frame_share_nothing_of_it() -> None:
    """A tab whose frame objects are changed in place (a width, a view's pane, a validation, a margin, a conditional
    format) leaves the next workbook loaded from the same bytes as it was read. It fails with the parsed frame handed
    out as it is, not a copy each time."""
    data = _framed_book("FF00AA00")
    first = _load(data)
    before = _read(_load(data))
    sheet = first["Orders"]
    sheet.column_dimensions["A"].width = 5
    sheet.views.sheetView[0].pane.topLeftCell = "C3"
    sheet.data_validations.dataValidation[0].formula1 = '"other"'
    sheet.page_margins.left = 2
    sheet.sheet_format.defaultRowHeight = 30
    next(iter(sheet.conditional_formatting)).rules[0].formula = ["99"]
    assert _read(_load(data)) == before


def test_a_part_not_read_whole_is_read_as_openpyxl_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part past the size read whole, and one whose rows hold what is not a row, are read by openpyxl's own parse:
    the same read, the same bytes."""
    monkeypatch.setattr(xlsx_read_cache, "MOST_WHOLE_BYTES", 100)
    loads_as_openpyxl_loads(_framed_book("FF123456"))
    monkeypatch.undo()
    data = _framed_book("FF654321")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b"</sheetData>", b"<x/></sheetData>")
    odd = io.BytesIO()
    with zipfile.ZipFile(odd, "w") as archive:
        for name, part in parts.items():
            archive.writestr(name, part)
    loads_as_openpyxl_loads(odd.getvalue())


BREAKS = {"cut short": lambda xml: xml[:900],
          "a column's span not a number": lambda xml: xml.replace(b'min="4" max="4"', b'min="4" max="4.5"')}


@pytest.mark.parametrize("broken", list(BREAKS))
def test_a_broken_worksheet_fails_as_openpyxl_fails(broken: str) -> None:
    """A worksheet cut short, or whose column's span is not a whole number, fails to load with openpyxl's own
    error, not another. The second fails with each column's span made a number here, whatever it is."""
    data = _framed_book("FF000000")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts["xl/worksheets/sheet1.xml"] = BREAKS[broken](parts["xl/worksheets/sheet1.xml"])
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w") as archive:
        for name, part in parts.items():
            archive.writestr(name, part)
    errors: list[str] = []
    for own in (False, True):
        with openpyxl_own_reading() if own else nullcontext():
            with pytest.raises(Exception) as raised:  # whatever openpyxl raises
                _load(damaged.getvalue())
            errors.append(f"{type(raised.value).__name__}: {raised.value}")
    assert errors[0] == errors[1]


def test_the_parsed_parts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many distinct frames and parts a process loads, it keeps at most ``MOST_KEPT`` of them parsed, and
    none larger than ``MOST_KEPT_BYTES`` (it is parsed at each load, read the same). The second fails with every
    part kept whatever its size."""
    monkeypatch.setattr(xlsx_read_cache, "MOST_KEPT", 3)
    for at in range(5):
        _load(_framed_book(f"FF{at:06X}"))
    assert len(xlsx_read_cache._KEPT) == 3
    monkeypatch.setattr(xlsx_read_cache, "MOST_KEPT", 1024)
    monkeypatch.setattr(xlsx_read_cache, "_KEPT", KeptParts())
    monkeypatch.setattr(xlsx_read_cache, "MOST_KEPT_BYTES", 700)
    data = _framed_book("FF0F0F0F")
    loads_as_openpyxl_loads(data)
    kept: list[tuple[object, ...]] = [key for key in xlsx_read_cache._KEPT if isinstance(key, tuple)]
    assert kept and all(sum(len(k) for k in key if isinstance(k, bytes)) <= 700 for key in kept)
    assert len([key for key in kept if key[0] == "frame"]) == 1  # (of the two tabs, the smaller frame)


def test_the_parsed_parts_kept_hold_at_most_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """However large the distinct parts a process loads, those kept parsed hold at most ``MOST_KEPT_TOTAL`` bytes
    together (their bytes and their copies), the newest kept. It fails with the count the only bound."""
    monkeypatch.setattr(xlsx_read_cache, "_KEPT", KeptParts())
    monkeypatch.setattr(xlsx_read_cache, "MOST_KEPT_TOTAL", 20_000)
    for at in range(6):
        _load(_framed_book(f"FF{at:06X}"))
    store = xlsx_read_cache._KEPT
    assert 0 < store.weight == sum(store.weights().values()) <= 20_000
    assert any(isinstance(key, tuple) and key[0] == "frame" and b"FF000005" in key[1] for key in xlsx_read_cache._KEPT)


def test_a_new_tab_is_made_as_openpyxl_makes_it_and_shares_nothing_with_another() -> None:
    """A new tab's empty objects (copies of those of a tab made once) save as openpyxl's own make them, and a change
    in place to one tab's (a margin, a view, a header, a property) leaves the next new tab as it was. It fails with
    the objects of the tab made once handed out as they are."""
    def saved_new_book() -> dict[str, bytes]:
        book = openpyxl.Workbook()
        book.create_sheet("Second")
        return _parts(book)

    ours = saved_new_book()
    with openpyxl_own_reading():
        assert saved_new_book() == ours
    first = openpyxl.Workbook().active
    first.page_margins.left = 3
    first.views.sheetView[0].zoomScale = 50
    first.HeaderFooter.oddHeader.center.text = "changed"
    first.sheet_properties.tabColor = "FF0000FF"
    first.protection.sheet = True
    assert saved_new_book() == ours


def test_each_cell_has_its_own_style_array_and_the_cell_names_kept_are_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Cells of one style each hold an array of their own (one changed in place leaves the others), as openpyxl's
    ``Cell`` makes them; the cell names kept with their row and column stay within their bound. The first fails with
    the style's array given to every cell of it."""
    monkeypatch.setattr(xlsx, "_PLACES", {})
    monkeypatch.setattr(xlsx, "_MOST_PLACES", 10)
    book = _load(_framed_book("FF445566"))
    sheet = book["Orders"]
    sheet["B2"]._style[0] = 9
    assert sheet["B3"]._style[0] != 9 and sheet["B2"]._style[1:] == sheet["B3"]._style[1:]
    assert len(xlsx._PLACES) == 10
    assert (sheet["E29"].row, sheet["E29"].column, sheet["E29"].value) == (29, 5, "=A1")


def test_columns_of_one_kind_are_each_their_own() -> None:
    """Columns of the same width and style, made once for their kind and copied, are each their own: a width, a
    style changed on one leaves the others; each keeps its own span. It fails with the kind's column given to
    each."""
    sheet = _load(_framed_book("FF778899"))["Orders"]
    columns = sheet.column_dimensions
    assert [(columns[x].min, columns[x].max, columns[x].width) for x in "CDE"] == [(3, 3, 12), (4, 4, 12), (5, 5, 12)]
    columns["D"].width = 40
    columns["D"]._style[0] = 9
    assert (columns["C"].width, columns["E"].width, columns["C"]._style[0], columns["E"]._style[0]) == (
        12, 12, columns["C"]._style[0], columns["C"]._style[0]) != (40, 40, 9, 9)
    assert columns["C"]._style[0] != 9 and columns["D"].parent is sheet


@pytest.mark.parametrize("whole", [True, False], ids=["read whole", "read by openpyxl's parse"])
def test_a_tab_lacking_its_frame_elements_gets_new_ones_as_openpyxl_gives(whole: bool,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab made by a load is made without what the load sets from the tab's elements; one whose XML lacks them
    (no properties, views, format, margins, headers) gets new ones, as openpyxl's load gives, read whole or not; a
    tab made after the load is whole. It fails with the new objects left out where the tab lacks the element."""
    if not whole:
        monkeypatch.setattr(xlsx_read_cache, "MOST_WHOLE_BYTES", 100)
    data = _framed_book("FF0A0B0C")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    log = parts["xl/worksheets/sheet2.xml"]
    bare = log[:log.index(b">") + 1] + log[log.index(b"<sheetData"):log.index(b"</sheetData>")] + b"</sheetData>"
    parts["xl/worksheets/sheet2.xml"] = bare + b"</worksheet>"
    stripped = io.BytesIO()
    with zipfile.ZipFile(stripped, "w") as archive:
        for name, part in parts.items():
            archive.writestr(name, part)
    loads_as_openpyxl_loads(stripped.getvalue())
    book = _load(stripped.getvalue())
    assert book["Log"].page_margins.left == 0.75 and book["Log"].sheet_view.selection[0].sqref == "A1"
    assert book.create_sheet("After").sheet_properties is not None
    assert _parts(book)["xl/worksheets/sheet3.xml"] == _parts(openpyxl.Workbook())["xl/worksheets/sheet1.xml"]


def _with_parts(data: bytes, parts: dict[str, bytes]) -> bytes:
    """The workbook ``data`` with ``parts`` put in place of (or beside) its own."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        own = {name: archive.read(name) for name in archive.namelist()}
    made = io.BytesIO()
    with zipfile.ZipFile(made, "w") as archive:
        for name, part in {**own, **parts}.items():
            archive.writestr(name, part)
    return made.getvalue()


def _shared_strings_book(text: str, date: bool, formula: str = "<f>SUM(B1)</f>") -> bytes:
    """A workbook whose one tab is the same bytes whatever ``text`` and ``date``: A1 the first shared string
    (``text``), B1 a number in style 1 (a date's format where ``date``, bold where not), C1 the ``formula``, A2 a
    text on a row of its own height."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["B1"] = 45000
    if date:
        sheet["B1"].number_format = "yyyy-mm-dd"
    else:
        sheet["B1"].font = Font(bold=True)
    saved = io.BytesIO()
    book.save(saved)
    with zipfile.ZipFile(saved) as archive:
        types = archive.read("[Content_Types].xml")
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    tab = (f'<worksheet xmlns="{ns}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>45000</v>'
           f'</c><c r="C1">{formula}</c></row><row r="2" ht="30" customHeight="1">'
           '<c r="A2" t="inlineStr"><is><t>kept</t></is></c></row></sheetData></worksheet>').encode()
    strings = f'<sst xmlns="{ns}" count="1" uniqueCount="1"><si><t>{text}</t></si></sst>'.encode()
    override = (b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                b'officedocument.spreadsheetml.sharedStrings+xml"/>')
    return _with_parts(saved.getvalue(), {"xl/worksheets/sheet1.xml": tab, "xl/sharedStrings.xml": strings,
                                          "[Content_Types].xml": types.replace(b"</Types>", override + b"</Types>")})


def test_a_tab_read_before_is_not_parsed_again_and_reads_as_openpyxl_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab whose bytes were read whole before in this process is given the cells, rows and frame read then: no
    parse, the same read and the same bytes saved as openpyxl's own load. It fails with the rows not kept."""
    monkeypatch.setattr(xlsx_read_cache, "_KEPT", KeptParts())
    parsed: list[bytes] = []
    read_whole = xlsx_read_cache._read_whole

    def counted(parser: Any, data: bytes) -> bytes | None:
        parsed.append(data)
        return read_whole(parser, data)

    monkeypatch.setattr(xlsx_read_cache, "_read_whole", counted)
    data = _framed_book("FF1A2B3C")
    _load(data)
    assert len(parsed) == 2  # (both tabs)
    loads_as_openpyxl_loads(data)
    assert len(parsed) == 2


def test_a_kept_tab_reads_the_shared_strings_and_date_formats_of_its_own_workbook() -> None:
    """Two workbooks holding the very same tab, with other shared strings and other styles, each read their own: a
    shared string's text from its own table, a number styled as a date as a date only where it is. Each as openpyxl
    reads it. It fails with a shared string's text kept with the tab's rows, or the rows kept whatever the styles."""
    books = [_shared_strings_book("north", True), _shared_strings_book("south", True),
             _shared_strings_book("east", False)]
    for data in books:
        loads_as_openpyxl_loads(data)
    tabs = [_load(data).active for data in books]
    assert [tab["A1"].value for tab in tabs] == ["north", "south", "east"]
    assert [tab["B1"].is_date for tab in tabs] == [True, True, False] and tabs[2]["B1"].value == 45000


def test_a_kept_tab_shares_nothing_a_load_may_change_with_another_load() -> None:
    """A cell's value, a row's height, an array formula changed in place in one load leave the next load of the same
    bytes as they were read. The last fails with a tab holding a value that is changed in place (an array formula)
    kept for the next load."""
    for formula in ("<f>SUM(B1)</f>", '<f t="array" ref="C1">SUM(B1)</f>'):
        data = _shared_strings_book("west", False, formula)
        first = _load(data).active
        before = _read(_load(data))
        first["A2"].value = "changed"
        first.row_dimensions[2].height = 99
        if isinstance(first["C1"].value, ArrayFormula):
            first["C1"].value.text = "SUM(A1)"
        assert _read(_load(data)) == before
    assert _load(data).active["C1"].value.text == "=SUM(B1)"


def _held_bytes(rows: Any) -> int:
    """The bytes the objects reachable from the rows kept ``rows`` hold (each once), but its own tuple's."""
    seen: dict[int, Any] = {}
    todo = [rows.frame, rows.cells, rows.row_numbers, rows.row_fields]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen[id(item)] = item
        if isinstance(item, tuple):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
    return sum(sys.getsizeof(item) for item in seen.values())


def test_the_rows_kept_weigh_at_least_what_they_hold(tmp_path: Path) -> None:
    """Each tab's rows kept are counted in the store's budget for at least the bytes they hold, for a made match's
    workbooks and a workbook of shared strings. It fails with the weight counting the part's bytes alone."""
    starter_match(tmp_path, "coalition")
    books = [path.read_bytes() for path in sorted(tmp_path.rglob("*.xlsx"))] + [_shared_strings_book("x", True)]
    for data in books:
        _load(data)
    kept = [(key, part) for key, part in xlsx_read_cache._KEPT.items() if isinstance(part, xlsx_read_cache._KeptRows)]
    assert len(kept) > 10
    for key, rows in kept:
        assert isinstance(key, tuple)
        assert len(key[1]) + _held_bytes(rows) <= xlsx_read_cache._weight(key, rows)


def test_rows_and_columns_made_of_kinds_kept_are_each_their_own_and_the_kinds_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows and columns are made of kinds kept for the process (made once as openpyxl makes them), each their own:
    a width, a height, a hidden row changed in one load leave the next load as read; at most
    ``_MOST_DIMENSION_KINDS`` kinds are kept. The first fails with a kind's fields handed out, not copied."""
    monkeypatch.setattr(xlsx, "_DIMENSION_KINDS", {})
    monkeypatch.setattr(xlsx, "_MOST_DIMENSION_KINDS", 2)
    data = _framed_book("FF0C0D0E")
    first = _load(data)["Orders"]
    before = _read(_load(data))
    first.column_dimensions["C"].width = 50
    first.column_dimensions["A"].hidden = True
    first.row_dimensions[3].height = 7
    assert _read(_load(data)) == before
    assert len(xlsx._DIMENSION_KINDS) == 2
    loads_as_openpyxl_loads(data)


@pytest.mark.parametrize("styles", ["none", "no cell styles"])
def test_a_workbook_without_cell_styles_loads_as_openpyxl_loads_it(styles: str) -> None:
    """A workbook whose file has no styles part, or one listing no cell styles, gets a new workbook's styles, as
    openpyxl's own load gives it (a load's new workbook is made without them): the same read, the same bytes saved.
    It fails with the new workbook's styles left out where the file has none."""
    book = openpyxl.Workbook()
    for row in range(1, 9):
        book.active.append([f"unit {row}", row * 1.5, None, "=A1"])
    book.active.column_dimensions["B"].width = 20
    saved = io.BytesIO()
    book.save(saved)
    data = saved.getvalue()
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    bare = f'<styleSheet xmlns="{ns}"><fonts count="1"><font><sz val="9"/></font></fonts></styleSheet>'.encode()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    if styles == "none":
        del parts["xl/styles.xml"]
    else:
        parts["xl/styles.xml"] = bare
    made = io.BytesIO()
    with zipfile.ZipFile(made, "w") as archive:
        for name, part in parts.items():
            archive.writestr(name, part)
    with pytest.warns(UserWarning) if styles != "none" else nullcontext():
        loads_as_openpyxl_loads(made.getvalue())


def test_the_content_types_are_shared_by_the_loads_and_never_changed(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The content types part is parsed once and the same object given to each load of the same bytes (no copy:
    only the load reads it), and a write and save through the local backend, then a load of the saved workbook,
    leave it as parsed (pickled the same as a fresh parse). The first fails with a copy given to each load."""
    monkeypatch.setattr(xlsx_read_cache, "_KEPT", KeptParts())
    given: list[Any] = []
    read_manifest = xlsx_read_cache._read_manifest

    def kept(reader: Any) -> None:
        read_manifest(reader)
        given.append(reader.package)

    monkeypatch.setattr(ExcelReader, "read_manifest", kept)
    data = _framed_book("FF123456")
    _load(data)
    _load(data)
    assert given[0] is given[1]
    parsed = pickle.dumps(given[0])
    path = tmp_path / "book.xlsx"
    path.write_bytes(data)
    backend = LocalWorkbookBackend(path)
    backend.write([RangeWrite("Orders!A1", [["changed"]])])
    assert LocalWorkbookBackend(path).read(["Orders!A1"]) == [[["changed"]]]
    _load(data)
    assert given[-1] is given[0] and pickle.dumps(given[0]) == parsed == pickle.dumps(
        Manifest.from_tree(fromstring(_content_types(data))))


def _content_types(data: bytes) -> bytes:
    """The content types part of the workbook ``data``."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("[Content_Types].xml")
