"""A :class:`~sheets_gm.sheets.layout.WorkbookLayout` as the requests of one ``spreadsheets.batchUpdate``.

Re-applying a layout replaces its protections (matched by description) and its tabs' conditional formats rather than
stacking them; tabs not in the layout are left alone, except the ones it retires."""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.google.cells import grid_range, value_requests
from sheets_gm.sheets.layout import (
    BORDER_COLOUR,
    ConditionalFill,
    Protection,
    TabLayout,
    WorkbookLayout,
    column_style,
)

#: What a layout reads of the spreadsheet first (one ``spreadsheets.get``): the tabs, protections and formats it
#: reshapes.
LAYOUT_METADATA_FIELDS = (
    "properties.title,"
    "sheets(properties(sheetId,title,index,hidden,gridProperties),"
    "protectedRanges(protectedRangeId,description,range),conditionalFormats(ranges))"
)
_COLOUR_RE = re.compile(r"^#?([0-9A-Fa-f]{6})$")


def layout_requests(
    layout: WorkbookLayout, metadata: dict[str, Any], account: str | None = None, co_editors: Sequence[str] = (),
    built: BuiltTabs | None = None,
) -> list[dict[str, Any]]:
    """The spreadsheets.batchUpdate requests that bring a spreadsheet described by
    ``metadata`` (a spreadsheets.get answer) to ``layout``. ``account`` is kept an editor of
    every protection (so the engine can still write its ranges). ``built``: the tabs' own requests as
    :func:`built_tabs` made them for this layout (before the spreadsheet was read); without, they are made here."""
    sheets = metadata.get("sheets", [])
    existing: dict[str, dict[str, Any]] = {}
    protected: dict[int, list[dict[str, Any]]] = {}
    conditional: dict[int, int] = {}  # each tab's count of conditional format rules
    taken: set[int] = set()
    for s in sheets:
        known = s.get("properties", {})
        sid = int(known.get("sheetId", 0))
        taken.add(sid)
        existing[str(known.get("title", "")).casefold()] = known  # Google's tab names ignore case
        protected[sid] = list(s.get("protectedRanges", []))
        conditional[sid] = len(s.get("conditionalFormats", []))
    _check_frozen_rows(layout)

    reqs: list[dict[str, Any]] = []
    title = str(metadata.get("properties", {}).get("title", ""))
    if layout.title and not title.startswith(layout.title):  # "Friday GvG · orders red" (init --create) is kept
        reqs.append({"updateSpreadsheetProperties": {"properties": {"title": layout.title}, "fields": "title"}})

    ids: dict[str, int] = {}
    for index, tab in enumerate(layout.tabs):
        grid = {"rowCount": tab.rows, "columnCount": tab.cols, "frozenRowCount": tab.frozen_rows}
        props: dict[str, Any] = {"hidden": tab.hidden, "gridProperties": grid}
        if not layout.partial:  # a partial layout's tabs keep their place; a new one goes last
            props["index"] = index
        found = existing.get(tab.name.casefold())
        if found is not None:
            sid = int(found.get("sheetId", 0))
            props["sheetId"] = sid
            fields = ("" if layout.partial else "index,") + \
                "hidden,gridProperties.rowCount,gridProperties.columnCount,gridProperties.frozenRowCount"
            if found.get("title") != tab.name:
                props["title"] = tab.name
                fields += ",title"
            reqs.append({"updateSheetProperties": {"properties": props, "fields": fields}})
        else:
            sid = _stable_sheet_id(tab.name, taken)
            taken.add(sid)
            props.update(sheetId=sid, title=tab.name)
            reqs.append({"addSheet": {"properties": props}})
        ids[tab.name] = sid

    for tab in layout.tabs:
        sid = ids[tab.name]
        mine = {p.description for p in tab.protections}
        for pr in protected.get(sid, []):
            if pr.get("description") in mine and "protectedRangeId" in pr:
                reqs.append({"deleteProtectedRange": {"protectedRangeId": pr["protectedRangeId"]}})
        # The layout owns its tabs' conditional formats: the old ones go, last first (indexes shift down).
        reqs.extend({"deleteConditionalFormatRule": {"sheetId": sid, "index": i}}
                    for i in reversed(range(conditional.get(sid, 0))))
        if built is None:
            reqs.extend(_tab_requests(tab, sid, _keepers(account, co_editors)))
        else:
            provisional, own = built[tab.name]
            reqs.extend(own if sid == provisional else _on_sheet(own, sid))
    names = {tab.name.casefold() for tab in layout.tabs}
    for name in layout.retired:  # last: the layout's own tabs exist by then (a spreadsheet keeps one tab)
        gone = existing.get(name.casefold())
        if gone is not None and name.casefold() not in names:
            reqs.append({"deleteSheet": {"sheetId": int(gone.get("sheetId", 0))}})
    return reqs


