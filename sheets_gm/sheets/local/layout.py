"""A :class:`~sheets_gm.sheets.layout.WorkbookLayout` mapped onto what an .xlsx can hold.

Tabs are created or reshaped in the layout's order (tabs outside the layout are kept after
them, except empty ones such as a new workbook's ``Sheet``); fixed values are written RAW;
fills are solid ``PatternFill`` colours with bold set as the layout says; conditional fills
are "begins with" conditional formats (a solid fill, bold if asked) and the layout owns its
tabs' conditional formats: applying it again replaces them; ``frozen_rows`` freeze panes;
hidden tabs are hidden; column widths are converted from pixels to Excel character widths. A
row holding a wrapping cell is made as tall as its text after each write and layout, as
Google grows it (``row_fit``; rows the layout sized keep it). Dropdowns are list validations
that refuse other values: inline (``"a,b,c"``) when Excel allows it, else (a list longer
than 255 characters, or a value holding ``,`` or ``"``) a reference to a column of the
hidden helper tab :data:`LISTS_TAB`. Checkboxes are ``TRUE,FALSE`` list validations, their
empty cells are set to ``FALSE``, and they show as ☐ / ☑ (:data:`CHECKBOX_FORMAT`). A layout
owns its tabs' validations: applying it again replaces them rather than adding duplicates.
``rows`` and ``cols`` do not shrink the sheet (an .xlsx sheet has a fixed, huge grid); they
bound the cells the layout may touch and the cells whose protection is set (``protection``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from copy import copy
from dataclasses import dataclass, field
from typing import Any

from openpyxl.cell.cell import MergedCell
from openpyxl.formatting.formatting import ConditionalFormattingList
from openpyxl.formatting.rule import Rule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation, DataValidationList

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import (
    BORDER_COLOUR,
    ConditionalFill,
    TabLayout,
    WorkbookLayout,
    column_style,
    quote_tab,
    split_a1,
)
from sheets_gm.sheets.local.boxes import (
    MAX_COLS,
    MAX_ROWS,
    Box,
    box_ref,
    is_empty_sheet,
    layout_cells,
    tab_box,
    worksheet_named,
)
from sheets_gm.sheets.local.breaks import break_pages, kept_rows, record_kept_rows
from sheets_gm.sheets.local.cells import store, write_box
from sheets_gm.sheets.local.protection import apply_protection
from sheets_gm.sheets.local.spare import fold_spare_rows, record_spare_rows, spare_rows
from sheets_gm.sheets.printed_sizes import (
    LANDSCAPE_TALL_POINTS,
    PORTRAIT_PIXELS,
    PORTRAIT_TALL_POINTS,
    fewest_pages,
    print_pages_wide,
    print_scale,
    print_width,
    px_to_width,
    repeats_first_column,
)
from sheets_gm.sheets.row_fit import (
    Span,
    fit_rows,
    fixed_rows,
    record_fixed_rows,
    record_wrapped_cells,
    wrapped_cells,
)

LISTS_TAB = "sheets-gm lists"
"""The hidden helper tab holding dropdown lists too long (or too odd) for an inline list."""

#: How a tick box shows: LibreOffice reads an .xlsx TRUE/FALSE as 1/0 and would show "0"; this
#: number format shows it as a box, ticked or not (Excel shows TRUE/FALSE, ignoring formats on booleans).
CHECKBOX_FORMAT = '"☑";"☑";"☐"'

_INLINE_LIST_LIMIT = 255  # Excel refuses a list validation formula longer than this
#: The workbooks' default font: Arial 10, Google Sheets' own, so a local match looks like a Google one; Excel draws
#: it, and LibreOffice prints it in Liberation Sans (Arial's metric twin, installed with LibreOffice), so the widths
#: measured here are the widths printed. Its digits are 7 pixels wide, as Calibri 11's were: a column's width in
#: characters is the same number of pixels (``px_to_width``). Calibri, openpyxl's default, is missing where
#: LibreOffice runs on Linux, which then prints in DejaVu Sans, a quarter wider, shrinking every tab (issue 64).
DEFAULT_FONT_NAME = "Arial"
#: The default font's size and the smallest printed type a table may be shrunk to.
#: The default font's size.
FONT_POINTS = 10.0
_COLOUR = re.compile(r"^#?([0-9A-Fa-f]{6})$")


#: The rows of each tab to fit (``fit_tabs``), by its name: its worksheet and the rows (1-based).
RowsToFit = dict[str, tuple[Any, set[int]]]


def apply_layout(wb: Any, layout: WorkbookLayout, *, fit: bool = True) -> RowsToFit:
    """Create or reshape the tabs of the loaded workbook ``wb`` from ``layout`` (it is saved by the caller).

    Each tab's rows are fitted to their text, its spare rows folded and its pages broken (``fit_tabs``) as it is
    laid out; with ``fit`` False they are left to the caller, which writes into the tabs first and then fits them
    with the rows it wrote (a new match's tabs, each row fitted once, not laid out empty and again written): the
    rows to fit are returned."""
    names = [t.name for t in layout.tabs]
    if not names and layout.retired:  # only deletes tabs (an engine moved out): the others stay as they are
        retired = {n.casefold() for n in layout.retired}
        for ws in list(wb.worksheets):
            if ws.title.casefold() in retired:
                wb.remove(ws)
        wb.active = next(i for i, ws in enumerate(wb.worksheets) if ws.sheet_state == "visible")
        return {}
    _check_layout(wb, layout)
    use_default_font(wb)
    _arrange_tabs(wb, layout)

    lists: list[tuple[str, ...]] = []
    styles = _StyleIds()  # the workbook's style ids, found once a layout: its lists only grow while it is applied
    to_fit: RowsToFit = {}
    for tab in layout.tabs:
        ws = wb[tab.name]
        _apply_tab(ws, tab, lists, styles)
        fixed = {row + 1 for row in tab.row_heights}
        record_fixed_rows(wb, tab.name, fixed)
        wrapped = _wrapped_spans(tab)
        record_wrapped_cells(wb, tab.name, wrapped)
        record_spare_rows(wb, tab.name, tab.spare_rows)
        tall = LANDSCAPE_TALL_POINTS if ws.page_setup.orientation == "landscape" else PORTRAIT_TALL_POINTS
        record_kept_rows(wb, tab.name, () if tab.hidden else tab.print_keep, tall / print_scale(tab))
        rows = range(1, min(tab.rows, ws.max_row) + 1)
        if fit:
            fit_rows(ws, rows, fixed, wrapped)
            fold_spare_rows(ws, tab.spare_rows)
            break_pages(ws, kept_rows(wb).get(tab.name))
        else:
            break_pages(ws, None)  # its old breaks gone: ``fit_tabs`` lays those its rows need once they are fitted
            to_fit[tab.name] = (ws, set(rows))
    if lists and layout.partial:
        raise SheetError(f"the tabs {', '.join(names)} are laid out alone and cannot add dropdown lists to the "
                         "workbook's helper tab; lay the whole workbook out (repair)")
    if lists:
        helper = wb.create_sheet(LISTS_TAB)
        for col, values in enumerate(lists, start=1):
            for row, value in enumerate(values, start=1):
                store(helper.cell(row=row, column=col), value)
        helper.sheet_state = "hidden"
        helper.protection.sheet = True

    wb.active = next(i for i, ws in enumerate(wb.worksheets) if ws.sheet_state == "visible")
    for ws in wb.worksheets:
        ws.sheet_view.tabSelected = ws is wb.active
    if layout.title:  # '' leaves the title as it is (a tab laid out again alone)
        wb.properties.title = layout.title
    return to_fit


def fit_tabs(wb: Any, tabs: RowsToFit) -> None:
    """Each of ``tabs``' rows as tall as its text (``row_fit``; the rows its layout sized kept), its spare rows
    folded and its pages broken anew (its tables whole on a page), as its layout recorded them in ``wb``."""
    fixed, kept, spare, wrapped = fixed_rows(wb), kept_rows(wb), spare_rows(wb), wrapped_cells(wb)
    for title, (ws, rows) in tabs.items():
        fit_rows(ws, rows, fixed.get(title, set()), wrapped.get(title))
        fold_spare_rows(ws, spare.get(title))
        if title in kept:  # its rows grown or shrunk: its tables kept whole on their pages again
            break_pages(ws, kept[title])


def use_default_font(wb: Any) -> None:
    """Every font of the workbook ``wb`` in openpyxl's default face (Calibri, a new workbook's) made
    ``DEFAULT_FONT_NAME`` at ``FONT_POINTS`` where it was Calibri's 11, keeping its weight and colour: its default
    style's and each bold copy's (a workbook made before is mended when laid out again)."""
    fonts = wb._fonts
    for index, font in enumerate(fonts):
        if font.name == "Calibri":
            list.__setitem__(fonts, index, _arial(font))
    fonts.clean = False  # its index of fonts is made again when next asked
    for style in wb._named_styles:
        if style.font is not None and style.font.name == "Calibri":
            style.font = _arial(style.font)


def _arial(font: Any) -> Any:
    arial = copy(font)
    arial.name, arial.scheme = DEFAULT_FONT_NAME, None
    if arial.sz == 11:
        arial.sz = FONT_POINTS
    return arial


def _check_layout(wb: Any, layout: WorkbookLayout) -> None:
    """Refuse a layout no workbook can take: no tab, a tab named twice, the helper tab's name, every tab hidden."""
    names = [t.name for t in layout.tabs]
    if not names:
        raise SheetError("a layout needs at least one tab")
    if len({n.casefold() for n in names}) != len(names):
        raise SheetError(f"layout {layout.title!r} names a tab twice")
    if LISTS_TAB.casefold() in {n.casefold() for n in names}:
        raise SheetError(f"{LISTS_TAB!r} is reserved for the local workbook's dropdown lists")
    folded = {n.casefold() for n in names}
    others_shown = any(
        ws.title.casefold() not in folded and ws.title != LISTS_TAB and ws.sheet_state == "visible"
        and not is_empty_sheet(ws)
        for ws in wb.worksheets
    )  # kept after the layout's tabs: a workbook holding only a hidden engine tab is fine beside them
    if all(t.hidden for t in layout.tabs) and not others_shown:
        raise SheetError(f"layout {layout.title!r} hides every tab; at least one must be visible")


