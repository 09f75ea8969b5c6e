"""The rulesets this build knows, by name."""

from __future__ import annotations

from typing import Any

from sheets_gm.engine.core.ruleset import Ruleset
from sheets_gm.engine.gvg.ruleset import GvgRuleset

RULESETS: dict[str, type[Ruleset[Any, Any, Any]]] = {"gvg": GvgRuleset}


class UnknownRulesetError(ValueError):
    """A ruleset name this build does not know."""


def get_ruleset(name: str) -> type[Ruleset[Any, Any, Any]]:
    """The ruleset called ``name`` (case-insensitive), or a message listing the known ones."""
    found = RULESETS.get(str(name).strip().lower())
    if found is None:
        raise UnknownRulesetError(f"unknown ruleset {name!r}; this build knows: {', '.join(sorted(RULESETS))}")
    return found
