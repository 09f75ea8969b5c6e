"""The file a poll's kept reads are written to, one way for both backends (``poll_gate.kept_reads`` for Google's
spreadsheets, ``poll_gate.local_reads`` for local workbooks): JSON in the GM's ``.sheets-gm`` folder, written
atomically and readable by the GM's account alone (it holds what the players typed and the engine's record), with
a version; a missing, unreadable or other version's file reads as nothing kept, and a failed write only costs the
next poll the reads it would have saved."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from sheets_gm.sheets.private_files import write_private

#: What a damaged file may raise while it is read and taken apart: each means nothing kept.
UNREADABLE = (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError)


def read_kept_file(path: Path, version: int) -> dict[str, Any]:
    """The reads kept in ``path`` by name ({} when it is missing, unreadable or of another version)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("version") != version or not isinstance(raw["reads"], dict):
            return {}
        return raw["reads"]
    except UNREADABLE:
        return {}


def write_kept_file(path: Path, version: int, reads: dict[str, Any]) -> None:
    """Write ``reads`` (by name) to ``path`` atomically, the GM's alone; a failure is left unsaid (see above)."""
    with contextlib.suppress(OSError, TypeError, ValueError):
        write_private(path, json.dumps({"version": version, "reads": reads}, separators=(",", ":")))
