"""Each GM command loads and saves each local workbook of the match at most once (issue 95, item 7): a save (openpyxl's
writer, then an atomic replace with fsync) and a load each cost tens of milliseconds, and the tests run these
commands thousands of times. Counted as ``scripts/count_match_io.py`` counts them (the local backend's ``_load`` and
``_save``), which prints the table of every command of every game."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from tests.matchfiles import played_match
from tests.paths import SCRIPTS
from tests.quick import soak_but


def _counted_io() -> Any:
    """``count_match_io.counted_io``: a context counting each load and save of a local workbook by path."""
    spec = importlib.util.spec_from_file_location("count_match_io", SCRIPTS / "count_match_io.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.counted_io()


def _by_file(counts: Counter[tuple[str, str]], kind: str, folder: Path) -> dict[str, int]:
    return {str(Path(path).relative_to(folder)): n for (k, path), n in counts.items() if k == kind}


#: The workbooks each game's practice match is made of: a board, the engine, the learner's orders beside the config
#: and the bots' under gm/ (a file each seat), the judge's where the game has one.
PRACTICE_BOOKS = {
    "gvg": 4,
    "wesnoth": 4,
    "coalition": 5,
    "champions": 4,
    "winordie": 4,
}


@pytest.mark.parametrize("game", soak_but(sorted(PRACTICE_BOOKS), "gvg"))
def test_init_makes_each_workbook_in_one_save_and_loads_none(game: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A practice match's init, every game: each workbook made by one save, every tab laid out and drawn (not one
    save with its first tab and another laid out, nor one a tab), and none loaded (what it read of them was made in
    memory)."""
    with _counted_io() as counts:
        assert main(["init", game, "--practice", "-c", str(tmp_path / "match.toml")]) == 0, capsys.readouterr()
    made = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.xlsx")}
    assert {"board.xlsx", "gm/engine.xlsx"} <= made and len(made) == PRACTICE_BOOKS[game]
    assert _by_file(counts, "save", tmp_path) == dict.fromkeys(made, 1)
    assert _by_file(counts, "load", tmp_path) == {}


def test_repair_loads_and_saves_each_workbook_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A repair of a match one turn in, each team's orders in a workbook of its own: every workbook loaded once and
    saved once, laid out and drawn (the orders workbooks were saved twice, laid out then drawn)."""
    config, _sheets = played_match(tmp_path, 1, private=True)
    with _counted_io() as counts:
        assert main(["repair", "-c", str(config)]) == 0, capsys.readouterr()
    books = {"match.xlsx", "gm/engine.xlsx", "red.xlsx", "blue.xlsx"}
    assert _by_file(counts, "save", tmp_path) == dict.fromkeys(books, 1)
    assert _by_file(counts, "load", tmp_path) == dict.fromkeys(books, 1)
