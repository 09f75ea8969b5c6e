"""Many rows typed under an orders table (a paste gone wrong): each is answered and kept as docs/sync.md says, the
poll's work grows linearly with them, and what ``sync`` prints is summed up (issue 52, item 10).
``scripts/bench_junk_rows.py`` measures the times."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from sheets_gm.cli import main
from sheets_gm.running import poll_words
from tests.matchfiles import local_match, sync, type_orders
from tests.quick import soak_but


def type_junk(path: Path, first: int, count: int) -> None:
    book = openpyxl.load_workbook(path)
    sheet = book["Orders red"]
    for i in range(count):
        sheet.cell(first + i, 1).value = f"junk{i}"
        sheet.cell(first + i, 2).value = f"F{i % 9 + 1}"
    book.save(path)


def test_junk_rows_are_kept_and_answered_once_in_the_first_ones_cell(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """More than ``JUNK_ROWS`` rows typed under the tables are a paste gone wrong: every cell stays as typed, and one
    answer, in the first one's feedback cell, names them all (where, how many, what the first holds); ``sync`` prints
    that one line (issue 79: 10,000 answers written and listed were a third of the resolving sync's time)."""
    config, _ = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    first = openpyxl.load_workbook(path)["Orders red"].max_row + 3
    type_junk(path, first, 60)
    assert main(["sync", "-c", str(config)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1:] == ["Rejected (1):", f"  red · row {first}: Rows {first} to {first + 59} are under the last "
                         "table, which ends at row 20: nothing typed in them is read (60 rows typed, the "
                         f"first: junk0, F1); write orders in the rows of the tables. This answer stands for each "
                         f"of them."], out
    sheet = openpyxl.load_workbook(path)["Orders red"]
    feedback = sheet.max_column
    for i in range(60):
        row = first + i
        assert (sheet.cell(row, 1).value, sheet.cell(row, 2).value) == (f"junk{i}", f"F{i % 9 + 1}")  # kept
        said = sheet.cell(row, feedback).value
        assert str(said).startswith(f"✘ Rows {first} to") if i == 0 else said is None, (row, said)


def test_a_players_attempt_among_junk_rows_is_answered_on_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Among many rows pasted under the tables, the first row naming one of her own units (a real unit and a real
    destination: an attempt, not junk) gets its own answer, naming the row its orders go in; a second row naming
    that unit is part of the paste (else a paste of her table repeated 10,000 times would be 10,000 answers), and
    the paste's one answer counts the rest. It fails with every row under the tables lumped together."""
    config, _ = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    sheet = openpyxl.load_workbook(path)["Orders red"]
    unit_row = next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 1).value == "Player") + 2  # red1's
    unit = sheet.cell(unit_row, 1).value
    first = sheet.max_row + 3
    type_junk(path, first, 60)
    book = openpyxl.load_workbook(path)
    for row in (first + 10, first + 30):
        book["Orders red"].cell(row, 1).value = unit
        book["Orders red"].cell(row, 4).value = "B2"
    book.save(path)
    assert main(["sync", "-c", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"red · row {first + 10}: Row {first + 10} is under the last table, which ends at row 20: nothing typed " \
           f"in it is read; write {unit}'s orders in its own row (row {unit_row})." in out, out
    assert f"Rows {first} to {first + 59} are under the last table, which ends at row 20: nothing typed in them is " \
           "read (59 rows typed" in out, out
    sheet = openpyxl.load_workbook(path)["Orders red"]
    said = [sheet.cell(first + i, sheet.max_column).value for i in range(60)]
    assert str(said[10]).startswith(f"✘ Row {first + 10} is under the last table")
    assert [i for i, v in enumerate(said) if v] == [0, 10]


def test_a_few_rows_under_the_tables_are_each_answered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Up to ``JUNK_ROWS`` rows typed under the tables are each a player's attempt, each answered in its own row."""
    from sheets_gm.sync.rows.strays import JUNK_ROWS

    config, _ = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    first = openpyxl.load_workbook(path)["Orders red"].max_row + 3
    type_junk(path, first, JUNK_ROWS)
    assert main(["sync", "-c", str(config)]) == 0
    assert f"Rejected ({JUNK_ROWS}):" in capsys.readouterr().out
    sheet = openpyxl.load_workbook(path)["Orders red"]
    for i in range(JUNK_ROWS):
        assert str(sheet.cell(first + i, sheet.max_column).value).startswith(f"✘ Row {first + i} is under the last")


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


def test_a_resolution_keeps_every_row_typed_under_the_tables_once_in_its_own_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows under the last table are in no drawing's way: a resolution leaves each where it was typed, and copies
    none into a free row nor sets any aside (issue 53, item 8: a row under the last table was copied into the blank
    rows, one more each resolution, and "set aside … no longer in your tab" while still there). Answered alike by the
    poll before, nothing of them is written again (10,000 rows were 10,000 writes, and a journal of them, at every
    resolution; issue 66); an answer a player cleared is written again, in its cell alone: what was typed stays where
    it is, not written again (issue 79), and a cell a player typed in the feedback column of a row answered with the
    others stays hers. Without that check the second resolution writes every row again, and this fails; with the
    whole row written again, it fails too."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    _, sheets = local_match(tmp_path)
    path = tmp_path / "match.xlsx"
    first = openpyxl.load_workbook(path)["Orders red"].max_row + 3
    type_junk(path, first, 250)
    type_orders(sheets)
    assert sync(sheets).resolved
    book = openpyxl.load_workbook(path)
    feedback = book["Orders red"].max_column
    answer = book["Orders red"].cell(first, feedback).value
    book["Orders red"].cell(first, feedback).value = None  # a player clears the answer
    book["Orders red"].cell(first + 7, feedback).value = "mine"  # and types in another row's feedback cell
    book.save(path)
    written: list[str] = []
    real = LocalWorkbookBackend.write

    def recording(self: LocalWorkbookBackend, writes: Any, **options: Any) -> Any:
        written.extend(w.range for w in writes)
        return real(self, writes, **options)

    monkeypatch.setattr(LocalWorkbookBackend, "write", recording)
    type_orders(sheets)
    assert sync(sheets).resolved
    on_junk = [r for r in written if r.startswith("'Orders red'!") and (end := re.search(r"(\d+)$", r))
               and int(end.group(1)) >= first]
    assert on_junk == [f"'Orders red'!{get_column_letter(feedback)}{first}"]  # its answer, not what was typed
    book = openpyxl.load_workbook(path)
    sheet = book["Orders red"]
    texts = [str(v) for row in sheet.iter_rows(values_only=True) for v in row if v is not None]
    for i in range(250):
        row = first + i
        assert (sheet.cell(row, 1).value, sheet.cell(row, 2).value) == (f"junk{i}", f"F{i % 9 + 1}")
        assert sheet.cell(row, feedback).value == {0: answer, 7: "mine"}.get(i)
        assert texts.count(f"junk{i}") == 1  # kept once: no copy in a blank row
    archive = [str(row[1]) for row in book["Archive red"].iter_rows(min_row=2, values_only=True) if row[1]]
    assert not any("junk" in line or line.startswith("Set aside") for line in archive), archive


def test_an_entry_naming_thousands_of_rows_set_aside_fits_the_archive() -> None:
    """Rows with no free row left go to the Archive, each named; an entry naming more rows than ``DETAIL_LINES``
    puts several on a line, so that it never outgrows the tab (4,000 rows set aside at once used to make the
    resolution fail on a range before the Archive's first row)."""
    from sheets_gm.sync.rows import archive_lines

    line = archive_lines.ArchiveLine("Turn 1", "Set aside", tuple(f"row {r} — junk{r}" for r in range(4000)))
    lines = line.detail_lines()
    assert len(line.grid()) <= 1 + archive_lines.DETAIL_LINES and len(lines) <= archive_lines.DETAIL_LINES
    text = " ".join(lines)
    assert all(f"junk{r}" in text for r in range(4000))



#: Shapes of junk a paste leaves (row index -> {column: value}): names, formulas, long text, numbers, in the
#: table's columns and past the feedback column.
SHAPES: dict[str, Callable[[int], dict[int, object]]] = {
    "names": lambda i: {1: f"Player {i}", 4: "Z99"},
    "formulas": lambda i: {1: f"=A{i}+1", 3: "=SUM(B1:B3)"},
    "long text": lambda i: {2: f"{i} " + "lorem ipsum " * 400},
    "numbers": lambda i: {1: i, 2: i / 7, 5: -i},
    "past the tab": lambda i: {1: f"n{i}", 15: f"far {i}", 16: 3.5},
}


@pytest.mark.parametrize("count", soak_but([30, 120], 120))  # how many rows: the quick run 120, the soak 30 too
@pytest.mark.parametrize("shape", SHAPES)
def test_whatever_the_junk_holds_it_is_kept_answered_once_and_written_once(
        shape: str, count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows pasted under the tables, whatever they hold and wherever: every cell stays as saved, one answer names
    them, and what the poll writes on them is that one cell, however many rows (the defect put back, an answer a
    row, writes one cell a row and fails), and nothing once answered. Answers an earlier version wrote in each row
    are cleared; what a player typed in a row's feedback cell stays."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    written: list[str] = []
    real = LocalWorkbookBackend.write

    def recording(self: LocalWorkbookBackend, writes: Any, **options: Any) -> Any:
        written.extend(w.range for w in writes if w.range.startswith("'Orders red'!"))
        return real(self, writes, **options)

    monkeypatch.setattr(LocalWorkbookBackend, "write", recording)
    config, _ = local_match(tmp_path / str(count))
    path = tmp_path / str(count) / "match.xlsx"
    book = openpyxl.load_workbook(path)
    sheet = book["Orders red"]
    first, feedback = sheet.max_row + 3, sheet.max_column
    for i in range(count):
        for col, value in SHAPES[shape](i).items():
            sheet.cell(first + i, col).value = value
    sheet.cell(first + 1, feedback).value = f"✘ Row {first + 1} is under the last table: an old answer"
    sheet.cell(first + 2, feedback).value = "her note"
    book.save(path)
    sheet = openpyxl.load_workbook(path)["Orders red"]  # as saved (a float keeps 16 digits)
    saved = {(r, c): v for r, row in enumerate(sheet.iter_rows(min_row=first, values_only=True), first)
             for c, v in enumerate(row, 1) if c != feedback and v is not None}
    written.clear()
    assert main(["sync", "-c", str(config)]) == 0
    letter = get_column_letter(feedback)
    assert sorted(written) == sorted([f"'Orders red'!{letter}{first}", f"'Orders red'!{letter}{first + 1}"])
    sheet = openpyxl.load_workbook(path)["Orders red"]
    assert {(r, c): v for r, row in enumerate(sheet.iter_rows(min_row=first, values_only=True), first)
            for c, v in enumerate(row, 1) if c != feedback and v is not None} == saved
    said = [sheet.cell(first + i, feedback).value for i in range(count)]
    assert str(said[0]).startswith(f"✘ Rows {first} to {first + count - 1} are under the last table")
    assert said[1:] == [None, "her note"] + [None] * (count - 3)
    written.clear()
    assert main(["sync", "-c", str(config)]) == 0
    assert written == []  # answered: nothing written again
