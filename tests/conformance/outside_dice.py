"""Where a game's code drew from Python's shared random generator (``random.random()``, ``random.choice``...), which
is no part of the match's dice: a match that draws from it does not replay, and its scenarios cannot pin it."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from tests.paths import ROOT

__all__ = ["OUTSIDE_DICE", "outside_draws"]

T = TypeVar("T")

OUTSIDE_DICE = ("the rules drew outside the match's dice (Python's random): every roll is the TurnDice's a resolution "
                "is handed (dice.d6(key)...), and a bot draws from the seeded generator it is made with")
_RANDOM_FILE = random.__file__


def outside_draws(run: Callable[[], T]) -> tuple[T, list[str]]:
    """What ``run()`` returned, and where (``module:line``, each once, first first) it drew from Python's shared
    generator: none where the generator's state is as before. Only then is ``run`` watched (a second time), so that a
    game that never draws from it pays nothing."""
    before = random.getstate()
    result = run()
    if random.getstate() == before:
        return result, []
    found: dict[str, None] = {}

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call" and getattr(arg, "__self__", None) is random._inst:
            found.setdefault(_caller(frame), None)

    sys.setprofile(watch)
    try:
        run()
    finally:
        sys.setprofile(None)
    return result, list(found) or ["(not found again: a draw made only on the first run)"]


def _caller(frame: FrameType) -> str:
    """The first frame outside ``random.py``, as ``path:line`` (relative to the checkout where it is inside it)."""
    at: FrameType | None = frame
    while at is not None and at.f_code.co_filename == _RANDOM_FILE:
        at = at.f_back
    if at is None:
        return "?"
    path = Path(at.f_code.co_filename)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return f"{shown}:{at.f_lineno}"
