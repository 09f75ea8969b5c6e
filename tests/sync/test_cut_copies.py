"""A resolution cut before its commit, then a seat's hidden Copies tab deleted (or renamed) before the next poll
(issue 38): the rows the resolution had read and cleared from her cells come back from the GM's journal, and where
there is no journal ``repair`` says exactly which rows were lost, in its notes and in her Archive. Played with the
real sync on memory spreadsheets (GvG: red's file is written before blue's)."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.journal import (
    ChangeJournal,
    ResolutionRecord,
    dice_key,
    journal_path,
    journal_under_way,
    load_journal,
    write_journal,
)
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.match_record import history_rows, joined_cells
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import seat_backend
from tests.conformance import test_input_lifecycle as lifecycle
from tests.fakes.google_api import GoogleApiFake
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.sync.test_typed_row_lifecycle import NOW, Match


def _match(tmp_path: Path | None) -> Match:
    """A GvG match whose bots typed every row of turn 1, keeping its journal under ``tmp_path`` (none if None)."""
    match = Match("gvg")
    if tmp_path is not None:
        match.sheets = dataclasses.replace(match.sheets, journal=journal_path(tmp_path / "friday.toml"))
    type_bot_orders(match.sheets, match.cls, match.bots)
    return match


def _typed(match: Match, seat: str) -> list[str]:
    """The destinations ``seat`` typed for the open window."""
    return [str(r.values["destination"]) for r in match.read().seats[seat].rows
            if r.typed and r.values.get("destination")]


#: The Archive entry of the rows a resolution of turn 1 read, when the GM forced it (as ``_cut`` and these tests do).
FORCED_ENTRY = "Turn 1 was closed by the GM (resolve --force) and resolved with what you typed:"


def _cut(match: Match, backend: MemoryBackend) -> None:
    """A forced resolution cut at ``backend``'s write (its read is its first call)."""
    backend.calls.clear()
    backend.fail_on_call = 2
    with pytest.raises(InjectedFault):
        poll(match.sheets, match.cls, now=NOW, force=True)
    backend.fail_on_call = None


def _copies_gone(match: Match, seat: str, rename: bool = False) -> None:
    """``seat``'s hidden Copies tab deleted by hand (or renamed)."""
    backend = match.sheets.of(seat)
    assert isinstance(backend, MemoryBackend)
    name = match.read().tabs.copies(seat)
    cells_, size = backend.tabs.pop(name), backend.sizes.pop(name)
    if rename:
        backend.tabs[f"{name} (old)"], backend.sizes[f"{name} (old)"] = cells_, size


def _read_in_history(match: Match | lifecycle.Table, seat: str) -> list[str]:
    """The destinations of ``seat``'s rows each committed resolution read (the engine's history rows)."""
    read = match.read()
    found: list[str] = []
    (grid,) = match.sheets.engine.read([history_rows(read.tabs.spec.tabs.engine, read.record.resolved)])
    for line in grid:
        entry = json.loads(joined_cells(line, 1))
        rows = json.loads(joined_cells([entry["archived"][seat]], 0))["rows"]
        found += [str(r["values"]["destination"]) for r in rows if r["values"].get("destination")]
    return found


def test_a_cut_resolution_s_rows_come_back_from_the_journal_when_the_copies_tab_was_deleted(tmp_path: Path) -> None:
    match = _match(tmp_path)
    typed = _typed(match, "blue")
    assert typed
    _cut(match, match.sheets.engine)  # type: ignore[arg-type]
    assert _typed(match, "blue") == []  # read and cleared, their copy in the pending row and the journal only
    path = match.sheets.journal
    assert path is not None and path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    _copies_gone(match, "blue")
    report = repair_match(match.sheets, match.cls)
    assert any(f"had read {len(typed) + 1} rows from blue's file: its pending row was written back from the GM's "
               "journal" in n for n in report.notes), report.notes  # her players' rows and the captain's
    completed = match.poll()
    assert completed.resolved and completed.reason == "completing a resolution that was interrupted"
    assert _read_in_history(match, "blue") == typed  # carried out with the rows the cut resolution read
    assert not path.exists()  # the engine committed it
    assert "was cut before" not in match.archive("blue")


def test_a_journal_is_written_before_the_seats_and_dropped_at_the_commit(tmp_path: Path) -> None:
    match = _match(tmp_path)
    path = match.sheets.journal
    assert path is not None
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    assert not path.exists()
    red = match.sheets.of("red")
    assert isinstance(red, MemoryBackend)
    _cut(match, red)  # cut at the first seat's write: nothing written, the journal kept
    journal = journal_under_way(path, match.read().record)
    assert journal is not None and set(journal.pending) == {"red", "blue"}
    assert journal.resolution == match.read().record.resolved + 1


