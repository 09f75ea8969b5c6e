"""The help texts and suggestions a GM reads, as she meets them away from the repository: the scenario
command's PATH and an example that runs from any folder, the demo's default folder and a mkdir that works a
second time, undo's fresh dice, and the real config's name in a suggested command."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.commands.demo import free_folder


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_scenario_help_says_what_path_is_and_its_example_runs_from_another_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = _help(capsys, "scenario")
    assert "PATH a scenario file (.yaml or .yml), or a folder" in text
    example = text.split("example: sheets-gm scenario ")[1].split()[0]
    monkeypatch.chdir(tmp_path)
    assert main(["scenario", example]) == 0
    assert " 0 failed" in capsys.readouterr().out


def test_demo_help_states_the_out_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert "(default: demo-out in this folder;" in _help(capsys, "demo")


def test_undo_help_says_the_dice_are_dealt_afresh(capsys: pytest.CaptureFixture[str]) -> None:
    assert "resolved again with dice dealt afresh" in _help(capsys, "undo")


def test_the_suggested_folder_is_one_that_does_not_exist_yet(tmp_path: Path) -> None:
    assert free_folder(tmp_path, "my-match") == "my-match"
    (tmp_path / "my-match").mkdir()
    (tmp_path / "my-match-2").mkdir()
    assert free_folder(tmp_path, "my-match") == "my-match-3"
    os.mkdir(tmp_path / free_folder(tmp_path, "my-match"))  # the suggested mkdir works


def test_a_message_names_the_config_the_gm_gave_not_a_stand_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roster.csv").write_text("name,team,role,captain\nr1,red,dps,yes\nb1,blue,dps,yes\n",
                                         encoding="utf-8")
    assert main(["init", "gvg", "-c", "friday night.toml", "--roster", "roster.csv"]) == 0
    capsys.readouterr()
    book = openpyxl.load_workbook(tmp_path / "orders-red.xlsx")
    book["Archive red"].title = "Old archive"
    book.save(tmp_path / "orders-red.xlsx")
    assert main(["status", "-c", "friday night.toml"]) == 1
    err = capsys.readouterr().err
    assert f"repair -c {shlex.quote('friday night.toml')}" in err and "MATCH.toml" not in err


def test_demo_pdf_prints_the_demo_in_the_callers_folder(tmp_path: Path) -> None:
    """The script printed the repository's demo-out whatever folder it was started from. Here LibreOffice and
    pdftoppm are stand-ins that say what they were given."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "demo_pdf.sh"
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "soffice").write_text('#!/bin/sh\nwhile [ "$1" != --outdir ]; do shift; done\nmkdir -p "$2"\n'
                                   'echo "/Type /Page " > "$2/board.pdf"\necho "soffice: $3" >&2\n')
    (tools / "pdftoppm").write_text("#!/bin/sh\ntouch \"$(eval echo \\${$#}).png\"\n")
    for tool in tools.iterdir():
        tool.chmod(0o755)
    mine = tmp_path / "here"
    (mine / "mine").mkdir(parents=True)
    (mine / "mine" / "board.xlsx").write_bytes(b"")
    env = {**os.environ, "PATH": f"{tools}:/usr/bin:/bin"}
    done = subprocess.run(["bash", str(script), "mine"], cwd=mine, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "soffice: mine/board.xlsx" in done.stderr
    assert "printed it: mine/pdf/board.pdf" in done.stdout
    assert (mine / "mine" / "pdf" / "board.png").exists()
