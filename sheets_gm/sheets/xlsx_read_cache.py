"""A workbook's load with its parts that stay the same parsed once: a worksheet read whole, its frame, the workbook
part, content types, relationships and custom properties copied from what was parsed before.

openpyxl reads a worksheet through ``iterparse``: a Python generator step for each element's event, a quarter of a
load. Here a worksheet part is read whole and parsed by the standard library's C parser in one call, then its rows
are walked; a part larger than :data:`MOST_WHOLE_BYTES` (a tab pasted full) is left to ``iterparse``, which holds
one row at a time.

A part read whole is read once for each distinct part: a match's tabs are the same from load to load but for the few
a poll rewrote, so a load of bytes read whole before gives the cells, rows and frame read then (:func:`read_worksheet`)
and only makes the cells. Its cells are kept as plain values (each one's row, column, value, data type and style's
number: no object of openpyxl's), a shared string as its number in the workbook's table (each workbook's own), by
the part's bytes, the styles' dates and the load's options; a tab holding a value that a load may change in place
(an array formula) is parsed each time. They are kept in the store of the parts parsed once, counted in its bytes.

What surrounds a worksheet's rows (its *frame*: ``sheetPr``, ``dimension``, ``sheetViews``, ``sheetFormatPr``,
``cols`` before ``sheetData``; ``pageMargins``, ``pageSetup``, ``headerFooter``, ``conditionalFormatting``,
``dataValidations`` and the rest after it) is the same save after save, and openpyxl makes each of its elements an
object through typed descriptors (a sixth of a small tab's load). It is parsed by openpyxl's own parser once for
each distinct frame and each load given a copy of what it made (pickled: :func:`kept_copy`). So are the styles part
(``sheets/xlsx.py``), the content types, the workbook part, the relationships, the custom properties and the core
properties (:func:`parsed_part`; each saved version has core properties of its own, the time of the save in them).
The content types, which only the load reads, are shared by the loads rather than copied (:func:`kept_shared`).

A load's new workbook is a copy of one made once (:func:`fresh_workbook`), and so are a new tab's empty objects
(:func:`_setup_worksheet`); a tab a load makes is made without those the load sets from the tab's own elements
(:data:`SET_BY_A_LOAD`).

A copy is objects of the load's own: what one workbook changes in place never reaches another. A warning openpyxl
gives while parsing a part (an extension it drops) is given when the part is first parsed, not at each copy.

Imported by ``sheets/xlsx.py`` once openpyxl is (without numpy), which installs it (:func:`install`).
"""

from __future__ import annotations

import datetime
import io
import pickle
import re
import sys
import threading
from collections.abc import Callable, Hashable, Iterable
from types import SimpleNamespace
from typing import Any, NamedTuple, TypeVar
from xml.etree import ElementTree as ET

from openpyxl.packaging.core import DocumentProperties
from openpyxl.packaging.custom import CustomPropertyList
from openpyxl.packaging.manifest import Manifest
from openpyxl.packaging.relationship import RelationshipList, get_dependents
from openpyxl.packaging.workbook import WorkbookPackage
from openpyxl.reader import excel as _excel_reader
from openpyxl.reader import workbook as _workbook_reader
from openpyxl.reader.excel import ExcelReader
from openpyxl.reader.workbook import WorkbookParser
from openpyxl.styles.colors import COLOR_INDEX
from openpyxl.utils.datetime import CALENDAR_MAC_1904
from openpyxl.workbook import Workbook
from openpyxl.workbook import child as _workbook_child
from openpyxl.workbook.external_link.external import read_external_link
from openpyxl.worksheet import _reader as _sheet_reader
from openpyxl.worksheet._reader import DATA_TAG, ROW_TAG, WorkSheetParser
from openpyxl.worksheet.dimensions import DimensionHolder
from openpyxl.worksheet.header_footer import HeaderFooter
from openpyxl.worksheet.page import PrintPageSetup
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.constants import ARC_CONTENT_TYPES, ARC_CORE, ARC_CUSTOM
from openpyxl.xml.functions import fromstring

