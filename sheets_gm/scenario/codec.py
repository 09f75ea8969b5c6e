"""What a ruleset gives the scenario runner: its own keys, and a reader of its shapes.

The runner (``scenario.runner``) reads the parts every scenario shares (``name``,
``ruleset``, ``settings``, ``expect.log_contains``) once; a ruleset's codec reads the rest
(who plays, the board, ``given``, ``turns``, the rest of ``expect``) in its own shapes,
described in ``docs/scenarios.md``, with every error naming the file and line, into a
``scenario.play.Scenario`` that the one loop in ``scenario.play`` resolves.
"""

from __future__ import annotations

from typing import Any, Protocol

from sheets_gm.scenario.fields import Fields
from sheets_gm.scenario.play import Scenario
from sheets_gm.yamlio import LinedDict

#: Keys every scenario file may have, whatever its ruleset.
COMMON_KEYS = ("name", "ruleset", "settings", "given", "turns", "expect")


class ScenarioCodec(Protocol):
    """A ruleset's reader of scenario files."""

    @property
    def keys(self) -> tuple[str, ...]:
        """Every top-level key its files may have, common ones included, in the order to list them."""
        ...

    def load(self, doc: LinedDict, fields: Fields, settings: Any) -> Scenario[Any, Any]:
        """The file read: the engine rules, the given state, the entries of ``turns`` and how to compare
        ``expect`` (all but ``log_contains``, which the runner checks); ScenarioError naming the line
        for a malformed file."""
        ...
