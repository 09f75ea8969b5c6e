"""A local poll's kept reads (``sheets.local.kept``, ``poll_gate.local_reads``): a workbook whose file is still the
version the last poll read is answered from that read, not loaded.

The property, for every game: a poll answered from its kept reads leaves every file a player, the GM or the page
sees exactly as a poll that loads every workbook (the same match, its kept reads removed) leaves it, and says the
same, whatever was saved since: a seat's orders typed, Ready ticked (a resolution, which writes the board and the
engine), nothing. Checked with the defect put back: a kept read trusted whatever the file now holds
(``KeptBook.holds`` answering True) answers a player's save with what she had before, and the walk fails at its first
save.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.poll_gate.local_reads import hand_kept_reads, local_reads_path
from sheets_gm.rulesets.registry import ruleset_names
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend, create_workbook
from sheets_gm.sheets.local.kept import KeptBook
from sheets_gm.sheets.xlsx import openpyxl
from tests.quick import soak_but
from tests.sheets.practice import practice_copy, seen_files, type_practice_orders


class Answers:
    """Counts the reads answered from a kept read."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = KeptBook.answers

        def counting(book: KeptBook, ranges: Sequence[str]) -> object:
            answer = real(book, ranges)
            self.count += answer is not None
            return answer

        monkeypatch.setattr(KeptBook, "answers", counting)


def sync(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    with contextlib.chdir(folder):
        assert main(["sync", "-c", "match.toml"]) == 0
    return capsys.readouterr().out


# The kept reads are the local backend's, the same for every game: the quick run walks Champions (the cheapest walk,
# about 2 s; the others cost 3 to 6 s each), the soak every game.
@pytest.mark.parametrize("game", soak_but(ruleset_names(), "champions"))
def test_a_poll_from_kept_reads_leaves_what_a_poll_that_loads_all_leaves(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    kept, cold = tmp_path / "kept", tmp_path / "cold"
    kept.mkdir()
    now = [datetime(2026, 11, 28, 12, tzinfo=UTC)]  # both polls of a step at one moment: a resolution keeps when
    monkeypatch.setattr("sheets_gm.commands.base.clock", lambda: now[0])  # it closed its window (``last``)
    practice_copy(kept, game)
    capsys.readouterr()
    assert sync(kept, capsys)  # its first poll: every workbook loaded, their reads kept
    shutil.copytree(kept, cold)
    answers = Answers(monkeypatch)
    for step, ready in enumerate((False, True, None, False)):  # orders, Ready (a resolution), nothing, orders
        for folder in (kept, cold):
            if ready is not None:
                type_practice_orders(folder / "match.toml", ready=ready, seed=f"kept/{step}")
        local_reads_path(cold / "match.toml").unlink(missing_ok=True)  # the cold copy loads every workbook
        now[0] += timedelta(minutes=1)
        said = sync(kept, capsys)
        assert said == sync(cold, capsys), f"step {step}"
        assert seen_files(kept) == seen_files(cold), f"step {step}: the files differ"
    assert answers.count > 0  # the kept reads answered: the walk is not vacuous


def test_a_kept_read_answers_only_the_version_it_was_taken_from(tmp_path: Path) -> None:
    practice_copy(tmp_path, "gvg")
    config = load_config(tmp_path / "match.toml")
    with contextlib.chdir(tmp_path):
        assert main(["sync", "-c", "match.toml", "--quiet"]) == 0
    board = tmp_path / "board.xlsx"
    sheets = open_match_sheets(config)
    hand_kept_reads(config.path, sheets)
    backend = sheets.board
    assert isinstance(backend, LocalWorkbookBackend) and backend.kept is not None
    ranges = list(backend.kept.grids)
    assert backend.read(ranges) == list(backend.kept.grids.values()) and backend._cache is None  # not loaded
    board.write_bytes(board.read_bytes())  # the same bytes, a new time: still the version kept
    assert backend.read(ranges) and backend._cache is None
    tab = backend.tab_names()[0]
    fresh = LocalWorkbookBackend(board)
    fresh.write([RangeWrite(f"'{tab}'!A1", [["typed over"]])])  # a new version
    assert backend.read([f"'{tab}'!A1"]) == [[["typed over"]]] and backend.kept is None  # loaded, the read dropped


@pytest.mark.parametrize(("value", "kept"), [(7, True), (2.5, True), (0.1 + 0.2, False), (2.0, False),
                                             (2**60 + 1, False), ("7", True)])
def test_a_version_saved_is_kept_only_where_each_number_written_reads_back(
        tmp_path: Path, value: int | float | str, kept: bool) -> None:
    """A number is saved to 16 digits, and a cell's format may show it as a date: a version saved here is kept only
    where its load would read what was written (a version loaded is kept whatever it holds)."""
    path = tmp_path / "book.xlsx"
    create_workbook(path, WorkbookLayout("book", (TabLayout("Tab", rows=3, cols=3),)))
    backend = LocalWorkbookBackend(path)
    backend.read(["'Tab'!A1:B2"])
    backend.write([RangeWrite("'Tab'!A1", [["text", True]])])
    assert backend.kept_read() is not None
    backend.write([RangeWrite("'Tab'!A2", [[value]])])
    as_saved = backend.read(["'Tab'!A1:B2"])
    loaded_now = LocalWorkbookBackend(path).read(["'Tab'!A1:B2"])
    assert (repr(loaded_now) == repr(as_saved)) is kept  # why: its load reads otherwise (2 for 2.0: repr tells)
    assert (backend.kept_read() is not None) is kept
    loaded = LocalWorkbookBackend(path)
    loaded.read(["'Tab'!A1:B2"])
    assert loaded.kept_read() is not None


def test_a_number_written_in_a_cell_a_player_formatted_as_a_date_is_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    create_workbook(path, WorkbookLayout("book", (TabLayout("Tab", rows=3, cols=3),)))
    book = openpyxl.load_workbook(path)
    book["Tab"]["A2"].number_format = "yyyy-mm-dd"  # as her office program saves a cell she formatted
    book.save(path)
    backend = LocalWorkbookBackend(path)
    backend.read(["'Tab'!A1:B2"])
    backend.write([RangeWrite("'Tab'!A2", [[45000]])])
    assert LocalWorkbookBackend(path).read(["'Tab'!A2"]) == [[["2023-03-15"]]] != backend.read(["'Tab'!A2"])
    assert backend.kept_read() is None
