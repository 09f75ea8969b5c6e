"""Which examples of a costly walk the test command runs: the others run under ``-m soak``.

A walk that plays every game (or every layout, every size) costs seconds an example; the test command, which must
stay within its minutes on two cores, runs the one or two named here, and the soak run all of them. Each costly walk
names its own quick game, so that the quick run still plays every game somewhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

__all__ = ["soak_but"]


def soak_but(values: Iterable[Any], *quick: Any) -> list[Any]:
    """``values`` as a parametrize list: the ``quick`` ones as they are (the test command runs them), every other one
    marked ``soak`` (its id unchanged). A tuple value is the arguments of a test with several argument names."""
    return [value if value in quick else
            pytest.param(*(value if isinstance(value, tuple) else (value,)), marks=pytest.mark.soak)
            for value in values]
