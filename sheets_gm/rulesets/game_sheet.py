"""The base of a game's sheet adapter: the match's rules, and the layout its game ships.

A game's adapter subclasses ``GameSheet`` (a ``sheets.adapter.SheetAdapter`` that knows its rules) and so finds its
``layout.yaml`` by the game's name, ``traits.name``: the name is spelled once, in the traits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from sheets_gm.engine.ruleset import Ruleset
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.adapter import SheetAdapter
from sheets_gm.sheets.spec import SheetSpec

StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")


@dataclass(frozen=True)
class GameSheet(SheetAdapter[StateT, OrdersT]):
    """A sheet adapter made from a match's rules (the record's ``sheet=MySheet``): its layout is the game's
    ``templates/<name>/layout.yaml``. A subclass is a frozen dataclass already, with ``rules`` its field: it writes
    neither (it may name its own rules' type, ``rules: MyRuleset``, under ``@dataclass(frozen=True)``, to call
    what only its rules have)."""

    rules: Ruleset[StateT, OrdersT, Any]

    @property
    def spec(self) -> SheetSpec:
        """The layout shipped for the game: ``templates/<traits.name>/layout.yaml``."""
        return sheet_spec(self.rules.traits.name)
