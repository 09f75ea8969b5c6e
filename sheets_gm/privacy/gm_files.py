"""Which files and folders of a match on this computer are the GM's alone, and which of them others can read.

The GM's alone: the engine's workbook, the judge's (when no player opens that file) and a bot's seat's, the folder
holding them
when it holds no file a player opens (``gm/``), every copy kept beside a workbook before a repair or an
``init --overwrite``, ``.sheets-gm/`` and what is in it (kept reads, poll state, the OAuth sign-in), the Google
key or client file the config names, and the export folder. They are created private
(``sheets.private_files``); ``doctor`` warns of any that others can read, with the ``chmod`` that mends it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.sheets.private_files import exposed_mode

#: What the copies kept beside a workbook are called: ``<stem>.before-init-<time>.xlsx`` (and, by a repair of an
#: earlier version, ``…before-repair-…``; a repair now keeps its copies in ``backups/``).
BACKUP_MARKS = ("before-repair-", "before-init-")
#: The folder beside the config where each repair keeps its copies (``upkeep.backups``).
BACKUPS_FOLDER = "backups"


def _player_files(config: MatchConfig) -> set[Path]:
    """The local workbooks some player opens: the board and the orders of every seat a person plays (a seat a bot
    plays is typed by the sync alone: a practice match keeps it under gm/, and it is the GM's)."""
    people = [where for seat, where in zip(config.seats, config.orders, strict=True)
              if config.bots.get(seat, "none").lower() in ("", "none")]
    return {config.local_path(where).resolve() for where in (config.board, *people)}


def _bot_files(config: MatchConfig) -> list[str]:
    """The orders workbooks of the seats a bot plays."""
    return [where for seat, where in zip(config.seats, config.orders, strict=True)
            if config.bots.get(seat, "none").lower() not in ("", "none")]


def gm_only_files(config: MatchConfig) -> list[Path]:
    """The local workbooks no player opens: the engine's, the judge's file when it has one of its own, and the
    orders of a seat a bot plays when no person's file is the same."""
    if config.backend is not BackendKind.LOCAL:
        return []
    players = _player_files(config)
    wanted = [config.engine, *([config.judge] if config.judge else []), *_bot_files(config)]
    out: list[Path] = []
    for where in wanted:
        path = config.local_path(where)
        if path.resolve() not in players and path not in out:
            out.append(path)
    return out


def gm_only_folders(config: MatchConfig) -> list[Path]:
    """The folders of ``gm_only_files`` that hold no file a player opens and are not the config's own folder (whose
    board the players open): ``gm/`` of the starter layout."""
    players = {path.parent for path in _player_files(config)}
    home = config.folder.resolve()
    out: list[Path] = []
    for path in gm_only_files(config):
        folder = path.parent
        if folder.resolve() not in players and folder.resolve() != home and folder not in out:
            out.append(folder)
    return out


def backups_of(path: Path) -> list[Path]:
    """The copies kept beside the workbook ``path`` before a repair or an ``init --overwrite``."""
    if not path.parent.is_dir():
        return []
    return sorted(p for p in path.parent.glob(f"{path.stem}.before-*{path.suffix}")
                  if any(mark in p.name for mark in BACKUP_MARKS))


def secret_paths(config: MatchConfig, export: Path | None = None) -> list[Path]:
    """Every file and folder of the match that only the GM's account should read, as far as they exist: the
    GM-only workbooks and folders, the copies of every workbook, ``.sheets-gm/`` and its files, the key or
    client file and the sign-in, and the export folder (default ``export`` beside the config) with its files."""
    paths: list[Path] = [*gm_only_folders(config), *gm_only_files(config)]
    if config.backend is BackendKind.LOCAL:
        for where in dict.fromkeys((config.board, config.engine, *config.orders,
                                    *([config.judge] if config.judge else []))):
            paths += backups_of(config.local_path(where))
        backups = config.folder / BACKUPS_FOLDER  # each repair's folder of copies (``upkeep.backups``)
        if backups.is_dir():
            paths += [backups, *sorted(backups.rglob("*"))]
    state = config.state_dir
    if state.is_dir():
        paths += [state, *sorted(p for p in state.iterdir() if p.is_file())]
    paths += [p for p in (config.service_account, config.oauth_client, config.oauth_token, config.oauth_drive_token)
              if p is not None]
    folder = export or config.folder / "export"
    if folder.is_dir():
        paths += [folder, *sorted(p for p in folder.iterdir() if p.is_file())]
    return [p for p in dict.fromkeys(paths) if p.exists()]


def exposed(config: MatchConfig) -> list[tuple[Path, str]]:
    """Each of the match's secret files and folders that an account other than the GM's may read, with its mode
    as ``ls -l`` shows it."""
    return [(path, mode) for path in secret_paths(config) if (mode := exposed_mode(path))]


def chmod_fix(found: list[tuple[Path, str]]) -> str:
    """The commands that make ``found`` the GM's alone: ``chmod 700`` the folders, ``chmod 600`` the files."""
    folders = [shlex.quote(str(p)) for p, _ in found if p.is_dir()]
    files = [shlex.quote(str(p)) for p, _ in found if not p.is_dir()]
    commands = [f"chmod 700 {' '.join(folders)}"] * bool(folders) + [f"chmod 600 {' '.join(files)}"] * bool(files)
    return "; ".join(commands)
