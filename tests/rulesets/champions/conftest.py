"""Shared helpers of the Champions tests: the shipped rules and small hand-made states."""

from __future__ import annotations

import pytest

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import Phase
from sheets_gm.rulesets.champions.state import ChampionsState, Player
from sheets_gm.rulesets.registry import create_ruleset


@pytest.fixture(scope="module")
def rules() -> ChampionsRuleset:
    """Champions with the default settings and the shipped loot table."""
    found = create_ruleset("champions")
    assert isinstance(found, ChampionsRuleset)
    return found


def state_of(*players: Player, size: int = 2, phase: Phase = Phase.FIGHT,
             pools: dict[str, tuple[str, ...]] | None = None) -> ChampionsState:
    """A state of round 1 with ``players`` on a ``size``×``size`` grid."""
    return ChampionsState(1, phase, size, tuple(players), pools or {})


def at(label: str) -> Coord:
    """A tile."""
    return Coord.parse(label)
