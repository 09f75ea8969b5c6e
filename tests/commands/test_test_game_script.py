"""``scripts/test_game.sh NAME`` runs every check of a game whatever the one before said, lists each as passed or
FAILED, and exits 1 if any failed (issue 77: it stopped at the first pytest failure, and ruff, mypy and the scenarios
went unreported). Run here on a folder laid out as a checkout, its install a stub and its programs stubs that pass
or fail as each test says."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.paths import ROOT

PROGRAMS = {"the shared tests and the game's own": "python", "the scenarios, as a GM runs them": "sheets-gm",
            "ruff": "ruff", "mypy": "mypy"}


def checkout(tmp: Path, failing: set[str]) -> Path:
    """A folder with the script, a stub install (it sets pytest's workers, as the real one does) and a stub of each
    program in ``.venv/bin``, those of ``failing`` exiting 1."""
    (tmp / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts/test_game.sh", tmp / "scripts/test_game.sh")
    (tmp / "scripts/install.sh").write_text("parallel=(-n 0)\n", encoding="utf-8")
    (tmp / "sheets_gm/rulesets/salvo").mkdir(parents=True)
    (tmp / "tests/scenarios/salvo").mkdir(parents=True)
    (tmp / ".venv/bin").mkdir(parents=True)
    for program in PROGRAMS.values():
        stub = tmp / ".venv/bin" / program
        stub.write_text(f"#!/bin/sh\necho {program} ran\nexit {int(program in failing)}\n", encoding="utf-8")
        stub.chmod(0o755)
    return tmp


@pytest.mark.parametrize("failing", [set(), {"python"}, {"python", "ruff"}, {"mypy"}])
def test_every_check_runs_and_is_reported(tmp_path: Path, failing: set[str]) -> None:
    root = checkout(tmp_path, failing)
    done = subprocess.run(["bash", "scripts/test_game.sh", "salvo"], cwd=root, capture_output=True, text=True,
                          check=False)
    for program in PROGRAMS.values():
        assert f"{program} ran" in done.stdout, done.stdout  # each ran, whatever the one before it said
    summary = done.stdout.split("\nsalvo:\n", 1)[1]
    for check, program in PROGRAMS.items():
        assert f"{'FAILED' if program in failing else 'passed'}  {check}" in summary, summary
    assert done.returncode == (1 if failing else 0), done.stdout
    assert ("a check failed" if failing else "every check of the game passed") in done.stdout


def test_a_name_that_is_no_game_is_refused(tmp_path: Path) -> None:
    root = checkout(tmp_path, set())
    done = subprocess.run(["bash", "scripts/test_game.sh", "nosuch"], cwd=root, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and "there is no sheets_gm/rulesets/nosuch" in done.stderr
