"""Players' cells and names (issue 43 item 6): a cell longer than a workbook cell holds is left as typed (never
cut to 32,767 characters on its way back) and its row's feedback says why it is not read; a date (or any other
non-tick) in a Ready cell is answered, not ignored; roster and seat names holding a line break, a direction mark or
an invisible character are refused, naming it."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import ConfigError, load_config
from sheets_gm.match.seat_roster import SeatRosterError, parse_seat_roster
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.local.cells import MAX_CELL_CHARS
from tests.at_rest.starter import starter_match

pytestmark = pytest.mark.xdist_group("starter")  # one worker runs these: it makes each game's starter_match once a run


def type_raw(path: Path, tab: str, cell: str, value: object) -> None:
    """Type ``value`` into a cell as LibreOffice would save it: text past openpyxl's 32,767-character cut kept."""
    book = openpyxl.load_workbook(path)
    target = book[tab][cell]
    if isinstance(value, str):
        target._value, target.data_type = value, "s"  # the setter would cut it; a player's office program does not
    else:
        target.value = value
    book.save(path)


def cell(path: Path, tab: str, at: str) -> object:
    return openpyxl.load_workbook(path)[tab][at].value


def test_a_long_cell_is_left_as_typed_and_its_feedback_says_what_is_read(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, "gvg")
    red = config.local_path(config.orders[0])
    long = "F7 " + "x" * 49_997
    type_raw(red, "Orders red", "D5", long)
    capsys.readouterr()
    assert main(["sync", "-c", str(config.path)]) in (0, 1)
    out = capsys.readouterr().out
    assert cell(red, "Orders red", "D5") == long  # not cut to 32,767 on the way back
    feedback = str(cell(red, "Orders red", "L5"))
    assert "holds 50,000 characters: a cell is read up to 16,000" in feedback  # said in the feedback
    assert "red · red1: The cell under “Destination” holds 50,000 characters" in out
    assert main(["resolve", "-c", str(config.path), "--force", "--window", "1"]) == 0
    assert cell(red, "Orders red", "D5") == long  # refused, kept as typed through the resolution too


def test_the_workbook_never_cuts_a_cell_rewritten_with_what_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "w.xlsx"
    openpyxl.Workbook().save(path)
    long = "y" * 50_000
    type_raw(path, "Sheet", "A1", long)
    backend = LocalWorkbookBackend(path)
    backend.write([RangeWrite("Sheet!A1:B1", [[long, "z" * 40_000]])])
    assert cell(path, "Sheet", "A1") == long  # as typed
    assert len(str(cell(path, "Sheet", "B1"))) == MAX_CELL_CHARS  # new text still fits Excel's cell


def test_a_date_in_a_ready_cell_is_answered_and_not_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, "gvg")
    red, blue = (config.local_path(w) for w in config.orders)
    assert cell(red, "Orders red", "K19") == "Ready"
    type_raw(red, "Orders red", "K20", dt.datetime(2026, 11, 25))
    type_raw(blue, "Orders blue", "K20", True)
    capsys.readouterr()
    assert main(["sync", "-c", str(config.path)]) in (0, 1)
    out = capsys.readouterr().out
    assert "waiting for red" in out  # blue is ready, red's date is no tick: nothing resolves
    feedback = str(cell(red, "Orders red", "L20"))
    assert "✘ the Ready cell holds '2026-11-25T00:00:00', which is not a tick: your orders are not marked ready" \
        in feedback
    type_raw(red, "Orders red", "K20", "no")  # an untick in words is no mistake
    main(["sync", "-c", str(config.path)])
    assert "not a tick" not in str(cell(red, "Orders red", "L20"))
    capsys.readouterr()


@pytest.mark.parametrize(("name", "named"), [
    ("Ann\nBo", "U+000A LINE FEED"), ("Ann\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("A\u200bnn", "U+200B ZERO WIDTH SPACE"), ("\u200fBo", "U+200F RIGHT-TO-LEFT MARK"),
    ("Ann\u2028Bo", "U+2028 LINE SEPARATOR"), ("Ann\u00ad", "U+00AD SOFT HYPHEN"),
])
def test_a_name_with_a_line_break_or_an_invisible_mark_is_refused_naming_the_rule(name: str, named: str,
                                                                                   tmp_path: Path) -> None:
    rows = [["name", "team"], [name, "red"], ["Cy", "blue"]]
    with pytest.raises(SeatRosterError) as err:
        parse_seat_roster(rows, ("red", "blue"), where="roster.csv", seat_word="team")
    assert f"roster.csv line 2: the name {name!r} is refused: it holds {named}" in str(err.value)
    assert "no line break, tab, direction mark or invisible character" in str(err.value)
    with pytest.raises(SeatRosterError, match="the team 'red\\\\u202e' is refused"):
        parse_seat_roster([["name", "team"], ["Ann", "red\u202e"]], ("red", "blue"), where="roster.csv",
                          seat_word="team")
    path = tmp_path / "match.toml"
    path.write_text(f'ruleset = "wesnoth"\nseats = ["Ann", {json.dumps(name)}]\n[sheets]\nboard = "b.xlsx"\n',
                    encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(f"seats: the name {name!r} is refused: it holds {named}")):
        load_config(path)


def test_init_refuses_a_roster_name_with_a_direction_mark_before_creating_anything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path / "first", "gvg")
    roster = (tmp_path / "first" / "roster.csv").read_text(encoding="utf-8").replace("red2", "red1\u202e", 1)
    folder = tmp_path / "second"
    folder.mkdir()
    (folder / "roster.csv").write_text(roster, encoding="utf-8")
    (folder / "match.toml").write_text(config.path.read_text(encoding="utf-8"), encoding="utf-8")
    capsys.readouterr()
    assert main(["init", "gvg", "-c", str(folder / "match.toml")]) == 1
    assert "is refused: it holds U+202E RIGHT-TO-LEFT OVERRIDE" in capsys.readouterr().err
    assert sorted(p.name for p in folder.iterdir()) == ["match.toml", "roster.csv"]
