"""The interface every ruleset implements, and the traits it declares.

Like OpenSpiel's ``_GAME_TYPE``, a ruleset states up front how its turns work, how many
teams play and which settings it has, so the sync, the sheets and the conformance tests
can treat every ruleset alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol


class TurnStructure(StrEnum):
    """Whether everyone's orders resolve together or one side after another."""

    SIMULTANEOUS = "simultaneous"
    SEQUENTIAL = "sequential"


@dataclass(frozen=True, slots=True)
class RulesetTraits:
    """What a ruleset declares about itself."""

    name: str
    title: str
    turn_structure: TurnStructure
    teams: int
    players_per_team: int
    roles: tuple[str, ...]
    actions: tuple[str, ...]
    skills: tuple[str, ...]
    settings_type: type[Any]


class Ruleset(Protocol):
    """A game's rules: its traits plus pure functions over its own state and order types."""

    traits: ClassVar[RulesetTraits]
