"""The test game's rules: the race's."""

from __future__ import annotations

from tests.sync.race_game import RaceRuleset as ToolGameRuleset

__all__ = ["ToolGameRuleset"]
