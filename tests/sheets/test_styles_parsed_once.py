"""A workbook's styles part is parsed once for each distinct part, and made once for each set of styles saved
(``sheets/xlsx.py``): a load gets the very styles openpyxl's own ``apply_stylesheet`` reads, objects of its own that
no other workbook shares; a save writes the very part openpyxl's own ``write_stylesheet`` makes."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from openpyxl.formatting.rule import CellIsRule

from sheets_gm.sheets import xlsx, xlsx_read_cache
from sheets_gm.sheets.xlsx import openpyxl

from openpyxl.reader import excel  # isort: skip
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Protection, Side  # isort: skip
from openpyxl.styles.differential import DifferentialStyle  # isort: skip
from openpyxl.styles.stylesheet import apply_stylesheet, write_stylesheet  # isort: skip
from openpyxl.styles.table import TableStyle  # isort: skip
from openpyxl.writer import excel as excel_writer  # isort: skip
from openpyxl.xml.functions import tostring  # isort: skip


def _styled_book(colour: str) -> bytes:
    """A saved workbook of many kinds of style: fonts, fills, borders, alignments, protections, number formats (a
    date, a duration), a named style of its own and a conditional format (a differential style)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "bold"
    sheet["A1"].font = Font(bold=True, color=colour)
    sheet["B2"] = 3.5
    sheet["B2"].number_format = "0.00"
    sheet["C3"] = 45000
    sheet["C3"].number_format = "yyyy-mm-dd"
    sheet["D4"] = 1.25
    sheet["D4"].number_format = "[h]:mm:ss"
    sheet["E5"].fill = PatternFill("solid", fgColor=colour)
    sheet["E5"].border = Border(left=Side(style="thin"), bottom=Side(style="double", color="FF0000"))
    sheet["F6"] = "wrapped"
    sheet["F6"].alignment = Alignment(wrap_text=True, vertical="top")
    sheet["G7"].protection = Protection(locked=False)
    book.add_named_style(NamedStyle("heading", font=Font(size=14, italic=True), number_format="0%"))
    sheet["H8"].style = "heading"
    sheet.conditional_formatting.add("A1:A9", CellIsRule(operator="equal", formula=["1"], font=Font(strike=True)))
    saved = io.BytesIO()
    book.save(saved)
    return saved.getvalue()


def _styles(book: Any) -> dict[str, object]:
    """Everything of ``book``'s styles a load sets, as plain values."""
    return {
        "fonts": list(book._fonts), "fills": list(book._fills), "borders": list(book._borders),
        "cell styles": [tuple(style) for style in book._cell_styles],
        "named": [(n.name, n.font, n.fill, n.border, n.alignment, n.number_format, n.protection, n.builtinId,
                   n.hidden, tuple(n._style)) for n in book._named_styles],
        "number formats": list(book._number_formats), "dates": book._date_formats,
        "durations": book._timedelta_formats, "protections": list(book._protections),
        "alignments": list(book._alignments), "differential": list(book._differential_styles.styles),
        "tables": book._table_styles, "colours": book._colors,
    }


def _parts(book: Any) -> dict[str, bytes]:
    saved = io.BytesIO()
    book.save(saved)
    with zipfile.ZipFile(saved) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def _load(data: bytes) -> Any:
    return openpyxl.load_workbook(io.BytesIO(data), rich_text=False)


def test_a_load_reads_the_styles_openpyxl_reads_and_saves_them_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workbooks of different styles, each loaded twice in turn (parsed, then taken from what was parsed), read
    the same styles as openpyxl's own ``apply_stylesheet`` and save the same bytes. It fails with the styles of one
    workbook given to the other (a parse kept whatever its part)."""
    red, blue = _styled_book("FFCC0000"), _styled_book("FF0000CC")
    ours = [_load(data) for data in (red, blue, red, blue)]
    monkeypatch.setattr(excel, "apply_stylesheet", apply_stylesheet)
    theirs = [_load(data) for data in (red, blue)]
    for at, book in enumerate(ours):
        assert _styles(book) == _styles(theirs[at % 2])
        assert _parts(book) == _parts(theirs[at % 2])
    assert ours[0].active["A1"].font.color.rgb == "FFCC0000" and ours[3].active["A1"].font.color.rgb == "FF0000CC"


def test_workbooks_loaded_from_the_same_part_share_no_style() -> None:
    """A workbook whose styles are changed every way a sync or a layout changes them (a new style on a cell, a named
    style added and one changed, a number format and a differential style added, a style array changed in place)
    leaves the next workbook loaded from the same bytes as it was read, each named style bound to its own workbook.
    It fails with the parsed styles handed out as they are, not a copy of them each time."""
    data = _styled_book("FF00AA00")
    first = _load(data)
    before = _styles(_load(data))
    first.active["A1"].font = Font(name="Arial", size=30)
    first.active["Z9"].number_format = "0.000"
    first._cell_styles[1][0] = 7  # (in place: openpyxl's own code never does, a careless caller might)
    first._named_styles["heading"].font = Font(size=20)
    first.add_named_style(NamedStyle("another", fill=PatternFill("solid", fgColor="FF123456")))
    first._differential_styles.append(first._differential_styles.styles[0])
    first._fonts[0].b = True  # (a font changed in place, as above)
    again = _load(data)
    assert _styles(again) == before
    assert all(named._wb is again for named in again._named_styles)
    assert not {id(o) for o in again._fonts} & {id(o) for o in first._fonts}
    assert not {id(o) for o in again._cell_styles} & {id(o) for o in first._cell_styles}


def test_the_parsed_parts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many distinct styles parts a process loads, it keeps at most ``MOST_KEPT`` parts parsed."""
    monkeypatch.setattr(xlsx_read_cache, "MOST_KEPT", 5)
    for at in range(8):
        _load(_styled_book(f"FF{at:06X}"))
    assert len(xlsx_read_cache._KEPT) == 5


