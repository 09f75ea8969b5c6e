"""A local workbook's spare rows: the rows a tab keeps for text that may grow (a View's panel, sized for the most
it may show), hidden where they hold nothing (issue 78, item 5).

A View's panel is a fixed block of rows (Coalition's 41, Wesnoth's 61) whatever it holds: a side of 13 armies left
24 of them blank, and the printed View spent the top of its second page on them above its log. The layout names the
run (``TabLayout.spare_rows``); it is recorded in the workbook (:data:`SPARE_ROWS_PROPERTY`, a custom document
property LibreOffice keeps on save) so that, after each write, the rows of the run below the last one holding
something are hidden (LibreOffice and Excel neither show nor print a hidden row) and those holding something shown.
The run's last row, the gap above what follows, is always shown.
"""

from __future__ import annotations

from typing import Any

from sheets_gm.sheets.xlsx import openpyxl  # noqa: F401  # first: without numpy (see that module)  # isort: skip

from sheets_gm.sheets.tab_records import record_tabs, tab_records

#: The custom document property holding, per tab, its run of spare rows (JSON: tab → [first, last], 1-based).
SPARE_ROWS_PROPERTY = "sheets-gm spare rows"


def spare_rows(wb: Any) -> dict[str, tuple[int, int]]:
    """Each tab's run of spare rows (1-based, first and last) as recorded in the workbook (anything else recorded
    there read as nothing)."""
    out: dict[str, tuple[int, int]] = {}
    for tab, run in tab_records(wb, SPARE_ROWS_PROPERTY).items():
        try:
            first, last = run
            out[tab] = (int(first), int(last))
        except (TypeError, ValueError):
            continue
    return out


def record_spare_rows(wb: Any, tab: str, run: tuple[int, int] | None) -> None:
    """Record ``tab``'s run of spare rows (replacing what was recorded for it; none: nothing recorded)."""
    recorded = {name: list(rows) for name, rows in spare_rows(wb).items() if name != tab}
    if run is not None:
        recorded[tab] = list(run)
    record_tabs(wb, SPARE_ROWS_PROPERTY, recorded)


def fold_spare_rows(ws: Any, run: tuple[int, int] | None) -> None:
    """Hide the rows of ``run`` below the last one holding something (its last row, a gap, kept shown), and show
    the others; nothing where no run is given."""
    if run is None:
        return
    first, last = run
    cells, width = ws._cells, ws.max_column  # a cell the tab does not hold is not made by asking for it
    held = [row for row in range(first, last) if any(
        getattr(cells.get((row, col)), "value", None) not in (None, "") for col in range(1, width + 1))]
    used = max(held, default=first - 1)
    for row in range(first, last + 1):
        hidden = used < row < last
        if bool(ws.row_dimensions[row].hidden) != hidden:
            ws.row_dimensions[row].hidden = hidden
