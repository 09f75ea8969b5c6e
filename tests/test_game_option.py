"""``pytest --game NAME`` (``scripts/test_game.sh NAME``) runs every shared check for the game NAME: the examples
the quick lists (``tests/quick.py``) leave to the soak run for it run too, whichever games those lists name."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT

WINDOW_BINDING = "tests/conformance/test_window_binding.py"


def _collected(*options: str) -> list[str]:
    """The ids pytest collects from the window-binding tests with ``options`` (the test command's own ``-m``)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-n", "0", "-p", "no:cacheprovider",
                           *options, WINDOW_BINDING], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_a_game_s_command_runs_its_examples_of_the_shared_tests_that_the_quick_lists_leave_to_the_soak() -> None:
    """Champions is the quick game of one of the three window-binding walks: under ``--game champions`` all three
    run for it, and its whole soak walk (marked ``soak`` itself) stays in the soak run."""
    mine = _collected("--game", "champions")
    assert len(mine) == 3 and all(i.endswith("[champions]") for i in mine), mine
    assert not any("soak" in i for i in mine), mine