from sheets_gm.sheets.kept_parts import KeptParts

#: The largest worksheet part read whole: a match's largest tab, the board's Log full, is under a megabyte; a
#: bigger part is read by ``iterparse``, which holds one row's elements at a time, not the whole tree.
MOST_WHOLE_BYTES = 2 * 1024 * 1024
#: The most parts kept parsed (:func:`kept_copy`, :func:`read_worksheet`): a match's workbooks hold some 40 (a tab's
#: frame, the workbook's parts), some 4.5 KB each with their key, and some 20 tabs' rows (a tab's XML, 10 to 150 KB,
#: and some twice that read), and a host or a test process loads many matches; the least recently used dropped first.
MOST_KEPT = 1024
#: The largest part kept (:func:`kept_copy`, :func:`read_worksheet`): a tab's frame is a few kilobytes, a match's
#: tab under 150 KB; one holding a huge list of validations or formats, or a tab pasted full (a workbook may unpack
#: to 100 MB) is parsed at each load rather than held by the process.
MOST_KEPT_BYTES = 256 * 1024
#: The most bytes all the parts kept hold together (each part's bytes and its pickled copy or rows read): a host that
#: loads many matches, or workbooks saved with large frames, holds at most this much, however many parts it meets;
#: the least recently used dropped first (its total kept as parts come and go: ``kept_parts.KeptParts``).
MOST_KEPT_TOTAL = 32 * 1024 * 1024
#: What openpyxl's ``WorkSheetParser.parse`` sets from a worksheet's elements other than its rows.
FRAME_FIELDS = ("column_dimensions", "formatting", "protection", "legacy_drawing", "row_breaks", "col_breaks",
                "print_options", "page_margins", "page_setup", "HeaderFooter", "auto_filter", "data_validations",
                "sheet_properties", "views", "sheet_format", "scenarios", "tables", "hyperlinks", "merged_cells")
#: What a load sets on a tab from the tab's elements (openpyxl's ``WorksheetReader.bind_properties``) of the objects a
#: new tab makes for itself: a tab made by a load is made without them, and given new ones where it lacks the element
#: (:func:`_init_worksheet`, :func:`read_worksheet`). Its page setup holds the tab: it is made with it.
SET_BY_A_LOAD = ("print_options", "page_margins", "HeaderFooter", "auto_filter", "data_validations",
                 "sheet_properties", "views", "sheet_format", "scenarios", "protection", "row_breaks", "col_breaks")
#: A worksheet's ``<sheetData`` start tag, with or without a namespace prefix; its end tag is found from its prefix.
_SHEET_DATA = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)sheetData(?=[\s/>])")
#: Each part made by :func:`kept_copy` so far, pickled, and each worksheet's rows read whole (:class:`_KeptRows`), by
#: its key.
_KEPT: KeptParts[Hashable, Any] = KeptParts()
_Made = TypeVar("_Made")
#: What a new tab's ``_setup`` makes that holds the tab itself (:func:`_setup_worksheet` makes them for it).
_HOLD_THE_SHEET = frozenset(("row_dimensions", "column_dimensions", "page_setup"))
_LOADING = threading.local()  # ``tabs``: whether this thread's load is making its tabs (:func:`_read_worksheets`)


#: A cell of a worksheet as a load reads it: its row, column, value, data type and style's number. A shared string's
#: value is its number in the workbook's table, typed :data:`SHARED` (the cell gets its text when it is made).
CellRead = tuple[int, int, Any, str, int]
#: The data type of a cell read whose value is a shared string's number (:data:`CellRead`).
SHARED = "shared string"
#: The values a cell read may hold and be kept (:class:`ReadCells`): each immutable, shared by every load.
KEEPABLE_VALUES = frozenset((type(None), str, int, float, bool, datetime.datetime, datetime.date, datetime.time,
                             datetime.timedelta))


class ReadCells(list[CellRead]):
    """The cells of a worksheet as its rows are read (``WorkSheetParser.parse_row`` adds each), in the part's order;
    ``keepable`` False where one of them may not be kept for the next load of the same part (a value not of
    :data:`KEEPABLE_VALUES`, a shared string's text read by openpyxl's own parse: those depend on more than the
    part's bytes, or are changed in place)."""

    keepable = True


