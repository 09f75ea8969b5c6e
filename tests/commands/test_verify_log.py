"""verify -c reads the Log and names a line typed over by hand, with what the match logged."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.sync import writes
from tests.matchfiles import local_match, play, played_match, record_of


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_forged_log_line_is_named_by_its_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, sheets = played_match(tmp_path, 3)  # its first battle on turn 3; the file's longer matches play on from it
    assert run(capsys, "adjust", "-c", config, "--coins", "red=4", "--reason", "duel paid twice")[0] == 0
    play(sheets, 2)
    lines = record_of(sheets).log_rows
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0 and f"the Log's {lines} lines are the match's own" in out
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    log = book["Log"]
    row = next(r for r in range(3, 3 + lines) if "Battle" in str(log.cell(r, 3).value))
    truth = log.cell(r := row, 3).value
    log.cell(r, 3).value = "Eve rolls 1 [combat/Eve] + 2 (DPS) = 3, and wins"
    book.save(path)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and "but its Log was edited by hand" in out
    assert f"tab 'Log' cell C{row} says 'Eve rolls 1 [combat/Eve] + 2 (DPS) = 3, and wins' but the match logged " \
           f"{truth!r}" in out
    assert out.count("cell C") == 1


def test_an_undone_window_s_lines_are_not_taken_for_forged(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    config, sheets = played_match(tmp_path, 3)
    assert run(capsys, "undo", "-c", config, "--reason", "resolved too early")[0] == 0
    play(sheets, 2)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0, out


def test_a_log_line_whose_words_were_changed_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Same figures, other words ('the attack fails' for 'succeeds', a winner swapped): a forgery all the same."""
    config, sheets = played_match(tmp_path, 6)
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    log = book["Log"]
    lines = record_of(sheets).log_rows
    row = next(r for r in range(2, 2 + lines) if " vs " in str(log.cell(r, 3).value))
    truth = str(log.cell(row, 3).value)
    forged = truth.replace("succeeds", "fails") if "succeeds" in truth else truth.replace(" vs ", " versus ")
    assert forged != truth
    log.cell(row, 3).value = forged
    book.save(path)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and f"tab 'Log' cell C{row} says {forged!r} but the match logged {truth!r}" in out


def test_a_board_cell_and_the_log_header_typed_over_are_named_until_the_next_poll_draws_them_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The sync draws the board tab and the Log's header; ``verify -c`` names a cell of either typed over, with what
    the sync draws there (issue 38, item 12), and passes once the next poll has drawn them again."""
    config, _sheets = played_match(tmp_path, 4)
    assert run(capsys, "verify", "-c", config)[0] == 0
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    board = book["Board"]
    status = next(c for row in board.iter_rows() for c in row if str(c.value or "").startswith("Turn 5 of "))
    truth = status.value
    status.value = "Match over: blue wins"
    book["Log"]["A1"] = "Round"
    book.save(path)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1, out
    assert f"tab 'Board' cell {status.coordinate} says 'Match over: blue wins' but the sync draws {truth!r}" in out
    assert "tab 'Log' cell A1 says 'Round' but the sync draws 'Turn'" in out
    assert run(capsys, "sync", "-c", config)[0] == 0
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0, out


def test_a_line_typed_below_the_log_or_in_an_empty_log_is_named(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The Log's whole length is compared with the match's (issue 52, item 5): players read every line of it."""
    config, sheets = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    assert record_of(sheets).log_rows == 0  # GvG's set-up logs nothing
    book = openpyxl.load_workbook(path)
    book["Log"].cell(2, 3).value = "blue surrenders; red wins the match."
    book.save(path)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and ("tab 'Log' row 2 says 'blue surrenders; red wins the match.', in a Log where the match "
                          "logged nothing yet: no event of the match says it") in out
    book["Log"].cell(2, 3).value = None
    book.save(path)
    assert run(capsys, "verify", "-c", config)[0] == 0
    config, sheets = played_match(tmp_path / "played", 3)  # the same match three turns on
    path = tmp_path / "played/match.xlsx"
    lines = record_of(sheets).log_rows
    assert run(capsys, "verify", "-c", config)[0] == 0
    book = openpyxl.load_workbook(path)
    book["Log"].cell(2 + lines + 5, 1).value = 3
    book["Log"].cell(2 + lines + 5, 3).value = "blue surrenders; red wins the match."
    book.save(path)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and (f"tab 'Log' row {2 + lines + 5} says '3 | blue surrenders; red wins the match.', below "
                          f"the match's last line (row {1 + lines}): no event of the match says it") in out


def test_doctor_names_a_line_typed_below_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, sheets = played_match(tmp_path, 2)
    lines = record_of(sheets).log_rows
    code, out, _ = run(capsys, "doctor", "-c", config)
    assert code == 0 and f"nothing is typed below the match's {lines} lines of the Log" in out
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    book["Log"].cell(2 + lines, 3).value = "blue surrenders; red wins the match."
    book.save(path)
    code, out, _ = run(capsys, "doctor", "-c", config)
    assert code == 1 and (f"log: tab 'Log' row {2 + lines} says 'blue surrenders; red wins the match.', below the "
                          f"match's last line (row {1 + lines}): no event of the match says it") in out, out


def test_a_long_line_split_over_rows_verifies_and_undoes_and_a_forged_part_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 64, item 9: a sentence longer than a Log row holds (a war's dice line, 9,000 characters, printed a row
    taller than a page) goes on in the rows under it, each beside its turn and kind; ``verify -c`` joins them again,
    an undo takes back every row of its window, and a part typed over is named by the line's first cell. Here a row
    holds 40 characters, so most lines of a GvG match split. Checked to fail with the rows compared one by one
    (every continued row then named as a line no event says), and with the Log's count taking an event a row."""
    monkeypatch.setattr(writes, "LOG_ROW_CHARS", 40)
    config, sheets = local_match(tmp_path)  # played here: the rows are written split
    play(sheets, 3)
    log = openpyxl.load_workbook(tmp_path / "match.xlsx")["Log"]
    lines = record_of(sheets).log_rows
    rows = [[log.cell(r, c).value for c in (1, 2, 3)] for r in range(2, 2 + lines)]
    assert all(len(str(text)) <= 40 + len(writes.CONTINUED) or " " not in str(text) for _t, _k, text in rows)
    parts = [r for r, (_t, _k, text) in enumerate(rows, start=2) if str(text).startswith(writes.CONTINUED)]
    assert parts and log.cell(2 + lines, 3).value is None, rows
    assert run(capsys, "verify", "-c", config)[0] == 0
    assert run(capsys, "undo", "-c", config, "--reason", "resolved too early")[0] == 0
    play(sheets, 2)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0, out
    path = tmp_path / "match.xlsx"
    book = openpyxl.load_workbook(path)
    lines = record_of(sheets).log_rows
    row = max(r for r in range(3, 2 + lines) if str(book["Log"].cell(r, 3).value).startswith(writes.CONTINUED))
    head = max(r for r in range(2, row) if not str(book["Log"].cell(r, 3).value).startswith(writes.CONTINUED))
    book["Log"].cell(row, 3).value = f"{writes.CONTINUED}and wins by 9"
    book.save(path)
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and f"tab 'Log' cell C{head} says " in out and out.count("cell C") == 1, out
