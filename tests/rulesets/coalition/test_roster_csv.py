"""A judge's roster CSV lists both sides' armies and the mercenary bands (side ``mercenary``, with the
structure it guards in the ``guards`` column), with each army's player in a ``player`` column; bad values
are refused with the line or row named and what would be accepted."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.seat_roster import SeatRosterError, read_seat_roster
from sheets_gm.rulesets.registry import TEMPLATES

HEADER = "name,side,rank,at,units,factions,primary,guards,player,email\n"
ROWS = ("Urza's Vanguard,coalition,6,Dominaria 4C,5000/2500/1500/1000,white blue,white,,Ann,ann@example.org\n"
        "Yawgmoth's Hand,phyrexia,6,Phyrexia 5E,5000/2500/1500/1000,,,,Bo,\n")
MERCENARY = "Caldera Sellswords,mercenary,2,Dominaria 19D,2000/1000/500/200,,,Shiv Caldera,,\n"
SIDES = ("coalition", "phyrexia")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "armies.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_mercenary_row_is_read_as_no_sides_and_the_player_column_is_the_armys(tmp_path: Path) -> None:
    roster = read_seat_roster(write(tmp_path, HEADER + ROWS + MERCENARY), SIDES, seat_word="side",
                              groups=("mercenary",))
    by_name = {m.name: m for m in roster.members}
    assert by_name["Caldera Sellswords"].seat == "mercenary"
    assert by_name["Caldera Sellswords"].fields["guards"] == "Shiv Caldera"
    assert by_name["Urza's Vanguard"].seat == "coalition" and by_name["Urza's Vanguard"].fields["player"] == "Ann"
    assert by_name["Urza's Vanguard"].email == "ann@example.org"
    assert roster.of("coalition") == (by_name["Urza's Vanguard"],)  # a band is nobody's seat


def test_a_side_that_is_no_side_nor_mercenary_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + ROWS + MERCENARY.replace(",mercenary,", ",merc,"))
    with pytest.raises(SeatRosterError, match=r"line 4: Caldera Sellswords is in 'merc'; the seats are coalition, "
                                              r"phyrexia \(as in the match config\); a row may also say mercenary"):
        read_seat_roster(path, SIDES, seat_word="side", groups=("mercenary",))


def init(tmp_path: Path, capsys: pytest.CaptureFixture[str], roster: str) -> tuple[int, str, str]:
    config = tmp_path / "match.toml"
    shutil.copy(TEMPLATES / "coalition" / "match.toml", config)
    code = main(["init", "coalition", "-c", str(config), "--roster", str(write(tmp_path, roster))])
    out, err = capsys.readouterr()
    return code, out, err


def test_init_places_a_mercenary_band_from_the_roster_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = init(tmp_path, capsys, HEADER + ROWS + MERCENARY)
    assert code == 0, err
    assert "(3 roster lines)" in out
    dominaria = openpyxl.load_workbook(tmp_path / "board.xlsx")["Dominaria"]
    cell = dominaria.cell(row=1 + 4, column=1 + 19).value  # 19D: row D under the column numbers, right of A
    assert "○ Caldera Sellswords (2 · 3700)" in str(cell)


@pytest.mark.parametrize(("row", "message"), [
    (MERCENARY.replace("Shiv Caldera", ""), "row 3 (Caldera Sellswords): guards '': a mercenary band guards a "
                                            "structure of the map, named as on the map (like "),
    (MERCENARY.replace("Shiv Caldera", "Shiv Calderaa"), "guards 'Shiv Calderaa': a mercenary band guards"),
    ("Keldon Horde,coalition,1,Dominaria 7D,,red,red,Shiv Caldera,,\n",
     "row 3 (Keldon Horde): guards 'Shiv Caldera': only a mercenary band (side mercenary) guards a structure; "
     "leave it empty for a coalition army"),
])
def test_a_bad_mercenary_column_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], row: str,
                                         message: str) -> None:
    code, _, err = init(tmp_path, capsys, HEADER + ROWS + row)
    assert code == 1 and message in err, err
    assert not (tmp_path / "board.xlsx").exists()  # refused before anything is written