#: Each tab's own requests by its name (values, fills, conditional formats, dropdowns, sizes, protections), and
#: the sheet id they were made for.
BuiltTabs = dict[str, tuple[int, list[dict[str, Any]]]]


def built_tabs(layout: WorkbookLayout, account: str | None = None, co_editors: Sequence[str] = ()) -> BuiltTabs:
    """Each tab's own requests (what :func:`layout_requests` sends of it whatever the spreadsheet holds), made
    before the spreadsheet is read, for the sheet id the tab takes in a spreadsheet without it: a layout's error (a
    bad range, a colour, frozen rows) raises SheetError here, before any call, and the requests are made once."""
    _check_frozen_rows(layout)
    taken: set[int] = set()
    built: BuiltTabs = {}
    for tab in layout.tabs:
        sid = _stable_sheet_id(tab.name, taken)
        taken.add(sid)
        built[tab.name] = (sid, _tab_requests(tab, sid, _keepers(account, co_editors)))
    return built


def _check_frozen_rows(layout: WorkbookLayout) -> None:
    for tab in layout.tabs:
        if tab.frozen_rows >= tab.rows:
            raise SheetError(f"tab {tab.name!r}: {tab.frozen_rows} frozen rows leave none to scroll in {tab.rows}")


def _keepers(account: str | None, co_editors: Sequence[str]) -> list[str]:
    """Who edits every protected range: the account and the GMs."""
    return [*([account] if account else []), *co_editors]


def _on_sheet(value: Any, sid: int) -> Any:
    """A tab's requests (or part of one) made for another sheet id, on the sheet ``sid``: every ``sheetId`` in them
    is the tab's own (a copy; the made ones are left as they are)."""
    if isinstance(value, dict):
        return {k: sid if k == "sheetId" else _on_sheet(v, sid) for k, v in value.items()}
    if isinstance(value, list):
        return [_on_sheet(item, sid) for item in value]
    return value


def _tab_requests(tab: TabLayout, sid: int, keepers: Sequence[str]) -> list[dict[str, Any]]:
    """The requests of one tab; ``keepers`` (the account and the GMs) edit every protected range."""
    def rng(cells: str) -> dict[str, int]:
        try:
            return grid_range(sid, cells)
        except ValueError as e:
            raise SheetError(f"tab {tab.name!r}: {e}") from e

    reqs: list[dict[str, Any]] = []
    for anchor, rows in tab.values.items():
        corner = rng(anchor)
        reqs.extend(value_requests(sid, corner.get("startRowIndex", 0), corner.get("startColumnIndex", 0), rows))
    for fill in tab.fills:
        if _column_wrap(tab, rng(fill.range), fill.wrap):
            continue
        cell_format: dict[str, Any] = {
            "backgroundColorStyle": {"rgbColor": _colour(fill.colour)},
            "textFormat": {"bold": fill.bold},
        }
        fields = "userEnteredFormat.backgroundColorStyle,userEnteredFormat.textFormat.bold"
        if fill.wrap:
            cell_format.update(wrapStrategy="WRAP", verticalAlignment="TOP")
            fields += ",userEnteredFormat.wrapStrategy,userEnteredFormat.verticalAlignment"
        elif fill.top:
            cell_format.update(verticalAlignment="TOP")
            fields += ",userEnteredFormat.verticalAlignment"
        if fill.left:
            cell_format.update(horizontalAlignment="LEFT")
            fields += ",userEnteredFormat.horizontalAlignment"
        reqs.append({"repeatCell": {"range": rng(fill.range), "cell": {"userEnteredFormat": cell_format},
                                    "fields": fields}})
        if fill.border:
            line = {"style": "SOLID", "colorStyle": {"rgbColor": _colour(BORDER_COLOUR)}}
            reqs.append({"updateBorders": {"range": rng(fill.range), "top": line, "bottom": line, "left": line,
                                           "right": line}})
    for index, conditional in enumerate(tab.conditional_fills):
        reqs.append({"addConditionalFormatRule": {"index": index, "rule": _conditional_rule(tab, conditional, rng)}})
    for dd in tab.dropdowns:
        condition = ({"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": f"={dd.source}"}]} if dd.source else
                     {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": v} for v in dd.values]})
        reqs.append(
            {
                "setDataValidation": {
                    "range": rng(dd.range),
                    # a list read from cells only helps: anything typed is kept (a warning mark at most)
                    "rule": {"condition": condition, "strict": not dd.source, "showCustomUi": True},
                }
            }
        )
    for cb in tab.checkboxes:
        reqs.append(
            {"setDataValidation": {"range": rng(cb.range), "rule": {"condition": {"type": "BOOLEAN"}, "strict": True}}}
        )
    for dimension, sizes in (("COLUMNS", tab.column_widths), ("ROWS", tab.row_heights)):
        for start, end, pixels in _runs(sizes):
            reqs.append(
                {
                    "updateDimensionProperties": {
                        "range": {"sheetId": sid, "dimension": dimension, "startIndex": start, "endIndex": end},
                        "properties": {"pixelSize": pixels},
                        "fields": "pixelSize",
                    }
                }
            )
    for start, end, _hidden in _runs(dict.fromkeys(tab.hidden_columns, 1)):
        reqs.append(
            {
                "updateDimensionProperties": {
                    "range": {"sheetId": sid, "dimension": "COLUMNS", "startIndex": start, "endIndex": end},
                    "properties": {"hiddenByUser": True},
                    "fields": "hiddenByUser",
                }
            }
        )
    for prot in tab.protections:
        if prot.player_input and not prot.editors:
            continue  # nobody named: the cells stay open to the spreadsheet's editors (the team), not the GM alone
        reqs.append({"addProtectedRange": {"protectedRange": _protected_range(prot, rng, keepers)}})
    return reqs


def _conditional_rule(tab: TabLayout, conditional: ConditionalFill,
                      rng: Callable[[str], dict[str, int]]) -> dict[str, Any]:
    """A ConditionalFormatRule: the cells of the range whose text starts with the prefix get the colour."""
    try:
        colour = _colour(conditional.colour)
    except SheetError as e:
        raise SheetError(f"tab {tab.name!r}: conditional fill {conditional.range!r}: {e}") from e
    cell_format: dict[str, Any] = {"backgroundColorStyle": {"rgbColor": colour}}
    if conditional.bold:
        cell_format["textFormat"] = {"bold": True}
    return {
        "ranges": [rng(conditional.range)],
        "booleanRule": {
            "condition": {"type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": conditional.prefix}]},
            "format": cell_format,
        },
    }


