"""Every scenario file under tests/scenarios/ is one test: the rules, as data."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.scenario.runner import run_file, scenario_files
from tests.paths import SCENARIOS

FILES = sorted(scenario_files([SCENARIOS]))


def test_there_are_scenarios_for_every_rule() -> None:
    assert len(FILES) >= 60


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.relative_to(SCENARIOS).parts[0]}/{p.stem}")
def test_scenario(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.passed, f"{outcome.name}: " + "; ".join(outcome.differences)
