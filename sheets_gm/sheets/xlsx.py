"""openpyxl, imported without numpy and loading and saving workbooks faster; and the bounds a workbook must keep to
be loaded at all.

openpyxl imports numpy when it is installed, only to accept numpy numbers as cell values;
sheets-gm never writes one. numpy is installed beside the test and plot extras, and importing
it is the largest part of a local sync's start-up (cron starts one every few minutes), so
openpyxl is imported with numpy hidden, and numpy stays importable for whoever needs it.

openpyxl saves every text cell as an inline string (``<c t="inlineStr"><is><t>…</t></is></c>``) and reads each
back through its general object model (``Text.from_tree``), a third of the time a workbook of text takes to load
(a Log, 10,000 rows pasted under a table). :func:`_parse_cell` reads such a cell's text straight from its
elements, the same text ``Text.content`` gives; every other cell is read by openpyxl's own code. Each row is read
by :func:`_row_reader` as openpyxl's parser walks the tab, its shared strings, plain text, empty cells and plain
numbers (what sheets-gm saves, what a paste leaves) read there into plain tuples, kept for the next load of the same
bytes (``sheets/xlsx_read_cache.py``), and each cell made from them by :func:`_cell_maker` with its attributes set
straight (a tenth of a poll's load went to ``Cell.__init__``).
A workbook's styles part, the same in every workbook of a match save after save, is parsed once for each distinct
part and each load given a copy of its own (:func:`_apply_stylesheet`), and made once for each set of styles saved
(:func:`_write_stylesheet`).

Saving is the same the other way: openpyxl serialises each cell as an element tree through ``et_xmlfile`` (some
100 function calls a cell), most of a workbook's save. :func:`_write_row` writes a row's text, number and boolean
cells as the very bytes openpyxl would write for them, straight into the stream; every other cell (a formula, a
date, rich text, a cell with a link) is written by openpyxl's own code. And openpyxl writes each worksheet into a
temporary file of its own, reads it back into the zip and deletes it (four file-system calls a tab, each save, a
tenth of a match's making); :func:`_write_worksheet` writes it in memory, into a zip entry the same as the one
openpyxl would make of the file. The tab is written by :class:`_TabWriter` into a list of pieces joined once (no text
stream encoding each piece); the parts of its head and tail (its views, format, columns, protection, page setup,
header...) are written once for each thing they are made of and their text reused, save after save; and each part
of the zip is deflated once for each distinct part (:class:`_DeflatedZip`), the same bytes zlib makes of it each time.

Where ``defusedxml`` is installed (other packages bring it), openpyxl parses worksheets and shared strings with its
parser, built on the standard library's pure-Python ``XMLParser``: a third slower than the C parser. Its guards are
the expat library's own since expat 2.4.1 (amplified entities, "billion laughs", are refused; external entities are
never fetched by ``ElementTree``), and a workbook's size is bounded before it is parsed (:func:`unpacked_size_problem`),
so with such an expat those two parts are parsed by the standard library's ``iterparse``.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import io
import os
import pickle
import re
import stat
import struct
import sys
import time
import warnings
import zipfile
import zlib
from array import array
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator
from operator import itemgetter
from pyexpat import version_info as _expat_version
from types import ModuleType
from typing import Any, TypeVar
from xml.etree import ElementTree as ET
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # type: ignore[attr-defined]  # et_xmlfile's own

from sheets_gm.sheets.kept_parts import KeptParts, kept
from sheets_gm.sheets.struck import StruckText, struck
from sheets_gm.sheets.xlsx_write_parts import PieceWriter, encoded, plain_element_xml


def _import_without_numpy() -> ModuleType:
    """openpyxl, imported while ``import numpy`` fails; numpy importable again afterwards."""
    hide = "numpy" not in sys.modules
    if hide:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # makes ``import numpy`` fail at once
    try:
        import openpyxl
    finally:
        if hide:
            del sys.modules["numpy"]
    module: ModuleType = openpyxl
    return module


openpyxl = _import_without_numpy()

from openpyxl.cell._writer import write_cell  # noqa: E402  # after openpyxl, imported without numpy
from openpyxl.cell.cell import Cell  # noqa: E402
from openpyxl.comments.comment_sheet import CommentRecord, CommentSheet  # noqa: E402
from openpyxl.compat import safe_string  # noqa: E402
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing  # noqa: E402
from openpyxl.packaging import manifest as _manifest  # noqa: E402
from openpyxl.packaging.extended import ExtendedProperties  # noqa: E402
from openpyxl.packaging.manifest import FileExtension, Override  # noqa: E402
from openpyxl.packaging.relationship import Relationship, RelationshipList  # noqa: E402
from openpyxl.reader import excel as _excel_reader  # noqa: E402
from openpyxl.reader import strings as _strings_reader  # noqa: E402
from openpyxl.styles.builtins import styles as builtin_styles  # noqa: E402
from openpyxl.styles.cell_style import StyleArray  # noqa: E402
from openpyxl.styles.stylesheet import Stylesheet  # noqa: E402
from openpyxl.utils.cell import coordinate_to_tuple, get_column_letter  # noqa: E402
from openpyxl.utils.indexed_list import IndexedList  # noqa: E402
from openpyxl.workbook._writer import WorkbookWriter  # noqa: E402
from openpyxl.worksheet import _reader as _sheet_reader  # noqa: E402
from openpyxl.worksheet._reader import (  # noqa: E402
    FORMULA_TAG,
    INLINE_STRING,
    VALUE_TAG,
    WorkSheetParser,
    WorksheetReader,
    _cast_number,
)
from openpyxl.worksheet._writer import WorksheetWriter  # noqa: E402
from openpyxl.worksheet.dimensions import ColumnDimension, RowDimension  # noqa: E402
from openpyxl.writer import excel as _excel_writer  # noqa: E402
from openpyxl.writer.excel import ExcelWriter  # noqa: E402
from openpyxl.writer.theme import theme_xml  # noqa: E402
from openpyxl.xml.constants import (  # noqa: E402
    ARC_APP,
    ARC_CORE,
    ARC_CUSTOM,
    ARC_ROOT_RELS,
    ARC_STYLE,
    ARC_THEME,
    ARC_WORKBOOK,
    ARC_WORKBOOK_RELS,
    CPROPS_TYPE,
    PKG_REL_NS,
    SHEET_MAIN_NS,
)
from openpyxl.xml.functions import fromstring  # noqa: E402

from sheets_gm.sheets.xlsx_read_cache import (  # noqa: E402  # after openpyxl, imported without numpy
    KEEPABLE_VALUES,
    SHARED,
    CellRead,
    ReadCells,
    default_styles,
    give_page_setup,
    install,
    kept_copy,
    read_worksheet,
)

_Part = TypeVar("_Part")  # a part kept by what it is made of (:func:`_kept`)
_Key = TypeVar("_Key", bound=Hashable)  # what a part is kept by
_openpyxl_parse_cell = WorkSheetParser.parse_cell

#: The first expat that refuses amplified entities itself (CVE-2013-0340), as ``defusedxml`` does.
SAFE_EXPAT = (2, 4, 1)
if _expat_version >= SAFE_EXPAT:
    _sheet_reader.iterparse = _strings_reader.iterparse = ET.iterparse


def _local(tag: object) -> str:
    """An element's tag without its namespace."""
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def inline_text(string: Any) -> str:
    """The text of an inline string's ``<is>`` element as ``Text.from_tree(string).content`` gives it: its own
    ``<t>`` (the last, if several), then each rich run's ``<t>`` in order; phonetic runs left out. Runs whose font
    strikes them through (``<rPr><strike/>``: a forum post pasted, a word struck in LibreOffice) make it a
    ``StruckText`` (``sheets.struck``)."""
    plain: str | None = None
    runs: list[str] = []
    spans: list[tuple[int, int]] = []
    at = 0
    for node in string:
        kind = _local(node.tag)
        if kind == "t":
            plain = node.text
        elif kind == "r":
            run: str | None = None
            strike = False
            for part in node:
                if _local(part.tag) == "t":
                    run = part.text
                elif _local(part.tag) == "rPr":
                    strike = any(_local(p.tag) == "strike" and p.get("val", "true") not in ("0", "false")
                                 for p in part)
            if run is not None:
                runs.append(run)
                if strike:
                    spans.append((at, at + len(run)))
                at += len(run)
    text = "".join(runs) if plain is None else plain + "".join(runs)
    if spans and plain:  # (a text before the runs moves them on)
        spans = [(a + len(plain), b + len(plain)) for a, b in spans]
    return struck(text, spans) if spans else text


#: Each column's letters seen in a cell's name, and its number (``coordinate_to_tuple``'s, worked out once a column).
_COLUMNS: dict[str, int] = {}
_TEXT_TAG = INLINE_STRING[:-2] + "t"  # ``<t>`` in the worksheet's namespace
#: The cell types :func:`_parse_cell` reads itself: an inline string and a shared one.
_TEXT_KINDS = frozenset(("inlineStr", "s"))


