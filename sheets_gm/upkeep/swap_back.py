"""``repair``'s first step when workbooks were swapped (``sync.swaps``): local files are put back in their places,
each with its seat's tabs and typed rows; on Google, or when the files are not a plain swap, nothing is moved and
the refusal names what to write in the config instead."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.privacy.secrets import place
from sheets_gm.rulesets.registry import get_ruleset, sheet_spec
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sync.command_journal import note_command
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.swaps import Misplaced, SwappedWorkbooksError, describe_misplaced, find_misplaced, moves_back


def _config_fix(config: MatchConfig, sheets: MatchSheets, found: list[Misplaced]) -> str:
    """The ``[sheets]`` lines that name each seat's spreadsheet as it now is: ``red = "KEY"`` for every seat whose
    tabs are in another seat's spreadsheet."""
    where = {id(sheets.of(seat)): entry for seat, entry in zip(config.seats, config.orders, strict=True)}
    lines = [f'{m.seat} = "{where[id(m.holder)]}"' for m in found if m.seat in config.seats and id(m.holder) in where]
    return (f"write {', '.join(lines)} in orders = {{ … }} under [sheets] in {config.path}" if lines else
            f"put each seat's tabs back in its own spreadsheet ({', '.join(place(config, w) for w in config.orders)})")


def _path(backend: SheetBackend) -> Path:
    path = getattr(backend, "path", None)
    assert isinstance(path, Path), backend
    return path


def put_back_swapped(config: MatchConfig, sheets: MatchSheets,
                     journal: Path | None = None) -> tuple[MatchSheets, list[str]]:
    """The match's spreadsheets with swapped local workbooks moved back into their places, and a line for each
    move; SwappedWorkbooksError (nothing moved) on Google, or when the files are not a plain swap. ``journal``: the
    repair's command journal, which keeps every move before the first (``finish_swaps`` completes them)."""
    tabs = MatchTabs(sheet_spec(config.ruleset), sheets.seats, get_ruleset(config.ruleset).traits.judge)
    found = find_misplaced(sheets, tabs)
    if not found:
        return sheets, []
    moves = moves_back(sheets, tabs, found)
    said = describe_misplaced(found)
    if config.backend is not BackendKind.LOCAL:
        fix = _config_fix(config, sheets, found)
        raise SwappedWorkbooksError(f"the spreadsheets were swapped: {said}. Each is shared with the players of the "
                                    f"seat whose tabs it holds, so repair moves nothing: {fix}, then run repair again")
    if not moves:
        holders = ", ".join(dict.fromkeys(m.holder.name for m in found))
        raise SwappedWorkbooksError(f"{said}: that is not a plain swap of files, so repair moves nothing (a file "
                                    "holds its own seat's tabs too, or the tabs of several seats' files). Take "
                                    f"{holders} away from the players who open it, then delete those tabs from it "
                                    "once what was typed there is in the right file (or put each file back from a "
                                    "copy you trust), and run repair again")
    token = secrets.token_hex(4)
    lines = [f"{holder.name} held the tabs of {', '.join(m.seat for m in found if m.holder is holder)} "
             f"(the workbooks were swapped): moved back to {home.name}" for holder, home in moves]
    plan = [[str(_path(holder)), str(_path(holder).with_name(f".{_path(holder).name}.{token}.swap")), str(_path(home))]
            for holder, home in moves]
    note_command(journal, swaps=plan, swapping="parking", swapped=lines)  # before the first move
    finish_swaps(journal, plan, parking=True)
    return open_match_sheets(config), lines


def finish_swaps(journal: Path | None, plan: list[Any], *, parking: bool) -> None:
    """Make the moves of ``plan`` (``[holder, aside, home]`` paths) that are not made yet: each file parked aside
    (while ``parking``: none was put in its place yet), then each parked file put in its place. Run again after a
    cut, it completes them: the journal says which phase the moves were in."""
    moves = [(Path(str(h)), Path(str(a)), Path(str(t))) for h, a, t in plan]
    if parking:
        for holder, aside, _ in moves:
            if not aside.exists() and holder.exists():
                os.replace(holder, aside)
        note_command(journal, swapping="placing")
    for _, aside, home in moves:
        if aside.exists():
            os.replace(aside, home)
