"""A workbook saved by ``sheets/xlsx.py``'s writer is the very file openpyxl's own plain writer saves: each game's
workbooks, and a workbook of every part a tab's head and tail may hold, saved again once each part was changed (a
part written before is never written for a tab whose part changed since)."""

from __future__ import annotations

import contextlib
import datetime
import io
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.registry import ruleset_names
from sheets_gm.sheets import xlsx
from sheets_gm.sheets.xlsx import openpyxl
from tests.quick import soak_but
from tests.sheets.practice import practice_copy

from openpyxl.comments import Comment  # isort: skip  # after sheets.xlsx: openpyxl without numpy
from openpyxl.formatting.rule import CellIsRule  # isort: skip
from openpyxl.packaging.custom import StringProperty  # isort: skip
from openpyxl.styles import Font  # isort: skip
from openpyxl.worksheet._writer import WorksheetWriter  # isort: skip
from openpyxl.workbook.defined_name import DefinedName  # isort: skip
from openpyxl.worksheet.datavalidation import DataValidation  # isort: skip
from openpyxl.writer import excel as excel_writer  # isort: skip

#: The moment every save here is stamped with (a zip entry's time, the workbook's ``modified``).
_MOMENT = datetime.datetime(2026, 1, 2, 3, 4, 6)


@pytest.fixture(autouse=True)
def _one_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every save made at :data:`_MOMENT`: its zip entries' times and its ``docProps/core.xml``."""
    monkeypatch.setattr(time, "time", lambda: _MOMENT.timestamp())

    class _Moment(datetime.datetime):
        @classmethod
        def now(cls, tz: datetime.tzinfo | None = None) -> Any:
            return _MOMENT.replace(tzinfo=tz)

    monkeypatch.setattr(excel_writer, "datetime", type("clock", (), {"datetime": _Moment,
                                                                       "timezone": datetime.timezone}))