class _KeptRows(NamedTuple):
    """A worksheet part's cells and rows as a load read them whole (:func:`read_worksheet`): what a later load of
    the same bytes is given without parsing them again. Its cells are kept as columns (their rows, their columns,
    their values...: :data:`CellRead`'s fields), its rows' dimensions as their numbers and fields: a few objects a
    tab, not one a cell, for the cycle collector to walk."""

    frame: bytes  # the part without its rows (:func:`_frame`)
    cells: tuple[tuple[Any, ...], ...]  # each field of the cells read, in their order
    row_numbers: tuple[str, ...]  # ``WorkSheetParser.row_dimensions``' keys
    row_fields: tuple[Any, ...]  # and its values, a dictionary of fields for each kind of row
    weight: int  # the bytes it holds (:func:`_rows_weight`)


def read_worksheet(parser: WorkSheetParser, read: ReadCells) -> Iterable[CellRead] | None:
    """The cells of the worksheet ``parser`` was made for, in the part's order, its frame's fields and its rows'
    dimensions set on ``parser`` as its ``parse`` would set them, those the tab lacks new (:func:`_tab_defaults`).

    A part read whole before in this process, with bytes, styles' dates and options the same, is not parsed again:
    its cells, rows and frame are what that load read (:func:`_kept_rows`). Otherwise it is read whole: each row
    given to ``parser.parse_row``, which adds its cells to ``read``, then kept where ``read`` may be. None, having
    read nothing but the part's bytes (``parser.source`` then holds them again) and set the new fields, where the
    part is not read whole here: too big, not the standard library's parser, a frame or a ``sheetData`` holding what
    openpyxl reads another way, or XML that does not parse (openpyxl's parse then reads it, and says why it
    cannot)."""
    data = parser.source.read()
    parser.source = io.BytesIO(data)
    if len(data) > MOST_WHOLE_BYTES or _sheet_reader.iterparse is not ET.iterparse:
        parser.__dict__.update(kept_copy(("new", "frame"), _tab_defaults))
        return None
    key = ("rows", data, parser.data_only, parser.rich_text, parser.epoch, frozenset(parser.date_formats),
           frozenset(parser.timedelta_formats))
    kept = _KEPT.get(key)
    if isinstance(kept, _KeptRows) and (cells := _kept_rows(kept, parser)) is not None:
        return cells
    frame = _read_whole(parser, data)
    if frame is None:
        parser.__dict__.update(kept_copy(("new", "frame"), _tab_defaults))
        return None
    if read.keepable and len(data) <= MOST_KEPT_BYTES:
        dimensions = parser.row_dimensions
        rows = _KeptRows(frame, tuple(zip(*read, strict=True)), tuple(dimensions), tuple(dimensions.values()), 0)
        rows = rows._replace(weight=_rows_weight(rows))
        _KEPT.keep(key, rows, most=MOST_KEPT, weight=_weight(key, rows), most_weight=MOST_KEPT_TOTAL)
    return read


def _kept_rows(kept: _KeptRows, parser: WorkSheetParser) -> Iterable[CellRead] | None:
    """The cells ``kept`` holds, its rows' dimensions and its frame's fields set on ``parser``."""
    fields = _frame_fields(kept.frame, parser)
    if fields is None:  # (never: a frame holding a row is not read whole, nor kept)
        return None
    parser.__dict__.update(fields)
    parser.row_dimensions.update(zip(kept.row_numbers, kept.row_fields, strict=True))
    return zip(*kept.cells, strict=True)


#: What the rows kept of a tab hold at most but their columns' and rows' own objects: their tuples, and what their
#: cells share (their data types' names, small numbers).
_ROWS_BYTES = 4 * sys.getsizeof(SHARED) + sys.getsizeof((0,) * 5) * 2 + sys.getsizeof(0) * 256
#: The bytes a cell's fields hold at most in the columns kept but its value's: its place in each column, its row,
#: column and style numbers (a number past 256 is an object of its own).
_CELL_READ_BYTES = 5 * 8 + 3 * sys.getsizeof(2 ** 20)