def _row_and_column(coordinate: str) -> tuple[int, int]:
    """``coordinate_to_tuple(coordinate)``, each column's letters turned into its number once."""
    letters = coordinate.rstrip("0123456789")
    column = _COLUMNS.get(letters)
    if column is None or len(letters) == len(coordinate):
        row, column = coordinate_to_tuple(coordinate)
        _COLUMNS[letters] = column
        return row, column
    return int(coordinate[len(letters):]), column


def _parse_cell(parser: Any, element: Any) -> dict[str, Any]:
    """openpyxl's ``WorkSheetParser.parse_cell``, a text cell without a formula read here: an inline string by
    :func:`inline_text` (one of a single ``<t>``, what sheets-gm and openpyxl save, read straight from it), a shared
    string (what LibreOffice and Excel save) looked up in the workbook's table as openpyxl does."""
    get = element.get
    kind = get("t")
    if kind not in _TEXT_KINDS or parser.rich_text or (
            not parser.data_only and element.find(FORMULA_TAG) is not None):
        cell: dict[str, Any] = _openpyxl_parse_cell(parser, element)
        return cell
    style_id = int(get("s", 0) or 0)
    coordinate = get("r")
    if coordinate:
        row, column = _row_and_column(coordinate)
        parser.col_counter = column
    else:
        parser.col_counter += 1
        row, column = parser.row_counter, parser.col_counter
    if kind == "s":
        index = element.findtext(VALUE_TAG, None) or None
        value = None if index is None else parser.shared_strings[int(index)]
        return {"row": row, "column": column, "value": value, "data_type": "s", "style_id": style_id}
    string = element.find(INLINE_STRING)
    if string is None:
        value, data_type = None, "inlineStr"
    elif len(string) == 1 and string[0].tag == _TEXT_TAG:
        value, data_type = string[0].text or "", "s"
    else:
        value, data_type = inline_text(string), "s"
    return {"row": row, "column": column, "value": value, "data_type": data_type, "style_id": style_id}


WorkSheetParser.parse_cell = _parse_cell
_STRING_TAG = INLINE_STRING[:-2] + "si"  # a shared string's ``<si>`` in the worksheet's namespace


def _read_string_table(xml_source: Any) -> list[str]:
    """openpyxl's ``read_string_table``: each shared string's text read by :func:`inline_text` (a single ``<t>``
    straight from it), the text ``Text.from_tree(node).content`` gives, with openpyxl's ``x005F_`` escapes undone
    as it does (10,000 rows pasted in LibreOffice are 10,000 shared strings)."""
    strings: list[str] = []
    for _, node in _strings_reader.iterparse(xml_source):
        if node.tag == _STRING_TAG:
            single = len(node) == 1 and node[0].tag == _TEXT_TAG
            text = (node[0].text or "") if single else inline_text(node)
            strings.append(text.replace("x005F_", "") if "x005F_" in text else text)  # (a struck one kept so)
            node.clear()
    return strings


_excel_reader.read_string_table = _read_string_table
#: The most styles parts kept made (:func:`_write_stylesheet`).
_MOST_STYLESHEETS = 64


def _kept(parts: dict[_Key, _Part], key: _Key, part: _Part, most: int | None = None) -> _Part:
    """``part`` kept in ``parts`` by ``key`` (``kept_parts.kept``), at most ``most`` of them (by default
    :data:`_MOST_STYLESHEETS`)."""
    return kept(parts, key, part, most or _MOST_STYLESHEETS)


def _apply_stylesheet(archive: zipfile.ZipFile, wb: Any) -> Any:
    """openpyxl's ``apply_stylesheet`` (a load's styles, a tenth of it, parsed through openpyxl's descriptors), the
    styles part parsed once for each distinct part and each load given a copy of what it sets (:func:`_styles_read`,
    ``kept_copy``); the rest as openpyxl does it. A workbook whose file lists no cell styles keeps a new workbook's
    (``default_styles``: a load's new workbook is made without them)."""
    try:
        source = archive.read(ARC_STYLE)
    except KeyError:
        default_styles(wb)
        return wb
    styles = kept_copy(("styles", source), lambda: _styles_read(source))
    if styles["cell_styles"]:
        wb._borders = IndexedList(styles["borders"])
        wb._fonts = IndexedList(styles["fonts"])
        wb._fills = IndexedList(styles["fills"])
        wb._differential_styles.styles = styles["dxfs"]
        wb._number_formats = styles["number_formats"]
        wb._protections = styles["protections"]
        wb._alignments = styles["alignments"]
        wb._table_styles = styles["table_styles"]
        wb._cell_styles = styles["cell_styles"]
        wb._named_styles = styles["named_styles"]
        wb._date_formats = styles["date_formats"]
        wb._timedelta_formats = styles["timedelta_formats"]
        for named in wb._named_styles:
            named.bind(wb)
    else:
        default_styles(wb)
        warnings.warn("Workbook contains no stylesheet, using openpyxl's defaults", stacklevel=2)
    if not wb._named_styles:
        wb.add_named_style(builtin_styles["Normal"])
        warnings.warn("Workbook contains no default style, apply openpyxl's default", stacklevel=2)
    if styles["colors"] is not None:
        wb._colors = styles["colors"]
    return wb


def _styles_read(source: bytes) -> dict[str, Any]:
    """What openpyxl's ``apply_stylesheet`` sets on a workbook from the styles part ``source`` (its ``Stylesheet``'s
    fields, the colours' list; not the part's own lists of elements, a third of its copy)."""
    sheet = Stylesheet.from_tree(fromstring(source))
    return {"borders": sheet.borders, "fonts": sheet.fonts, "fills": sheet.fills, "dxfs": sheet.dxfs,
            "number_formats": sheet.number_formats, "protections": sheet.protections, "alignments": sheet.alignments,
            "table_styles": sheet.tableStyles, "cell_styles": sheet.cell_styles, "named_styles": sheet.named_styles,
            "date_formats": sheet.date_formats, "timedelta_formats": sheet.timedelta_formats,
            "colors": None if sheet.colors is None else sheet.colors.index}


_excel_reader.apply_stylesheet = _apply_stylesheet
#: Each styles part saved so far, by what it was made of (:func:`_styles_made_of`): its XML. At most
#: :data:`_MOST_STYLESHEETS`, the oldest dropped first.
_STYLES_SAVED: dict[bytes, _StylesXml] = {}


class _StylesXml(bytes):
    """A styles part's XML, made by :func:`_write_stylesheet` ready to be written (:func:`_tostring` passes it on)."""


def _styles_made_of(wb: Any) -> bytes:
    """Everything of ``wb`` openpyxl's ``write_stylesheet`` reads, pickled: its fonts, fills, borders, differential
    styles, colours, number formats, cell styles, alignments, protections, named styles (what ``as_name`` and
    ``as_xf`` read of each) and table styles."""
    named = [(n.name, n.builtinId, n.hidden, tuple(n._style), n.alignment, n.protection) for n in wb._named_styles]
    return pickle.dumps((list(wb._fonts), list(wb._fills), list(wb._borders), list(wb._differential_styles.styles),
                         wb._colors, list(wb._number_formats), [tuple(style) for style in wb._cell_styles],
                         list(wb._alignments), list(wb._protections), named, wb._table_styles),
                        pickle.HIGHEST_PROTOCOL)


def _write_stylesheet(wb: Any) -> _StylesXml:
    """openpyxl's ``write_stylesheet`` and ``tostring`` of it (a tenth of a save: the styles made into openpyxl's
    objects and those into XML), made once for each set of styles a workbook holds (:func:`_styles_made_of`): every
    save of a match's workbooks writes the same part."""
    made_of = _styles_made_of(wb)
    xml = _STYLES_SAVED.get(made_of)
    if xml is None:
        xml = _kept(_STYLES_SAVED, made_of, _StylesXml(_openpyxl_tostring(_openpyxl_write_stylesheet(wb))))
    return xml


def _tostring(element: Any) -> bytes:
    """openpyxl's ``tostring`` for the parts its writer saves; a styles part made by :func:`_write_stylesheet`
    as it is."""
    if isinstance(element, _StylesXml):
        return element
    xml: bytes = _openpyxl_tostring(element)
    return xml


_openpyxl_write_stylesheet, _openpyxl_tostring = _excel_writer.write_stylesheet, _excel_writer.tostring
_excel_writer.write_stylesheet, _excel_writer.tostring = _write_stylesheet, _tostring


_openpyxl_bind_cells = WorksheetReader.bind_cells


