"""Malformed Champions scenario files: each error names the file, the line and what is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.rulesets.parts.fields import ScenarioError
from sheets_gm.scenario.runner import run_file

GOOD = """name: t
ruleset: champions
given:
  size: 2
  players:
    - {name: Ann, at: A1}
    - {name: Bo, at: B2}
turns:
  - moves: {Ann: stay}
expect:
  winner: null
"""


def run_text(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return run_file(path).differences


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        run_text(tmp_path, text)
    return str(caught.value)


def test_a_good_file_runs(tmp_path: Path) -> None:
    assert run_text(tmp_path, GOOD) == []


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("  size: 2\n", "  size: 2\n  weather: rain\n", ":5: unknown key 'weather' in given"),
    ("  - moves: {Ann: stay}", "  - moves: {Zed: stay}", ":9: order for unknown player 'Zed'"),
    ("{name: Ann, at: A1}", "{name: Ann, at: C3}", ":6: Ann's tile: C3 is off the map (A1 to B2)"),
    ("{name: Ann, at: A1}", "{name: Ann, at: A1, bag: [Excalibur]}", "'Excalibur' is not an item of the loot table"),
    ("{name: Ann, at: A1}", "{name: Ann, at: A1, champions: {paladin: 3}}", "unknown champion 'paladin'"),
    ("{name: Ann, at: A1}", "{name: Ann, at: A1, champions: {mage: 90}}", "Ann's mage health is 90; use 0 to 85"),
    ("  - moves: {Ann: stay}", "  - moves: {Ann: stay}\n    dice: {heal/Ann.healer/1: 0}",
     "pinned die heal/Ann.healer/1 is 0; use 1 to 100"),
    ("  - moves: {Ann: stay}", "  - moves: {Ann: stay}\n    dice: {pool/A1: [Excalibur]}", ""),
])
def test_errors_name_the_line(tmp_path: Path, old: str, new: str, expected: str) -> None:
    text = GOOD.replace(old, new)
    assert text != GOOD
    if expected:
        assert expected in error_of(tmp_path, text)
    else:
        assert run_text(tmp_path, text) == []  # a pin the round never uses is allowed


def test_a_pin_outside_its_die_names_the_line(tmp_path: Path) -> None:
    text = GOOD.replace("at: B2}", "at: A1}").replace(
        "  - moves: {Ann: stay}", "  - moves: {Ann: stay}\n    dice: {base/Ann.gladiator/1/1: 11}")
    assert ":10: turn 1: pinned die 'base/Ann.gladiator/1/1' is 11; a d10 shows 1 to 10" in error_of(tmp_path, text)


def test_an_expectation_that_fails_says_what_differs(tmp_path: Path) -> None:
    text = GOOD.replace("  winner: null", "  players:\n    Ann: {at: B1, bag: [Iron Sword]}\n  size: 3")
    assert run_text(tmp_path, text) == ["players.Ann.at: expected B1, got A1",
                                        "players.Ann.bag: expected ['Iron Sword'], got []", "size: expected 3, got 2"]