def _rows_weight(rows: _KeptRows) -> int:
    """The bytes the rows read ``rows`` hold (but the part's, counted with its key): its frame, each cell and its
    value, each row's number and each distinct dictionary of its fields."""
    kinds = {id(fields): fields for fields in rows.row_fields}
    cells = len(rows.cells[0]) if rows.cells else 0
    return (_ROWS_BYTES + sys.getsizeof(rows.frame) + cells * _CELL_READ_BYTES
            + (sum(map(sys.getsizeof, rows.cells[2])) if rows.cells else 0)
            + 2 * sys.getsizeof(rows.row_numbers) + sum(map(sys.getsizeof, rows.row_numbers))
            + sum(sys.getsizeof(fields) + sum(map(sys.getsizeof, fields.values())) + sum(map(sys.getsizeof, fields))
                  for fields in kinds.values()))


def _read_whole(parser: WorkSheetParser, data: bytes) -> bytes | None:
    """:func:`read_worksheet`'s read of the part ``data`` whole: its frame (:func:`_frame`), or None where it is not
    read so."""
    frame = _frame(data)
    if frame is None:
        return None
    try:
        sheet = ET.fromstring(data)
    except ET.ParseError:
        return None
    sheet_data = [node for node in sheet if node.tag == DATA_TAG]
    if len(sheet_data) != 1 or any(row.tag != ROW_TAG for row in sheet_data[0]):
        return None
    fields = _frame_fields(frame, parser)
    if fields is None:
        return None
    parser.__dict__.update(fields)
    parse_row = parser.parse_row
    for row in sheet_data[0]:
        parse_row(row)
    return frame


def _tab_defaults() -> dict[str, Any]:
    """A new tab's own objects of those a load sets from the tab's elements (:data:`SET_BY_A_LOAD`), as a new tab
    makes them: what a load gives a tab that lacks such an element."""
    made = Worksheet.__new__(Worksheet)
    made.HeaderFooter = HeaderFooter()
    _openpyxl_setup(made)
    return {name: made.__dict__[name] for name in SET_BY_A_LOAD}


def _frame(data: bytes) -> bytes | None:
    """The worksheet part ``data`` without the contents of its one ``sheetData`` (its frame), or None where it holds
    no ``sheetData`` or more than one."""
    starts = list(_SHEET_DATA.finditer(data))
    if len(starts) != 1:
        return None
    start = starts[0]
    closing = data.find(b">", start.end())
    if closing < 0:
        return None
    if data[closing - 1:closing] == b"/":  # ``<sheetData/>``: no rows
        return data
    end_tag = b"</" + start.group(1) + b"sheetData>"
    end = data.rfind(end_tag)
    if end < closing:
        return None
    return data[:closing + 1] + data[end:]


def _frame_fields(frame: bytes, parser: WorkSheetParser) -> dict[str, Any] | None:
    """The fields openpyxl's parser sets from the worksheet frame ``frame``, objects of this load's own (parsed by a
    parser of openpyxl's own, as ``parser``'s, once for each distinct frame: :func:`kept_copy`). None where the
    frame holds a row (outside the ``sheetData``: openpyxl reads it as a row)."""

    def parse() -> dict[str, Any] | None:
        reader = WorkSheetParser(io.BytesIO(frame), [], parser.data_only, parser.epoch, parser.date_formats,
                                 parser.timedelta_formats, parser.rich_text)
        if any(True for _ in reader.parse()):
            return None
        fields = _tab_defaults()
        fields.update((name, reader.__dict__[name]) for name in FRAME_FIELDS if name in reader.__dict__)
        return fields

    return kept_copy(("frame", frame), parse)