def _runs(sizes: dict[int, int]) -> list[tuple[int, int, int]]:
    """Consecutive indices of equal size as (start, end exclusive, pixels): one request per run."""
    runs: list[tuple[int, int, int]] = []
    for index, pixels in sorted(sizes.items()):
        if runs and runs[-1][1] == index and runs[-1][2] == pixels:
            runs[-1] = (runs[-1][0], index + 1, pixels)
        else:
            runs.append((index, index + 1, pixels))
    return runs


def ids_after(metadata: dict[str, Any], requests: Sequence[dict[str, Any]]) -> dict[str, int]:
    """The tab ids by folded title once ``requests`` (a layout's) have run on a spreadsheet described by
    ``metadata``: the tabs it had, renamed, added or deleted by the requests."""
    ids = {str(s["properties"].get("title", "")).casefold(): int(s["properties"].get("sheetId", 0))
           for s in metadata.get("sheets", []) if "properties" in s}
    for request in requests:
        if "addSheet" in request:
            props = request["addSheet"]["properties"]
            ids[str(props["title"]).casefold()] = int(props["sheetId"])
        elif "title" in request.get("updateSheetProperties", {}).get("properties", {}):
            props = request["updateSheetProperties"]["properties"]
            ids = {t: i for t, i in ids.items() if i != props["sheetId"]}
            ids[str(props["title"]).casefold()] = int(props["sheetId"])
        elif "deleteSheet" in request:
            ids = {t: i for t, i in ids.items() if i != request["deleteSheet"]["sheetId"]}
    return ids


def _protected_range(
    prot: Protection, rng: Callable[[str], dict[str, int]], keepers: Sequence[str]
) -> dict[str, Any]:
    editors = _unique([*prot.editors, *keepers])
    return {
        "range": rng(prot.range or ""),
        "description": prot.description,
        "warningOnly": False,
        "editors": {"users": editors},
    }


def _colour(hex_colour: str) -> dict[str, float]:
    m = _COLOUR_RE.match(hex_colour.strip())
    if m is None:
        raise SheetError(f"not a #RRGGBB colour: {hex_colour!r}")
    rgb = int(m.group(1), 16)
    return {"red": (rgb >> 16 & 255) / 255, "green": (rgb >> 8 & 255) / 255, "blue": (rgb & 255) / 255}


def _stable_sheet_id(title: str, taken: set[int]) -> int:
    sid = zlib.crc32(title.encode("utf-8")) & 0x7FFFFFFF
    while sid == 0 or sid in taken:
        sid = (sid + 1) & 0x7FFFFFFF
    return sid


def _unique(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item.lower() not in (o.lower() for o in out):
            out.append(item)
    return out


def _column_wrap(tab: TabLayout, grid: dict[str, int], wrap: bool) -> bool:
    """Whether a fill is a wrapping white column down a long tab to its last row (a Log's or an Archive's
    sentences: 20,000 rows), which Google is not sent: Google keeps a format per cell, so every read of the
    board's looks (``doctor``, ``verify -c``) would carry 60,000 formats where it carries a few hundred, and a cell
    written there later does not take it anyway. A local workbook styles the column instead (its print needs it)."""
    return wrap and column_style(tab, grid.get("startRowIndex", 0) + 1, grid.get("endRowIndex", tab.rows))
