"""What the conformance tests share: each game's match after its warm-up, made once per test run for the twin tests
(``base``: ``test_noninterference_orders.py``, ``test_orders_bound_to_window.py``), each test copying it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import get_game
from tests.conformance.twin_orders import GAMES, copied_base
from tests.quick import soak_but
from tests.toygame.registered import toy_registered


@pytest.fixture(scope="session", params=soak_but(GAMES, "gvg", "winordie", "tictactoe"))
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each game's match (the toy game's too) after its warm-up, one window at least: a folder a test copies. Its
    tests are of the ``xdist_group`` "conformance-base": one worker makes each game's, once a run."""
    name = str(request.param)
    with toy_registered():
        return copied_base(tmp_path_factory.mktemp(name), name, 0 if get_game(name).tests.warm_up else 1)
