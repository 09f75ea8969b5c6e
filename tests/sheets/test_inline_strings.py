"""A text cell saved as an inline string reads back as openpyxl's own reader reads it (``sheets/xlsx.py`` reads such
a cell straight from its elements, a third of a text workbook's load), and a workbook saves as openpyxl's own writer
saves it (``sheets/xlsx.py`` writes plain cells as text; issue 66)."""

from __future__ import annotations

import datetime
import io
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock

from sheets_gm.sheets import xlsx
from sheets_gm.sheets.xlsx import openpyxl

from openpyxl.cell.text import InlineFont  # isort: skip
from openpyxl.comments import Comment  # isort: skip
from openpyxl.styles import Font, PatternFill  # isort: skip
from openpyxl.worksheet._reader import WorkSheetParser  # isort: skip
from openpyxl.worksheet._writer import WorksheetWriter  # isort: skip

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

#: Cells as an office program or openpyxl may save them: plain, spaced, empty, rich runs, phonetic runs, several
#: ``<t>``, a formula beside the string, no ``<is>`` at all, a style, no coordinate, another prefix.
CELLS = [
    '<c r="A1" t="inlineStr"><is><t>junk1</t></is></c>',
    '<c r="B2" s="3" t="inlineStr"><is><t xml:space="preserve">  two  spaces </t></is></c>',
    '<c r="C3" t="inlineStr"><is><t/></is></c>',
    '<c r="D4" t="inlineStr"><is></is></c>',
    '<c r="E5" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r><r><t> then plain</t></r></is></c>',
    '<c r="F6" t="inlineStr"><is><t>base</t><r><t>+run</t></r><rPh sb="0" eb="1"><t>ふり</t></rPh></is></c>',
    '<c r="G7" t="inlineStr"><is><t>first</t><t>last</t></is></c>',
    '<c r="H8" t="inlineStr"><f>1+1</f><is><t>2</t></is></c>',
    '<c r="I9" t="inlineStr"/>',
    '<c t="inlineStr"><is><t>no coordinate</t></is></c>',
    '<c r="K11" s="0" t="inlineStr"><is><t>=SUM(A1:A2)</t></is></c>',
    '<c r="L12" t="inlineStr"><is><t>Zoë ✘ 💥\nline two</t></is></c>',
    '<c r="M13" t="inlineStr"><is><r><t>only runs</t></r><r><t/></r></is></c>',
    '<c r="N14" t="n"><v>3</v></c>',
    '<c r="AB120" t="inlineStr"><is><t>two letters</t></is></c>',
    '<c r="ab121" t="inlineStr"><is><t>lower case</t></is></c>',
    '<c r="C007" t="inlineStr"><is><t>leading zeros</t></is></c>',
    '<c r="O15" t="s"><v>1</v></c>',  # shared strings, as LibreOffice and Excel save text
    '<c r="P16" s="2" t="s"><v>0</v></c>',
    '<c r="Q17" t="s"/>',
    '<c r="R18" t="s"><f>A1</f><v>0</v></c>',
    '<c t="s"><v>1</v></c>',
]
#: The shared strings the cells above name.
SHARED = ["zero", "one"]


def _parser(data_only: bool = False, rich_text: bool = False) -> object:
    parser = WorkSheetParser(io.BytesIO(b""), SHARED, data_only=data_only, rich_text=rich_text)
    parser.row_counter, parser.col_counter = 7, 2
    return parser


@pytest.mark.parametrize("xml", CELLS)
@pytest.mark.parametrize("data_only", [False, True])
def test_a_cell_reads_as_openpyxls_own_reader_reads_it(xml: str, data_only: bool) -> None:
    """Each cell of ``CELLS``, in the main namespace and under another prefix, reads to the same row, column, value,
    type and style as openpyxl's own ``parse_cell`` gives (this test fails if the rich runs are left out, if the
    first of two ``<t>`` is taken, or if a formula's cell is read as its text)."""
    for source in (xml.replace("<c ", f'<c xmlns="{NS}" ', 1),
                   xml.replace("<", "<x:").replace("<x:/", "</x:").replace("</x:", "</x:")
                   .replace("<x:c ", f'<x:c xmlns:x="{NS}" ', 1)):
        element = ET.fromstring(source)
        ours, theirs = _parser(data_only), _parser(data_only)
        assert xlsx._parse_cell(ours, element) == xlsx._openpyxl_parse_cell(theirs, element)
        assert (ours.row_counter, ours.col_counter) == (theirs.row_counter, theirs.col_counter)  # type: ignore[attr-defined]