def _bind_cells(reader: Any) -> None:
    """openpyxl's ``WorksheetReader.bind_cells``: the worksheet's cells read by :func:`_row_reader` as openpyxl's
    parser walks it (or kept from a load of the same part: ``read_worksheet``), then made (:func:`_cell_maker`)."""
    ws, parser = reader.ws, reader.parser
    read = ReadCells()
    parser.parse_row = _row_reader(parser, read)  # what ``parser.parse`` calls for each ``<row>``, on this parser
    make = _cell_maker(ws, parser.shared_strings)
    cells = read_worksheet(parser, read)  # (read whole or kept, its frame parsed once: ``sheets/xlsx_read_cache.py``)
    if cells is None:  # read by openpyxl's parse, a row at a time
        for _ in parser.parse():
            make(read)
            read.clear()
    else:
        make(cells)
    read.clear()  # (the parser, held in a cycle by its reader, holds it till the collector frees them)
    give_page_setup(ws, parser)
    if ws._cells:
        ws._current_row = ws.max_row  # as openpyxl: from the cells, not the row dimensions


WorksheetReader.bind_cells = _bind_cells
install()  # a load's workbook and its parts that stay the same read once (``sheets/xlsx_read_cache.py``)
_openpyxl_parse_row = WorkSheetParser.parse_row


def _cell_maker(ws: Any, shared: list[str]) -> Callable[[Iterable[CellRead]], None]:
    """What makes each cell read of ``ws`` (``CellRead``) as ``Cell(ws, row, column, style_array)`` makes it (its own
    copy of its style's array), its attributes set straight, a shared string's text looked up in ``shared``."""
    styles, cells, make, new_array = ws.parent._cell_styles, ws._cells, Cell.__new__, array.__new__
    arrays: dict[int, bytes] = {}  # each style's array as bytes, by its number

    def make_cells(read: Iterable[CellRead]) -> None:
        for row, column, value, data_type, style_id in read:
            if data_type is SHARED:
                value, data_type = shared[value], "s"
            style_array = arrays.get(style_id)
            if style_array is None:
                style_array = arrays[style_id] = styles[style_id].tobytes()
            made = make(Cell)
            made.parent = ws
            made._style = new_array(StyleArray, "i", style_array)  # (from its bytes: a third of ``StyleArray(…)``)
            made.row, made.column = row, column
            made._value, made.data_type = value, data_type
            made._hyperlink = made._comment = None
            cells[(row, column)] = made

    return make_cells


def _row_reader(parser: Any, read: ReadCells) -> Any:
    """What reads each ``<row>`` of a worksheet for ``parser`` (its ``parse_row``): the row's number and dimension as
    openpyxl's ``parse_row`` keeps them (one dictionary for the rows of a kind, their own number left to the key:
    :func:`_bind_row_dimensions` makes each kind once), and each cell added to ``read`` (``CellRead``). A shared
    string, an inline string of one ``<t>`` (sheets-gm's text), an empty cell and a number not styled as a date,
    typed ``t="n"`` (as sheets-gm and openpyxl save them, most cells of a match's workbook) or not at all (what a
    paste in LibreOffice leaves, 10,000 rows of it), are read here; any other cell, and a row whose number is not
    plain digits, as openpyxl reads it (:func:`_parse_cell`)."""
    dates, value_tag, places, dimensions = parser.date_formats, VALUE_TAG, _PLACES, parser.row_dimensions
    plain, add = not parser.rich_text, read.append
    kinds: dict[tuple[tuple[str, str], ...], dict[str, str] | None] = {}  # each kind of row's fields, found once

    def add_parsed(one: dict[str, Any], own: bool) -> None:
        """A cell read by openpyxl's own code (``own``: its value read from the cell alone, no shared string's)."""
        add((one["row"], one["column"], one["value"], one["data_type"], one["style_id"]))
        if not own or type(one["value"]) not in KEEPABLE_VALUES:
            read.keepable = False

    def parse_row(element: Any) -> tuple[int, tuple[()]]:
        number = element.get("r")
        if number is None or not (number.isascii() and number.isdecimal()):
            row, parsed = _openpyxl_parse_row(parser, element)
            for one in parsed:
                add_parsed(one, False)
            return row, ()
        row = parser.row_counter = int(number)
        parser.col_counter = 0
        if (kind := _row_kind(element, kinds)) is not None:
            dimensions[str(row)] = kind
        for cell in element:
            get = cell.get
            kind_of, style = get("t"), get("s")
            style_id = int(style) if style else 0
            inner, number_kind = len(cell), kind_of is None or kind_of == "n"  # ``t="n"``: what openpyxl saves
            first = cell[0].tag if inner == 1 else None
            if inner == 0 and number_kind:
                value: Any = None
                data_type = "n"
            elif first == value_tag and kind_of == "s":
                text = cell[0].text
                value, data_type = (int(text), SHARED) if text else (None, "s")
            elif first == value_tag and number_kind and style_id not in dates:
                text = cell[0].text
                value, data_type = _cast_number(text) if text else None, "n"
            elif first == INLINE_STRING and kind_of == "inlineStr" and plain and len(string := cell[0]) == 1 and (
                    string[0].tag == _TEXT_TAG):  # a text as sheets-gm saves it: one ``<t>``
                value, data_type = string[0].text or "", "s"
            else:
                add_parsed(_parse_cell(parser, cell), kind_of != "s")
                continue
            coordinate = get("r")
            if coordinate:
                at, column = places.get(coordinate) or _place(coordinate)
                parser.col_counter = column
            else:
                parser.col_counter += 1
                at, column = row, parser.col_counter
            add((at, column, value, data_type, style_id))
        return row, ()

    return parse_row


#: Each cell name seen so far (``B12``), its row and column (``coordinate_to_tuple``'s); at most
#: :data:`_MOST_PLACES`, a match's workbooks' cells over and over (a tab pasted full is not kept whole).
_PLACES: dict[str, tuple[int, int]] = {}
_MOST_PLACES = 20_000


def _place(coordinate: str) -> tuple[int, int]:
    """The row and column of the cell named ``coordinate``, each column's letters worked out once; kept in
    :data:`_PLACES` while it has room."""
    letters = coordinate.rstrip("0123456789")
    column = _COLUMNS.get(letters)
    if column is None or len(letters) == len(coordinate):
        place = _row_and_column(coordinate)
    else:
        place = int(coordinate[len(letters):]), column
    if len(_PLACES) < _MOST_PLACES:
        _PLACES[coordinate] = place
    return place


def _row_kind(element: Any, kinds: dict[tuple[tuple[str, str], ...], dict[str, str] | None]) -> dict[str, str] | None:
    """The fields of the ``<row>`` ``element`` but its number, one dictionary for every row of that kind (kept in
    ``kinds``); None where they make no dimension of its own (none but its span and another namespace's)."""
    fields = dict(element.attrib)
    del fields["r"]
    key = tuple(fields.items())
    if key not in kinds:
        kinds[key] = fields if any(k != "spans" and k[:1] != "{" for k in fields) else None
    return kinds[key]


_openpyxl_bind_row_dimensions = WorksheetReader.bind_row_dimensions


def _bind_row_dimensions(reader: Any) -> None:
    """openpyxl's ``WorksheetReader.bind_row_dimensions``, each kind of row made once as openpyxl makes it
    (:func:`_dimension_kind`) and copied for every row of that kind (LibreOffice saves a height with each of 10,000
    rows pasted, and a ``RowDimension`` sets each of its fields through a checking descriptor): the same fields, its
    own style array. A kind's fields are one dictionary for all its rows when :func:`_row_reader` read them: looked
    at once."""
    ws = reader.ws
    seen: dict[int, _DimensionKind] = {}  # each dictionary of fields looked at so far, by its id: its kind
    rows, make, new_array = ws.row_dimensions, RowDimension.__new__, array.__new__
    for row, attributes in reader.parser.row_dimensions.items():
        kind = seen.get(id(attributes))
        if kind is None:
            given = {k: v for k, v in attributes.items() if k != "r"}  # a row's fields as its program wrote them
            kind = seen[id(attributes)] = _dimension_kind(RowDimension, ws, given, "s")
        dimension = make(RowDimension)
        dimension.__dict__.update(kind[0])
        dimension.parent = ws
        dimension._style = None if kind[1] is None else new_array(StyleArray, "i", kind[1])
        dimension.__dict__["index"] = int(row)
        rows[int(row)] = dimension


WorksheetReader.bind_row_dimensions = _bind_row_dimensions
_openpyxl_bind_col_dimensions = WorksheetReader.bind_col_dimensions


