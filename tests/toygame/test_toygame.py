"""The tests' own small game: small, known only to the tests, played through the real sync on a workbook, its
scenario files through the real runner, and its GM event through ``sheets-gm adjust``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.cli import main
from sheets_gm.rulesets import registry
from sheets_gm.rulesets.parts.fields import ScenarioError
from sheets_gm.rulesets.registry import GAMES, ruleset_names
from sheets_gm.scenario.runner import run_file
from tests.toygame.game import GAME
from tests.toygame.registered import toy_registered

HERE = Path(__file__).parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.yaml"))


def test_the_whole_game_with_its_codec_and_gm_event_is_under_250_lines_of_python() -> None:
    files = [p for p in HERE.glob("*.py") if not p.name.startswith("test_")]
    lines = sum(1 for p in files for line in p.read_text(encoding="utf-8").splitlines() if line.strip())
    assert 100 < lines < 250, lines
    assert GAME.scenario is not None and GAME.gm is not None and GAME.simulation is not None


def test_only_the_tests_know_it() -> None:
    assert "tictactoe" not in GAMES and "tictactoe" not in ruleset_names()
    with toy_registered():
        assert "tictactoe" in ruleset_names()
    assert "tictactoe" not in ruleset_names()


def _type(path: Path, square: str) -> None:
    """A player types her square and ticks Ready in her own workbook, as in LibreOffice."""
    book = load_workbook(path)
    sheet = next(s for s in book.worksheets if s.title.startswith("Orders"))
    header = next(r for r in sheet.iter_rows() if any(c.value == "Ready" for c in r))
    cols = {c.value: c.column for c in header}
    row = header[0].row + 1
    sheet.cell(row, cols["Square (A1 to C3)"], square)
    sheet.cell(row, cols["Ready"], True)
    book.save(path)


def _board(path: Path) -> list[list[object]]:
    sheet = load_workbook(path)["Board"]
    return [[sheet.cell(r, c).value for c in range(1, 5)] for r in range(1, 5)]


def _match(tmp_path: Path) -> Path:
    config = tmp_path / "match.toml"
    config.write_text('ruleset = "tictactoe"\ntitle = "Noughts"\nseats = ["Ann", "Bo"]\n[sheets]\n'
                      'backend = "local"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\n'
                      'orders = { Ann = "Ann.xlsx", Bo = "Bo.xlsx" }\n',
                      encoding="utf-8")
    return config


def test_a_game_through_init_and_sync_on_workbooks(tmp_path: Path) -> None:
    config = _match(tmp_path)
    with toy_registered():
        assert main(["init", "tictactoe", "-c", str(config)]) == 0
        for player, square in [("Ann", "b2"), ("Bo", "A1"), ("Ann", "A3"), ("Bo", "C1"), ("Ann", "C3"),
                               ("Bo", "B1")]:
            _type(tmp_path / f"{player}.xlsx", square)
            assert main(["sync", "-c", str(config)]) == 0
    assert _board(tmp_path / "board.xlsx")[1:] == [["1", "O", "O", "O"], ["2", None, "X", None],
                                                   ["3", "X", None, "X"]]
    log = [str(c.value) for row in load_workbook(tmp_path / "board.xlsx")["Log"].iter_rows() for c in row]
    assert "Ann marks B2." in log and "Bo wins." in log
    rows = [[c.value for c in row] for row in load_workbook(tmp_path / "board.xlsx")["Log"].iter_rows(min_row=2)]
    assert {row[1] for row in rows if row[2]} >= {"mark", "end"}  # the Kind in words, as new-game's Enum names it


def test_a_template_folder_made_before_the_layout_took_its_name_still_plays(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A contributor's game made by an earlier ``new-game`` (or a folder of ``TEMPLATE_FOLDERS``) has its sheet layout
    as ``sheet.yaml``: it is read under that name, and a folder holding both names is refused, naming both."""
    old = tmp_path / "template"
    shutil.copytree(HERE / "template", old)
    (old / "layout.yaml").rename(old / "sheet.yaml")
    config = _match(tmp_path)
    with toy_registered(), pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.TEMPLATE_FOLDERS, "tictactoe", old)
        assert main(["init", "tictactoe", "-c", str(config)]) == 0
        _type(tmp_path / "Ann.xlsx", "B2")
        assert main(["sync", "-c", str(config)]) == 0
        shutil.copy(HERE / "template" / "layout.yaml", old / "layout.yaml")
        assert main(["sync", "-c", str(config)]) == 1
    assert _board(tmp_path / "board.xlsx")[2] == ["2", None, "X", None]
    said = capsys.readouterr().err
    assert f"{old} holds two sheet layouts, layout.yaml and sheet.yaml (its old name): keep the one you edit" in said


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_its_scenarios_pass_through_the_runner_of_every_game(path: Path) -> None:
    with toy_registered():
        outcome = run_file(path)
    assert outcome.passed, f"{outcome.name}: " + "; ".join(outcome.differences)