def _arrange_tabs(wb: Any, layout: WorkbookLayout) -> None:
    """The layout's tabs made or renamed, in its order; the old helper tab, empty strays and retired tabs gone."""
    names = [t.name for t in layout.tabs]
    for tab in layout.tabs:
        if len(tab.name) > 31:
            raise SheetError(f"{tab.name!r} is longer than the 31 characters an .xlsx tab name may have")
        ws = worksheet_named(wb, tab.name)
        if ws is None:
            try:
                ws = wb.create_sheet(tab.name)
            except ValueError as e:
                raise SheetError(f"{tab.name!r} cannot be a tab name in an .xlsx workbook: {e}") from e
        elif ws.title != tab.name:
            ws.title = tab.name
    if layout.partial:
        return  # the other tabs, and each tab's place, are left as they are
    old_lists = worksheet_named(wb, LISTS_TAB)
    if old_lists is not None:
        wb.remove(old_lists)
    retired = {n.casefold() for n in layout.retired}
    for ws in list(wb.worksheets):
        if ws.title not in names and (is_empty_sheet(ws) or ws.title.casefold() in retired):
            wb.remove(ws)
    for index, tab_name in enumerate(names):
        ws = wb[tab_name]
        wb.move_sheet(ws, offset=index - wb.index(ws))


