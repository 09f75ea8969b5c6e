"""A layout sheets-gm owns stays as it laid it when LibreOffice saves a workbook: Calc saves every cell holding a line
break with "wrap text" on, and the next sync must not then size that row for the text wrapped in its narrow column
(a Win or Die status row went 25.6 → 204.8 points, a 4-player Wesnoth Units note 345.6 and its tab 47 pages).

Each match is laid out twice; one copy's workbooks are opened and saved by LibreOffice itself, untouched; the
bots' orders are typed in both and both synced: every row is as tall in the saved copy as in the other.

Skipped where LibreOffice (soffice and python3-uno) is not installed, as ``test_libreoffice_saves`` is.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.sheets.xlsx import openpyxl
from tests.office.office import Office, office_ready
from tests.sheets.practice import practice_copy, type_practice_orders

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not office_ready(), reason="LibreOffice (soffice and python3-uno) is not installed")]

#: LibreOffice keeps a height to its own twips: 64 points come back as 63.75.
SLACK_POINTS = 1.0
#: The height LibreOffice writes for a row of one line it was given no height for.
LIBREOFFICE_ROW_POINTS = 15.0

_FOUR_WESNOTH = """ruleset = "wesnoth"
seats = ["Ann", "Bo", "Cy", "Di"]
roster = "roster.csv"
map = "{maps}/4p_Hamlets.txt"
[sheets]
backend = "local"
board = "board.xlsx"
engine = "gm/engine.xlsx"
orders = {{ Ann = "orders-Ann.xlsx", Bo = "orders-Bo.xlsx", Cy = "orders-Cy.xlsx", Di = "orders-Di.xlsx" }}
"""
_FOUR_ROSTER = "name,seat,team,faction,leader,email\nAnn,Ann,1,Loyalists,,\nBo,Bo,2,Undead,,\nCy,Cy,3,Rebels,,\n" \
               "Di,Di,4,Drakes,,\n"


def _four_wesnoth(folder: Path) -> None:
    maps = Path(__file__).parents[2] / "templates" / "wesnoth" / "maps"
    (folder / "match.toml").write_text(_FOUR_WESNOTH.format(maps=maps), encoding="utf-8")
    (folder / "roster.csv").write_text(_FOUR_ROSTER, encoding="utf-8")
    with contextlib.chdir(folder):
        assert main(["init", "wesnoth", "-c", "match.toml"]) == 0


def _heights(folder: Path) -> dict[str, float]:
    """Every row height the visible tabs of the match's public and players' workbooks set, by ``file · tab · row``."""
    out: dict[str, float] = {}
    for path in sorted(folder.glob("*.xlsx")):
        book = openpyxl.load_workbook(path)
        for ws in book.worksheets:
            if ws.sheet_state == "visible":
                out.update({f"{path.name} · {ws.title} · {row}": float(d.height or 0)
                            for row, d in ws.row_dimensions.items() if d.height})
    return out


def _played(folder: Path) -> None:
    """The bots' orders typed and Ready ticked, then a sync: as a table's first evening."""
    config = folder / "match.toml"
    type_practice_orders(config, ready=True, seed="office-layout")
    assert main(["sync", "-c", str(config), "--quiet"]) == 0


@pytest.mark.parametrize("game", ["winordie", pytest.param("wesnoth-4", marks=pytest.mark.soak)])  # one save quick
def test_a_libreoffice_save_leaves_every_row_as_the_layout_made_it(tmp_path: Path, game: str, office: Office) -> None:
    laid, saved = tmp_path / "laid", tmp_path / "saved"
    laid.mkdir()
    if game == "winordie":
        practice_copy(laid, game)  # the practice match made once a run (the printed pages' tests make it too)
    else:
        _four_wesnoth(laid)
    shutil.copytree(laid, saved)
    job: dict[str, list[object]] = {str(path): [] for path in saved.glob("*.xlsx")}  # opened and saved, nothing typed
    (tmp_path / "job.json").write_text(json.dumps(job), encoding="utf-8")
    typed = office.run("lo_type.py", str(tmp_path / "job.json"), str(tmp_path / "lo-profile"))
    assert typed.returncode == 0, typed.stderr
    for folder in (laid, saved):
        _played(folder)
    expected, found = _heights(laid), _heights(saved)
    grown = {row: (expected.get(row), height) for row, height in found.items()
             if height > max(expected.get(row, 0.0), LIBREOFFICE_ROW_POINTS) + SLACK_POINTS}
    assert not grown, grown
