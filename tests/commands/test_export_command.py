"""``sheets-gm export``: a configured match exported with its seed revealed, only when it is right to."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.rulesets.gvg.settings import GvgSettings
from tests.matchfiles import SEED, played_match


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    """The config of a match played to its end (2 turns: the finished match test_gm_ops plays too)."""
    return played_match(tmp_path / "m", 2, settings=GvgSettings(max_turns=2))[0]  # over: export says so


def test_a_finished_match_is_exported_with_its_seed_and_the_replay_verifies(
    finished: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "-c", str(finished)]) == 0
    out = capsys.readouterr().out
    folder = finished.parent / "export"
    assert f"Seed:      {SEED.hex()}" in out
    assert hashlib.sha256(SEED).hexdigest() in out
    assert "2 windows resolved): exported with its seed." in out
    for name in ("match.xlsx", "Board.csv", "Orders red.csv", "replay.json"):
        assert (folder / name).is_file()
        assert str(folder / name) in out
    with (folder / "Board.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][16] == "sheets-gm · WWM GvG board"  # Q1: right of the 15-column map and a blank column
    listed = next(i for i, row in enumerate(rows) if row[:4] == ["Player", "Team", "Role", "Position"])
    assert {row[0] for row in rows[listed + 1:listed + 7]} == {f"{t}{i}" for t in ("red", "blue") for i in range(3)}
    assert main(["verify", str(folder / "replay.json")]) == 0
    assert "OK: 2 windows and" in capsys.readouterr().out


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(finished: Path, tmp_path: Path) -> None:
    import openpyxl

    workbook = finished.parent / "match.xlsx"
    book = openpyxl.load_workbook(workbook)
    sheet = book["Orders red"]
    sheet["D5"] = "=HYPERLINK(\"http://evil\")"
    sheet["D5"].data_type = "s"  # text a player typed after a quote: the export's CSV must not make it a formula
    sheet["E5"] = "@SUM(1)"
    book.save(workbook)
    assert main(["export", "-c", str(finished), "--out", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "Orders red.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK" in text and "'@SUM(1)" in text
    assert ",=" not in text and ",@" not in text


def test_an_unfinished_match_needs_reveal_early_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, _sheets = played_match(tmp_path, 1)
    assert main(["export", "-c", str(config)]) == 1
    err = capsys.readouterr().err
    assert "still being played (" in err and " · 1 window resolved)" in err
    assert "predict the rest of the match" in err
    assert "--reveal-early" in err
    assert not (tmp_path / "export").exists()

    assert main(["export", "-c", str(config), "--reveal-early"]) == 0
    out = capsys.readouterr().out
    assert "WARNING: the match is not over (" in out and " · 1 window resolved)" in out
    assert SEED.hex() in out
    assert main(["verify", str(tmp_path / "export" / "replay.json")]) == 0


def test_exporting_again_replaces_the_same_match_and_says_so(
    finished: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "-c", str(finished)]) == 0
    capsys.readouterr()
    assert main(["export", "-c", str(finished)]) == 0
    assert "Replaced the earlier export of this match" in capsys.readouterr().out


def test_another_matchs_export_is_replaced_only_with_overwrite(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    other = {"format": "sheets-gm replay v1", "seed_hash": "ab" * 32, "final_state": {"turn": 9}}
    (folder / "replay.json").write_text(json.dumps(other), encoding="utf-8")
    (folder / "Extra.csv").write_text("x\r\n", encoding="utf-8")
    assert main(["export", "-c", str(finished), "--out", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "another match (seed hash abababababab…)" in err  # a replay without its rules: no place named
    assert "--overwrite" in err
    assert json.loads((folder / "replay.json").read_text(encoding="utf-8")) == other

    assert main(["export", "-c", str(finished), "--out", str(folder), "--overwrite"]) == 0
    out = capsys.readouterr().out
    assert "Replaced the export of another match" in out
    assert f"left from before, not part of this export: {folder / 'Extra.csv'}" in out
    assert json.loads((folder / "replay.json").read_text(encoding="utf-8"))["seed_hash"] != other["seed_hash"]


def test_a_folder_of_other_files_or_the_live_workbook_is_refused(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "todo.txt").write_text("buy dice", encoding="utf-8")
    assert main(["export", "-c", str(finished), "--out", str(folder)]) == 1
    assert "1 file that is not a sheets-gm export (todo.txt)" in capsys.readouterr().err
    assert main(["export", "-c", str(finished), "--out", str(finished.parent)]) == 1
    assert "holds the match's own workbooks" in capsys.readouterr().err


def test_export_without_a_match_or_config_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "-c", str(tmp_path / "none.toml")]) == 1
    assert "no config file" in capsys.readouterr().err
    from tests.matchfiles import local_config

    config = local_config(tmp_path, workbook="missing.xlsx")
    assert main(["export", "-c", str(config)]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_help_ends_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "example: sheets-gm export -c match.toml --out final" in capsys.readouterr().out
