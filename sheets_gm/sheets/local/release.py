"""A workbook taken apart once nothing uses it any more, so that reference counting frees it at once.

openpyxl's workbook is a web of cycles: a cell points at its tab and the tab holds its cells, a tab points at its
workbook and the workbook lists it, a comment points at its cell, a named style at the workbook, a tab's dimensions,
page set-up and merged ranges at the tab. Dropped as it is, a workbook (some four tracked objects a cell) is freed only
by the cycle collector, which walks it at every young collection that finds it alive, promotes it, and walks it again
in the older generation that finally frees it. Taken apart, it goes as soon as its last reference does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["release_workbook"]


def release_workbook(wb: Any) -> None:
    """Take ``wb`` (an openpyxl workbook nothing uses any more) apart: each cell's comment lets go of its cell, each
    tab of everything it holds (its cells, which point at it, its dimensions, set-up and ranges, which do too), and
    the workbook of everything it holds (its tabs, its styles). Only the objects no one else holds are freed."""
    for ws in list(getattr(wb, "_sheets", ())):
        cells = getattr(ws, "_cells", {})
        for cell in cells.values():
            comment = getattr(cell, "_comment", None)
            if comment is not None:
                comment._parent = None
        cells.clear()  # emptied, not only let go of: the load's parser, dead in a cycle of its own, holds it too
        vars(ws).clear()
    vars(wb).clear()