def _bind_col_dimensions(reader: Any) -> None:
    """openpyxl's ``WorksheetReader.bind_col_dimensions``, each kind of column (its fields but its letter and span)
    made once as openpyxl makes it and copied for each column of that kind, as :func:`_bind_row_dimensions` does for
    rows (a layout sets each column's width: a ``ColumnDimension`` a column, each field through a checking
    descriptor). A column whose span is not plain digits is made as openpyxl makes it."""
    ws = reader.ws
    columns, make, new_array = ws.column_dimensions, ColumnDimension.__new__, array.__new__
    for letter, attributes in reader.parser.column_dimensions.items():
        fields = dict(attributes)
        index, low, high = fields.pop("index"), fields.pop("min", None), fields.pop("max", None)
        if not ((low is None or (low.isascii() and low.isdecimal())) and (
                high is None or (high.isascii() and high.isdecimal()))):
            columns[letter] = _column_dimension(ws, attributes)
            continue
        kind = _dimension_kind(ColumnDimension, ws, fields, "style")
        dimension = make(ColumnDimension)
        dimension.__dict__.update(kind[0])
        dimension.parent = ws
        dimension._style = None if kind[1] is None else new_array(StyleArray, "i", kind[1])
        dimension.__dict__.update(index=index, min=None if low is None else int(low),
                                  max=None if high is None else int(high))
        columns[letter] = dimension


_DimensionKind = tuple[dict[str, Any], bytes | None]  # a kind of row or column's fields, its style's array as bytes
#: Each kind of row and column made so far (its class, its fields as saved, its style's array): the fields it holds
#: but its tab and style, and its style's array as bytes. At most :data:`_MOST_DIMENSION_KINDS`, the oldest dropped
#: first; each field a number, a truth or a text, shared by every row or column made of it.
_DIMENSION_KINDS: dict[tuple[type, tuple[tuple[str, str], ...], bytes | None], _DimensionKind] = {}
_MOST_DIMENSION_KINDS = 1024


def _dimension_kind(kind: type, ws: Any, given: dict[str, str], style_field: str) -> _DimensionKind:
    """The fields a ``kind`` (``RowDimension``, ``ColumnDimension``) of ``ws`` made of the fields ``given`` holds but
    its tab and style, and its style's array as bytes: made as openpyxl's load makes it (its style, ``given``'s
    ``style_field``, a number in the workbook's list of styles), once for each kind in the process
    (:data:`_DIMENSION_KINDS`)."""
    style = given.get(style_field)
    style_array = None if style is None else ws.parent._cell_styles[int(style)]
    key = (kind, tuple(given.items()), None if style_array is None else style_array.tobytes())
    fields = _DIMENSION_KINDS.get(key)
    if fields is None:
        made = kind(ws, **given) if style_array is None else kind(ws, **{**given, style_field: style_array})
        style_bytes = None if made._style is None else made._style.tobytes()
        fields = kept(_DIMENSION_KINDS, key, (dict(made.__dict__), style_bytes), _MOST_DIMENSION_KINDS)
    return fields


def _column_dimension(ws: Any, attributes: dict[str, str]) -> Any:
    """A column of ``ws`` of the fields ``attributes`` as openpyxl's ``bind_col_dimensions`` makes it."""
    given: dict[str, Any] = dict(attributes)
    if "style" in given:
        given["style"] = ws.parent._cell_styles[int(given["style"])]
    return ColumnDimension(ws, **given)


WorksheetReader.bind_col_dimensions = _bind_col_dimensions

_openpyxl_write_row = WorksheetWriter.write_row
#: The cells written here, by their data type: the types of value each may hold (text is saved as an inline string).
_PLAIN = {"s": (str,), "n": (int, float), "b": (bool,)}
#: The largest integer a float holds exactly (openpyxl writes a number through a float's 16 digits).
_EXACT_INT = 2**53


def _write_row(writer: Any, xf: Any, row: list[Any], row_idx: int) -> None:
    """openpyxl's ``WorksheetWriter.write_row``, each plain cell written as the text openpyxl writes for it (an empty
    one, text or an integer there and then, any other by :func:`_plain_cell`); the row left to openpyxl where its
    stream is not ``et_xmlfile``'s (lxml installed)."""
    out = getattr(xf, "_file", None)
    if out is None or not hasattr(xf, "_element_stack"):
        _openpyxl_write_row(writer, xf, row, row_idx)
        return
    ws = writer.ws
    dimension = ws.row_dimensions.get(row_idx)
    parts = [f'<row r="{row_idx}"', _row_attributes(writer, dimension) if dimension is not None else "", ">"]
    append = parts.append
    heads, numbers = _cell_heads(writer), _saved_texts(writer, "_style_numbers")
    number = str(row_idx)
    for cell in row:
        comment, value = cell._comment, cell._value
        if comment is not None:
            ws._comments.append(CommentRecord.from_cell(cell))
        style = cell._style
        key = style.tobytes() if style is not None else _UNSTYLED
        if value is None and key == _UNSTYLED and not comment:
            continue
        kind = cell.data_type
        head = heads.get((cell.column, key, kind))
        if head is None:
            head = heads[cell.column, key, kind] = _cell_head(ws, cell, key, numbers)
        if cell._hyperlink:
            text = None
        elif value is None:  # (an empty cell of any plain kind: its ``<c>`` closed at once)
            text = head[0] + number + head[2] if kind in _PLAIN else None
        elif type(value) is str and kind == "s" and value and value.strip() == value:  # (no space to keep)
            text = f"{head[0]}{number}{head[1]}><is><t>{_escape_cdata(value)}</t></is></c>"
        elif type(value) is int and kind == "n" and -_EXACT_INT <= value <= _EXACT_INT:
            text = f"{head[0]}{number}{head[1]}><v>{value}</v></c>"
        else:
            text = _plain_cell(cell, head, number)
        if text is None:
            out("".join(parts))
            parts.clear()
            write_cell(xf, ws, cell, key != _UNSTYLED)
        else:
            append(text)
    append("</row>")
    out("".join(parts))


#: A cell's style array as bytes when it has no style (nine zeros).
_UNSTYLED = StyleArray().tobytes()


def _cell_heads(writer: Any) -> dict[tuple[int, bytes, str], tuple[str, str, str]]:
    """What the save of ``writer``'s tab (a :class:`_TabWriter`'s: of each tab of its workbook's save) wrote so far
    around each cell's row number (:func:`_cell_head`), by its column, style array as bytes (hashed by C code, where
    a ``StyleArray`` hashes a tuple of itself in Python) and data type: 10,000 rows pasted are a few kinds of cell."""
    heads: dict[tuple[int, bytes, str], tuple[str, str, str]] = _saved_texts(writer, "_cell_heads")
    return heads


def _saved_texts(writer: Any, name: str) -> dict[Any, Any]:
    """The texts the save of ``writer``'s tab wrote so far, of the kind ``name`` (a :class:`_TabWriter`'s: those
    of its workbook's save)."""
    made: dict[Any, Any] | None = writer.__dict__.get(name)
    if made is None:
        made = writer.__dict__[name] = {}
    return made


def _cell_head(ws: Any, cell: Any, key: bytes, numbers: dict[bytes, str]) -> tuple[str, str, str]:
    """What openpyxl writes of ``cell``'s ``<c>`` before its row number (``<c r="D``) and after it (``" s="3"
    t="inlineStr"``), and that closing the element (``" s="3" t="n" />``, an empty cell's); its
    style added to the workbook's cell styles the first time, as ``cell.style_id`` does, its number kept in
    ``numbers`` by its style array's bytes."""
    styled = numbers.get(key)
    if styled is None:
        styled = numbers[key] = "" if key == _UNSTYLED else f' s="{int(ws.parent._cell_styles.add(cell._style))}"'
    kind = cell.data_type
    start, end = f'<c r="{get_column_letter(cell.column)}', f'"{styled} t="{"inlineStr" if kind == "s" else kind}"'
    return start, end, end + " />"


#: What a row's ``<row>`` attributes are made of: its dimension's own fields and its style.
_ROW_FIELDS = ("hidden", "outlineLevel", "collapsed", "ht", "thickBot", "thickTop")


def _row_attributes(writer: Any, dimension: Any) -> str:
    """The attributes openpyxl writes for a row of ``dimension`` (`` ht="12.8" customHeight="1"``), made once for
    each kind of row in the save of ``writer``'s tab (rows pasted in LibreOffice each carry a height)."""
    made: dict[tuple[Any, ...], str] = _saved_texts(writer, "_row_attributes")
    own = dimension.__dict__
    style = dimension._style
    key = (*map(own.get, _ROW_FIELDS), style.tobytes() if style is not None else None)
    text = made.get(key)
    if text is None:
        text = made[key] = "".join(f' {k}="{_escape_attrib(v)}"' for k, v in dimension)
    return text