@contextlib.contextmanager
def _plain_writer() -> Iterator[None]:
    """openpyxl's own writer, every part of it ``sheets/xlsx.py`` replaces put back for as long as it lasts."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(excel_writer.ExcelWriter, "write_worksheet", xlsx._openpyxl_write_worksheet)
        patch.setattr(excel_writer.ExcelWriter, "_write_comment", xlsx._openpyxl_write_comment)
        patch.setattr(WorksheetWriter, "write_row", xlsx._openpyxl_write_row)
        patch.setattr(excel_writer, "write_stylesheet", xlsx._openpyxl_write_stylesheet)
        patch.setattr(excel_writer, "tostring", xlsx._openpyxl_tostring)
        patch.setattr(excel_writer, "ZipFile", zipfile.ZipFile)
        patch.setattr(excel_writer.ExcelWriter, "write_data", xlsx._openpyxl_write_data)
        yield


def _saved(book: Any) -> dict[str, tuple[object, ...]]:
    """Each entry of ``book`` saved: its bytes and every field of its zip entry but the time (openpyxl's own writer
    stamps a tab with its temporary file's time), in the order saved."""
    buffer = io.BytesIO()
    book.save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        return {entry.filename: (archive.read(entry), entry.compress_type, entry.external_attr, entry.flag_bits,
                                 entry.create_system, entry.extra, entry.CRC, entry.compress_size)
                for entry in archive.infolist()}


def _same_both_ways(data: bytes) -> None:
    """``data`` loaded and saved by this writer (twice: the second from what the first kept) and by openpyxl's
    plain writer: the same entries, byte for byte."""
    ours = [_saved(openpyxl.load_workbook(io.BytesIO(data), rich_text=False)) for _ in range(2)]
    with _plain_writer():
        theirs = _saved(openpyxl.load_workbook(io.BytesIO(data), rich_text=False))
    for saved in ours:
        assert list(saved) == list(theirs)
        for name, entry in theirs.items():
            assert saved[name] == entry, name


@pytest.mark.parametrize("game", soak_but(ruleset_names(), "champions"))
def test_each_games_workbooks_save_as_openpyxls_plain_writer_saves_them(tmp_path: Path, game: str) -> None:
    """Each workbook of a practice match of each game, loaded and saved, is the file openpyxl's own plain writer
    saves of it: every part, every entry's fields. It fails with a tab's head or tail written other than openpyxl
    writes it (a ``<col>``'s attributes out of order, an empty element closed ``/>``, text not escaped). The test
    command runs Champions (18 workbooks, the most), the soak run every game."""
    practice_copy(tmp_path, game)
    books = sorted(tmp_path.rglob("*.xlsx"))
    assert books
    for book in books:
        _same_both_ways(book.read_bytes())


def _book_of_every_part() -> Any:
    """A workbook whose tabs hold every part of a tab's head and tail (and integers about the largest a float holds
    exactly, a row with no cell): a tab colour, a frozen pane, a sheet format,
    grouped, hidden and styled columns, a protection with a password, print options, margins, a page setup,
    headers and footers with markup to escape, validations, a conditional format, merged cells, a comment, a link."""
    book = openpyxl.Workbook()
    book.properties.created = _MOMENT
    sheet = book.active
    sheet.title = "First & <last>"
    sheet["A1"], sheet["B2"], sheet["C3"] = "a", 2, "  spaced "
    sheet["D4"], sheet["E4"], sheet["F4"], sheet["G4"] = 2**53, 2**53 + 1, -(2**53) - 1, 0.1  # a float's digits
    sheet.row_dimensions[30].height = 40  # a row of its own height and no cell
    sheet.sheet_properties.tabColor = "FF0000"
    sheet.freeze_panes = "B2"
    sheet.sheet_format.defaultRowHeight = 17
    sheet.column_dimensions["B"].width = 30
    sheet.column_dimensions["C"].hidden = True
    sheet.column_dimensions["D"].font = Font(bold=True)
    sheet.column_dimensions.group("E", "G", outline_level=2)
    sheet.protection.sheet = True
    sheet.protection.password = "secret"
    sheet.print_options.gridLines = True
    sheet.page_margins.left = 0.3
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth = 2
    sheet.oddHeader.center.text = "Tom & Jerry <\"quoted\"> · ünïcødé"
    sheet.evenFooter.right.text = "&P of &N"
    validation = DataValidation(type="list", formula1='"yes,no"', allow_blank=True)
    validation.add("A2:A9")
    sheet.add_data_validation(validation)
    sheet.conditional_formatting.add("C1:C9", CellIsRule(operator="equal", formula=["1"], font=Font(strike=True)))
    sheet.merge_cells("H1:I2")
    sheet["J1"].comment = Comment("a note & more", "gm")
    sheet["K1"].hyperlink = "https://example.org/?a=1&b=2"
    book.create_sheet("Second").append(["x", None, 3.5])
    return book


def _comment_moved(sheet: Any, source: str, target: str) -> None:
    """The comment of ``sheet``'s cell ``source`` moved to its cell ``target``."""
    comment = sheet[source].comment
    sheet[source].comment = None
    sheet[target].comment = comment


#: Each part of a tab's head and tail changed once it was saved (on the first tab).
TAB_CHANGES: dict[str, Callable[[Any], object]] = {
    "its properties": lambda sheet: setattr(sheet.sheet_properties, "tabColor", "00FF00"),
    "its view": lambda sheet: setattr(sheet, "freeze_panes", "C3"),
    "its format": lambda sheet: setattr(sheet.sheet_format, "defaultRowHeight", 21),
    "a column's width": lambda sheet: setattr(sheet.column_dimensions["B"], "width", 31),
    "a column's style": lambda sheet: setattr(sheet.column_dimensions["B"], "font", Font(italic=True)),
    "a column shown": lambda sheet: setattr(sheet.column_dimensions["C"], "hidden", False),
    "its dimension": lambda sheet: sheet.cell(40, 30, "far"),
    "its protection": lambda sheet: setattr(sheet.protection, "password", "other"),
    "its print options": lambda sheet: setattr(sheet.print_options, "gridLines", False),
    "its margins": lambda sheet: setattr(sheet.page_margins, "left", 0.4),
    "its page setup": lambda sheet: setattr(sheet.page_setup, "orientation", "portrait"),
    "its header": lambda sheet: setattr(sheet.oddHeader.center, "text", "another"),
    "its validations": lambda sheet: sheet.data_validations.dataValidation[0].add("B2:B3"),
    "its comments gone": lambda sheet: setattr(sheet["J1"], "comment", None),
    "a comment's text": lambda sheet: setattr(sheet["J1"], "comment", Comment("another note", "gm")),
    "a comment's size": lambda sheet: setattr(sheet["J1"], "comment", Comment("a note & more", "gm", 90, 200)),
    "a comment moved": lambda sheet: _comment_moved(sheet, "J1", "J2"),
}
#: Each workbook-wide part changed once it was saved: its properties, its sheets and names, their relationships,
#: the content types.
BOOK_CHANGES: dict[str, Callable[[Any], object]] = {
    "its title": lambda book: setattr(book.properties, "title", "another"),
    "a custom property": lambda book: book.custom_doc_props.append(StringProperty(name="seat", value="red")),
    "a tab renamed": lambda book: setattr(book.worksheets[1], "title", "Renamed"),
    "a tab hidden": lambda book: setattr(book.worksheets[1], "sheet_state", "hidden"),
    "a tab added": lambda book: book.create_sheet("Third"),
    "a print area": lambda book: setattr(book.worksheets[1], "print_area", "A1:C9"),
    "print titles": lambda book: setattr(book.worksheets[1], "print_title_rows", "1:2"),
    "a filter": lambda book: setattr(book.worksheets[1].auto_filter, "ref", "A1:C3"),
    "a tab's own name": lambda book: book.worksheets[1].defined_names.add(DefinedName("mine", attr_text="$A$1")),
    "a name": lambda book: book.defined_names.add(DefinedName("seats", attr_text="'Second'!$A$1:$A$3")),
    "the active tab": lambda book: setattr(book, "active", 1),
}


def _on_first_tab(change: Callable[[Any], object]) -> Callable[[Any], object]:
    """``change`` made to a workbook's first tab."""
    return lambda book: change(book.worksheets[0])


CHANGES = {**{name: _on_first_tab(change) for name, change in TAB_CHANGES.items()}, **BOOK_CHANGES}


def _saved_changed(change: str) -> list[dict[str, tuple[object, ...]]]:
    """A workbook of every part (``_book_of_every_part``) saved, then saved again once ``change`` made."""
    book = _book_of_every_part()
    first = _saved(book)
    CHANGES[change](book)
    return [first, _saved(book)]


@pytest.mark.parametrize("change", CHANGES)
def test_a_tab_saved_again_once_a_part_changed_saves_as_openpyxl_saves_it(change: str) -> None:
    """A workbook of every part of a tab's head and tail (``_book_of_every_part``) saved, then saved once one
    part changed (``CHANGES``: a tab's, the workbook's): each time the file openpyxl's own plain writer saves, the
    changed part written anew. It fails with a part kept by less than everything it is made of (its text written
    before written again: a list's items left out of what a list of relationships is kept by)."""
    ours = _saved_changed(change)
    with _plain_writer():
        theirs = _saved_changed(change)
    assert ours == theirs and ours[0] != ours[1]


def _elements() -> list[ET.Element]:
    """Elements as a tab's head and tail hold them, and some the namespaced serialiser must write: text, attributes
    and tails to escape, nested and empty children, a comment, a namespaced tag and attribute, a number as a value."""
    plain = ET.Element("headerFooter", {"differentFirst": "1", "note": 'a "quoted" & <tagged>\nline'})
    ET.SubElement(plain, "oddHeader").text = "&C Tom & Jerry <b> · ünïcødé"
    ET.SubElement(plain, "oddFooter")
    child = ET.SubElement(plain, "evenHeader", {"x": "1"})
    child.tail = "tail & more"
    ET.SubElement(ET.SubElement(plain, "deep"), "deeper", {"k": ""}).text = "  spaced  "
    commented = ET.Element("cols")
    commented.append(ET.Comment("a comment"))
    linked = ET.Element("legacyDrawing", {"{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id":
                                          "anysvml"})
    return [plain, commented, linked, ET.Element("{http://example.org/ns}thing"), ET.Element("sheetPr")]


@pytest.mark.parametrize("at", range(len(_elements())))
def test_a_piece_writer_writes_each_element_as_et_xmlfile_writes_it(at: int) -> None:
    """Each element (``_elements``) written by ``PieceWriter`` inside a ``<worksheet>`` is the text ``et_xmlfile``'s
    own writer writes for it there. It fails with an attribute or text left unescaped, a tail dropped, or a
    namespaced element written as a plain one."""
    from et_xmlfile.xmlfile import xmlfile  # type: ignore[import-untyped]

    from sheets_gm.sheets.xlsx_write_parts import PieceWriter, encoded

    element = _elements()[at]
    theirs = io.BytesIO()
    with xmlfile(theirs) as stream, stream.element("worksheet", xmlns="http://example.org/main"):
        stream.write(element)
    pieces: list[str] = []
    ours = PieceWriter(pieces.append)
    with ours.element("worksheet", xmlns="http://example.org/main"):
        ours.write(element)
    assert encoded(pieces) == theirs.getvalue()