#: Each thing of a workbook openpyxl's ``write_stylesheet`` reads, changed alone (in place where a workbook's own
#: code would add a style rather than change one: a cache that left it out of its key would not see it).
CHANGES: dict[str, Any] = {
    "a cell's font": lambda book: setattr(book.active["A1"], "font", Font(name="Arial", size=30)),
    "a font in place": lambda book: setattr(book._fonts[1], "sz", 21),
    "a fill in place": lambda book: setattr(book._fills[2], "patternType", "darkGrid"),
    "a border in place": lambda book: setattr(book._borders[1], "diagonalUp", True),
    "a differential style": lambda book: book._differential_styles.append(DifferentialStyle(font=Font(u="single"))),
    "the colours": lambda book: setattr(book, "_colors", [*book._colors[:-1], "00ABCDEF"]),
    "a number format": lambda book: book._number_formats.append("0.0000"),
    "a style array in place": lambda book: book._cell_styles[1].__setitem__(0, 2),
    "an alignment in place": lambda book: book._alignments.__setitem__(1, Alignment(horizontal="right")),
    "a protection in place": lambda book: book._protections.__setitem__(1, Protection(hidden=True)),
    "a named style's name": lambda book: setattr(book._named_styles[1], "name", "renamed"),
    "a named style hidden": lambda book: setattr(book._named_styles[1], "hidden", True),
    "a named style's built-in id": lambda book: setattr(book._named_styles[1], "builtinId", 3),
    "a named style's alignment": lambda book: book._named_styles[1].__dict__.__setitem__("alignment",
                                                                                        Alignment(indent=2)),
    "a named style's protection": lambda book: book._named_styles[1].__dict__.__setitem__("protection",
                                                                                         Protection(locked=False)),
    "a named style's array": lambda book: book._named_styles[1]._style.__setitem__(0, 0),
    "a table style": lambda book: book._table_styles.tableStyle.append(TableStyle(name="mine")),
}


def _styles_part(book: Any) -> bytes:
    saved = io.BytesIO()
    book.save(saved)
    with zipfile.ZipFile(saved) as archive:
        return archive.read("xl/styles.xml")


def _saved_changed(book: Any, change: str) -> list[bytes]:
    """``book``'s styles part saved, then saved twice once ``change`` made."""
    parts = [_styles_part(book)]
    CHANGES[change](book)
    return [*parts, _styles_part(book), _styles_part(book)]


@pytest.mark.parametrize("change", CHANGES)
def test_a_save_writes_the_styles_part_openpyxl_writes(change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A workbook saved, then saved twice once one thing its styles part is made of was changed (``CHANGES``),
    writes each time the part openpyxl's own ``write_stylesheet`` makes of it: the part made before is never written
    for styles that changed. It fails with any of those things left out of what a made part is kept by."""
    data = _styled_book("FF00AA00")
    ours = _saved_changed(_load(data), change)
    monkeypatch.setattr(excel_writer, "write_stylesheet", write_stylesheet)
    monkeypatch.setattr(excel_writer, "tostring", tostring)
    theirs = _saved_changed(_load(data), change)
    assert ours == theirs and theirs[0] != theirs[1]


def test_parts_are_kept_by_threads_at_once_without_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host's threads load and save workbooks at once: parts kept and dropped by 8 threads together, the threads
    switched as often as the interpreter can, raise nothing and keep the bound. It fails with the keeping not
    locked (two threads drop the same oldest part: a KeyError; most runs, not every one)."""
    import sys
    import threading

    monkeypatch.setattr(xlsx, "_MOST_STYLESHEETS", 2)
    parts: dict[bytes, bytes] = {}
    errors: list[BaseException] = []

    def keep(thread: int) -> None:
        try:
            for at in range(10_000):
                xlsx._kept(parts, b"%d-%d" % (thread, at), b"part")
        except Exception as error:  # any, counted
            errors.append(error)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=keep, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == [] and len(parts) == 2