def _plain_cell(cell: Any, head: tuple[str, str, str], number: str) -> str | None:
    """The XML openpyxl's ``etree_write_cell`` writes for ``cell`` (in row ``number``, its ``<c>`` made of ``head``
    around that number) when it holds nothing, text, a finite number or a boolean and has no link; None for any
    other cell (openpyxl writes it)."""
    value, kind = cell._value, cell.data_type
    if type(value) is StruckText and kind == "s" and not cell._hyperlink:
        return f"{head[0]}{number}{head[1]}>{_struck_string(cell, value)}</c>"
    if cell._hyperlink or kind not in _PLAIN or not (value is None or type(value) in _PLAIN[kind]):
        return None
    start = head[0] + number + head[1]
    if value is None or value == "":
        return start + " />"
    if kind != "s":
        # safe_string's "%.16g" is the integer's own digits where a float holds it exactly; "" for NaN and
        # infinities, which openpyxl writes as an empty element
        shown = str(value) if type(value) is int and -_EXACT_INT <= value <= _EXACT_INT else safe_string(value)
        return f"{start}><v>{shown}</v></c>" if shown else None
    stripped = value.strip()
    space = ' xml:space="preserve"' if stripped and value != stripped else ""
    return f"{start}><is><t{space}>{_escape_cdata(value)}</t></is></c>"


def _struck_string(cell: Any, value: StruckText) -> str:
    """``value`` as an inline rich string, its struck spans runs struck through (what :func:`inline_text` reads back),
    each run in the cell's font: a word a player struck in LibreOffice stays struck when the sync saves her file."""
    font = cell.font  # (a run's properties in the schema's order: its face, the strike, its size)
    face = f'<rFont val="{_escape_attrib(font.name)}"/>' if font.name else ""
    size = f'<sz val="{font.sz:g}"/>' if font.sz else ""
    runs: list[str] = []
    at = 0
    for start, end in [*value.spans, (len(value), len(value))]:
        for part, strike in ((value[at:start], False), (value[start:end], True)):
            if part:
                space = ' xml:space="preserve"' if part != part.strip() else ""
                marks = '<strike val="true"/>' if strike else ""
                runs.append(f"<r><rPr>{face}{marks}{size}</rPr><t{space}>{_escape_cdata(str(part))}</t></r>")
        at = end
    return f"<is>{''.join(runs)}</is>"


WorksheetWriter.write_row = _write_row

#: Each part of a tab's head and tail written so far (:meth:`_TabWriter._kept`), by its kind, then by what it is made
#: of: its text. At most :data:`_MOST_STYLESHEETS` of each kind, the oldest dropped first.
_TAB_PARTS: dict[str, dict[bytes, str]] = {}
#: Each ``<col>`` written so far, by what it is made of (:func:`_column_made_of`): its text, "" for none. At most
#: :data:`_MOST_COLUMNS` (each column of a few matches' tabs), the oldest dropped first.
_COLUMNS_SAVED: dict[bytes, str] = {}
_MOST_COLUMNS = 1024