def test_shared_strings_read_as_openpyxls_own_reader_reads_them() -> None:
    """A workbook's table of shared strings (what LibreOffice saves: plain, spaced, empty, rich and phonetic runs,
    openpyxl's ``x005F_`` escape) reads to the very texts openpyxl's own reader gives; it fails with the runs left
    out or the escape kept."""
    from openpyxl.reader.strings import read_string_table

    table = (f'<sst xmlns="{NS}"><si><t>plain</t></si><si><t xml:space="preserve"> spaced </t></si><si><t/></si>'
             '<si><r><rPr><b/></rPr><t>bold</t></r><r><t> then plain</t></r></si>'
             '<si><t>base</t><rPh sb="0" eb="1"><t>ふり</t></rPh></si><si><t>a_x005F_x0041_b</t></si></sst>')
    ours = xlsx._read_string_table(io.BytesIO(table.encode()))
    assert ours == read_string_table(io.BytesIO(table.encode()))
    assert ours[3] == "bold then plain" and ours[5] == "a_x0041_b"


def test_rows_heights_read_as_openpyxls_own_reader_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows as LibreOffice saves them (a height with every row, some hidden, styled or of their own height) load to
    the same row dimensions as openpyxl's own reader makes, each with a style array of its own (a row's style
    changed leaves the rows of its kind alone)."""
    from openpyxl.worksheet._reader import WorksheetReader

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"].font = Font(bold=True)
    sheet["A20"] = "x"
    saved = io.BytesIO()
    book.save(saved)
    styled = ' s="1" customFormat="true"'
    plain = ' customFormat="false"'
    lo = "".join(f'<row r="{r}"{styled if r in (6, 7) else plain} ht="12.8" hidden="{"true" if r == 4 else "false"}" '
                 f'customHeight="{"true" if r == 5 else "false"}" outlineLevel="0" collapsed="false">'
                 f'<c r="A{r}" t="n"><v>{r}</v></c></row>' for r in range(2, 9))
    parts = _parts_of(saved.getvalue())
    sheet_xml = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = sheet_xml.replace("<sheetData>", f"<sheetData>{lo}", 1).encode()
    data = _zipped(parts)

    def rows(loaded: object) -> list[tuple[object, ...]]:
        ws = loaded.active  # type: ignore[attr-defined]
        return [(r, d.index, dict(d), d.ht, d.hidden, d.style_id, d._style)
                for r, d in sorted(ws.row_dimensions.items())]

    ours = openpyxl.load_workbook(io.BytesIO(data))
    monkeypatch.setattr(WorksheetReader, "bind_cells", xlsx._openpyxl_bind_cells)
    monkeypatch.setattr(WorksheetReader, "bind_row_dimensions", xlsx._openpyxl_bind_row_dimensions)
    assert rows(ours) == rows(openpyxl.load_workbook(io.BytesIO(data)))
    dims = ours.active.row_dimensions
    assert dims[2]._style is not dims[3]._style and dims[6]._style is not dims[7]._style
    dims[6].font = Font(italic=True)
    assert dims[7].font != dims[6].font


def _parts_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _zipped(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_rich_text_is_left_to_openpyxl() -> None:
    """A load asking for rich text gets openpyxl's rich text objects, not plain text."""
    element = ET.fromstring(f'<c xmlns="{NS}" r="A1" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r></is></c>')
    ours, theirs = _parser(rich_text=True), _parser(rich_text=True)
    assert xlsx._parse_cell(ours, element) == xlsx._openpyxl_parse_cell(theirs, element)


def test_a_saved_workbook_of_text_loads_back_whole() -> None:
    """Text openpyxl saves (spaces, line breaks, formula-like text, other scripts) loads back as it was written."""
    book = openpyxl.Workbook()
    texts = ["junk0", "  spaced  ", "two\nlines", "=not a formula", "ünïcødé ✘", "x" * 300]
    for row, text in enumerate(texts, start=1):
        book.active.cell(row, 1).value = text
    buffer = io.BytesIO()
    book.save(buffer)
    back = openpyxl.load_workbook(io.BytesIO(buffer.getvalue()), rich_text=False)
    assert [back.active.cell(row, 1).value for row in range(1, len(texts) + 1)] == texts


