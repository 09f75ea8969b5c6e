"""Copies of a local match's workbooks, kept beside them before anything rewrites their layout."""

from __future__ import annotations

import shutil
from pathlib import Path

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.sheets.private_files import make_private


def backup_workbooks(config: MatchConfig, stamp: str) -> list[Path]:
    """A copy of every local workbook of the match, beside it, named ``<stem>.before-repair-<stamp>``
    (none for Google, whose version history keeps the earlier layout), readable by the GM's account alone."""
    if config.backend is not BackendKind.LOCAL:
        return []
    backups: list[Path] = []
    seen: set[Path] = set()
    for where in (config.board, config.engine, *config.orders, *([config.judge] if config.judge else [])):
        path = config.local_path(where)
        if path in seen or not path.exists():
            continue
        seen.add(path)
        backup = path.with_name(f"{path.stem}.before-repair-{stamp}{path.suffix}")
        shutil.copy2(path, backup)
        make_private(backup)  # a copy of the engine holds the seed; of an orders file, orders as typed
        backups.append(backup)
    return backups