def _apply_tab(ws: Any, tab: TabLayout, lists: list[tuple[str, ...]], styles: _StyleIds) -> None:
    """One layout tab onto its worksheet: values, fills, conditional fills, page and sizes, validations, locks.
    ``lists`` gathers the dropdown lists bound for the helper tab; ``styles``: the style ids found so far."""
    if tab.rows < 1 or tab.cols < 1 or tab.rows > MAX_ROWS or tab.cols > MAX_COLS:
        raise SheetError(f"tab {tab.name!r}: {tab.rows} x {tab.cols} is not a possible sheet size")
    _write_values(ws, tab)
    _apply_fills(ws, tab, styles)
    _apply_conditional_fills(ws, tab)
    _apply_page(ws, tab)
    _apply_sizes(ws, tab)
    inputs = _apply_validations(ws, tab, lists)
    apply_protection(ws, tab, inputs)


def _write_values(ws: Any, tab: TabLayout) -> None:
    """The layout's fixed values, written RAW."""
    where = f"tab {tab.name!r}"
    for cells, grid in tab.values.items():
        box = tab_box(tab, cells, "value")
        height, width = len(grid), max((len(r) for r in grid), default=0)
        if box.min_row + height - 1 > tab.rows or box.min_col + width - 1 > tab.cols:
            raise SheetError(f"{where}: the values at {cells!r} run past its {tab.rows} x {tab.cols} cells")
        write_box(ws, box, grid, f"{where}: values {cells!r}")