def kept_copy(key: Hashable, make: Callable[[], _Made]) -> _Made:
    """What ``make`` makes, made once for each ``key`` (a part's bytes, with what it is: a part is the same in every
    workbook of a match, save after save), then unpickled each time: objects of their own for each load, which
    binds and changes them. At most :data:`MOST_KEPT` are kept, holding at most :data:`MOST_KEPT_TOTAL` bytes, the
    least recently used dropped first; a part larger than :data:`MOST_KEPT_BYTES` is made each time, never kept."""
    kept = _KEPT.get(key)
    if kept is None:
        made_now = make()
        if _source_bytes(key) > MOST_KEPT_BYTES:
            return made_now
        pickled = pickle.dumps(made_now, pickle.HIGHEST_PROTOCOL)
        kept = _KEPT.keep(key, pickled, most=MOST_KEPT, weight=_weight(key, pickled), most_weight=MOST_KEPT_TOTAL)
    made: _Made = pickle.loads(kept)
    return made


class _Shared(NamedTuple):
    """A part kept by :func:`kept_shared`: the very object every load is given, and the bytes it holds."""

    part: Any
    weight: int


def kept_shared(key: Hashable, make: Callable[[], _Made]) -> _Made:
    """What ``make`` makes, made once for each ``key`` (as :func:`kept_copy`'s) and the same object given to every
    load: only for a part nothing changes once it is parsed, read by the load alone and held by nothing the load
    makes (the content types, :func:`_read_manifest`): no copy is made."""
    kept = _KEPT.get(key)
    if isinstance(kept, _Shared):
        made: _Made = kept.part
        return made
    made = make()
    if _source_bytes(key) <= MOST_KEPT_BYTES:
        shared = _Shared(made, len(pickle.dumps(made, pickle.HIGHEST_PROTOCOL)))  # (what a copy of it holds)
        _KEPT.keep(key, shared, most=MOST_KEPT, weight=_weight(key, shared), most_weight=MOST_KEPT_TOTAL)
    return made


def _source_bytes(key: Hashable) -> int:
    """The bytes of the parts a key of :func:`kept_copy` holds."""
    return sum(len(k) for k in key if isinstance(k, bytes)) if isinstance(key, tuple) else 0


def _weight(key: Hashable, part: bytes | _KeptRows | _Shared) -> int:
    """The bytes a kept part holds: its key's parts and its pickled copy, the rows read (:func:`_rows_weight`) or
    the part shared (:func:`kept_shared`)."""
    return _source_bytes(key) + (len(part) if isinstance(part, bytes) else part.weight)


def parsed_part(source: bytes, kind: Any) -> Any:
    """``kind.from_tree(fromstring(source))`` (openpyxl's parse of a part into its object model), parsed once for
    each kind and ``source`` and copied for each load (:func:`kept_copy`)."""
    return kept_copy((kind, source), lambda: kind.from_tree(fromstring(source)))


def fresh_workbook() -> Workbook:
    """A new workbook as a load's ``WorkbookParser`` makes one (``Workbook()``), without the tab a new workbook
    starts with (the load drops it at once): a copy of one made once (:func:`kept_copy`), where each ``Workbook()``
    makes and binds its default styles and fonts (an eighth of a seat workbook's load). It is made without what the
    load sets from the file (:data:`SET_BY_A_WORKBOOK_LOAD`: its styles given a new workbook's where the file has
    none, :func:`default_styles`). Its properties made now, as a new workbook's are (a load replaces them by the
    file's, where it has them)."""
    book: Workbook = kept_copy(("new", Workbook, "loaded"), lambda: _without(_new_workbook(), SET_BY_A_WORKBOOK_LOAD))
    book.properties = DocumentProperties()
    book._colors = COLOR_INDEX  # (the very list, as a new workbook holds it)
    return book


#: What a load sets on its new workbook from the file's styles part (``sheets/xlsx.py``'s ``_apply_stylesheet``,
#: where it lists its cells' styles; a new workbook's otherwise: :func:`default_styles`).
STYLES_OF_A_LOAD = ("_fonts", "_alignments", "_borders", "_fills", "_number_formats", "_protections", "_cell_styles",
                    "_named_styles", "_table_styles", "_date_formats", "_timedelta_formats")
