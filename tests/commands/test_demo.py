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


def test_demo_plays_to_the_end_and_its_replay_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--turns", "8", "--seed", "t"]) == 0
    printed = capsys.readouterr().out
    assert "Result: Match over on turn 8" in printed
    assert "tree went:" in printed
    book = load_workbook(out / "demo-match.xlsx")
    assert {"Board", "Players", "Log", "Orders red", "Orders blue"} <= set(book.sheetnames)
    assert book["Board"]["Q2"].value.startswith("Match over on turn 8")  # right of the 15-column map
    assert book["Board"]["Q1"].value == "sheets-gm · WWM GvG board"
    replay = out / "export" / "replay.json"
    assert main(["verify", str(replay)]) == 0
    assert "OK: 8 windows" in capsys.readouterr().out
    doc = json.loads(replay.read_text(encoding="utf-8"))
    doc["turns"][3]["orders"]["players"] = {}
    replay.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(replay)]) == 1


def test_verify_explains_a_missing_or_malformed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "nope.json")]) == 1
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert "not a readable JSON replay" in capsys.readouterr().err
    bad.write_text('{"format": "x"}', encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert "not a sheets-gm replay" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_opens_the_demo_workbook_and_prints_the_board_on_one_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--turns", "3"]) == 0
    done = subprocess.run(["bash", "scripts/demo_pdf.sh", str(out)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    pdf = (out / "pdf" / "demo-match.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    # Each visible tab is one page wide: Board, Players, Settings, two orders tabs, two archives, Log.
    assert 8 <= pages <= 12, pages
    if shutil.which("pdftotext") is not None:
        page = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(out / "pdf" / "demo-match.pdf"), "-"],
                              capture_output=True, text=True, timeout=60, check=True).stdout
        # What LibreOffice really drew on the board page: the legend, the team marks, the signs.
        assert "tile G9 is cell G9" in page and "⌂ base" in page and "♜" in page
        assert "▼" in page and "▲" in page