def test_a_journal_of_another_match_or_a_committed_resolution_is_ignored(tmp_path: Path) -> None:
    match = _match(tmp_path)
    path = match.sheets.journal
    record = match.read().record
    assert path is not None
    dice = dice_key(record.dice())
    change = ChangeJournal(record.seed_hash, "resolution", record.generation, record.generation + 1, ())
    write_journal(path, ResolutionRecord("another match", record.resolved + 1, record.deal, record.window_key(), {}, {},
                                         {}, (), dice, None, change))
    assert load_journal(path) is not None and journal_under_way(path, record) is None
    write_journal(path, ResolutionRecord(record.seed_hash, record.resolved, record.deal, record.window_key(), {}, {},
                                         {}, (), dice, None, change))
    assert journal_under_way(path, record) is None
    path.write_text("{not json", encoding="utf-8")
    assert load_journal(path) is None


def test_a_cut_before_the_seat_s_file_leaves_her_rows_in_her_cells_and_repair_keeps_them(tmp_path: Path) -> None:
    match = _match(tmp_path)
    typed = _typed(match, "blue")
    blue = match.sheets.of("blue")
    assert isinstance(blue, MemoryBackend)
    _cut(match, blue)  # red's file written, blue's not
    assert _typed(match, "blue") == typed
    _copies_gone(match, "blue")
    report = repair_match(match.sheets, match.cls)
    assert not any("journal" in n for n in report.notes), report.notes
    assert match.poll().resolved
    assert _read_in_history(match, "blue") == typed
    assert FORCED_ENTRY in match.archive("blue")  # the completing poll wrote her entry


def test_a_renamed_copies_tab_gives_back_the_pending_row_of_a_cut_resolution() -> None:
    match = _match(None)  # no journal: the renamed tab has the row
    typed = _typed(match, "blue")
    _cut(match, match.sheets.engine)  # type: ignore[arg-type]
    _copies_gone(match, "blue", rename=True)
    report = repair_match(match.sheets, match.cls)
    assert any("written back from tab 'Copies blue (old)'" in n for n in report.notes), report.notes
    assert match.poll().resolved
    assert _read_in_history(match, "blue") == typed


def test_without_a_journal_repair_names_the_rows_a_cut_resolution_lost_and_the_archive_says_so() -> None:
    match = _match(None)
    typed = _typed(match, "blue")
    _cut(match, match.sheets.engine)  # type: ignore[arg-type]
    _copies_gone(match, "blue")
    report = repair_match(match.sheets, match.cls)
    lost = [n for n in report.notes if "could not be recovered" in n]
    assert len(lost) == 1 and "resolution 1 (turn 1)" in lost[0], report.notes
    assert all(f"Destination: {d}" in lost[0] for d in typed)
    archive = match.archive("blue")
    assert FORCED_ENTRY not in archive and "Turn 1 resolved" not in archive  # nothing says they were carried out
    assert "were NOT carried out" in archive and all(f"Destination: {d}" in archive for d in typed)
    assert match.poll().resolved
    assert _read_in_history(match, "blue") == []
    assert FORCED_ENTRY not in match.archive("blue") and "Turn 1 resolved" not in match.archive("blue")


def test_a_copies_tab_deleted_with_nothing_under_way_gets_the_mark_and_no_note_of_a_cut(tmp_path: Path) -> None:
    match = _match(tmp_path)
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    _copies_gone(match, "blue")
    report = repair_match(match.sheets, match.cls)
    assert not any("cut before" in n for n in report.notes), report.notes
    assert FORCED_ENTRY in match.archive("blue")
    assert match.read().seats["blue"].pending is None


def test_without_a_journal_or_an_archive_repair_says_the_cut_resolution_s_rows_cannot_be_listed() -> None:
    match = _match(None)
    _cut(match, match.sheets.engine)  # type: ignore[arg-type]
    archive = match.read().tabs.archive("blue")
    _copies_gone(match, "blue")
    blue = match.sheets.of("blue")
    assert isinstance(blue, MemoryBackend)
    blue.tabs.pop(archive), blue.sizes.pop(archive)
    report = repair_match(match.sheets, match.cls)
    assert any("resolution 1 (turn 1) was cut before its commit" in n and "could not be recovered" in n
               and "no longer lists them" in n for n in report.notes), report.notes