#: Values as a sync, a player or a layout leaves them in cells: text (spaced, blank, marked up, formula-like, other
#: scripts, line breaks), numbers (large, small, negative, not finite), booleans, formulas, dates, errors.
VALUES: list[object] = [
    "junk1", "  two  spaces ", "   ", "", "a & b < c > d \"e\" 'f'", "=not a formula", "Zoë ✘ 💥\nline two",
    "tab\there", "x" * 300, 0, 7, -3, 10**17, 0.1, 1e-300, 2.5e300, float("nan"), float("inf"), True, False,
    "=SUM(A1:A3)", datetime.date(2024, 3, 1), datetime.datetime(2024, 3, 1, 12, 30), datetime.time(12, 30),
    "#N/A", None,
]


def _saved_parts(book: object) -> dict[str, bytes]:
    """Every part of ``book`` as saved, but the one stamped with the time of the save."""
    buffer = io.BytesIO()
    book.save(buffer)  # type: ignore[attr-defined]
    with zipfile.ZipFile(buffer) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def _book_of_every_kind() -> object:
    """A workbook of every value of ``VALUES`` in a row of its own, plain and styled, with a comment, a link, rich
    text, a styled empty cell and rows of their own height or hidden."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row, value in enumerate(VALUES, start=1):
        sheet.cell(row, 1).value = value
        sheet.cell(row, 3).value = value
        sheet.cell(row, 3).font = Font(bold=True)
        sheet.cell(row, 3).number_format = "@" if row % 2 else "0.00"
    sheet.cell(2, 5).value = "see"
    sheet.cell(2, 5).hyperlink = "https://example.org/a?b=1&c=2"
    sheet.cell(3, 5).comment = Comment("a note & more", "gm")
    sheet.cell(4, 5).value = CellRichText(["plain ", TextBlock(InlineFont(b=True), "bold")])
    sheet.cell(5, 5).fill = PatternFill("solid", fgColor="FFEE00")
    sheet.cell(6, 5).value = "err"
    sheet.cell(6, 5).data_type = "e"
    sheet.row_dimensions[7].height = 30
    sheet.row_dimensions[8].hidden = True
    sheet.row_dimensions[40].height = 12  # a row of its own height and no cell
    book.create_sheet("Second").append(["a", 1, None, "  b"])
    return book


def test_a_workbook_saves_as_openpyxls_own_writer_saves_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A workbook of every kind of cell (``VALUES``; links, comments, rich text, row heights), saved with the rows
    written by ``sheets/xlsx.py``, is byte for byte the workbook openpyxl's own writer saves, every part of it;
    and the same once loaded back (cells as a load leaves them). It fails with the ``xml:space`` of spaced text left
    out, with text not escaped, or with a not-finite number written as ``<v></v>``."""
    ours = _saved_parts(_book_of_every_kind())
    monkeypatch.setattr(WorksheetWriter, "write_row", xlsx._openpyxl_write_row)
    theirs = _saved_parts(_book_of_every_kind())
    assert ours.keys() == theirs.keys()
    for name in ours:
        assert ours[name] == theirs[name], name
    saved = io.BytesIO()
    _book_of_every_kind().save(saved)  # type: ignore[attr-defined]
    monkeypatch.undo()
    ours = _saved_parts(openpyxl.load_workbook(io.BytesIO(saved.getvalue()), rich_text=False))
    monkeypatch.setattr(WorksheetWriter, "write_row", xlsx._openpyxl_write_row)
    assert ours == _saved_parts(openpyxl.load_workbook(io.BytesIO(saved.getvalue()), rich_text=False))


def test_a_rows_height_is_fitted_without_making_its_empty_cells() -> None:
    """Fitting a written row's height reads the cells it holds and makes none (10,000 answered rows of a 12-column
    tab were 110,000 empty cells loaded, sorted and saved at every later poll); the height is the one its wrapping
    text needs, a row of an empty wrapping style being no taller. It fails with the cells made as before."""
    from openpyxl.styles import Alignment

    from sheets_gm.sheets.printed_sizes import LINE_POINTS
    from sheets_gm.sheets.row_fit import fit_rows

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["L1"] = "x", "y"  # twelve columns wide
    sheet["L5"] = "a long answer " * 20
    sheet["L5"].alignment = Alignment(wrap_text=True)
    sheet["C6"].alignment = Alignment(wrap_text=True)
    fit_rows(sheet, {5, 6}, set())
    assert sorted(sheet._cells) == [(1, 1), (1, 12), (5, 12), (6, 3)]
    assert sheet.row_dimensions[5].height is not None and sheet.row_dimensions[5].height > LINE_POINTS
    assert sheet.row_dimensions[6].height is None