#: What a load sets on its new workbook in every case: its styles (:data:`STYLES_OF_A_LOAD`), what the workbook part
#: sets (:func:`_parse_workbook`) and its properties (:func:`fresh_workbook`).
SET_BY_A_WORKBOOK_LOAD = (*STYLES_OF_A_LOAD, "security", "views", "calculation", "properties")


def _new_workbook() -> Workbook:
    """``Workbook()`` without its first tab."""
    made = Workbook(write_only=True)
    made._Workbook__write_only = False  # (what ``write_only`` sets, put back)
    return made


def _without(book: Workbook, names: tuple[str, ...]) -> Workbook:
    """``book`` without the fields ``names``."""
    for name in names:
        del book.__dict__[name]
    return book


def default_styles(wb: Workbook) -> None:
    """A new workbook's styles (:data:`STYLES_OF_A_LOAD`) given to ``wb``, a load's whose file lists no cell
    styles, as openpyxl's load leaves them: copies of a new workbook's (:func:`kept_copy`), its named styles bound to
    ``wb``."""
    made: Workbook = kept_copy(("new", Workbook), _new_workbook)
    wb.__dict__.update((name, made.__dict__[name]) for name in STYLES_OF_A_LOAD)
    for named in wb._named_styles:
        named.bind(wb)


def _setup_worksheet(ws: Worksheet) -> None:
    """openpyxl's ``Worksheet._setup``: a new tab's own empty objects (its views, page margins, protection,
    properties, validations, conditional formats: each made through typed descriptors, two thirds of a new tab)
    copies of those of a tab made once (:func:`kept_copy`); those that hold the tab made for it. A tab a load makes
    is made without those the load sets (:data:`SET_BY_A_LOAD`)."""

    def make() -> dict[str, Any]:
        made = Worksheet.__new__(Worksheet)
        _openpyxl_setup(made)
        return {name: value for name, value in made.__dict__.items() if name not in _HOLD_THE_SHEET}

    loading = _LOADING.__dict__.get("tabs", False)
    ws.__dict__.update(kept_copy(("new", Worksheet, loading), lambda: _unset_by_a_load(make()) if loading else make()))
    ws.row_dimensions = DimensionHolder(worksheet=ws, default_factory=ws._add_row)
    ws.column_dimensions = DimensionHolder(worksheet=ws, default_factory=ws._add_column)
    if not loading:  # (a load gives a tab its own, or a new one where it has none: :func:`give_page_setup`)
        ws.page_setup = PrintPageSetup(worksheet=ws)


def give_page_setup(ws: Worksheet, parser: WorkSheetParser) -> None:
    """A new page setup, holding the tab, given to the tab ``ws`` a load made (without one: :func:`_setup_worksheet`)
    where its part, read by ``parser``, has none; one it has is the tab's (``bind_properties``), as openpyxl's load
    gives them."""
    if parser.__dict__.get("page_setup") is None:
        ws.page_setup = PrintPageSetup(worksheet=ws)