@pytest.mark.parametrize("where", ["local", "google"])
def test_on_local_workbooks_and_google_the_journal_gives_a_cut_resolution_its_rows_back(where: str,
                                                                                       tmp_path: Path) -> None:
    """The same on a workbook per seat (the Copies tab deleted in the .xlsx, as an office program saves it) and on
    the Google fake (deleted in Sheets' own window), the engine's write failing as a crash would cut it."""
    with contextlib.ExitStack() as stack:
        if where == "google":
            lifecycle.GOOGLE_FAKES.clear()
            lifecycle.GOOGLE_FAKES["fake"] = stack.enter_context(GoogleApiFake())
            stack.callback(lifecycle.GOOGLE_FAKES.clear)
            table = lifecycle.new_table("gvg", lifecycle._google_match)
        else:
            table = lifecycle.new_table("gvg", lifecycle._local_match, tmp_path)
        type_bot_orders(table.sheets, table.cls, table.bots)
        read = table.read()
        typed = [str(r.values["destination"]) for r in read.seats["blue"].rows if r.values.get("destination")]
        engine: Any = table.sheets.engine

        def crash(*_args: object, **_kwargs: object) -> None:
            raise InjectedFault("the engine's write")

        engine.write = crash
        with pytest.raises(InjectedFault):
            poll(table.sheets, table.cls, now=NOW, force=True)
        del engine.write
        copies = read.tabs.copies("blue")
        lifecycle._edit_tabs(seat_backend(table.sheets, read.tabs, "blue"), lambda tabs: tabs.delete(copies))
        report = repair_match(table.sheets, table.cls)
        assert any("written back from the GM's journal" in n for n in report.notes), report.notes
        assert poll(table.sheets, table.cls, now=NOW).resolved
        assert typed and _read_in_history(table, "blue") == typed


def test_a_repair_while_a_cut_resolution_is_pending_keeps_the_rows_it_left_in_her_cells() -> None:
    """Repair draws a seat's tables for the window the record has open, so the rows the cut resolution had left in her
    cells (a Wesnoth standing choice, refused) came back stamped for the window being resolved, and its completion
    cleared them as carried out, with no trace: only the rows it read and carried out go (found by a random run)."""
    match = Match("wesnoth")
    seat = match.window().seats[0]
    row = next(r for r in match.read().seats[seat].rows if r.table == "standing")
    match.type(seat, "standing", 0, "advance", row.subject)  # not an advancement: refused, and kept
    _cut(match, match.sheets.engine)  # type: ignore[arg-type]
    kept = [r for r in match.read().seats[seat].rows if r.table == "standing" and r.typed]
    assert [r.values["advance"] for r in kept] == [row.subject]
    repair_match(match.sheets, match.cls)
    assert match.poll().reason == "completing a resolution that was interrupted"
    after = [r for r in match.read().seats[seat].rows if r.table == "standing" and r.typed]
    assert [r.values["advance"] for r in after] == [row.subject]
    assert after[0].feedback.startswith("✘"), after[0].feedback


@pytest.mark.parametrize("journal", [True, False], ids=["journal", "no-journal"])
def test_a_forced_windows_archive_entry_is_the_same_uncut_completed_after_a_cut_and_given_back(
        tmp_path: Path, journal: bool) -> None:
    """Issue 64: a turn the GM closed with resolve --force is archived as closed by her, whichever path writes the
    entry: the resolution run whole, its completion after a cut before blue's file (from the GM's journal, or without
    one from red's pending row), and the entry given back from the history to an older copy of blue's file."""
    uncut = _match(None)
    blue = uncut.sheets.of("blue")
    assert isinstance(blue, MemoryBackend)
    before = copy.deepcopy(blue.tabs)
    assert poll(uncut.sheets, uncut.cls, now=NOW, force=True).resolved
    entry = uncut.archive("blue")
    assert FORCED_ENTRY in entry, entry
    cut = _match(tmp_path if journal else None)
    cut_blue = cut.sheets.of("blue")
    assert isinstance(cut_blue, MemoryBackend)
    _cut(cut, cut_blue)  # red's file written, blue's not
    assert cut.poll().resolved
    assert cut.archive("blue") == entry
    blue.tabs = before  # her office program saves the copy of before over the sync's write
    assert uncut.poll().older_copies == ["blue"]
    assert uncut.archive("blue").startswith(entry)


def test_a_resolution_record_keeps_the_gms_force_and_one_kept_before_reads_as_not_forced(tmp_path: Path) -> None:
    """The record of a forced resolution reads back forced; one kept before the field (no "forced") reads as not."""
    match = _match(tmp_path)
    path = match.sheets.journal
    record = match.read().record
    assert path is not None
    change = ChangeJournal(record.seed_hash, "resolution", record.generation, record.generation + 1, ())
    kept = ResolutionRecord(record.seed_hash, record.resolved + 1, record.deal, record.window_key(), {}, {}, {}, (),
                            dice_key(record.dice()), None, change, forced=True)
    write_journal(path, kept)
    assert (loaded := load_journal(path)) is not None and loaded.forced
    old = json.loads(path.read_text(encoding="utf-8"))
    del old["forced"]
    path.write_text(json.dumps(old), encoding="utf-8")
    assert (loaded := load_journal(path)) is not None and not loaded.forced
