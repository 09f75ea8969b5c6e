"""Issue 54: each game's public tabs as LibreOffice prints them, counted in PDF pages (``scripts/render_tabs.py``,
the script anyone can run to look at them): a board on one page where it fits one, a Wesnoth map and a Coalition
plane over a few pages across, never the 40 pages a Coalition board once took. Needs LibreOffice and poppler;
slow (a LibreOffice start per game), so under the soak marker: ``pytest -m soak tests/sheets/test_printed_pages.py``."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import SCRIPTS
from tests.sheets.practice import init_practice

pytestmark = [pytest.mark.soak,
              pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftoppm") is None,
                                 reason="needs LibreOffice (soffice) and poppler (pdftoppm)")]

#: The most pages each public tab may print to, by game (a tab not named: no bound checked).
MOST_PAGES = {
    "gvg": {"Board": 1},
    "champions": {"Board": 1},
    "winordie": {"Board": 1, "Cards": 1},
    "wesnoth": {"Board": 6},
    "coalition": {"Dominaria": 3, "Phyrexia": 3, "Mirrodin": 3, "Turn report": 2},
}


@pytest.mark.parametrize("game", sorted(MOST_PAGES))
def test_each_board_tab_prints_on_the_pages_it_should(game: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    board = init_practice(tmp_path, game)
    capsys.readouterr()
    done = subprocess.run([sys.executable, str(SCRIPTS / "render_tabs.py"), str(board),
                           "--tabs", ",".join(MOST_PAGES[game]), "--max-pages", "1"],
                          capture_output=True, text=True, check=True)
    pages = {m.group(1): int(m.group(2)) for m in re.finditer(r"^board\.xlsx · (.+?): (\d+) pages?", done.stdout, re.M)}
    assert set(pages) == set(MOST_PAGES[game]), done.stdout
    too_many = {tab: n for tab, n in pages.items() if n > MOST_PAGES[game][tab]}
    assert not too_many, done.stdout
    assert list(tmp_path.glob("render/*.png"))
