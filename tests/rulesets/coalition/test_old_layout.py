"""A Coalition match created before the tab per plane (one Board tab: the planes with the forum posts
under them) is brought to the new layout by ``sheets-gm repair``: the Board tab deleted, a tab per plane
and the Turn report laid out and drawn, the match and every typed row kept. Until then the sync and
doctor stop and say to run repair, writing nothing."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.rulesets.registry import TEMPLATES, sheet_spec
from sheets_gm.sync.match_tabs import MatchTabs
from tests.at_rest.starter import starter_match

NEW_TABS = ["Dominaria", "Phyrexia", "Mirrodin", "Turn report"]
OLD_ORDERS = "coalition-orders.xlsx"  # the Coalition's workbook as the starter config named it then
OLD_TITLE = "sheets-gm · Coalition–Phyrexia war map"  # the old Board tab's title, right of the planes (column Z)


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def old_layout_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A match whose board workbook is laid out as before: one Board tab, Log, Settings; its config is the
    starter of that time, naming the sides' workbooks coalition-orders.xlsx and phyrexia-orders.xlsx (the
    starter now names them orders-coalition.xlsx as every game does: a config naming its files keeps them)."""
    config = tmp_path / "match.toml"
    starter = (TEMPLATES / "coalition" / "match.toml").read_text(encoding="utf-8")
    old_names = starter.replace('"orders-coalition.xlsx"', '"coalition-orders.xlsx"').replace(
        '"orders-phyrexia.xlsx"', '"phyrexia-orders.xlsx"')
    assert old_names != starter
    config.write_text(old_names, encoding="utf-8")
    code, _, err = run(capsys, "init", "coalition", "-c", config)
    assert code == 0, err
    book = openpyxl.load_workbook(tmp_path / "board.xlsx")
    for name in NEW_TABS:
        del book[name]
    old = book.create_sheet("Board", 0)
    old["A1"], old["B1"], old["Z1"], old["Z2"] = "Dominaria", "1", OLD_TITLE, "Turn 1 · orders"
    old["A12"] = "Forum posts of the turn, ready to paste (select the lines of a post, copy, paste on the forum)"
    book.save(tmp_path / "board.xlsx")
    return config


def type_end_square(tmp_path: Path, square: str) -> str:
    """The Coalition's first army's End square typed; returns the cell."""
    tab = MatchTabs(sheet_spec("coalition"), ("coalition", "phyrexia"), True).orders("coalition")
    cell = tab.table("armies").cell(0, "to")
    book = openpyxl.load_workbook(tmp_path / OLD_ORDERS)
    book["Orders coalition"][cell] = square
    book.save(tmp_path / OLD_ORDERS)
    return cell


def test_repair_brings_an_old_board_tab_to_a_tab_per_plane(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    config = old_layout_match(tmp_path, capsys)
    cell = type_end_square(tmp_path, "4D")
    before = (tmp_path / "board.xlsx").read_bytes()
    code, _, err = run(capsys, "sync", "-c", config)
    assert code == 1 and "no tab named 'Turn report'" in err and "created by an earlier version" in err
    assert "sheets-gm repair" in err and (tmp_path / "board.xlsx").read_bytes() == before  # nothing written
    code, out, _ = run(capsys, "doctor", "-c", config)
    assert code == 1 and "sheets-gm repair -c" in out

    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "tab 'Board' of an earlier layout was deleted from " in out
    assert "1 typed row is back" in out
    book = openpyxl.load_workbook(tmp_path / "board.xlsx")
    assert book.sheetnames == [*NEW_TABS, "Log", "Settings"]
    assert book["Dominaria"]["A1"].value == "Dominaria" and book["Dominaria"]["E4"].value.startswith("⌂ Wrath")
    assert str(book["Turn report"]["A2"].value).startswith("Nothing yet")
    orders = openpyxl.load_workbook(tmp_path / OLD_ORDERS)["Orders coalition"]
    assert orders[cell].value == "4D"  # the typed order kept
    assert run(capsys, "doctor", "-c", config)[0] == 0
    code, out, _ = run(capsys, "sync", "-c", config)
    assert code == 0 and "waiting for coalition, phyrexia" in out


def test_doctor_warns_of_an_old_board_tab_left_beside_the_new_ones(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, "coalition").path  # the starter match init made (copied: tests/made.py)
    book = openpyxl.load_workbook(tmp_path / "board.xlsx")
    book.create_sheet("Board")["A1"] = "the planes, as an earlier version drew them"
    book.save(tmp_path / "board.xlsx")
    code, out, _ = run(capsys, "doctor", "-c", config)
    assert code == 0 and "still has tab 'Board' of an earlier layout" in out and "sheets-gm repair" in out