def _made_of(part: Any) -> bytes | None:
    """Everything of ``part`` (an openpyxl object a save writes) its XML is made of: the object pickled (its class,
    its fields, the items of a list such as a ``RelationshipList``), but for the worksheet a page setup points back
    to (read by none of its fields). None for one that cannot be pickled (it is written as openpyxl writes it, each
    time)."""
    try:
        if "_parent" not in getattr(part, "__dict__", ()):  # (a tuple of parts pickled whole)
            return pickle.dumps(part, pickle.HIGHEST_PROTOCOL)
        if isinstance(part, list | dict):  # items beside the fields: none of openpyxl's with a parent
            return None
        fields = {name: value for name, value in part.__dict__.items() if name != "_parent"}
        return pickle.dumps((type(part), fields), pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None


def _column_made_of(column: Any) -> bytes:
    """What the ``<col>`` openpyxl writes for ``column`` is made of: every field its ``__iter__`` reads (the
    column's style added to the workbook's cell styles the first time, as openpyxl's ``style_id`` does)."""
    return pickle.dumps((column.hidden, column.outlineLevel, column.collapsed, column.width, column.bestFit,
                         column.style_id, column.min, column.max), pickle.HIGHEST_PROTOCOL)


def _reindexed_min(column: Any) -> int:
    """openpyxl's sort key of a tab's columns: the first it spans, set from its letter where it has none."""
    column.reindex()
    first: int = column.min
    return first


def _tab_dimension(places: list[tuple[int, int]]) -> str:
    """openpyxl's ``calculate_dimension`` of a tab whose cells are at ``places``, sorted (``A1:AA11``): its rows'
    bounds the first and last place's, its columns' taken by C code."""
    if not places:
        return "A1:A1"
    columns = list(map(itemgetter(1), places))
    return f"{get_column_letter(min(columns))}{places[0][0]}:{get_column_letter(max(columns))}{places[-1][0]}"


class _TabWriter(WorksheetWriter):  # type: ignore[misc]  # openpyxl has no type hints
    """openpyxl's ``WorksheetWriter``, the tab written into a list of pieces (:class:`PieceWriter`) and joined once;
    each part of its head and tail (:data:`_KEPT_TAB_PARTS`, its format, its legacy drawing's link) written once for
    each thing it is made of (:func:`_made_of`) and its text reused, as its columns are (:meth:`write_cols`): a
    match's workbooks are saved again and again, each tab's head and tail the same as the time before. The cells'
    places are sorted once, for the dimension and the rows (:meth:`rows`, sliced from them); what is written around
    each cell's row number, its style's number and a row's attributes are shared by the tabs of a save (``texts``,
    by their kind: :func:`_saved_texts`)."""

    def __init__(self, ws: Any, texts: dict[str, dict[Any, Any]]) -> None:
        self.pieces: list[str] = []
        self.__dict__.update(texts)
        self._places: list[tuple[int, int]] | None = None  # sorted by :meth:`write_dimensions` for :meth:`rows`
        super().__init__(ws, out=self.pieces)

    def get_stream(self) -> Iterator[Any]:
        """openpyxl's ``get_stream``: the ``<worksheet>`` written into :attr:`pieces`, and each element sent."""
        xf = PieceWriter(self.pieces.append)
        with xf.element("worksheet", xmlns=SHEET_MAIN_NS):
            try:
                while True:
                    sent = yield
                    if sent is True:
                        yield xf
                    elif sent is not None:
                        xf.write(sent)
            except GeneratorExit:
                pass

    def rows(self) -> list[tuple[int, list[Any]]]:
        """openpyxl's ``rows``: each row's number and its cells in column order, in row order (a row of its own
        height or style and no cell with none), each row's cells sliced from the cells sorted, not appended one by
        one."""
        cells = self.ws._cells
        places = self._places if self._places is not None else sorted(cells)
        self._places = None
        numbers = list(map(itemgetter(0), places))
        ordered = list(map(cells.__getitem__, places))
        rows: list[tuple[int, list[Any]]] = []
        start, end = 0, len(places)
        while start < end:
            number = numbers[start]
            after = bisect_right(numbers, number, start)
            rows.append((number, ordered[start:after]))
            start = after
        bare = self.ws.row_dimensions.keys() - set(numbers)
        return sorted([*rows, *((number, []) for number in bare)]) if bare else rows

    def read(self) -> bytes:
        """The tab's XML as openpyxl's text stream would have written it."""
        self.close()
        return encoded(self.pieces)

    def _kept(self, kind: str, made_of: bytes | None, write: Callable[[Any], None]) -> None:
        """What openpyxl's ``write`` of this writer writes, written: taken from the parts of ``kind`` written before
        where one was ``made_of`` the same, else written by ``write`` and kept."""
        parts = _TAB_PARTS.setdefault(kind, {})
        text = parts.get(made_of) if made_of is not None else None
        if text is None:
            at = len(self.pieces)
            write(self)
            text = "".join(self.pieces[at:])
            del self.pieces[at:]
            if made_of is not None:
                _kept(parts, made_of, text)
        self.pieces.append(text)

    def write_dimensions(self) -> None:
        """The tab's ``<dimension>``, as ``SheetDimension`` writes it."""
        self._places = sorted(self.ws._cells)
        self.pieces.append(f'<dimension ref="{_tab_dimension(self._places)}" />')

    def write_format(self) -> None:
        """The tab's ``<sheetFormatPr>``, its ``outlineLevelCol`` set first as openpyxl sets it."""
        self.ws.sheet_format.outlineLevelCol = self.ws.column_dimensions.max_outline
        self._kept("write_format", _made_of(self.ws.sheet_format), WorksheetWriter.write_format)

    def write_cols(self) -> None:
        """The tab's ``<cols>`` as openpyxl's ``DimensionHolder.to_tree`` makes it (the columns sorted and
        reindexed, its ``max_outline`` set), each ``<col>`` written once for each thing it is made of."""
        holder = self.ws.column_dimensions
        texts: list[str] = []
        outlines: set[int] = set()
        for column in sorted(holder.values(), key=_reindexed_min):
            made_of = _column_made_of(column)
            text = _COLUMNS_SAVED.get(made_of)
            if text is None:
                element = column.to_tree()
                made = "" if element is None else plain_element_xml(element)
                if made is None:  # never for openpyxl's columns: written as openpyxl writes them
                    WorksheetWriter.write_cols(self)
                    return
                text = _kept(_COLUMNS_SAVED, made_of, made, _MOST_COLUMNS)
            if text:
                outlines.add(column.outlineLevel)
                texts.append(text)
        if outlines:
            holder.max_outline = max(outlines)
        if texts:
            self.pieces.append(f"<cols>{''.join(texts)}</cols>")

    def write_legacy(self) -> None:
        """The tab's ``<legacyDrawing>`` (the same link whenever written), if it has comments or a drawing."""
        written = self.ws.legacy_drawing is not None or bool(self.ws._comments)
        self._kept("write_legacy", b"1" if written else b"", WorksheetWriter.write_legacy)


#: The parts of a tab's head and tail :class:`_TabWriter` keeps by what they are made of, each by the
#: ``WorksheetWriter`` method that writes it: the worksheet's field it is written from.
_KEPT_TAB_PARTS = {
    "write_properties": "sheet_properties", "write_views": "views", "write_protection": "protection",
    "write_validations": "data_validations", "write_print": "print_options", "write_margins": "page_margins",
    "write_page": "page_setup", "write_header": "HeaderFooter",
}


def _kept_part_writer(method: str, field: str) -> Callable[[_TabWriter], None]:
    """``WorksheetWriter``'s ``method``, what it writes kept by what the worksheet's ``field`` is made of."""
    write = getattr(WorksheetWriter, method)

    def kept(writer: _TabWriter) -> None:
        writer._kept(method, _made_of(getattr(writer.ws, field)), write)

    kept.__doc__ = f"The tab's part ``WorksheetWriter.{method}`` writes, from its ``{field}``, kept."
    return kept


for _method, _field in _KEPT_TAB_PARTS.items():
    setattr(_TabWriter, _method, _kept_part_writer(_method, _field))

_openpyxl_write_worksheet = ExcelWriter.write_worksheet
#: The kinds of text a save's tabs share (:func:`_saved_texts`): what is written around a cell's row number, a
#: cell style's number, a row's attributes (each with the number of its style, the workbook's).
_SAVE_TEXTS = ("_cell_heads", "_style_numbers", "_row_attributes")
#: The mode of the temporary file openpyxl writes a worksheet to (``tempfile``'s, whatever the umask), which its
#: zip entry records: a regular file, 0600.
_TEMP_FILE_ATTR = (stat.S_IFREG | 0o600) << 16


def _write_worksheet(writer: Any, ws: Any) -> None:
    """openpyxl's ``ExcelWriter.write_worksheet``, the worksheet written into memory, not a temporary file: its zip
    entry as ``ZipFile.write`` makes one of that file (its time now, its mode 0600, the archive's compression)."""
    if writer.workbook.write_only:
        _openpyxl_write_worksheet(writer, ws)
        return
    ws._drawing = SpreadsheetDrawing()
    ws._drawing.charts = ws._charts
    ws._drawing.images = ws._images
    texts = writer.__dict__.setdefault("_tab_texts", {kind: {} for kind in _SAVE_TEXTS})  # (its cell styles')
    sheet = WorksheetWriter(ws, out=io.BytesIO()) if openpyxl.LXML else _TabWriter(ws, texts)
    sheet.write()
    ws._rels = sheet._rels
    archive = writer._archive
    entry = zipfile.ZipInfo(ws.path[1:], time.localtime(time.time())[:6])
    entry.external_attr = _TEMP_FILE_ATTR
    entry.compress_type = archive.compression
    entry._compresslevel = archive.compresslevel  # type: ignore[attr-defined]  # what ZipFile.write sets
    archive.writestr(entry, sheet.read())
    _listed(writer.manifest, ws)


ExcelWriter.write_worksheet = _write_worksheet

_openpyxl_write_comment = ExcelWriter._write_comment
#: Each tab's comments part and its drawing (VML) written so far (:func:`_write_comment`), by what the comments are
#: made of (:func:`_made_of`): their XML. At most :data:`_MOST_STYLESHEETS`, the oldest dropped first.
_COMMENTS_SAVED: dict[bytes, tuple[bytes, bytes]] = {}


def _write_comment(writer: Any, ws: Any) -> None:
    """openpyxl's ``ExcelWriter._write_comment``: the comments part of ``ws`` and its drawing written as openpyxl
    writes them, both made once for each set of comments (their cells, texts, authors and sizes: the same save
    after save; neither holds the part's number). A workbook with macros is left to openpyxl (its drawing is kept)."""
    if writer.workbook.vba_archive is not None:
        _openpyxl_write_comment(writer, ws)
        return
    comments = CommentSheet.from_comments(ws._comments)
    made_of = _made_of(comments)
    made = _COMMENTS_SAVED.get(made_of) if made_of is not None else None
    if made is None:
        made = _openpyxl_tostring(comments.to_tree()), comments.write_shapes(None)
        if made_of is not None:
            _kept(_COMMENTS_SAVED, made_of, made)
    writer._comments.append(comments)
    comments._id = len(writer._comments)
    writer._archive.writestr(comments.path[1:], made[0])
    _listed(writer.manifest, comments)
    ws.legacy_drawing = f"xl/drawings/commentsDrawing{comments._id}.vml"
    writer._archive.writestr(ws.legacy_drawing, made[1])
    writer.vba_modified.add(ws.legacy_drawing)
    ws._rels.append(Relationship(Id="comments", type=comments._rel_type, Target=comments.path))


ExcelWriter._write_comment = _write_comment

#: Each part deflated so far, by its bytes and compression level: the bytes deflated and their CRC. At most
#: :data:`_MOST_DEFLATED` (a few matches' workbooks' parts), the oldest dropped first, each at most
#: :data:`_MOST_DEFLATED_BYTES` long: some 20 MB at most.
_DEFLATED: dict[tuple[int | None, bytes], tuple[bytes, int]] = {}
_MOST_DEFLATED = 256
_MOST_DEFLATED_BYTES = 64 * 1024


def _deflated(data: bytes, level: int | None) -> tuple[bytes, int]:
    """``data`` deflated as ``ZipFile`` deflates an entry at ``level`` (the same bytes: zlib's deflate is a function
    of its input and settings), and its CRC; made once for each distinct part of at most
    :data:`_MOST_DEFLATED_BYTES` (a match's workbooks are saved again and again, most of their parts as before)."""
    key = (level, data) if len(data) <= _MOST_DEFLATED_BYTES else None  # (not copied into a key of its own)
    made = _DEFLATED.get(key) if key is not None else None
    if made is None:
        compressor = zipfile._get_compressor(zipfile.ZIP_DEFLATED, level)  # type: ignore[attr-defined]
        made = compressor.compress(data) + compressor.flush(), zlib.crc32(data)
        if key is not None:
            _kept(_DEFLATED, key, made, _MOST_DEFLATED)
    return made


class _DeflatedZip(zipfile.ZipFile):
    """The zip openpyxl saves a workbook into, each part deflated once for each distinct part (:func:`_deflated`)
    and written as ``ZipFile.writestr`` writes it: the same header, data and entry, byte for byte. A part to be
    stored, compressed otherwise, too large for a plain entry, or written where the zip cannot seek back, is written
    by ``ZipFile`` itself."""

    def writestr(self, zinfo_or_arcname: str | zipfile.ZipInfo, data: Any, compress_type: int | None = None,
                 compresslevel: int | None = None) -> None:
        """``ZipFile.writestr``: ``data`` written as the entry ``zinfo_or_arcname`` (one named so made as it makes
        one: its time now, the archive's compression, mode 0600)."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        entry = zinfo_or_arcname if isinstance(zinfo_or_arcname, zipfile.ZipInfo) else self._entry(zinfo_or_arcname)
        writing, seekable = self._writing, self._seekable  # type: ignore[attr-defined]  # ZipFile's own
        if compress_type is not None or compresslevel is not None or entry.compress_type != zipfile.ZIP_DEFLATED \
                or not self.fp or writing or not seekable or len(data) * 1.05 > zipfile.ZIP64_LIMIT:
            super().writestr(entry, data, compress_type, compresslevel)
            return
        deflated, crc = _deflated(data, entry._compresslevel)  # type: ignore[attr-defined]  # ZipFile's own
        with self._lock:  # type: ignore[attr-defined]
            entry.file_size, entry.compress_size, entry.CRC, entry.flag_bits = len(data), len(deflated), crc, 0
            if not entry.external_attr:
                entry.external_attr = 0o600 << 16
            self.fp.seek(self.start_dir)
            entry.header_offset = self.fp.tell()
            self._writecheck(entry)  # type: ignore[attr-defined]
            self._didModify = True
            self.fp.write(entry.FileHeader(False))
            self.fp.write(deflated)
            self.start_dir = self.fp.tell()
            self.filelist.append(entry)
            self.NameToInfo[entry.filename] = entry

    def _entry(self, name: str) -> zipfile.ZipInfo:
        """The entry ``ZipFile.writestr`` makes for a part named ``name``."""
        entry = zipfile.ZipInfo(filename=name, date_time=time.localtime(time.time())[:6])
        entry.compress_type = self.compression
        entry._compresslevel = self.compresslevel  # type: ignore[attr-defined]
        entry.external_attr = (0o40775 << 16 | 0x10) if entry.filename[-1] == "/" else 0o600 << 16
        return entry


_excel_writer.ZipFile = _DeflatedZip

#: Each workbook-wide part written so far (:func:`_kept_tree`), by its kind, then by what it is made of: its XML.
_TREES: dict[str, dict[bytes, bytes]] = {}


def _kept_tree(kind: str, part: Any) -> bytes:
    """openpyxl's ``tostring(part.to_tree())``, made once for each thing ``part`` is made of (:func:`_made_of`)
    among the parts of ``kind`` (its properties, its sheets' list, its relationships, its content types: the same
    save after save)."""
    made_of = _made_of(part)
    parts = _TREES.setdefault(kind, {})
    xml = parts.get(made_of) if made_of is not None else None
    if xml is None:
        xml = _openpyxl_tostring(part.to_tree())
        if made_of is not None:
            _kept(parts, made_of, xml)
    return xml


def _listed(manifest: Any, part: Any) -> None:
    """openpyxl's ``Manifest.append``: ``part``'s path and content type listed in ``manifest``, the entry made once
    for each path and type (:func:`_override`)."""
    manifest.Override.append(_override(part.path, part.mime_type))


@functools.lru_cache(maxsize=_MOST_COLUMNS)
def _override(path: str, content_type: str) -> Any:
    """The manifest's entry of a part at ``path`` of ``content_type``: made once, only ever written."""
    return Override(PartName=path, ContentType=content_type)


def _register_mimetypes(manifest: Any, names: list[str]) -> None:
    """openpyxl's ``Manifest._register_mimetypes``: the content type of each part's extension (``.xml``) added to
    ``manifest``'s defaults, in the order of ``names``, each extension's made once (:func:`_file_extension`)."""
    for name in names:
        extension = os.path.splitext(name)[-1]
        if extension:
            manifest.Default.append(_file_extension(extension))


@functools.cache
def _file_extension(extension: str) -> Any:
    """The content type openpyxl's manifest gives a part's ``extension`` (``.xml``): made once, only ever written
    (built for each part of each save, a fortieth of a save)."""
    return FileExtension(extension[1:], _manifest.mimetypes.types_map[True][extension])


@functools.cache
def _app_xml() -> bytes:
    """The workbook's extended properties as openpyxl writes them: the same in every save (openpyxl's name and
    version, nothing of the workbook), so made once."""
    return _openpyxl_tostring(ExtendedProperties().to_tree())  # type: ignore[no-any-return]  # no type hints


class _CustomPropertiesPart:
    """The content type of a workbook's custom properties, as openpyxl's ``write_data`` adds it to the manifest."""

    path = "/" + ARC_CUSTOM
    mime_type = CPROPS_TYPE


def _write_data(writer: Any) -> None:
    """openpyxl's ``ExcelWriter.write_data``, each workbook-wide part (its properties but the core ones, stamped
    with the time of the save; the workbook's sheets and names, their relationships, the content types) made once
    for each thing it is made of (:func:`_kept_tree`)."""
    archive, book = writer._archive, writer.workbook
    archive.writestr(ARC_APP, _app_xml())
    archive.writestr(ARC_CORE, _openpyxl_tostring(book.properties.to_tree()))  # stamped with the save's time
    archive.writestr(ARC_THEME, book.loaded_theme if book.loaded_theme else theme_xml)
    if len(book.custom_doc_props) >= 1:
        archive.writestr(ARC_CUSTOM, _kept_tree("custom", book.custom_doc_props))
        _listed(writer.manifest, _CustomPropertiesPart())
    writer._write_worksheets()
    writer._write_chartsheets()
    writer._write_images()
    writer._write_charts()
    writer._write_external_links()
    archive.writestr(ARC_STYLE, _excel_writer.tostring(_excel_writer.write_stylesheet(book)))
    parts = _BookWriter(book)
    archive.writestr(ARC_ROOT_RELS, parts.write_root_rels())
    archive.writestr(ARC_WORKBOOK, parts.write())
    archive.writestr(ARC_WORKBOOK_RELS, parts.write_rels())
    writer._merge_vba()
    manifest = writer.manifest
    _listed(manifest, book)
    manifest._write_vba(book)
    _register_mimetypes(manifest, archive.namelist())
    archive.writestr(manifest.path, _kept_tree("manifest", manifest))


#: Each workbook's defined names written so far (:meth:`_BookWriter.write_names`), by what they are made of: a copy
#: of the list openpyxl made of them. At most :data:`_MOST_STYLESHEETS`, the oldest dropped first.
_NAMES_SAVED: dict[bytes, Any] = {}


class _BookWriter(WorkbookWriter):  # type: ignore[misc]  # openpyxl has no type hints
    """openpyxl's ``WorkbookWriter``, the workbook part and the relationships made once for each thing they are
    made of (:func:`_kept_tree`), and the defined names so (:meth:`write_names`)."""

    def write_names(self) -> None:
        """openpyxl's ``write_names``: the workbook's names, each tab's own (numbered by its place) and those of its
        filter, print titles and print area, made once for each thing they are made of (a tab's print titles and
        area are made into names, through a parse of each, at every save of openpyxl's) and a copy of them kept."""
        tabs = []
        for place, sheet in enumerate(self.wb.worksheets):
            for name in sheet.defined_names.values():
                name.localSheetId = place  # (as openpyxl numbers them, whether made or kept)
            tabs.append((sheet.title, sheet.defined_names, sheet.auto_filter, sheet._print_rows, sheet._print_cols,
                         sheet._print_area))
        made_of = _made_of((self.wb.defined_names, tabs))
        names = _NAMES_SAVED.get(made_of) if made_of is not None else None
        if names is None:
            WorkbookWriter.write_names(self)
            if made_of is not None:
                _kept(_NAMES_SAVED, made_of, copy.deepcopy(self.package.definedNames))
        else:
            self.package.definedNames = names  # (never changed: only written)

    def write(self) -> bytes:
        """The workbook part (its sheets, names, views, calculation)."""
        self.write_properties()
        self.write_worksheets()
        self.write_names()
        self.write_pivots()
        self.write_views()
        self.write_refs()
        return _kept_tree("workbook", self.package)

    def write_rels(self) -> bytes:
        """The workbook's relationships: its sheets', then its styles', its theme's and any macros'."""
        self.rels.append(Relationship(type="styles", Target="styles.xml"))
        self.rels.append(Relationship(type="theme", Target="theme/theme1.xml"))
        if self.wb.vba_archive:
            macros = Relationship(type="", Target="vbaProject.bin")
            macros.Type = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/vbaProject"
            self.rels.append(macros)
        return _kept_tree("rels", self.rels)

    def write_root_rels(self) -> bytes:
        """The package's relationships, as openpyxl's own makes them, made once for each set of them."""
        if self.wb.vba_archive is not None:
            xml: bytes = WorkbookWriter.write_root_rels(self)
            return xml
        rels = RelationshipList()
        rels.append(Relationship(type="officeDocument", Target=ARC_WORKBOOK))
        rels.append(Relationship(Type=f"{PKG_REL_NS}/metadata/core-properties", Target=ARC_CORE))
        rels.append(Relationship(type="extended-properties", Target=ARC_APP))
        if len(self.wb.custom_doc_props) >= 1:
            rels.append(Relationship(type="custom-properties", Target=ARC_CUSTOM))
        return _kept_tree("root rels", rels)


_openpyxl_write_data = ExcelWriter.write_data
ExcelWriter.write_data = _write_data


#: Whether this process froze the objects alive at its first workbook (:func:`collector_paused`).
_FROZEN: list[bool] = []


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a workbook is loaded, written or saved: each makes an object a cell
    (10,000 rows pasted are 100,000 objects), all alive until it ends, and the collector would walk every object the
    process holds again and again for none to free (a fifth of a load and save of such a tab). It runs again after,
    as it was.

    The first time in a process, the objects alive then (the modules and libraries a sync imported by its first load,
    some 60,000 objects) are moved out of the collector's walks for good (``gc.freeze``): a workbook's objects once
    old make a full collection due (a tab of 10,000 rows pasted, one more in a sync), and it walked those objects
    again for nothing to free. The workbooks are not frozen: one dropped is collected as before."""
    was = gc.isenabled()
    gc.disable()
    if not _FROZEN:
        _FROZEN.append(True)
        gc.freeze()
    try:
        yield
    finally:
        if was:
            gc.enable()


#: The most a workbook may unpack to (every part of its zip, as its central directory says): a match's largest
#: workbook, its Log full at 20,000 lines, unpacks to a few megabytes; a file that unpacks past this is refused
#: before anything is inflated (a "zip bomb": a small file whose sheet inflates to gigabytes).
MAX_UNPACKED_BYTES = 100 * 1024 * 1024
#: The most parts a workbook may hold (a match's has a few dozen).
MAX_PARTS = 10_000
#: The most cells a workbook's tabs may hold together: a match's largest, the board with its Log full (20,000
#: lines of 3 cells) and the orders tables of a 300-army war, holds about 70,000. A workbook inflates to some
#: 500 bytes of memory a cell once loaded, so this bounds a poll's memory and time whatever a player saves: a tab
#: pasted full of junk is refused before it is loaded, not carried (and saved back) at every poll.
MAX_CELLS = 150_000
#: A cell's element in a worksheet's XML, with or without a namespace prefix (``<c r="A1" …>``, ``<x:c …>``).
_CELL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
_CHUNK = 1 << 20


def unpacked_size_problem(data: bytes) -> str:
    """Why the .xlsx ``data`` must not be loaded ('' when it may): more than :data:`MAX_UNPACKED_BYTES` once
    unpacked, or more than :data:`MAX_PARTS` parts, read from the zip's central directory alone; or tabs holding
    more than :data:`MAX_CELLS` cells, counted as they inflate. A part whose
    stored size is smaller than what it inflates to is cut at that size by the zip reader (and then fails its
    check), so the sizes read here bound what loading it takes."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
            if len(parts) > MAX_PARTS:
                return f"it holds {len(parts):,} parts (a workbook holds at most {MAX_PARTS:,})"
            unpacked = sum(part.file_size for part in parts)
            if unpacked > MAX_UNPACKED_BYTES:
                return (f"it would unpack to {unpacked:,} bytes, past the {MAX_UNPACKED_BYTES:,} bytes a workbook "
                        "may unpack to")
            return _cells_problem(archive, data)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError):
        return ""  # not a zip (or a part that cannot be inflated): loading it says so


