"""One match's fixed part: its board, unit tables and settings, with the lookups every rule uses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.wesnoth.board import WesnothBoard
from sheets_gm.rulesets.wesnoth.routes import CostTable
from sheets_gm.rulesets.wesnoth.settings import AlignmentRule, WesnothSettings
from sheets_gm.rulesets.wesnoth.state import DAY, NIGHT, Unit, WesnothState
from sheets_gm.rulesets.wesnoth.tables import Alignment, UnitTables, UnitType, default_tables
from sheets_gm.rulesets.wesnoth.terrain import Feature


@dataclass(frozen=True)
class WesnothRules:
    """The board, the unit tables and the settings of a match."""

    board: WesnothBoard
    settings: WesnothSettings
    tables: UnitTables = field(default_factory=default_tables)
    # what follows from the fields alone, worked out once per unit type (the bots and the resolution ask for
    # these tens of thousands of times a simulated match)
    _bonuses: dict[tuple[str, str], int] = field(default_factory=dict, init=False, compare=False, repr=False)
    _defences: dict[str, dict[Hex, int]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _move_costs: dict[str, CostTable] = field(default_factory=dict, init=False, compare=False, repr=False)

    def utype(self, unit: Unit) -> UnitType:
        """The unit's type (states only hold types of the tables)."""
        return self.tables.units[unit.type]

    def alignment(self, unit: Unit) -> Alignment:
        """The alignment the unit fights with, by the ``alignment`` setting."""
        return self.tables.board_alignment(self.utype(unit), self.settings.alignment is AlignmentRule.FACTION)

    def time_bonus(self, unit: Unit, time_of_day: str) -> int:
        """What time of day adds to the unit's damage: ± its level for lawful and chaotic units by day and night."""
        key = (unit.type, time_of_day)
        found = self._bonuses.get(key)
        if found is None:
            found = self._bonuses[key] = self._time_bonus(unit, time_of_day)
        return found

    def _time_bonus(self, unit: Unit, time_of_day: str) -> int:
        alignment = self.alignment(unit)
        level = self.utype(unit).level
        if alignment is Alignment.LAWFUL:
            return level if time_of_day in DAY else -level if time_of_day in NIGHT else 0
        if alignment is Alignment.CHAOTIC:
            return level if time_of_day in NIGHT else -level if time_of_day in DAY else 0
        return 0

    def advance_cost(self, level: int) -> int:
        """The gold a unit of ``level`` pays to advance: ``advance_cost`` per level, at least ``advance_min_cost``."""
        return max(self.settings.advance_cost * level, self.settings.advance_min_cost)

    def defence(self, unit: Unit, at: Hex | None = None) -> int:
        """The d6 score needed to hit ``unit`` on its hex (or on ``at``)."""
        return self.defences(unit)[unit.at if at is None else at]

    def defences(self, unit: Unit) -> Mapping[Hex, int]:
        """The d6 score needed to hit a unit of ``unit``'s type on each hex of the board."""
        found = self._defences.get(unit.type)
        if found is None:
            utype, terrain = self.utype(unit), self.board.terrain
            found = self._defences[unit.type] = {h: utype.defence(terrain(h)) for h in self.board.routes.hexes}
        return found

    def move_costs(self, unit: Unit) -> CostTable:
        """What entering each hex of the board costs ``unit`` (terrain only; None where it cannot go)."""
        found = self._move_costs.get(unit.type)
        if found is None:
            found = self._move_costs[unit.type] = self.board.routes.costs(self.utype(unit).move_costs)
        return found

    def team_of(self, state: WesnothState, player: str) -> int:
        """A player's team number (0 for a name that is not a player)."""
        p = state.player(player)
        return p.team if p is not None else 0

    def enemies(self, state: WesnothState, a: str, b: str) -> bool:
        """Whether players ``a`` and ``b`` are on different teams."""
        return self.team_of(state, a) != self.team_of(state, b)

    def keep_owner(self, state: WesnothState, h: Hex) -> str | None:
        """The player (still in the game) whose keep ``h`` is, or None."""
        cell = self.board.cell(h)
        if cell.feature is not Feature.KEEP or not cell.slot:
            return None
        return next((p.name for p in state.players if p.slot == cell.slot and not p.out), None)
