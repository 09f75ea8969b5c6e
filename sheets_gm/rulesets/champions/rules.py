"""The fixed part of one match: its settings and its loot table."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.rulesets.champions.items import LootTable
from sheets_gm.rulesets.champions.settings import ChampionsSettings


@dataclass(frozen=True)
class ChampionsRules:
    """A match's house rules and loot table, which every engine function reads."""

    table: LootTable
    settings: ChampionsSettings