def _cells_problem(archive: zipfile.ZipFile, data: bytes) -> str:
    """Why the workbook in ``archive`` (the zip ``data``) holds more cells than a match can use ('' when it does
    not): its worksheets' cells counted from their XML as it inflates, a megabyte at a time, and the count stopped as
    soon as it passes :data:`MAX_CELLS`, so a huge tab is refused at once and in little memory (a part counted
    before is not counted again: :func:`_counted_cells`). The tab with the most cells is named."""
    counts: dict[str, int] = {}
    total = 0
    for part in archive.infolist():
        if not (part.filename.startswith("xl/worksheets/") and part.filename.endswith(".xml")):
            continue
        counted = _counted_cells(archive, data, part, MAX_CELLS - total + 1)
        counts[part.filename] = counted
        total += counted
        if total > MAX_CELLS:
            part_name, most = max(counts.items(), key=lambda item: item[1])
            tab = _tab_names(archive).get(part_name, part_name)
            return (f"its tabs hold more than {MAX_CELLS:,} cells (tab {tab!r} alone "
                    f"{_tab_size(archive, archive.getinfo(part_name), most)}), more than a match can use; delete "
                    "what was pasted there (or the tab) and save it again")
    return ""


#: A worksheet's ``<dimension ref="A1:J70000"/>``: the span of its cells, which every office program writes first.
_DIMENSION = re.compile(rb'<(?:[A-Za-z_][\w.-]*:)?dimension\s+ref="([A-Z]{1,3})(\d+)(?::([A-Z]{1,3})(\d+))?"')


