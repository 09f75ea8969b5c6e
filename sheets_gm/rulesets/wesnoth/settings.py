"""The Wesnoth house rules: every reading of the rulings a GM may want otherwise, with its default."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sheets_gm.rulesets import kit


class AlignmentRule(StrEnum):
    """Where a unit's alignment comes from."""

    FACTION = "faction"  # the rulebook's: its first faction's, in the rulebook's order
    UNIT = "unit"  # the unit's own Wesnoth alignment


class ResolveMode(StrEnum):
    """When a player's order rows resolve."""

    STEP = "step"  # each row at the first sync after its Go box is ticked
    BATCH = "batch"  # all rows together at End turn or the deadline


@dataclass(frozen=True, slots=True)
class WesnothSettings:
    """The settings of one Wesnoth match. Defaults follow the rulebook and rulings/wesnoth.md."""

    alignment: AlignmentRule = kit.setting(
        AlignmentRule.FACTION, "'faction': Loyalists and Drakes lawful, Knalgans and Rebels neutral, Northerners "
        "and Undead chaotic (a unit takes its first faction's); 'unit': each unit's own Wesnoth alignment.")
    resolve: ResolveMode = kit.setting(
        ResolveMode.STEP, "'step': each order row resolves once its Go box is ticked; 'batch': all rows at End "
        "turn or the deadline (the orders tab then has no Go column).")
    leader_on_keep: bool = kit.setting(False, "Whether the leader must stand on its keep to recruit.")
    start_gold: int = kit.setting(15, "Gold each player starts with.", minimum=0)
    faction_cost: int = kit.setting(3, "Gold to recruit a unit of the player's own faction.", minimum=0)
    mercenary_cost: int = kit.setting(4, "Gold to recruit a mercenary (a level-0 or -1 recruit of another faction).",
                                      minimum=0)
    village_gold: int = kit.setting(1, "Gold for landing on a village the player's team does not own.", minimum=0)
    income_gold: int = kit.setting(1, "Gold at each dawn and dusk for the player(s) with the most villages.", minimum=0)
    reroll_cost: int = kit.setting(1, "Gold to reroll a whole attack (once per attack).", minimum=0)
    advance_cost: int = kit.setting(4, "Gold per level of a unit to advance it after a final blow.", minimum=0)
    advance_min_cost: int = kit.setting(
        0, "The least an advancement costs, whatever the unit's level: 0 leaves the rulebook's gold per level "
        "alone (a level-0 unit advances for free); 4 makes a level-0 unit pay what a level-1 unit pays.", minimum=0)
    kill_gold: int = kit.setting(1, "Gold per level of a unit killed, for the player who dealt the final blow.",
                                 minimum=0)
    max_rounds: int = kit.setting(60, "The last round; a match still going after it is a draw.", minimum=1,
                                  maximum=999)
    units: str = kit.setting(
        "", "The folder of the unit and faction tables (units.csv, factions.csv) that `sheets-gm wesnoth import-units` "
        "wrote for another era or add-on; 'none': the shipped Default era.", path=True)
