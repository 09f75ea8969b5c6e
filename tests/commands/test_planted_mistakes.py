"""A contributor's run from outside (``scripts/planted_mistakes.py``): a game never seen, written by ``new-game`` into
a copy of the checkout, verified by the shared tests, and then each of five mistakes planted in its own files (an
order carried out in a window it was not typed for, a short order leaked to another seat, a window's unresolved
orders kept in the state, for a bot to see or out of its sight, Python's random for the dice) found by the shared
checks for its own reason: the script counts a mistake found only where the check's failure says the words of that
reason, so a planted engine that fails for another (one that does not import) is reported. A few minutes: soak."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.paths import ROOT


@pytest.mark.soak
def test_the_shared_checks_find_each_mistake_planted_in_a_new_game(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("planted_mistakes", ROOT / "scripts/planted_mistakes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
        code = module.main(["--name", "sealedbid"])
    finally:
        del sys.modules[spec.name]
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(": FOUND by") == 5 and "NOT FOUND" not in out and "ANOTHER REASON" not in out, out
