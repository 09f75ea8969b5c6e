"""The GvG ruleset as the rest of sheets-gm sees it."""

from __future__ import annotations

from typing import ClassVar

from sheets_gm.engine.core.ruleset import RulesetTraits, TurnStructure
from sheets_gm.engine.gvg.enums import Action, Role, Skill
from sheets_gm.engine.gvg.settings import GvgSettings


class GvgRuleset:
    """WWM GvG: two teams of five, simultaneous turns, capture the enemy tree."""

    traits: ClassVar[RulesetTraits] = RulesetTraits(
        name="gvg",
        title="WWM GvG guild board game",
        turn_structure=TurnStructure.SIMULTANEOUS,
        teams=2,
        players_per_team=5,
        roles=tuple(r.value for r in Role),
        actions=tuple(a.value for a in Action),
        skills=tuple(s.value for s in Skill),
        settings_type=GvgSettings,
    )
