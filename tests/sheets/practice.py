"""A practice match laid out by ``init GAME --practice`` in a folder, as a GM starts one from it."""

from __future__ import annotations

import contextlib
from pathlib import Path

from sheets_gm.cli import main
from tests.made import made_into


def init_practice(folder: Path, game: str) -> Path:
    """Lay out a practice match of ``game`` in ``folder`` (``init`` works in the folder it is started from); its
    board workbook."""
    with contextlib.chdir(folder):
        assert main(["init", game, "--practice"]) == 0
    return folder / "board.xlsx"


def practice_copy(folder: Path, game: str) -> Path:
    """``folder`` given a copy of the practice match of ``game`` that ``init_practice`` laid out once this process
    (``made_into``): for a test that reads or prints the match, not one that checks what ``init`` does; its board
    workbook."""
    made_into(folder, ("practice", game), lambda fresh: init_practice(fresh, game))
    return folder / "board.xlsx"
