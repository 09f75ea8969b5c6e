"""A bot's captain: the command skills bought this turn, checked as the engine will check them."""

from __future__ import annotations

from sheets_gm.rulesets.gvg.enums import Skill
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
    next_available_turn,
    skill_active,
)
from sheets_gm.rulesets.gvg.state import GvgState


class Captain:
    """The skills a captain buys this turn, checked as ``check_skills`` will check them."""

    __slots__ = ("coins", "costs", "rules", "shops", "skills", "state", "team")

    def __init__(
        self, rules: GvgRules, state: GvgState, team: int, costs: dict[Skill, int], shops: bool = True
    ) -> None:
        self.rules = rules
        self.state = state
        self.team = team
        self.costs = costs  # settings.cost of every skill
        self.shops = shops  # False: a captain who never buys a skill
        self.coins = state.coins[team]
        self.skills: list[Skill] = []

    def can_buy(self, skill: Skill, keep: int = 0) -> bool:
        """Whether ``skill`` is off cooldown and affordable, keeping ``keep`` coins in hand."""
        return (
            self.shops
            and self.costs[skill] + keep <= self.coins
            and skill not in self.skills
            and next_available_turn(self.state, self.rules.settings, self.team, skill) <= self.state.turn
        )

    def buy(self, skill: Skill, keep: int = 0) -> bool:
        """Buy ``skill`` if ``can_buy``; whether it was bought."""
        if not self.can_buy(skill, keep):
            return False
        self.coins -= self.costs[skill]
        self.skills.append(skill)
        return True

    def on(self, skill: Skill) -> bool:
        """Whether ``skill`` is in effect this turn (bought now, or still running)."""
        return skill in self.skills or skill_active(self.state, self.rules.settings, self.team, skill, self.state.turn)