def _unset_by_a_load(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` but those a load sets (:data:`SET_BY_A_LOAD`)."""
    return {name: value for name, value in fields.items() if name not in SET_BY_A_LOAD}


def _init_worksheet(ws: Worksheet, parent: Any, title: str | None = None) -> None:
    """openpyxl's ``Worksheet.__init__``; a tab a load makes (:func:`_read_worksheets`) made without the objects the
    load sets from the tab's own elements or new (:data:`SET_BY_A_LOAD`: its headers and footers among them)."""
    if not _LOADING.__dict__.get("tabs", False):
        _openpyxl_init_worksheet(ws, parent, title)
        return
    ws._parent = parent
    ws.title = title or ws._default_title
    ws._setup()


def _read_worksheets(reader: ExcelReader) -> None:
    """openpyxl's ``ExcelReader.read_worksheets``, each tab made without the objects the load sets
    (:func:`_init_worksheet`)."""
    _LOADING.tabs = True
    try:
        _openpyxl_read_worksheets(reader)
    finally:
        _LOADING.tabs = False


def _fresh_header_footer() -> HeaderFooter:
    """``HeaderFooter()``, a new tab's empty headers and footers (six items of three parts each, through typed
    descriptors): a copy of one made once (:func:`kept_copy`)."""
    made: HeaderFooter = kept_copy(("new", HeaderFooter), HeaderFooter)
    return made


def _read_manifest(reader: ExcelReader) -> None:
    """openpyxl's ``ExcelReader.read_manifest``, the content types parsed once and shared by the loads of the same
    part (:func:`kept_shared`): openpyxl's reader only looks parts up in them (``find``), and no workbook holds them
    (a save makes its own)."""
    source = reader.archive.read(ARC_CONTENT_TYPES)
    reader.package = kept_shared(("shared", Manifest, source), lambda: Manifest.from_tree(fromstring(source)))


def _read_properties(reader: ExcelReader) -> None:
    """openpyxl's ``ExcelReader.read_properties``, the core properties parsed once for each distinct part
    (:func:`parsed_part`: a save writes its time in them, so each saved version has its own)."""
    if ARC_CORE in reader.valid_files:
        reader.wb.properties = parsed_part(reader.archive.read(ARC_CORE), DocumentProperties)


def _read_custom(reader: ExcelReader) -> None:
    """openpyxl's ``ExcelReader.read_custom``, the custom properties parsed once (:func:`parsed_part`)."""
    if ARC_CUSTOM in reader.valid_files:
        reader.wb.custom_doc_props = parsed_part(reader.archive.read(ARC_CUSTOM), CustomPropertyList)


def _dependents(archive: Any, filename: str) -> RelationshipList:
    """openpyxl's ``get_dependents`` (a part's relationships, their targets made absolute), parsed once for each
    part name and bytes (:func:`kept_copy`)."""
    source = archive.read(filename)
    only = SimpleNamespace(read=lambda _: source)  # (openpyxl's reads the part from this)
    made: RelationshipList = kept_copy(("rels", filename, source), lambda: get_dependents(only, filename))
    return made


def _parse_workbook(parser: WorkbookParser) -> None:
    """openpyxl's ``WorkbookParser.parse``, the workbook part parsed once (:func:`parsed_part`); the rest as
    openpyxl does it."""
    package = parsed_part(parser.archive.read(parser.workbook_part_name), WorkbookPackage)
    wb = parser.wb
    if package.properties.date1904:
        wb.epoch = CALENDAR_MAC_1904
    wb.code_name = package.properties.codeName
    wb.active = package.active
    wb.views = package.bookViews
    parser.sheets = package.sheets
    wb.calculation = package.calcPr
    parser.caches = package.pivotCaches
    if not parser.keep_links:  # (external links hold cached worksheets and can be very big)
        package.externalReferences = []
    for ext_ref in package.externalReferences:
        rel = parser.rels.get(ext_ref.id)
        wb._external_links.append(read_external_link(parser.archive, rel.Target))
    if package.definedNames:
        parser.defined_names = package.definedNames
    wb.security = package.workbookProtection


_openpyxl_parse_workbook, _openpyxl_setup = WorkbookParser.parse, Worksheet._setup
_openpyxl_init_worksheet, _openpyxl_read_worksheets = Worksheet.__init__, ExcelReader.read_worksheets
_openpyxl_read_manifest, _openpyxl_read_custom = ExcelReader.read_manifest, ExcelReader.read_custom
_openpyxl_read_properties = ExcelReader.read_properties


def install() -> None:
    """Put this module's readers in openpyxl's place: a load's new workbook (:func:`fresh_workbook`), its content
    types, workbook part, relationships and custom properties parsed once; a new tab's empty objects copied from
    those of one made once (:func:`_setup_worksheet`)."""
    _workbook_reader.Workbook = fresh_workbook
    _workbook_reader.get_dependents = _excel_reader.get_dependents = _dependents
    WorkbookParser.parse = _parse_workbook
    ExcelReader.read_manifest = _read_manifest
    ExcelReader.read_custom = _read_custom
    ExcelReader.read_properties = _read_properties
    Worksheet._setup = _setup_worksheet
    Worksheet.__init__ = _init_worksheet
    ExcelReader.read_worksheets = _read_worksheets
    _workbook_child.HeaderFooter = _fresh_header_footer
