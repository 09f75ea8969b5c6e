"""Many rows typed under an orders table (a paste gone wrong): each is answered and kept as docs/sync.md says, the
poll's work grows linearly with them, and what ``sync`` prints is summed up (issue 52, item 10).
``scripts/bench_junk_rows.py`` measures the times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.worksheet.worksheet import Worksheet

from sheets_gm.cli import main
from sheets_gm.match import poll_words
from tests.matchfiles import local_match, sync, type_orders


def type_junk(path: Path, first: int, count: int) -> None:
    book = openpyxl.load_workbook(path)
    sheet = book["Orders red"]
    for i in range(count):
        sheet.cell(first + i, 1).value = f"junk{i}"
        sheet.cell(first + i, 2).value = f"F{i % 9 + 1}"
    book.save(path)


def test_every_junk_row_is_answered_and_kept_and_the_output_summed_up(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    first = openpyxl.load_workbook(path)["Orders red"].max_row + 3
    type_junk(path, first, 60)
    assert main(["sync", "-c", str(config)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1] == "Rejected (60):" and len(lines) == 2 + poll_words.SHOWN_OF_A_KIND + 1, out
    assert lines[2].startswith(f"  red · row {first}: Row {first} is under the last table")
    assert lines[-1] == "  … and 57 more rows of red like these, each answered in its feedback cell"
    sheet = openpyxl.load_workbook(path)["Orders red"]
    feedback = sheet.max_column
    for i in range(60):
        row = first + i
        assert (sheet.cell(row, 1).value, sheet.cell(row, 2).value) == (f"junk{i}", f"F{i % 9 + 1}")  # kept
        assert str(sheet.cell(row, feedback).value).startswith(f"✘ Row {row} is under the last table")  # answered


def test_the_summary_lists_a_few_of_each_kind_and_counts_the_rest() -> None:
    report: Any = type("Report", (), {})()
    report.rejected = ([(f"red · row {r}", f"Row {r} is under the last table") for r in range(30, 40)]
                       + [("blue · Cat", "Cat: unknown destination 'Z9'")]
                       + [(f"seat{k} · row 1", f"kind {k}") for k in range(60)])
    lines = poll_words.rejected_lines(report)
    assert lines[:6] == ["Rejected (71):", "  red · row 30: Row 30 is under the last table",
                         "  red · row 31: Row 31 is under the last table",
                         "  red · row 32: Row 32 is under the last table",
                         "  … and 7 more rows of red like these, each answered in its feedback cell",
                         "  blue · Cat: Cat: unknown destination 'Z9'"]
    assert len([line for line in lines if not line.startswith("  …")]) == 1 + poll_words.SHOWN_IN_ALL
    assert lines[-1] == "  … and 24 more rows of 24 other kinds, each answered in its feedback cell"


def test_the_poll_does_not_measure_the_tab_once_a_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The quadratic part was openpyxl's ``max_column`` (a count over every cell of the tab) asked once for each
    row written: the poll must ask it as often for 40 junk rows as for 160."""
    real = Worksheet.max_column
    asked: list[int] = []

    def counting(self: Worksheet) -> int:
        asked.append(1)
        return real.fget(self)  # type: ignore[no-any-return]

    monkeypatch.setattr(Worksheet, "max_column", property(counting))
    counts = []
    for rows in (40, 160):
        config, _ = local_match(tmp_path / str(rows))
        path = tmp_path / str(rows) / "match.xlsx"
        type_junk(path, openpyxl.load_workbook(path)["Orders red"].max_row + 3, rows)
        asked.clear()
        assert main(["sync", "-c", str(config)]) == 0
        counts.append(len(asked))
    capsys.readouterr()
    assert counts[1] < counts[0] + 20, counts


def test_a_resolution_sets_thousands_of_rows_aside_in_an_entry_that_fits_the_archive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows with no free row left go to the Archive at a resolution, each named; an entry naming more rows than
    ``DETAIL_LINES`` puts several on a line, so that it never outgrows the tab (4,000 junk rows used to make the
    resolution fail on a range before the Archive's first row). The tab is made small here, the rows few."""
    from sheets_gm.sync.rows import archive_lines

    monkeypatch.setattr(archive_lines, "ARCHIVE_LINES", 120)
    _, sheets = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    type_junk(path, openpyxl.load_workbook(path)["Orders red"].max_row + 3, 250)
    sync(sheets)
    type_orders(sheets)
    assert sync(sheets).resolved
    book = openpyxl.load_workbook(path)
    archive = [str(row[1]) for row in book["Archive red"].iter_rows(min_row=2, values_only=True) if row[1]]
    entry = next(i for i, line in enumerate(archive) if line.startswith("Set aside, never read as orders"))
    text = " ".join(archive[entry:])
    assert len(archive) - entry <= 1 + archive_lines.DETAIL_LINES
    set_aside = [i for i in range(250) if f"junk{i}, " in text]
    assert len(set_aside) > 200 and set_aside == list(range(set_aside[0], 250))  # every row past those kept
    sheet = book["Orders red"]
    kept = {str(sheet.cell(r, 1).value) for r in range(1, sheet.max_row + 1)}
    assert all(f"junk{i}" in kept for i in range(set_aside[0]))  # the rows before them stay in the tab