def test_the_scenario_command_runs_its_folder(capsys: pytest.CaptureFixture[str]) -> None:
    with toy_registered():
        assert main(["scenario", str(HERE / "scenarios")]) == 0
    assert capsys.readouterr().out.count("pass ") == len(SCENARIOS) >= 2


def _scenario(tmp_path: Path, body: str, players: str = "[Ann, Bo]") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: a test\nruleset: tictactoe\nplayers: {players}\n" + body, encoding="utf-8")
    return path


def test_a_scenario_that_expects_wrongly_fails_with_each_difference(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "turns:\n  - {player: Ann, square: D4}\n"
                               "expect: {marks: {D1: X}, winner: Ann, refused: []}\n")
    with toy_registered(), pytest.raises(ScenarioError, match=r"s.yaml:6: expect.marks: 'D1' is no square"):
        run_file(path)
    path = _scenario(tmp_path, "turns:\n  - {player: Ann, square: D4}\nexpect: {marks: {A1: X}, refused: []}\n")
    with toy_registered():
        outcome = run_file(path)
    assert outcome.differences == ["marks: expected {'A1': 'X'}, got {'A1': None}",
                                   "refused: expected [], got ['Ann']"]


@pytest.mark.parametrize(("body", "message"), [
    ("given: {X: [A1]}\n", "s.yaml:4: unknown key 'given' in the scenario"),
    ("", "s.yaml:3: players: name the two, in the roster's order, e.g. [Ann, Bo]; 1 named"),
    ("turns:\n  - {player: Ann, gm: [B2=Z]}\n", "s.yaml:5: --mark 'B2=Z': write a square A1 to C3"),
    ("turns:\n  - {player: Bo, square: A1}\n", "s.yaml:5: turn 1 is Bo's, but the open window is Ann's"),
    ("turns:\n  - {player: Ann, sqare: A1}\n", "unknown key 'sqare' in turn 1; known keys: player, square, gm"),
])
def test_a_malformed_scenario_names_its_line_and_what_is_accepted(tmp_path: Path, body: str, message: str) -> None:
    path = _scenario(tmp_path, body, "[Ann]" if not body else "[Ann, Bo]")
    with toy_registered(), pytest.raises(ScenarioError, match=re.escape(message)):
        run_file(path)


def test_the_gm_corrects_a_square_with_adjust(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _match(tmp_path)
    with toy_registered():
        assert main(["init", "tictactoe", "-c", str(config)]) == 0
        _type(tmp_path / "Ann.xlsx", "A1")
        assert main(["sync", "-c", str(config)]) == 0
        capsys.readouterr()
        assert main(["adjust", "-c", str(config), "--mark", "A1=none", "--mark", "c1=x", "--reason", "meant C1"]) == 0
        assert main(["adjust", "-c", str(config), "--mark", "A1=Y", "--reason", "x"]) == 1
        assert "--mark 'A1=Y': write a square A1 to C3, '=' and X, O or none" in capsys.readouterr().err
        assert main(["verify", "-c", str(config)]) == 0  # the corrections replay with the turns
    assert _board(tmp_path / "board.xlsx")[1] == ["1", None, None, "X"]
    log = [str(c.value) for row in load_workbook(tmp_path / "board.xlsx")["Log"].iter_rows() for c in row]
    assert "The GM sets A1 to free (meant C1)." in log and "The GM sets C1 to X (meant C1)." in log


def test_a_gm_mark_that_makes_a_line_ends_the_game_and_none_is_taken_after_it() -> None:
    rules = GAME.rules.create(GAME.rules.traits.settings_type(), "3")
    state = rules.new_match(rules.sample_roster(), b"")
    for square in ("A1", "B1"):
        state = rules.apply_gm_event(state, {"square": square, "mark": "O", "reason": "r"}).state
    done = rules.apply_gm_event(state, {"square": "C1", "mark": "O", "reason": "r"})
    assert done.state.over and done.state.winner == "Bo" and [e.text for e in done.events][-1] == "Bo wins."
    assert rules.outcome(done.state) is not None and rules.window(done.state) is None
    with pytest.raises(ValueError, match="the game is over"):
        rules.apply_gm_event(done.state, {"square": "C3", "mark": "X", "reason": "r"})
