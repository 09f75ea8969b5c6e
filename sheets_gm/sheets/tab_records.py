"""What a local workbook's layout records per tab for the writes after it (the rows whose height it fixed, the runs
of rows no printed page cuts, a View's spare rows): a JSON object of tab names in a custom document property, which
LibreOffice and Excel keep on save. One reader and one writer for all of them; each caller checks its own values."""

from __future__ import annotations

import json
from typing import Any

from sheets_gm.sheets.xlsx import openpyxl  # noqa: F401  # first: without numpy (see that module)  # isort: skip

from openpyxl.packaging.custom import StringProperty


def tab_records(wb: Any, name: str) -> dict[str, Any]:
    """The values property ``name`` records per tab ({} where it is missing or holds anything but an object)."""
    try:
        recorded = json.loads(wb.custom_doc_props[name].value)
    except (KeyError, TypeError, ValueError):
        return {}
    return {str(tab): value for tab, value in recorded.items()} if isinstance(recorded, dict) else {}


def record_tabs(wb: Any, name: str, recorded: dict[str, Any]) -> None:
    """Replace property ``name`` with ``recorded`` (tab → value); removed where nothing is recorded."""
    props = wb.custom_doc_props
    if name in props.names:
        del props[name]
    if recorded:
        props.append(StringProperty(name=name, value=json.dumps(recorded, separators=(",", ":"))))