_SHARED_CT = '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.' \
    'spreadsheetml.sharedStrings+xml"/>'
#: Rows as office programs save them: LibreOffice's (a height and its flags with every row, some styled), Excel's
#: (a span, another namespace's field), none numbered, a number written as a float, a span alone; and openpyxl's
#: (row 9: every number and styled empty cell typed ``t="n"``, some styled as a date; row 10: inline strings).
ROWS = [
    '<row r="1" spans="1:4"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1" t="s"><v>1</v></c><c r="C1" s="1"/>'
    '<c r="D1"/></row>',
    '<row r="2" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">'
    '<c r="A2" s="0" t="s"><v>2</v></c><c r="D2" s="0" t="s"><v>3</v></c></row>',
    '<row r="3" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">'
    '<c r="A3" t="n"><v>7</v></c><c r="B3"><v>2.5</v></c><c r="C3"><v>1E-3</v></c><c r="D3" s="2"><v>45000</v></c>'
    '<c r="E3" t="b"><v>1</v></c><c r="F3"><f>A3*2</f><v>14</v></c><c r="G3" t="str"><f>A1</f><v>zero</v></c>'
    '<c r="H3" t="e"><v>#N/A</v></c><c r="I3" t="s"><v></v></c><c r="J3" t="s"/><c r="K3"><v></v></c></row>',
    '<row r="4" s="1" customFormat="true" ht="30" hidden="true" customHeight="true">'
    '<c r="B4" t="s"><v>2</v></c><c t="s"><v>1</v></c><c><v>5</v></c>'
    '<c r="F4" t="inlineStr"><is><t>inline</t></is></c><c/></row>',
    '<row spans="1:2"><c t="s"><v>2</v></c><c r="ab5" t="s"><v>3</v></c></row>',
    '<row r="6.0"><c r="C006" t="s"><v>0</v></c></row>',
    '<row r="7" x14ac:dyDescent="0.25" spans="1:1"><c r="A7"><v>-3</v></c></row>',
    '<row r="8" ht="12.8" customHeight="false"/>',
    '<row r="9"><c r="A9" s="1" t="n"/><c r="B9" t="n"><v>42</v></c><c r="C9" s="1" t="n"><v>0.1</v></c>'
    '<c r="D9" s="2" t="n"><v>45001.5</v></c><c r="E9" s="2" t="n"/><c r="F9" t="n"><v></v></c><c t="n"><v>-3E2</v></c>'
    '<c r="H9" t="n"><f>B9+1</f><v>43</v></c><c r="I9" s="2" t="n"><v></v></c></row>',
    '<row r="10"><c r="A10" t="inlineStr"><is><t xml:space="preserve"> spaced </t></is></c>'
    '<c r="B10" s="1" t="inlineStr"><is><t/></is></c><c r="C10" t="inlineStr"><is><r><t>a run</t></r></is></c>'
    '<c r="D10" t="inlineStr"/><c r="E10" t="inlineStr"><is><t>first</t><t>last</t></is></c></row>',
]


def _workbook_of_rows() -> bytes:
    """A workbook whose first tab holds ``ROWS``, with a shared strings table and a date style (style 2)."""
    from openpyxl.styles import NamedStyle

    book = openpyxl.Workbook()
    book.active["A1"].font = Font(bold=True)  # style 1
    book.active["A2"].style = NamedStyle("date", number_format="yyyy-mm-dd")  # style 2: a date
    saved = io.BytesIO()
    book.save(saved)
    parts = _parts_of(saved.getvalue())
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    start, end = sheet.index("<sheetData>"), sheet.index("</sheetData>")
    sheet = sheet[:start] + "<sheetData>" + "".join(ROWS) + sheet[end:]
    excel = 'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"'  # Excel's namespace
    parts["xl/worksheets/sheet1.xml"] = sheet.replace("<worksheet ", f"<worksheet {excel} ", 1).encode()
    parts["xl/sharedStrings.xml"] = (f'<sst xmlns="{NS}"><si><t>zero</t></si><si><t>one</t></si><si><t> two </t></si>'
                                     '<si><t>Z99</t></si></sst>').encode()
    types = parts["[Content_Types].xml"].decode()
    parts["[Content_Types].xml"] = types.replace("</Types>", f"{_SHARED_CT}</Types>").encode()
    return _zipped(parts)


