"""The Wesnoth scripts: the faction matrix printed from a simulation's JSON, and the benchmark."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from tests.paths import SCRIPTS


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_matrix_puts_each_matchup_in_its_cell() -> None:
    data = {"variants": [{"win_rate_by": {"matchup": {"Drakes vs Undead": {"rate": 0.75, "total": 8}},
                                          "faction against faction": {
        "Drakes vs Undead": {"rate": 0.75, "total": 8}, "Undead vs Drakes": {"rate": 0.25, "total": 8}}}}]}
    lines = _script("wesnoth_matrix").matrix(data).splitlines()
    assert lines[1].startswith("Drakes") and "75% (8)" in lines[1] and lines[1].split()[1] == "-"
    assert lines[2].startswith("Undead") and "25% (8)" in lines[2]


def test_a_file_without_matchups_is_named() -> None:
    with pytest.raises(ValueError, match="no win rate by matchup"):
        _script("wesnoth_matrix").matrix({"variants": [{"win_rate_by": {}}]})


def test_the_benchmark_prints_player_turns_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script("bench_wesnoth").main(["--matches", "1", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "repeat 1:" in out and "resolved player turns per second" in out