@dataclass
class _StyleIds:
    """The ids of the styles a layout gives, in the workbook it is applied to, each found once a layout, not once a
    fill or a cell: openpyxl finds a style's id by hashing the whole style (its colours' too), and doing that for
    each cell (``cell.fill =``) was a fifth of making a match's workbooks, for each fill still a tenth."""

    fills: dict[str, int] = field(default_factory=dict)  # a solid colour (ARGB) -> its fill's id
    alignments: dict[tuple[bool, bool], int] = field(default_factory=dict)  # (wrap, left) -> its alignment's id
    fonts: dict[tuple[int, bool], int] = field(default_factory=dict)  # (a font's id, bold) -> that font's id

    def fill(self, book: Any, colour: str) -> int:
        """The id of a solid fill of ``colour`` (#RRGGBB)."""
        argb = _argb(colour)
        if argb not in self.fills:
            self.fills[argb] = book._fills.add(PatternFill(fill_type="solid", start_color=argb, end_color=argb))
        return self.fills[argb]

    def alignment(self, book: Any, wrap: bool, left: bool) -> int:
        """The id of the alignment a fill gives: at the top, wrapping and left-aligned as asked."""
        if (wrap, left) not in self.alignments:
            aligned = Alignment(wrap_text=wrap or None, vertical="top", horizontal="left" if left else None)
            self.alignments[(wrap, left)] = book._alignments.add(aligned)
        return self.alignments[(wrap, left)]

    def font(self, book: Any, font_id: int, bold: bool) -> int:
        """The id of the workbook's font ``font_id`` in bold or not, as ``bold`` asks."""
        if (font_id, bold) not in self.fonts:
            self.fonts[(font_id, bold)] = _font_weighted(book, font_id, bold)
        return self.fonts[(font_id, bold)]


def _apply_fills(ws: Any, tab: TabLayout, styles: _StyleIds) -> None:
    """Solid fills, with bold, wrapping and an outline where the layout asks. A fill down a whole long column (a
    Log's sentences, 20,000 rows) is its columns' own style, given to the cells it holds now and to each cell a
    write makes there later (``cells.given_cells``): 20,000 styled empty cells made a workbook load 20 times
    slower."""
    book = ws.parent
    fonts = styles.fonts
    for fill in tab.fills:
        fill_id = styles.fill(book, fill.colour)
        box = tab_box(tab, fill.range, "fill")
        align_id = styles.alignment(book, fill.wrap, fill.left) if fill.wrap or fill.top or fill.left else None
        bold = fill.bold
        for cell in _filled_cells(ws, tab, box):
            style = cell._style
            if not style:  # a column's own style not set yet: what the descriptor does first
                style = cell._style = StyleArray()
            style.fillId = fill_id
            font_id = fonts.get((style.fontId, bold))
            style.fontId = styles.font(book, style.fontId, bold) if font_id is None else font_id
            if align_id is not None:
                style.alignmentId = align_id
        if fill.border:
            _outline(ws, tab, box)


def _wrapped_spans(tab: TabLayout) -> list[Span]:
    """The boxes of cells the layout's fills wrap, as ``row_fit`` records them."""
    boxes = [tab_box(tab, fill.range, "fill") for fill in tab.fills if fill.wrap]
    return [(b.min_row, b.min_col, b.max_row, b.max_col) for b in boxes]


def _font_weighted(book: Any, font_id: int, bold: bool) -> int:
    """The id of the workbook's font ``font_id`` in bold or not, as ``bold`` asks (the same id when it is so)."""
    font = book._fonts[font_id]
    if bool(font.b) == bold:
        return font_id
    weighted = copy(font)
    weighted.b = bold
    return int(book._fonts.add(weighted))


def _filled_cells(ws: Any, tab: TabLayout, box: Box) -> Iterator[Any]:
    """The cells a fill styles: each of ``box``; or, for a box down its columns to the tab's last row and longer
    than ``COLUMN_STYLE_ROWS``, those columns' own styles and the box's cells the tab holds now (the style given to
    a column is copied to each cell a write makes in it)."""
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    if not column_style(tab, min_row, max_row):
        yield from layout_cells(ws, tab, box)
        return
    for col in range(min_col, max_col + 1):
        yield ws.column_dimensions[get_column_letter(col)]
    yield from [cell for (row, col), cell in list(ws._cells.items())
                if min_row <= row <= max_row and min_col <= col <= max_col and not isinstance(cell, MergedCell)]


