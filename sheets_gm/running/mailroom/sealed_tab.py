"""The judge's tab of sealed submissions (Coalition's Strategies tab) drawn in the judge's spreadsheet from the mail
record: its layout is the game's data (``MailPart.sealed_tab``), its rows the game's reading of the strategies of
the open window (``MailPart.sealed_rows``). Drawn by the door at each poll that filed a strategy, laid out where it
is missing (a match made before it gets it with its first strategy), in the judge's spreadsheet alone: no seat's
spreadsheet, the board or the page ever holds a cell of it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sheets_gm.rulesets.parts.mail import MailPart, Sealed
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import CellValue, Fill, Protection, TabLayout, WorkbookLayout, cells, quote_tab
from sheets_gm.sync.sheets import MatchSheets

HEAD = "#D9D9D9"
BATTLE = "#EFEFEF"
#: Rows the tab has beyond its lines (a tab grows as the strategies come).
SPARE_ROWS = 40  # a battle's own row


def draw_sealed(sheets: MatchSheets, state: Any, part: MailPart, sealed: Sequence[Sealed], title: str,
                deadline: datetime | None, now: datetime, drawn_before: int) -> int:
    """Lay out and write the tab for the window open in ``state``; returns how many rows it holds now (the next
    drawing blanks those beyond its own). The tab is as long as its rows and some room (at most the layout's)."""
    tab = part.sealed_tab()
    width = len(tab.columns)
    rows = part.sealed_rows(state, sealed, deadline is not None and now > deadline)[: tab.rows - 2]
    grid: list[list[CellValue]] = [[*r[:width], *[""] * (width - len(r))] for r in rows]
    grid += [[""] * width for _ in range(max(0, drawn_before - len(grid)))]
    layout = TabLayout(name=tab.tab, rows=min(tab.rows, len(grid) + 2 + SPARE_ROWS), cols=width, frozen_rows=2,
                       values={"A1": [[tab.title]], "A2": [[c.header for c in tab.columns]]},
                       fills=(Fill(cells(0, 1, width - 1, 2), HEAD, bold=True),
                              Fill(cells(0, 3, width - 1, 2 + max(1, len(grid))), "#FFFFFF", wrap=True),
                              *(Fill(cells(0, 3 + n, width - 1, 3 + n), BATTLE, bold=True, top=True)
                                for n, row in enumerate(rows) if row and row[0]),
                              # a battle's note in its last cell (what the judge does with it) wraps within it
                              *(Fill(cells(width - 1, 3 + n, width - 1, 3 + n), BATTLE, wrap=True)
                                for n, row in enumerate(rows) if row and row[0] and len(row) >= width and row[-1])),
                       column_widths={n: c.width for n, c in enumerate(tab.columns)},
                       protections=(Protection(None, "Written by sheets-gm from the judge's mailbox"),))
    rows_written = [RangeWrite(f"{quote_tab(tab.tab)}!A3", grid)] if grid else []  # written: each row's height fits
    sheets.judge_sheet().apply_layout(WorkbookLayout(title, (layout,), partial=True), rows_written)
    return len(rows)