def _loaded(data: bytes, rich_text: bool = False) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], object]:
    """Every cell of the first tab loaded from ``data`` (place, value, type, style), every row's dimension, and the
    row openpyxl appends at next."""
    ws = openpyxl.load_workbook(io.BytesIO(data), rich_text=rich_text).active
    cells: list[tuple[object, ...]] = [(key, c.row, c.column, c.value, c.data_type, tuple(c._style), c.hyperlink,
                                        c.comment) for key, c in sorted(ws._cells.items())]
    rows: list[tuple[object, ...]] = [(r, d.index, dict(d), d.ht, d.hidden, d.customHeight, d.style_id,
                                       tuple(d._style or ())) for r, d in sorted(ws.row_dimensions.items())]
    return cells, rows, ws._current_row


@pytest.mark.parametrize("rich_text", [False, True])
def test_a_tab_loads_as_openpyxls_own_reader_loads_it(monkeypatch: pytest.MonkeyPatch, rich_text: bool) -> None:
    """A tab of rows as LibreOffice, Excel and openpyxl save them (``ROWS``: shared strings, empty and styled cells,
    numbers, a date, a boolean, formulas, an error, cells and rows not numbered, a row numbered as a float, heights
    and flags, another namespace's field) loads to the very cells and row dimensions openpyxl's own reader makes,
    each cell with a style array of its own; only dates, booleans, formulas, errors and (a load asking for rich text)
    inline strings reach openpyxl's own ``parse_cell``. It fails with a date read as a number (typed ``t="n"`` or
    not), a span taken for a dimension, the cells after one not numbered put in the wrong column, an inline string's
    runs left out or read as plain text where rich text was asked for, or ``t="n"`` cells and plain text left to
    openpyxl's ``parse_cell``."""
    from openpyxl.worksheet._reader import WorksheetReader

    data = _workbook_of_rows()
    own_parse_cell, reached = xlsx._openpyxl_parse_cell, []

    def counted(parser: object, element: ET.Element) -> object:
        reached.append(element.get("r"))
        return own_parse_cell(parser, element)

    monkeypatch.setattr(xlsx, "_openpyxl_parse_cell", counted)
    ours = _loaded(data, rich_text)
    # asked for rich text, every text cell but those of a plainly numbered row read by the fast path goes to openpyxl
    rich = (["J3", "F4", None, "ab5", "C006"], ["A10", "B10", "C10", "D10", "E10"]) if rich_text else ([], [])
    assert reached == ["D3", "E3", "F3", "G3", "H3", *rich[0], "D9", "H9", "I9", *rich[1]]
    monkeypatch.undo()
    monkeypatch.setattr(WorksheetReader, "bind_cells", xlsx._openpyxl_bind_cells)
    monkeypatch.setattr(WorksheetReader, "bind_row_dimensions", xlsx._openpyxl_bind_row_dimensions)
    monkeypatch.setattr(WorkSheetParser, "parse_cell", xlsx._openpyxl_parse_cell)
    theirs = _loaded(data, rich_text)
    assert ours == theirs
    values = {cell[0]: cell[3] for cell in ours[0]}
    assert values[3, 4] == datetime.datetime(2023, 3, 15) and values[3, 1] == 7 and values[5, 28] == "Z99"
    assert values[9, 4] == datetime.datetime(2023, 3, 16, 12) and values[9, 2] == 42 and values[9, 7] == -300
    monkeypatch.undo()
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    assert ws["A2"]._style is not ws["D2"]._style


def test_the_libraries_are_frozen_out_of_the_collectors_walks_and_a_dropped_workbook_is_collected(
        tmp_path: Path) -> None:
    """A workbook's load freezes what the process held before it (the libraries, walked at every full collection
    for nothing), once; no workbook is frozen: dropped, the collector frees it (its cells and tab hold each other),
    the one loaded first too. It fails with the freeze moved to the end of a load (the workbook frozen with the
    rest) or made at every load (the first workbook frozen by the second's)."""
    import gc
    import weakref

    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    book = openpyxl.Workbook()
    book.active.title = "Tab"
    book.active["A1"] = "x"
    backends = []
    for name in ("a.xlsx", "b.xlsx"):
        book.save(tmp_path / name)
        backends.append(LocalWorkbookBackend(tmp_path / name))
        assert backends[-1].read(["Tab!A1"]) == [[["x"]]]
        assert gc.get_freeze_count() > 0
    tabs = [weakref.ref(backend._workbook_for_read().active) for backend in backends]
    del backends
    gc.collect()
    assert [tab() for tab in tabs] == [None, None]
