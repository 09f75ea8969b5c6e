"""Copies of a local match's workbooks, kept before ``repair`` rewrites their layout.

Each repair keeps its copies together in one folder of the match's ``backups/`` folder (beside the config),
named after the config, the time and the command: ``backups/match-20261126-025900-repair/``, holding each
workbook under its path in the match (``board.xlsx``, ``gm/engine.xlsx``, ``orders-Ann.xlsx``). Only the last
``REPAIRS_KEPT`` repairs' folders of the config stay: an older one is removed when a repair keeps a new one. The
folders and copies are the GM's alone (a copy of the engine holds the seed; of an orders file, orders as typed).

A local match's missing workbooks are created here too (``init``'s, a repair's engine file), and ``init --overwrite``
moves the existing ones aside beside them first (``aside_name``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.privacy.gm_files import BACKUPS_FOLDER, gm_only_files, gm_only_folders
from sheets_gm.sheets.layout import WorkbookLayout
from sheets_gm.sheets.private_files import make_private, private_folder
from sheets_gm.sync.match_tabs import first_tab_layout

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


def aside_name(path: Path, stamp: str) -> Path:
    """Where ``init --overwrite`` moves the workbook ``path`` aside (``stamp``: the time it ran)."""
    return path.with_name(f"{path.stem}.before-init-{stamp}{path.suffix}")


def prepare_local(config: MatchConfig, overwrite: bool, stamp: str, files: dict[Path, str]) -> list[tuple[Path, Path]]:
    """Create the missing workbooks of ``files`` (each with its first tab); with ``overwrite``, move existing
    ones aside first (``init_targets.check_local_targets`` has checked that each is a workbook of this match).
    The GM's own workbooks (the engine's, the judge's) are created 0600 in a folder made 0700 (``gm_files``), and
    every copy moved aside is made 0600. Returns each workbook moved aside with where it now is."""
    from sheets_gm.sheets.local.backend import create_workbook

    private = set(gm_only_files(config))
    for folder in gm_only_folders(config):
        private_folder(folder)
    moved: list[tuple[Path, Path]] = []
    for path, tab in files.items():
        if path.exists() and overwrite:
            backup = aside_name(path, stamp)
            shutil.move(path, backup)
            make_private(backup)
            moved.append((path, backup))
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            create_workbook(path, WorkbookLayout(config.title, (first_tab_layout(tab, f"sheets-gm · {config.title}"),)),
                            private=path in private)
    return moved
