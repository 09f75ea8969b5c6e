"""``pytest --game NAME`` (``scripts/test_game.sh NAME``) runs every shared check for the game NAME: the examples
the quick lists (``tests/quick.py``) leave to the soak run for it run too, whichever games those lists name."""

from __future__ import annotations

import gc

import pytest

from tests.paths import ROOT

WINDOW_BINDING = ROOT / "tests/conformance/test_window_binding.py"


def _collected(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *options: str) -> list[str]:
    """The ids pytest collects from the window-binding tests with ``options`` (the test command's own ``-m``): a
    collection in this process (the modules it imports are this process's already; a second process would load them
    all again, a few seconds), the package's ``conftest.py`` and ``pyproject.toml`` as the test command has them."""
    monkeypatch.setattr(gc, "freeze", lambda: None)  # the inner session's start freezes no object of this process
    done = pytester.runpytest_inprocess("--collect-only", "-n", "0", "-p", "no:cacheprovider", "--rootdir",
                                        str(ROOT), "-c", str(ROOT / "pyproject.toml"), *options, str(WINDOW_BINDING))
    assert done.ret == 0, "\n".join(done.outlines[-40:] + done.errlines[-40:])
    return [line for line in done.outlines if "::" in line]


def test_a_game_s_command_runs_its_examples_of_the_shared_tests_that_the_quick_lists_leave_to_the_soak(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Champions is the quick game of one of the three window-binding walks: under ``--game champions`` all three
    run for it, and its whole soak walk (marked ``soak`` itself) stays in the soak run."""
    mine = _collected(pytester, monkeypatch, "--game", "champions")
    assert len(mine) == 3 and all(i.endswith("[champions]") for i in mine), mine
    assert not any("soak" in i for i in mine), mine
