"""What a game declares it has, for the shared tests that need it: a shared test checks what a game declares and
skips, with a reason, what it does not have (a game's rules need no concession, no map, no secret kept after the
end)."""

from __future__ import annotations

from sheets_gm.engine.ruleset import Ruleset
from sheets_gm.rulesets.registry import create_ruleset

__all__ = ["concedes", "no_concession"]


def concedes(game: str) -> bool:
    """Whether ``game``'s rules take a concession (they write ``Ruleset.concede``: the default refuses every one)."""
    return type(create_ruleset(game)).concede is not Ruleset.concede


def no_concession(game: str) -> str:
    """Why a test of a concession skips ``game``."""
    return f"{game} takes no concession (its rules do not write Ruleset.concede): nothing to concede"
