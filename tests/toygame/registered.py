"""The toy game registered for the time of a ``with``: only the tests know it (no line in the registry)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sheets_gm.rulesets import registry


@contextmanager
def toy_registered() -> Iterator[None]:
    """The game registered under ``tictactoe`` for the time of a ``with``: only the tests know it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.GAMES, "tictactoe", "tests.toygame.game:GAME")
        patch.setitem(registry.TEMPLATE_FOLDERS, "tictactoe", Path(__file__).parent / "template")
        yield
