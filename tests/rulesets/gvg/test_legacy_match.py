"""A GvG match in play on the old layout (``legacy/match.xlsx``, locally and in the Google fake), moved by
``repair`` onto the generic sync and played on (it needs GvG's sheet adapter: skipped without one)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import get_game
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.layout import Grid, TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.match_record import engine_read_range, parse_match_record
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.google_api import signed_in_fake, write_service_account_key

FIXTURES = Path(__file__).resolve().parent / "legacy"


def _gvg_has_no_sheet() -> bool:
    return get_game("gvg").sheet is None


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.skipif(_gvg_has_no_sheet(), reason="GvG has no sheet adapter on the generic sync yet")
def test_an_old_local_gvg_match_is_moved_by_repair_and_plays_on(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("match.xlsx", "match.toml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    config = tmp_path / "match.toml"
    before = (tmp_path / "match.xlsx").read_bytes()
    for command in (["sync"], ["status"]):
        code, out, err = run(capsys, *command, "-c", config)
        assert code == 1 and f"this match is on the old GvG layout: run `sheets-gm repair -c {config}`" in err
    assert (tmp_path / "match.xlsx").read_bytes() == before

    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "Moved the match from the old GvG layout onto the new one" in out and "4 windows resolved" in out
    assert "Kept a copy of the workbook" in out
    book = LocalWorkbookBackend(tmp_path / "match.xlsx")
    assert "Players" not in book.tab_names()

    continued = json.loads((FIXTURES / "continued.json").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "resolve", "-c", config, "--force", "--window", str(continued["turn"]))
    assert code == 0, err
    (grid,) = book.read([engine_read_range("Engine")])
    record = parse_match_record(grid[1:], "Engine")
    # the orders the teams had typed on the old layout were carried and resolved as the legacy engine did
    assert record.ruleset.state_codec.to_json(record.state) == continued["state_after"]
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0 and "OK: 5 windows" in out
    for _ in range(2):  # the turn played after the move, then one played before it
        code, out, err = run(capsys, "undo", "-c", config, "--reason", "checking undo")
        assert code == 0, err
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0 and "OK: 3 windows" in out


GOOGLE_KEY = "1OldGvgKey_legacy_test_00000000000000000000"
ACCOUNT = "gm-bot@sheets-gm-test.iam.gserviceaccount.com"


def _old_workbook_into(sheets: MatchSheets) -> None:
    """Every tab of ``legacy/match.xlsx`` into the one spreadsheet, each tab no larger than what it holds."""
    book = openpyxl.load_workbook(FIXTURES / "match.xlsx")
    tabs = []
    for ws in book.worksheets:
        grid: Grid = [["" if v is None else v for v in row] for row in ws.iter_rows(values_only=True)]
        if grid:
            tabs.append(TabLayout(ws.title, rows=len(grid), cols=max(len(r) for r in grid), values={"A1": grid}))
    sheets.board.apply_layout(WorkbookLayout("an old GvG match", tuple(tabs)))


@pytest.mark.skipif(_gvg_has_no_sheet(), reason="GvG has no sheet adapter on the generic sync yet")
def test_an_old_gvg_match_on_google_is_moved_by_repair(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    config = tmp_path / "match.toml"
    config.write_text('ruleset = "gvg"\ntitle = "Old match"\nteams = ["red", "blue"]\n[sheets]\nbackend = "google"\n'
                      f'board = "{GOOGLE_KEY}"\n[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    with signed_in_fake(monkeypatch, {GOOGLE_KEY: "an old GvG match"}):
        _old_workbook_into(open_match_sheets(load_config(config)))
        code, _, err = run(capsys, "status", "-c", config)
        assert code == 1 and "this match is on the old GvG layout" in err
        code, out, err = run(capsys, "repair", "-c", config)
        assert code == 0 and "Moved the match from the old GvG layout" in out, err
        continued = json.loads((FIXTURES / "continued.json").read_text(encoding="utf-8"))
        code, _, err = run(capsys, "resolve", "-c", config, "--force", "--window", str(continued["turn"]))
        assert code == 0, err
        sheets = open_match_sheets(load_config(config))
        (grid,) = sheets.engine.read([engine_read_range("Engine")])
        record = parse_match_record(grid[1:], "Engine")
        assert record.ruleset.state_codec.to_json(record.state) == continued["state_after"]
        code, out, _ = run(capsys, "verify", "-c", config)
        assert code == 0 and "OK: 5 windows" in out
