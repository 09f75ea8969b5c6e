"""Copies of a local match's workbooks, kept before ``repair`` rewrites their layout.

Each repair keeps its copies together in one folder of the match's ``backups/`` folder (beside the config),
named after the config, the time and the command: ``backups/match-20261126-025900-repair/``, holding each
workbook under its path in the match (``board.xlsx``, ``gm/engine.xlsx``, ``orders-Ann.xlsx``). Only the last
``REPAIRS_KEPT`` repairs' folders of the config stay: an older one is removed when a repair keeps a new one. The
folders and copies are the GM's alone (a copy of the engine holds the seed; of an orders file, orders as typed).

A local match's missing workbooks are made here too (``init``'s, each by its first save, laid out and drawn; a repair's
engine file), and ``init --overwrite`` moves the existing ones aside beside them first (``aside_name``).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.privacy.gm_files import BACKUPS_FOLDER, gm_only_files, gm_only_folders
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import WorkbookLayout
from sheets_gm.sheets.private_files import make_private, private_folder
from sheets_gm.sync.match_tabs import first_tab_layout

if TYPE_CHECKING:
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

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


@dataclass(frozen=True)
class NewWorkbook:
    """A workbook ``init`` makes: where, its first tab's layout, and whether it is the GM's own (made 0600)."""

    path: Path
    layout: WorkbookLayout
    private: bool


def prepare_local(config: MatchConfig, overwrite: bool, stamp: str,
                  files: dict[Path, str]) -> tuple[list[tuple[Path, Path]], list[NewWorkbook]]:
    """Make ready the missing workbooks of ``files`` (each with its first tab: ``start_new_workbooks`` makes them);
    with ``overwrite``, move existing ones aside first (``init_targets.check_local_targets`` has checked that each
    is a workbook of this match). The GM's own workbooks (the engine's, the judge's) are to be made 0600 in a folder
    made 0700 (``gm_files``), and every copy moved aside is made 0600. Returns each workbook moved aside with where
    it now is, and each workbook to make."""
    private = set(gm_only_files(config))
    for folder in gm_only_folders(config):
        private_folder(folder)
    moved: list[tuple[Path, Path]] = []
    new: list[NewWorkbook] = []
    for path, tab in files.items():
        if path.exists() and overwrite:
            backup = aside_name(path, stamp)
            shutil.move(path, backup)
            make_private(backup)
            moved.append((path, backup))
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            new.append(NewWorkbook(path, WorkbookLayout(config.title, (first_tab_layout(
                tab, f"sheets-gm · {config.title}"),)), private=path in private))
    return moved, new


def start_new_workbooks(new: Sequence[NewWorkbook], backends: Sequence[SheetBackend]) -> list[LocalWorkbookBackend]:
    """Each workbook of ``new`` made in memory by the local backend of its file among ``backends``, its file made
    at its first save (a new match's workbook is saved once, laid out and drawn: ``start_new``), or made as a file
    now where there is none; the backends that hold one in memory."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend, create_workbook  # openpyxl, at need

    local = {b.path: b for b in backends if isinstance(b, LocalWorkbookBackend)}
    started: list[LocalWorkbookBackend] = []
    for book in new:
        backend = local.get(book.path)
        if backend is None:
            create_workbook(book.path, book.layout, private=book.private)
        else:
            backend.start_new(book.layout, private=book.private)
            started.append(backend)
    return started
