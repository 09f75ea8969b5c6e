"""The demo and verify commands, end to end on a local workbook."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.cli import main
from tests.office.office import Office


def test_demo_plays_its_turns_and_its_replay_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--turns", "8", "--seed", "t"]) == 0
    printed = capsys.readouterr().out
    assert "Result after 8 windows: Turn 9 of 60 · orders open" in printed
    assert printed.count("\nTurn ") >= 8  # a line per turn played
    board = load_workbook(out / "board.xlsx")
    assert {"Board", "Log", "Settings"} <= set(board.sheetnames) and "Engine" not in board.sheetnames
    assert board["Board"]["Q2"].value.startswith("Turn 9 of 60")  # right of the 15-column map
    assert board["Board"]["Q1"].value == "sheets-gm · WWM GvG board"
    assert "Orders red" in load_workbook(out / "orders-red.xlsx").sheetnames
    assert "Orders red" not in load_workbook(out / "orders-blue.xlsx").sheetnames
    assert load_workbook(out / "gm" / "engine.xlsx")["Engine"].sheet_state == "hidden"
    replay = out / "export" / "replay.json"
    assert f"verify {replay}" in printed
    assert main(["verify", str(replay)]) == 0
    assert "OK: 8 windows and" in capsys.readouterr().out
    doc = json.loads(replay.read_text(encoding="utf-8"))
    assert doc["resolutions"][3]["orders"]["players"]
    doc["resolutions"][3]["orders"]["players"] = {}  # as if nobody had ordered on turn 4
    replay.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(replay)]) == 1
    assert "MISMATCH after 4 windows replayed" in capsys.readouterr().out


def test_verify_explains_a_missing_or_malformed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "nope.json")]) == 1
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert "not a readable JSON replay" in capsys.readouterr().err
    bad.write_text('{"format": "x"}', encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert "not a replay this version reads (its format is 'x', this version writes 'sheets-gm replay v3" in \
        capsys.readouterr().err


def test_libreoffice_opens_the_demo_board_and_prints_it_in_a_few_pages(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], office: Office) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--turns", "3"]) == 0
    office.convert([out / "board.xlsx"], "pdf", out / "pdf")  # as soffice --convert-to pdf prints it
    pdf = (out / "pdf" / "board.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    # Board, Log, Settings: the board over as many pages across as keep it at 8 pt as LibreOffice prints it (GvG's:
    # three across and three down, 8 pages at 10 pt; two across printed 7.6 pt, issue 64), the others one or two.
    assert 3 <= pages <= 11, pages
    if shutil.which("pdftotext") is not None:
        page = subprocess.run(["pdftotext", "-f", "1", "-l", str(pages - 2), str(out / "pdf" / "board.pdf"), "-"],
                              capture_output=True, text=True, timeout=60, check=True).stdout
        # What LibreOffice really drew on the board's pages: the legend, the team marks, the signs.
        assert "tile G9 is cell G9" in page and "⌂ base" in page and "♜" in page
        assert "▼" in page and "▲" in page


@pytest.mark.parametrize("game", ["gvg", "wesnoth", "winordie", "champions", "coalition"])
def test_the_starter_config_names_each_orders_file_as_the_demo_and_the_export_do(game: str) -> None:
    """A GM who played the demo (orders-red.xlsx) finds the same names in her own match's starter config."""
    import tomllib

    from sheets_gm.commands.init import private_config, starter_config
    from sheets_gm.sheets.files import orders_file

    text = starter_config(game).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    seats = data.get("seats") or data["teams"]
    assert data["sheets"]["orders"] == {seat: orders_file(seat) for seat in seats}
    assert tomllib.loads(private_config(text))["sheets"]["orders"] == {seat: orders_file(seat) for seat in seats}
