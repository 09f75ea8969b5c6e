"""What a ruleset gives the scenario runner: its own keys, and a way to run a loaded file.

The runner (``scenario.runner``) reads the parts every scenario shares (``name``,
``ruleset``, ``settings``, ``expect.log_contains``) once; a ruleset's codec reads the rest
(who plays, the board, ``given``, ``turns``, the rest of ``expect``) in its own shapes,
described in ``docs/scenarios.md``, with every error naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from sheets_gm.engine.events import Event
from sheets_gm.scenario.fields import Fields
from sheets_gm.yamlio import LinedDict

#: Keys every scenario file may have, whatever its ruleset.
COMMON_KEYS = ("name", "ruleset", "settings", "given", "turns", "expect")


@dataclass(slots=True)
class ScenarioRun:
    """What a codec found running a scenario: the log, each unmet expectation, dice pinned in vain."""

    events: list[Event]
    differences: list[str]  # "path: expected X, got Y", in the order of ``expect``
    unused_pins: list[str] = field(default_factory=list)


class ScenarioCodec(Protocol):
    """A ruleset's reader and runner of scenario files."""

    @property
    def keys(self) -> tuple[str, ...]:
        """Every top-level key its files may have, common ones included, in the order to list them."""
        ...

    def run(self, doc: LinedDict, fields: Fields, settings: Any) -> ScenarioRun:
        """Build the given state, resolve the turns with their pinned dice, compare ``expect``
        (all but ``log_contains``, which the runner checks); ScenarioError naming the line for a
        malformed file."""
        ...
