"""Copies of a local match's workbooks, kept before ``repair`` rewrites their layout.

Each repair keeps its copies together in one folder of the match's ``backups/`` folder (beside the config),
named after the config, the time and the command: ``backups/match-20261126-025900-repair/``, holding each
workbook under its path in the match (``board.xlsx``, ``gm/engine.xlsx``, ``orders-Ann.xlsx``). Only the last
``REPAIRS_KEPT`` repairs' folders of the config stay: an older one is removed when a repair keeps a new one. The
folders and copies are the GM's alone (a copy of the engine holds the seed; of an orders file, orders as typed).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.privacy.gm_files import BACKUPS_FOLDER
from sheets_gm.sheets.private_files import make_private, private_folder

#: How many repairs' copies are kept per config (the newest).
REPAIRS_KEPT = 5


def backups_folder(config: MatchConfig) -> Path:
    """The folder holding the repairs' copies of ``config``'s match."""
    return config.folder / BACKUPS_FOLDER


def repair_folders(config: MatchConfig) -> list[Path]:
    """The folders of copies earlier repairs of this config kept, oldest first."""
    root = backups_folder(config)
    if not root.is_dir():
        return []
    return sorted(p for p in root.glob(f"{config.path.stem}-*-repair") if p.is_dir())


def _kept_as(config: MatchConfig, path: Path) -> Path:
    """Where a workbook goes in a repair's folder: its path in the match folder (its name when kept elsewhere)."""
    try:
        return path.resolve().relative_to(config.folder.resolve())
    except ValueError:
        return Path(path.name)


def backup_workbooks(config: MatchConfig, stamp: str) -> tuple[Path | None, list[Path], list[Path]]:
    """A copy of every local workbook of the match in a new folder ``backups/<config>-<stamp>-repair/`` (none for
    Google, whose version history keeps the earlier layout), private to the GM's account; then the oldest
    repairs' folders beyond ``REPAIRS_KEPT`` are removed. Returns the folder (None when nothing was copied),
    the copies, and the folders removed."""
    if config.backend is not BackendKind.LOCAL:
        return None, [], []
    folder = backups_folder(config) / f"{config.path.stem}-{stamp}-repair"
    copies: list[Path] = []
    seen: set[Path] = set()
    for where in (config.board, config.engine, *config.orders, *([config.judge] if config.judge else [])):
        path = config.local_path(where)
        if path in seen or not path.exists():
            continue
        seen.add(path)
        backup = folder / _kept_as(config, path)
        private_folder(backup.parent)
        private_folder(folder.parent)
        shutil.copy2(path, backup)
        make_private(backup)
        copies.append(backup)
    if not copies:
        return None, [], []
    older = [p for p in repair_folders(config) if p != folder]
    pruned = older[:max(0, len(older) - (REPAIRS_KEPT - 1))]
    for old in pruned:
        shutil.rmtree(old, ignore_errors=True)
    return folder, copies, pruned