def _tab_size(archive: zipfile.ZipFile, part: zipfile.ZipInfo, counted: int) -> str:
    """How big the worksheet ``part`` is, said at once: the span its ``<dimension>`` gives and the cells in it
    (read from the part's first kilobytes), and what it unpacks to; ``counted`` (the cells counted before the count
    stopped) where it gives none."""
    with archive.open(part) as stream:
        found = _DIMENSION.search(stream.read(4096))
    unpacked = f"{part.file_size / 1e6:,.1f} MB unpacked"
    if found is None or found.group(3) is None:
        return f"at least {counted:,} cells, {unpacked}"
    first, last = (int(found.group(2)), _column(found.group(1))), (int(found.group(4)), _column(found.group(3)))
    span = (abs(last[0] - first[0]) + 1) * (abs(last[1] - first[1]) + 1)
    where = f"{found.group(1).decode()}{first[0]}:{found.group(3).decode()}{last[0]}"
    return f"spans {where} (up to {max(span, counted):,} cells), {unpacked}"


def _column(letters: bytes) -> int:
    """A column's number from its letters (``b"J"`` → 10)."""
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


#: The cells of each worksheet part counted whole before, by the part as the zip stores it (:func:`_stored_as`): a
#: load finds most of a match's tabs as the last save left them, and their cells are not inflated and counted again.
#: At most :data:`_MOST_COUNTED` parts holding :data:`_MOST_COUNTED_BYTES` together, the least recently used dropped.
_COUNTED: KeptParts[tuple[int, int, int, int, bytes], int] = KeptParts()
_MOST_COUNTED = 1024
_MOST_COUNTED_BYTES = 8 * 1024 * 1024
#: A zip's local file header: its signature, then 22 bytes, then the lengths of the name and the extra field.
_LOCAL_HEADER = struct.Struct("<4s22sHH")


def _stored_as(data: bytes, part: zipfile.ZipInfo) -> tuple[int, int, int, int, bytes] | None:
    """What the worksheet ``part`` of the zip ``data`` inflates to depends on alone: its compression, its flags, its
    size and checksum as the central directory gives them, and its bytes as stored; None where its local header
    cannot be read (the count inflates it, and says why it cannot)."""
    try:
        signature, _, name, extra = _LOCAL_HEADER.unpack_from(data, part.header_offset)
    except struct.error:
        return None
    if signature != b"PK\x03\x04":
        return None
    start = part.header_offset + _LOCAL_HEADER.size + name + extra
    return part.compress_type, part.flag_bits, part.file_size, part.CRC, data[start:start + part.compress_size]


def _counted_cells(archive: zipfile.ZipFile, data: bytes, part: zipfile.ZipInfo, most: int) -> int:
    """The cells of worksheet ``part`` of ``archive`` (the zip ``data``), counted up to just past ``most``
    (:func:`_count_cells`); a part counted whole before (stored the same) not inflated again."""
    stored = _stored_as(data, part)
    known = None if stored is None else _COUNTED.get(stored)
    if known is not None:
        return known
    count = _count_cells(archive, part, most)
    if stored is not None and count <= most:  # (counted whole: past ``most`` the count stopped)
        _COUNTED.keep(stored, count, most=_MOST_COUNTED, weight=len(stored[-1]) + 200,
                      most_weight=_MOST_COUNTED_BYTES)
    return count


def _count_cells(archive: zipfile.ZipFile, part: zipfile.ZipInfo, most: int) -> int:
    """The cells of worksheet ``part``, counted up to just past ``most``."""
    count, tail = 0, b""
    with archive.open(part) as stream:
        while count <= most:
            chunk = stream.read(_CHUNK)
            if not chunk:
                break
            data = tail + chunk
            # a tag cut by the chunk's end is counted with the next chunk: only tags that start before the tail
            # (every tag, less those from the tail on; counted by the regex engine, not a Python loop a cell)
            cut = max(0, len(data) - 32)
            count += len(_CELL_TAG.findall(data)) - len(_CELL_TAG.findall(data, cut))
            tail = data[cut:]
    return count + len(_CELL_TAG.findall(tail))


def _tab_names(archive: zipfile.ZipFile) -> dict[str, str]:
    """Each worksheet part's tab name (``xl/worksheets/sheet2.xml`` → ``Junk``), from the workbook's own index;
    empty where that cannot be read."""
    try:
        book = ET.fromstring(archive.read("xl/workbook.xml"))
        rels = ET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ET.ParseError):
        return {}
    targets = {r.get("Id"): str(r.get("Target", "")).lstrip("/") for r in rels}
    out: dict[str, str] = {}
    for sheet in book.iter():
        if sheet.tag.endswith("}sheet"):
            rid = next((v for k, v in sheet.attrib.items() if k.endswith("}id")), None)
            target = targets.get(rid, "")
            path = target if target.startswith("xl/") else f"xl/{target}"
            out[path] = str(sheet.get("name", ""))
    return out