def _apply_conditional_fills(ws: Any, tab: TabLayout) -> None:
    """The tab's "begins with" formats; the layout owns them, so applying it again replaces them."""
    ws.conditional_formatting = ConditionalFormattingList()
    for conditional in tab.conditional_fills:
        box = tab_box(tab, conditional.range, "conditional fill")
        ws.conditional_formatting.add(box_ref(box, tab), _begins_with_rule(conditional, box, f"tab {tab.name!r}"))


def _apply_page(ws: Any, tab: TabLayout) -> None:
    """Frozen rows, the tab shown or hidden, and how it prints."""
    ws.freeze_panes = f"A{tab.frozen_rows + 1}" if tab.frozen_rows > 0 else None
    ws.sheet_state = "hidden" if tab.hidden else "visible"
    # Printed or exported to PDF, a tab is as many pages wide as its layout says (one: the board on one page, not
    # cut in strips) and as tall as it needs; turned sideways when it is wider than a portrait page.
    ws.page_setup.orientation = "landscape" if print_width(tab) > PORTRAIT_PIXELS else "portrait"
    # a tab over pages across prints each band of rows whole before the next (a View's battle beside its armies)
    ws.page_setup.pageOrder = "overThenDown"
    ws.oddHeader.center.text = None
    if tab.print_fewest:
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.orientation, ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = fewest_pages(tab)
        if tab.print_header and ws.page_setup.fitToWidth > 1:
            ws.oddHeader.center.text = tab.print_header.replace("&", "&&")  # & starts a field code
    elif tab.print_pages_wide:
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.fitToWidth = print_pages_wide(tab)
        ws.page_setup.fitToHeight = 0
    else:  # at its own size, over as many pages as it needs
        ws.sheet_properties.pageSetUpPr.fitToPage = False
    # each page repeats the header rows (a table's, the map's coordinates) and the label columns the layout names
    title_rows = tab.print_title_rows or tab.frozen_rows
    if title_rows:
        ws.print_title_rows = f"{min(tab.print_title_first, title_rows)}:{title_rows}"
    if tab.print_title_cols:
        ws.print_title_cols = f"A:{get_column_letter(tab.print_title_cols)}"
    elif repeats_first_column(tab):
        ws.print_title_cols = "A:A"  # a table printed over pages across: each names its rows (an army, a unit)
    ws.print_options.headings = tab.print_headings
    # only the layout's cells: a long line running on past its last column (a View's status) once widened the print
    # range, LibreOffice shrinking the whole tab for it (a Win or Die View at 7.8 pt instead of 8.7). Never on a
    # hidden tab: LibreOffice prints a hidden tab that has a print range.
    if not tab.hidden:
        ws.print_area = f"A1:{get_column_letter(tab.cols)}{tab.rows}"
    else:
        ws.print_area = None


def _apply_sizes(ws: Any, tab: TabLayout) -> None:
    """Column widths, hidden columns and row heights, each checked against the tab's size."""
    where = f"tab {tab.name!r}"
    for col, pixels in tab.column_widths.items():
        if not 0 <= col < tab.cols:
            raise SheetError(f"{where}: column {col} (0-based) is outside its {tab.cols} columns")
        ws.column_dimensions[get_column_letter(col + 1)].width = px_to_width(pixels)
    for col in tab.hidden_columns:
        if not 0 <= col < tab.cols:
            raise SheetError(f"{where}: hidden column {col} (0-based) is outside its {tab.cols} columns")
        ws.column_dimensions[get_column_letter(col + 1)].hidden = True
    for row, pixels in tab.row_heights.items():
        if not 0 <= row < tab.rows:
            raise SheetError(f"{where}: row {row} (0-based) is outside its {tab.rows} rows")
        ws.row_dimensions[row + 1].height = pixels * 0.75  # points


