"""What a game package uses of the core, in one import: ``from sheets_gm.rulesets import kit``.

A game written by ``sheets-gm new-game`` reads ``kit.Ruleset``, ``kit.setting``, ``kit.GameSheet``, ``kit.Game``…:
each name is the core's own, from the module that defines it (listed below), so a game may as well import it from
there; the kit spares a small game a dozen import lines that say nothing of its rules. It holds too the few names of
Python's standard library that every game's plain typed data is written with (``kit.dataclass``, ``kit.replace``,
``kit.Mapping``, ``kit.Any``…), the very same objects: a game's module needs no other import for its types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from importlib import import_module
from typing import TYPE_CHECKING, Any

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import CoordError
from sheets_gm.engine.reveals import Reveal
from sheets_gm.engine.ruleset import (
    GM,
    JUDGE,
    BoardKind,
    BotKind,
    GmOption,
    Information,
    Member,
    Outcome,
    Resolution,
    Roster,
    Ruleset,
    RulesetTraits,
    SeatKind,
    TurnStructure,
    Verdict,
    Window,
    split_option,
)
from sheets_gm.engine.settings import setting
from sheets_gm.lined import LinedDict
from sheets_gm.rulesets.game_record import Game, GameCommand, GameCommandError, GmPart, SharedTests, Simulation
from sheets_gm.rulesets.parts.fields import Fields
from sheets_gm.rulesets.parts.figures import FigureKind, FigureSpec, MatchSummary, SimulationSpec
from sheets_gm.rulesets.parts.scenario import Entry, Play, Scenario

if TYPE_CHECKING:
    from sheets_gm.rulesets.game_sheet import GameSheet
    from sheets_gm.sheets.adapter import BoardDrawing, Post, RowOut, SeatInput, SheetAdapter
    from sheets_gm.sheets.layout import CellValue, Fill, Grid, cells
    from sheets_gm.sheets.spec import InputTable, SheetSpec
    from sheets_gm.sheets.tables import CellError, TypedRow, whole_number

#: The sheet's names, each with its module: imported when a game first reads one (``kit.GameSheet`` in its sheet
#: module), not with the kit. They bring the workbook and table libraries (openpyxl, pydantic), which a simulation,
#: its workers and a game's rules never use: a third of a second of ``sheets-gm simulate``'s start.
_SHEET_NAMES = {
    "GameSheet": "sheets_gm.rulesets.game_sheet",
    **dict.fromkeys(("BoardDrawing", "Post", "RowOut", "SeatInput", "SheetAdapter"), "sheets_gm.sheets.adapter"),
    **dict.fromkeys(("CellValue", "Fill", "Grid", "cells"), "sheets_gm.sheets.layout"),
    **dict.fromkeys(("InputTable", "SheetSpec"), "sheets_gm.sheets.spec"),
    **dict.fromkeys(("CellError", "TypedRow", "whole_number"), "sheets_gm.sheets.tables"),
}


def __getattr__(name: str) -> Any:
    """A sheet's name (:data:`_SHEET_NAMES`), imported from its module when first read, then kept in the kit."""
    module = _SHEET_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(import_module(module), name)
    return value

__all__ = [  # the core's names, and the standard library's that a game's data is written with
    "GM", "JUDGE", "Any", "BoardDrawing", "BoardKind", "BotKind", "CellError", "CellValue", "Codec", "CoordError",
    "Entry", "Enum", "Event", "Fields", "FigureKind", "FigureSpec", "Fill", "Game", "GameCommand", "GameCommandError",
    "GameSheet", "GmOption", "GmPart", "Grid", "Information", "InputTable", "LinedDict", "Mapping", "MatchSummary",
    "Member", "Outcome", "Play", "Post", "Resolution", "Reveal", "Roster", "RowOut", "Ruleset", "RulesetTraits",
    "Scenario", "SeatInput", "SeatKind", "Sequence", "SharedTests", "SheetAdapter", "SheetSpec", "Simulation",
    "SimulationSpec", "TurnDice", "TurnStructure", "TypedRow", "Verdict", "Window", "cells", "dataclass", "field",
    "replace", "setting", "split_option", "whole_number",
]
