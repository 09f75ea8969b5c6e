"""What ``init`` checks of a local match's files before it touches any: every workbook the config names is an
``.xlsx`` file inside the config's folder (unless the GM allows others by name), every one that exists is a
readable workbook, none holds a match (plain ``init``), and ``--overwrite`` moves aside only workbooks of this
match. A refusal names the file and what to do, and nothing has been created or moved when it comes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sheets_gm.match.config import MatchConfig
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.backend import SheetAccessError, SheetError
from sheets_gm.sync.match_tabs import ABOUT_TAB


class InitTargetError(SheetAccessError):
    """A file the config names that ``init`` must not create, move or replace; nothing was touched."""


def outside_folder(config: MatchConfig, files: Mapping[Path, str]) -> list[Path]:
    """The workbooks of ``files`` that are not inside the config's folder once ``..`` and symbolic links are
    followed (an absolute path elsewhere, ``../other/x.xlsx``, a link to a file elsewhere)."""
    home = config.folder.resolve()
    return [path for path in files if not path.resolve().is_relative_to(home)]


def match_tab_names(config: MatchConfig) -> set[str]:
    """Every tab name the match's layout may give a workbook of it (for its game and its seats)."""
    tabs = sheet_spec(config.ruleset).tabs
    names = {tabs.board, tabs.log, tabs.settings, tabs.engine, tabs.judge, tabs.gm, tabs.roster, ABOUT_TAB,
             *tabs.retired}
    for seat in config.seats:
        names |= {tabs.orders.format(seat=seat), tabs.archive.format(seat=seat), tabs.view.format(seat=seat),
                  tabs.copies.format(seat=seat)}
    return names


def _tabs(path: Path) -> list[str]:
    """The tabs of the workbook ``path``; InitTargetError when it is no readable .xlsx workbook."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    if not path.is_file():
        raise InitTargetError(f"{path} exists but is not a file; init never replaces it: name another workbook in "
                              "[sheets]")
    try:
        return LocalWorkbookBackend(path).tab_names()
    except SheetError as exc:
        raise InitTargetError(f"{path} exists and is not a workbook init can use ({exc}); init never moves or "
                              "replaces such a file: name another workbook in [sheets], or move it yourself") from None


def check_local_targets(config: MatchConfig, files: Mapping[Path, str], *, overwrite: bool,
                        anywhere: bool = False) -> list[Path]:
    """Check every workbook of ``files`` (each local workbook of the match) before init creates or moves any;
    the ones that exist. InitTargetError for a name that is not ``.xlsx``, a workbook outside the config's folder
    (unless ``anywhere``: the GM's ``--allow-outside-folder``), a file that exists and is no readable workbook,
    and, with ``overwrite``, a workbook none of whose tabs is one this match lays out (it is not this match's)."""
    for path in files:
        if path.suffix.lower() != ".xlsx":
            raise InitTargetError(f"{config.path}: [sheets] names {path}, which is not an .xlsx workbook: local "
                                  "matches are .xlsx files; nothing was created or moved")
    outside = outside_folder(config, files)
    if outside and not anywhere:
        raise InitTargetError(f"{config.path}: [sheets] names {', '.join(map(str, outside))}, outside the config's "
                              f"folder {config.folder}; nothing was created or moved. Keep the match's workbooks in "
                              "that folder (or below it), or pass --allow-outside-folder if you mean it")
    known = match_tab_names(config)
    existing: list[Path] = []
    for path in files:
        if not path.exists() and not path.is_symlink():
            continue
        tabs = _tabs(path)
        if overwrite and not known & set(tabs):
            raise InitTargetError(f"{path} is not a workbook of this match (its tabs: {', '.join(tabs) or 'none'}): "
                                  "init --overwrite moves aside only the match's own workbooks, so nothing was "
                                  "created or moved. Name another file in [sheets], or move it yourself")
        existing.append(path)
    return existing
