"""A practice match laid out by ``init GAME --practice`` in a folder, as a GM starts one from it."""

from __future__ import annotations

import contextlib
from pathlib import Path

from sheets_gm.cli import main


def init_practice(folder: Path, game: str) -> Path:
    """Lay out a practice match of ``game`` in ``folder`` (``init`` works in the folder it is started from); its
    board workbook."""
    with contextlib.chdir(folder):
        assert main(["init", game, "--practice"]) == 0
    return folder / "board.xlsx"
