"""A line typed below the Log is answered by the next poll (issue 52, item 5): players read the Log as the match's
own, so a line no event of the match wrote ('blue surrenders; red wins the match.') is cleared, a note on its cell
keeps what it said, and the GM is told which row said what. It costs no call more: the poll reads the Log's lines
in the read it makes of the board's spreadsheet anyway."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from tests.matchfiles import local_match, play, record_of, sync, type_orders

SURRENDER = "blue surrenders; red wins the match."


def _cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_sync_clears_a_line_typed_below_the_log_and_says_so(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    config, sheets = local_match(tmp_path)
    play(sheets, 2)
    lines = record_of(sheets).log_rows
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    book["Log"].cell(2 + lines + 3, 1).value = 3
    book["Log"].cell(2 + lines + 3, 3).value = SURRENDER
    book.save(path)
    row = 2 + lines + 3
    said = (f"tab 'Log' row {row} said '3 | {SURRENDER}', below the match's last line (row {1 + lines}): no event "
            "of the match says it")
    code, out = _cli(capsys, "status", "-c", config)  # status writes nothing: it says what the next sync does
    assert code == 0 and f"{said}, the next sync clears it" in out, out
    assert openpyxl.load_workbook(path)["Log"].cell(row, 3).value == SURRENDER
    code, out = _cli(capsys, "sync", "-c", config)
    assert code == 0 and f"{said}, so the sync cleared it (a note on the cell keeps what it said)" in out, out
    log = openpyxl.load_workbook(path)["Log"]
    assert log.cell(row, 1).value in (None, "") and log.cell(row, 3).value in (None, "")
    assert SURRENDER in log.cell(row, 3).comment.text and "Cleared by sheets-gm" in log.cell(row, 3).comment.text
    code, out = _cli(capsys, "verify", "-c", config)
    assert code == 0, out
    code, out = _cli(capsys, "sync", "-c", config)
    assert "Not the match's" not in out  # said once
    type_orders(sheets)
    report = sync(sheets)  # the match goes on: its next lines go where they belong
    assert report.resolved and not report.log_lines_cleared
    assert _cli(capsys, "verify", "-c", config)[0] == 0


def test_a_line_in_an_empty_log_is_cleared_by_the_resolution_that_writes_there(tmp_path: Path) -> None:
    """GvG's set-up logs nothing: a line typed in the empty Log is cleared by the poll that resolves turn 1, whose
    own lines then stand in the Log, and nothing else does."""
    _config, sheets = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    book["Log"].cell(2, 3).value = SURRENDER
    book["Log"].cell(40, 3).value = "and again"
    book.save(path)
    type_orders(sheets)
    report = sync(sheets)
    assert report.resolved and len(report.log_lines_cleared) == 2
    assert "in a Log where the match logged nothing yet" in report.log_lines_cleared[0]
    lines = record_of(sheets).log_rows
    values = [row[2].value for row in openpyxl.load_workbook(path)["Log"].iter_rows(min_row=2)]
    assert SURRENDER not in values and "and again" not in values
    assert all(v not in (None, "") for v in values[:lines]) and not any(values[lines:])


def test_a_line_typed_below_the_log_on_google_costs_no_call_more(tmp_path: Path) -> None:
    """The Google fake: the poll that finds the line makes the calls a poll without it makes, plus the write that
    clears it (one call to the board's spreadsheet)."""
    from tests.commands.test_gm_ops import KEYS, google_calls, google_match
    from tests.fakes.google_api import GoogleApiFake

    with GoogleApiFake() as fake:
        sheets = google_match(fake)
        lines = record_of(sheets).log_rows
        fake.log.clear()
        assert not sync(sheets).log_lines_cleared
        quiet = google_calls(fake)
        fake.set_values(KEYS["board"], f"'Log'!C{2 + lines}", [[SURRENDER]])
        fake.log.clear()
        report = sync(sheets)
        assert len(report.log_lines_cleared) == 1 and f"row {2 + lines}" in report.log_lines_cleared[0]
        calls = google_calls(fake)
        assert {k: calls[k] - quiet[k] for k in calls | quiet if calls[k] != quiet[k]} == {
            ("sheets.spreadsheets.batchUpdate", "board"): 1}  # the same reads; the write that clears the line
        assert not any(SURRENDER in str(v) for row in fake.values(KEYS["board"], "Log") for v in row)
        assert not fake.violations, fake.violations
