"""Recognising a match on a game's old layout, which every command but ``repair`` leaves as it is.

The check costs no read: it looks at the engine tab's cells a command has read anyway.
"""

from __future__ import annotations

from pathlib import Path

from sheets_gm.rulesets.parts.legacy import LegacyUpgrades, RawCells
from sheets_gm.rulesets.registry import AnyRuleset, get_game
from sheets_gm.sheets.adapter import CONFIG_STAND_IN
from sheets_gm.sheets.backend import SheetError


class OldLayoutError(SheetError):
    """A match on a ruleset's old layout, met by a command that does not move it (only ``repair`` does)."""

    def __init__(self, name: str, config: str | Path = CONFIG_STAND_IN) -> None:
        self.name = name
        super().__init__(f"this match is on the old {name} layout: run `sheets-gm repair -c {config}` to move it "
                         "(nothing was changed)")

    def for_config(self, config: str | Path) -> OldLayoutError:
        """The same message naming the match's config file."""
        return OldLayoutError(self.name, config)


def legacy_of(ruleset_class: type[AnyRuleset]) -> LegacyUpgrades | None:
    """The ``legacy`` part of the game's record, or None when the game has nothing old to read."""
    return get_game(ruleset_class.traits.name).legacy


def refuse_old_layout(ruleset_class: type[AnyRuleset], raw: RawCells, config: str | Path = CONFIG_STAND_IN) -> None:
    """OldLayoutError when the engine tab's cells (from A1) hold an old record."""
    hook = legacy_of(ruleset_class)
    if hook is not None and hook.detect(raw):
        raise OldLayoutError(hook.layout_name, config)