def _apply_validations(ws: Any, tab: TabLayout, lists: list[tuple[str, ...]]) -> list[Box]:
    """Dropdowns and tick boxes as list validations (the layout owns them: applying it again replaces them);
    the boxes they cover, which are player input."""
    ws.data_validations = DataValidationList()
    inputs: list[Box] = []
    for dropdown in tab.dropdowns:
        box = tab_box(tab, dropdown.range, "dropdown")
        inputs.append(box)
        rule = DataValidation(
            type="list",
            formula1=_absolute(dropdown.source) if dropdown.source else _list_formula(tuple(dropdown.values), lists),
            allow_blank=True,
            showErrorMessage=not dropdown.source,  # a list read from cells only helps: anything typed is kept
            showDropDown=False,  # (sic) False shows the in-cell arrow
            errorTitle="Not in the list",
            error="Pick one of the values from the dropdown list.",
        )
        rule.add(box_ref(box, tab))
        ws.add_data_validation(rule)
    for checkbox in tab.checkboxes:
        box = tab_box(tab, checkbox.range, "checkbox")
        inputs.append(box)
        rule = DataValidation(
            type="list",
            formula1='"TRUE,FALSE"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle="Tick box",
            error="Enter TRUE (ticked) or FALSE.",
        )
        rule.add(box_ref(box, tab))
        ws.add_data_validation(rule)
        for cell in layout_cells(ws, tab, box):
            if cell.value is None or cell.value == "":
                store(cell, False)
            cell.number_format = CHECKBOX_FORMAT
    return inputs


def _begins_with_rule(conditional: ConditionalFill, box: Box, where: str) -> Rule:
    """Excel's "begins with" rule, written as Excel writes it (the formula is what Excel and LibreOffice test)."""
    try:
        argb = _argb(conditional.colour)
    except SheetError as e:
        raise SheetError(f"{where}: conditional fill {conditional.range!r}: {e}") from e
    text = '"' + conditional.prefix.replace('"', '""') + '"'
    first = f"{get_column_letter(box.min_col)}{box.min_row}"  # relative: Excel shifts it to each cell
    style = DifferentialStyle(fill=PatternFill(fill_type="solid", start_color=argb, end_color=argb),
                              font=Font(b=True) if conditional.bold else None)
    return Rule(type="beginsWith", operator="beginsWith", text=conditional.prefix,
                formula=[f"LEFT({first},LEN({text}))={text}"], dxf=style)


def _outline(ws: Any, tab: TabLayout, box: Box) -> None:
    """A thin grey line round ``box``: each edge cell gets the side it lies on, its other sides kept."""
    min_row, min_col, max_row, max_col = box.clamp(tab.rows, tab.cols)
    line = Side(style="thin", color=_argb(BORDER_COLOUR))
    kept = ws.parent._borders
    outlined: dict[tuple[int, bool, bool, bool, bool], int] = {}  # a border's id and the sides drawn -> the new id
    for cell in layout_cells(ws, tab, box):
        style = cell._style
        if style is None:  # a cell made but never styled: as openpyxl's descriptor does first
            style = cell._style = StyleArray()
        key = (style.borderId, cell.column == min_col, cell.column == max_col, cell.row == min_row,
               cell.row == max_row)
        if key not in outlined:  # each outline's border found once, not hashed again for each cell
            old, (_, left, right, top, bottom) = kept[style.borderId], key
            outlined[key] = kept.add(Border(left=line if left else old.left, right=line if right else old.right,
                                            top=line if top else old.top, bottom=line if bottom else old.bottom))
        style.borderId = outlined[key]


def _absolute(source: str) -> str:
    """A range with its tab as a list validation's source: ``'View Ann'!$H$4:$H$43``."""
    tab, cells = split_a1(source)
    first, _, last = cells.partition(":")

    def fixed(cell: str) -> str:
        letters = cell.rstrip("0123456789")
        return f"${letters}${cell[len(letters):]}"
    return f"{quote_tab(tab)}!{fixed(first)}:{fixed(last or first)}"


def _list_formula(values: tuple[str, ...], lists: list[tuple[str, ...]]) -> str:
    """A list validation's source: inline when Excel allows it, else a helper-tab column."""
    inline = ",".join(values)
    if values and len(inline) + 2 <= _INLINE_LIST_LIMIT and not any("," in v or '"' in v for v in values):
        return f'"{inline}"'
    if values not in lists:
        lists.append(values)
    column = get_column_letter(lists.index(values) + 1)
    return f"{quote_tab(LISTS_TAB)}!${column}$1:${column}${max(1, len(values))}"


def _argb(colour: str) -> str:
    match = _COLOUR.match(colour.strip())
    if match is None:
        raise SheetError(f"colour {colour!r} is not #RRGGBB")
    return "FF" + match.group(1).upper()
