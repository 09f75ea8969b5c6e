"""The tests' own small game: small, known only to the tests, and played through the real sync on a workbook."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from sheets_gm.cli import main
from sheets_gm.rulesets.registry import GAMES, ruleset_names
from tests.toygame.game import toy_registered

HERE = Path(__file__).parent


def test_the_whole_game_is_under_250_lines_of_python_and_yaml() -> None:
    files = [p for p in HERE.rglob("*") if p.suffix in (".py", ".yaml") and not p.name.startswith("test_")]
    lines = sum(1 for p in files for line in p.read_text(encoding="utf-8").splitlines() if line.strip())
    assert 100 < lines < 250, lines


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


def test_a_game_through_init_and_sync_on_workbooks(tmp_path: Path) -> None:
    config = tmp_path / "match.toml"
    config.write_text('ruleset = "tictactoe"\ntitle = "Noughts"\nseats = ["Ann", "Bo"]\n[sheets]\n'
                      'backend = "local"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\n'
                      'orders = { Ann = "Ann.xlsx", Bo = "Bo.xlsx" }\n',
                      encoding="utf-8")
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
