"""Links from a workbook to other files: a reference to another workbook (``file:///etc/passwd`` as an "external
link", which an office program offers to open and refresh) or a cell's hyperlink to a file. A match's workbook
refers to nothing outside itself; links to web pages (``https:``, ``mailto:``) a player pasted stay."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

#: The hyperlink schemes a workbook keeps: a web page or an address, never a file or a share.
WEB_SCHEMES = frozenset({"http", "https", "mailto"})


def _file_hyperlink(target: str | None) -> bool:
    """Whether a hyperlink's target leads to a file (``file:``, a share, a bare path), not a web page."""
    if not target:
        return False
    return urlsplit(target.strip()).scheme.lower() not in WEB_SCHEMES


def outside_links(wb: Any) -> list[str]:
    """The targets of ``wb``'s links to other files: its external workbook references, then its cells' hyperlinks
    to files (each target once, in order)."""
    found: dict[str, None] = {}
    for link in getattr(wb, "_external_links", []):
        target = link.file_link.Target if link.file_link is not None else ""
        found[target or "another workbook"] = None
    for ws in wb.worksheets:
        for cell in ws._cells.values():
            link = cell._hyperlink
            if link is not None and _file_hyperlink(link.target):
                found[str(link.target)] = None
    return list(found)


def drop_outside_links(wb: Any) -> list[str]:
    """Remove ``wb``'s links to other files (``outside_links``; a cell's text stays, its hyperlink goes); their
    targets."""
    targets = outside_links(wb)
    if not targets:
        return []
    wb._external_links = []
    for ws in wb.worksheets:
        for cell in ws._cells.values():
            link = cell._hyperlink
            if link is not None and _file_hyperlink(link.target):
                cell._hyperlink = None
    return targets
