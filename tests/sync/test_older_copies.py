"""A copy of a seat's file saved over the sync's write (issue 38, item 6; ``docs/sync.md``, "A copy saved over the
sync's write"): what she typed in the copy is read for the open window; what a resolution already carried out, and
ticks of a closed window, are not read again and the Archive says why; the tab and View are drawn again at once."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sync.read import read_match
from sheets_gm.sync.rows.seat_read import cells_text
from sheets_gm.sync.sheets import seat_backend
from tests.conformance.test_input_lifecycle import _do, _put
from tests.fakes.memory import MemoryBackend
from tests.matchfiles import GVG, local_match, order_cell, sync, type_orders
from tests.quick import soak_but
from tests.sync.test_save_races import history_orders, new_acting, sync_any


def _archive_text(path: Path, tab: str) -> str:
    return " ".join(str(c) for r in openpyxl.load_workbook(path)[tab].iter_rows(values_only=True) for c in r if c)


def test_gvg_what_she_typed_in_the_stale_copy_is_set_aside_not_read_for_the_open_turn(tmp_path: Path) -> None:
    """Red's LibreOffice held red.xlsx with turn 1's orders and Ready ticked; turn 1 resolved; in the old copy Ann
    then changed red1's destination and saved over the sync's write. The copy's tables were drawn for turn 1, and the
    sync cannot tell a destination typed in it after turn 1 resolved from one typed before and changed in the live
    file (issue 60: a stale copy never revives a line): red1's row is set aside to her Archive with why, not read for
    turn 2; the rows turn 1 carried out (and its Ready) are not read again; the tab and View are drawn again at once
    and say so; turn 2 then resolves without it, and the destination typed again in turn 2's tab is read."""
    _config, sheets = local_match(tmp_path, private=True)
    red = sheets.of("red")
    assert isinstance(red, LocalWorkbookBackend)
    type_orders(sheets)
    held = red.path.read_bytes()  # her office program holds the file with turn 1's orders
    assert sync(sheets).resolved
    after_one = read_match(sheets, GVG)
    type_orders(sheets, ready=False, seats=("red",))  # what red1 could do in turn 2 (typed here only to learn it)
    typed = read_match(sheets, GVG).seats["red"]
    player = next(r for r in typed.rows if r.table == "players" and r.text("destination"))
    new_destination = player.text("destination")
    tab = after_one.tabs.orders("red")
    copy_path = tmp_path / "copy.xlsx"
    copy_path.write_bytes(held)
    book = openpyxl.load_workbook(copy_path)
    cell = order_cell(after_one, "red", "players", player.subject, "destination")
    was = book[tab.name][cell].value
    late = new_destination if str(was) != new_destination else "H1"
    book[tab.name][cell].value = late
    book.save(copy_path)
    os.replace(copy_path, red.path)  # saved over the sync's write
    report = sync(sheets)
    assert report.older_copies == ["red"] and not report.resolved
    now = read_match(sheets, GVG)
    assert now.record.resolved == 1
    assert not [r for r in now.seats["red"].rows if r.typed], now.seats["red"].rows  # nothing of turn 1 read again
    sheet = openpyxl.load_workbook(red.path)[tab.name]
    status = " ".join(str(c) for r in sheet.iter_rows(max_row=3, values_only=True) for c in r if c)
    assert "saved from a copy older than resolution 1" in status and "1 row typed for a window already resolved is " \
        "set aside" in status, status
    view = openpyxl.load_workbook(red.path)[now.tabs.view("red")]
    assert "saved from a copy older than resolution 1" in str(view["A2"].value)
    archive = _archive_text(red.path, now.tabs.archive("red"))
    assert "Not read again" in archive and "already carried out" in archive
    assert "these rows were typed for" in archive and str(late) in archive, archive  # her text kept, with why
    type_orders(sheets, seats=("blue",))
    book = openpyxl.load_workbook(red.path)
    ready = now.tabs.orders("red").table("captain").cell(0, "ready")
    book[tab.name][ready].value = True
    book.save(red.path)
    report = sync(sheets)
    assert report.resolved and not report.older_copies
    orders = history_orders(sheets, 2)["players"]
    assert str(late) not in json.dumps(orders.get(player.subject, {}))  # never carried out in turn 2


def _typed_ticks(seat_read: object) -> list[object]:
    tab = seat_read.tab  # type: ignore[attr-defined]
    return [r for r in seat_read.rows  # type: ignore[attr-defined]
            if any(r.values.get(c.key) is True for c in tab.table(r.table).spec.columns
                   if c.kind in (ColumnKind.TICK, ColumnKind.READY))]


# Win or Die (her turn not resolved with no orders) and GvG in the quick run, every game under -m soak.
@pytest.mark.parametrize("name", soak_but(["winordie", "wesnoth", "gvg", "coalition", "champions"], "winordie", "gvg"))
def test_a_stale_copys_carried_out_rows_and_ticks_resolve_nothing_again(name: str) -> None:
    """Every game: the bots type and tick, the window resolves, the copy of before comes back. Nothing it holds that
    the resolution read comes back typed (no "already acted" refusal, no stale Go or Ready), and the next poll
    resolves nothing (Win or Die: her turn is not resolved with no orders)."""
    table, seat, backend = new_acting(name)
    _do(table, "bot", 0, 0, 0)
    read = table.read()
    window = read.record.ruleset.window(read.record.state)
    assert window is not None
    seat_read = read.seats[seat]
    for row in seat_read.rows:  # every Go, Ready and End turn of the tables she writes in now (not a table ahead)
        for c in seat_read.tab.table(row.table).spec.columns:
            if c.kind in (ColumnKind.TICK, ColumnKind.READY) and seat_read.writes_in(window, row.table):
                _put(table, read, seat, row.table, row.subject, c.key, True)
    held = copy.deepcopy(backend.tabs)
    report = sync_any(table, force=True)
    assert report.resolved
    resolved = table.read().record.resolved
    backend.tabs = held
    report = sync_any(table)
    assert report.older_copies == [seat] and not report.resolved
    after = table.read()
    assert not _typed_ticks(after.seats[seat]), after.seats[seat].rows
    for row in after.seats[seat].rows:
        assert "already" not in row.feedback, row
    report = sync_any(table)
    assert not report.resolved and table.read().record.resolved == resolved


def test_on_google_a_stale_version_restored_is_set_aside_not_read_for_the_open_turn() -> None:
    """The same on Google through the fake: red's spreadsheet restored to its version of before turn 1 resolved,
    a destination changed in it. The next poll sets that destination aside (its row drawn for turn 1) and drops turn
    1's orders: nothing of the restored version is read for turn 2."""
    from sheets_gm.sheets.layout import a1
    from sheets_gm.sync.autoplay import type_bot_orders
    from tests.fakes.clock import FakeClock
    from tests.fakes.google_api import GoogleApiFake
    from tests.matchfiles import bots
    from tests.sync.test_sync_google import KEYS, create, policy

    with GoogleApiFake() as fake:
        sheets = create(fake, policy(FakeClock()), 3)
        type_bot_orders(sheets, GVG, bots())
        held = copy.deepcopy(fake.spreadsheets[KEYS["red"]])
        assert sync(sheets).resolved
        read = read_match(sheets, GVG)
        player = read.adapter.rows(read.record.state, "red", read.tabs.orders("red").table("players").spec)[0]
        cell = a1(read.tabs.orders("red").name, order_cell(read, "red", "players", player, "destination"))
        fake.spreadsheets[KEYS["red"]] = held  # the old version comes back
        fake.set_values(KEYS["red"], cell, [["Q99"]], user_entered=False)  # she typed in it
        report = sync(sheets)
        assert report.older_copies == ["red"] and not report.resolved
        rows = read_match(sheets, GVG).seats["red"].rows
        assert not [r for r in rows if r.typed], rows
        archive = " ".join(str(c) for r in fake.values(KEYS["red"], read.tabs.archive("red"))
                           for c in r if c)
        assert "these rows were typed for" in archive and "Q99" in archive, archive
        assert not fake.violations, fake.violations


def test_an_older_copy_still_open_in_libreoffice_waits_and_the_other_team_is_answered(tmp_path: Path) -> None:
    """Red's old copy was saved over the sync's write and red.xlsx is still open (its lock file is there): the poll
    writes nothing to red's file (LibreOffice would save over it), answers blue, and says which file is open; once
    it is closed, red's file is drawn again and what she typed in the copy is read."""
    from sheets_gm.sheets.backend import WorkbookOpenError
    from tests.conformance.test_input_lifecycle import player_save

    _config, sheets = local_match(tmp_path, private=True)
    red, blue = sheets.of("red"), sheets.of("blue")
    assert isinstance(red, LocalWorkbookBackend) and isinstance(blue, LocalWorkbookBackend)
    type_orders(sheets)
    held = red.path.read_bytes()
    assert sync(sheets).resolved
    red.path.write_bytes(held)  # the old copy saved over the sync's write
    read = read_match(sheets, GVG)
    blue_cell = order_cell(read, "blue", "players", "blue0", "destination")
    player_save(blue, f"'{read.tabs.orders('blue').name}'!{blue_cell}", "ZZ99")
    lock = red.path.parent / f".~lock.{red.path.name}#"
    lock.write_text(",Ann Smith,ann-laptop,22.11.2026 12:00,file:///home/ann;", encoding="utf-8")
    before = red.path.read_bytes()
    with pytest.raises(WorkbookOpenError, match="open in LibreOffice by Ann Smith"):
        sync(sheets)
    assert red.path.read_bytes() == before  # not written while open
    row = next(r for r in read_match(sheets, GVG).seats["blue"].rows if r.values.get("destination") == "ZZ99")
    assert row.feedback.startswith("✘"), row  # blue was answered meanwhile
    lock.unlink()
    report = sync(sheets)
    assert report.older_copies == ["red"] and not report.resolved
    assert all(r.window == read.record.window_key() for r in read_match(sheets, GVG).seats["red"].rows
               if r.table == "players")


def test_the_archive_entry_given_back_to_an_older_copy_is_the_one_the_resolution_wrote() -> None:
    """Win or Die: Ann's turn resolves her first rows and keeps the last ones (a Charge the GM weighs first), moved
    up to rows 1 and 2 of her ordered actions table. Her office program then saves the copy of before over the
    sync's write. The Archive entry the next poll writes back from the engine's history row says what the first one
    said, row for row: the kept rows not carried out and why, the others carried out (not the other way round, by
    the rows the kept ones were moved to, nor with their feedback's words for the reason)."""
    table, _seat, backend = new_acting("winordie")
    for step in range(2):
        _do(table, "bot", step, 0, 0)
        assert sync_any(table, force=True).resolved
    read = table.read()
    assert read.record.ruleset.window(read.record.state).seats[0] == "Ann"
    ann = seat_backend(table.sheets, read.tabs, "Ann")
    assert isinstance(ann, type(backend))
    _do(table, "bot", 2, 0, 0)
    held = copy.deepcopy(ann.tabs)
    assert sync_any(table, force=True).resolved
    archive = f"'{read.tabs.archive('Ann')}'!A1:B200"
    (written,) = ann.read([archive])
    assert any("not carried out" in str(line[-1]) for line in written), written
    ann.tabs = held
    assert sync_any(table).older_copies == ["Ann"]
    (given_back,) = ann.read([archive])
    assert given_back[:len(written)] == written


def test_a_history_row_of_before_gives_its_kept_notes_back_to_the_rows_they_were_read_in() -> None:
    """A history row written before the entry's own words were kept holds only the kept rows' feedback, each under the
    row it was moved up to (Row 1) and ``stayed`` saying where it was read (Row 5): the note goes back to Row 5."""
    from sheets_gm.sync.older_copy import _said

    found = {"kept": [{"table": "actions", "subject": "Row 1", "note": "✘ Not carried out: no tokens"},
                      {"table": "actions", "subject": "Row 2", "note": "Carried out in part: the move"}],
             "stayed": [{"table": "actions", "subject": "Row 5", "at": "Row 1"},
                        {"table": "actions", "subject": "Row 6", "at": "Row 2"}]}
    assert _said(found) == ({("actions", "Row 5"): "Not carried out: no tokens"},
                            {("actions", "Row 6"): "Carried out in part: the move"}, {})
    said = {"unused": [["actions", "Row 5", "no tokens"]], "partly": [], **found}
    assert _said(said) == ({("actions", "Row 5"): "no tokens"}, {}, {})


def _rows_as_drawn(table: object, seat: str, tables: tuple[str, ...]) -> list[tuple[str, str, dict[str, str], str]]:
    read = table.read()  # type: ignore[attr-defined]
    return [(r.table, r.subject, dict(r.values), r.feedback) for r in read.seats[seat].rows if r.table in tables]


def test_an_older_copys_kept_rows_go_back_where_the_resolution_moved_them_and_are_never_carried_out_twice() -> None:
    """Win or Die: Ann's turn keeps her last rows (a Charge the GM weighs first), moved up to rows 1 and 2 of her
    ordered actions table, each saying why. The copy of before, saved over the sync's write, is drawn again as the
    resolution drew it: those rows in rows 1 and 2 with their reasons (not in rows 5 and 6 with "Kept for"). And when
    a second resolution carried them out before the copy came back, they are not read again."""
    table, _seat, _backend = new_acting("winordie")
    for step in range(2):
        _do(table, "bot", step, 0, 0)
        assert sync_any(table, force=True).resolved
    read = table.read()
    ann = seat_backend(table.sheets, read.tabs, "Ann")
    assert isinstance(ann, MemoryBackend)
    _do(table, "bot", 2, 0, 0)
    held = copy.deepcopy(ann.tabs)
    assert sync_any(table, force=True).resolved
    resolved = table.read().record.resolved
    as_drawn = _rows_as_drawn(table, "Ann", ("actions",))
    kept = [r for r in as_drawn if any(r[2].values())]
    assert kept and all(r[3].startswith("Not resolved") for r in kept), kept
    after = copy.deepcopy(ann.tabs)
    ann.tabs = copy.deepcopy(held)
    assert sync_any(table).older_copies == ["Ann"]
    assert _rows_as_drawn(table, "Ann", ("actions",)) == as_drawn
    ann.tabs = after
    assert not sync_any(table, force=True).older_copies
    _do(table, "bot", 3, 0, 0)
    assert sync_any(table, force=True).resolved  # the kept rows carried out now
    carried = table.read().record.resolved
    assert carried > resolved
    ann.tabs = held
    report = sync_any(table)
    assert report.older_copies == ["Ann"] and not report.resolved
    again = [r for r in table.read().seats["Ann"].rows if r.table == "actions" and r.typed]
    assert not [r for r in again if any(cells_text(r.values) == cells_text(k[2]) for k in kept)], again


def test_an_older_copys_stray_rows_moved_aside_leave_the_rows_drawn_there_their_own_answer() -> None:
    """Wesnoth: Ann recruits; her office program still holds the file of before, where the units table drew only her
    leader, and she types a move in the empty row under it (it has no Unit) and saves over the sync's write. The
    poll draws her tab again: her recruit now has that row, so the typed cells move down to a free row with their
    ✘ answer, and the recruit's row says what any empty row of the window says, not the stray's ✘."""
    table, seat, backend = new_acting("wesnoth")
    read = table.read()
    units = read.seats[seat].tab.table("units")
    _do(table, "bot", 0, 0, 0)
    held = copy.deepcopy(backend.tabs)
    assert sync_any(table, force=True).resolved
    after = table.read()
    recruits = [r for r in after.seats[seat].rows if r.table == "units"][1:]
    assert recruits, "the bot recruits in its first turn"
    backend.tabs = held
    backend.type(units.tab, units.cell(1, "action"), "move")  # under her leader, in the copy: no Unit there
    report = sync_any(table)
    assert report.older_copies == [seat]
    drawn = table.read().seats[seat]
    row = next(r for r in drawn.rows if r.table == "units" and r.subject == recruits[0].subject)
    assert not row.feedback.startswith("✘"), row
    assert any(s.cells and "move" in [str(c) for c in s.cells] for s in drawn.strays), drawn.strays


def test_status_says_which_open_workbook_a_due_window_waits_for(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Every team is ready, but red's file is open in LibreOffice (its lock file is there): the resolution waits for
    it. ``status`` says so beside "Due now", naming the file and who holds it, not only that the window is due."""
    from sheets_gm.cli import main

    config, sheets = local_match(tmp_path, private=True)
    red = sheets.of("red")
    assert isinstance(red, LocalWorkbookBackend)
    type_orders(sheets)
    lock = red.path.parent / f".~lock.{red.path.name}#"
    lock.write_text(",Ann Smith,ann-laptop,22.11.2026 12:00,file:///home/ann;", encoding="utf-8")
    assert main(["status", "-c", str(config)]) == 0
    out = capsys.readouterr().out
    assert "Due now: every seat is ready" in out
    assert f"waits until {red.path.name} is closed" in out and "open in LibreOffice by Ann Smith" in out, out
    lock.unlink()
    assert main(["status", "-c", str(config)]) == 0
    assert "waits until" not in capsys.readouterr().out


def test_a_row_a_resolution_kept_comes_back_when_an_older_copy_lacks_it(tmp_path: Path) -> None:
    """GvG: Cid's office program holds red's file from before anyone typed. Ann types a destination into a wall;
    turn 1 resolves, keeps her row with its ✘ reason and tells her Archive it is "still in your rows". Cid then saves
    his copy over the sync's write: it has no row of Ann's. The next poll draws Ann's kept row again, with its
    reason, rather than leave the Archive saying it is in her rows when it is in no cell."""
    _config, sheets = local_match(tmp_path, private=True)
    red = sheets.of("red")
    assert isinstance(red, LocalWorkbookBackend)
    held = red.path.read_bytes()  # Cid's copy: nothing typed yet
    read = read_match(sheets, GVG)
    player = next(r for r in read.seats["red"].rows if r.table == "players")
    cell = order_cell(read, "red", "players", player.subject, "destination")
    type_orders(sheets)
    book = openpyxl.load_workbook(red.path)
    book[read.tabs.orders("red").name][cell].value = "Z99"  # no such tile: refused, kept
    book.save(red.path)
    assert not sync(sheets).resolved  # red's Ready waits for the refused row (issue 53: Ready means ready)
    assert sync(sheets, force=True).resolved  # the GM closes the turn: the row is kept with its reason
    kept = next(r for r in read_match(sheets, GVG).seats["red"].rows if r.subject == player.subject
                and r.table == "players")
    assert kept.text("destination") == "Z99" and kept.feedback.startswith("✘"), kept
    red.path.write_bytes(held)  # saved over the sync's write
    assert sync(sheets).older_copies == ["red"]
    back = next(r for r in read_match(sheets, GVG).seats["red"].rows if r.subject == player.subject
                and r.table == "players")
    assert back.text("destination") == "Z99" and back.feedback.startswith("✘"), back
    assert back.feedback == kept.feedback, (back, kept)


@pytest.mark.parametrize("cell", ["name", "roll"])
def test_a_drawn_cell_typed_over_in_a_stale_copy_is_kept_in_the_archive_it_gives_back(cell: str) -> None:
    """Ann pastes a line over a row's name (or over its Move roll); the GM forces the window (the resolution keeps
    the text in her Archive); her office program still held the file with the pasted text and saves it over the
    sync's write, the Archive line with it gone. The copy drawn again keeps the text in her Archive once more, and
    its tab shows what sheets-gm draws there."""
    table, seat, backend = new_acting("gvg")
    read = table.read()
    row = next(r for r in read.seats[seat].rows if r.table == "players")
    placed = read.seats[seat].tab.table(row.table)
    key = placed.spec.of_kind(ColumnKind.SHOWN)[0].key if cell == "roll" else placed.spec.columns[0].key
    backend.type(placed.tab, placed.cell(row.row - placed.first_row, key), "red1: H8, red2: H9 (pasted)")
    held = copy.deepcopy(backend.tabs)
    assert sync_any(table, force=True).resolved
    backend.tabs = held
    report = sync_any(table)
    assert report.older_copies == [seat]
    after = table.read()
    archive = " ".join(str(v) for v in backend.tabs[after.tabs.archive(seat)].values())
    assert "red1: H8, red2: H9 (pasted)" in archive
    assert any(r.subject == row.subject for r in after.seats[seat].rows)
    assert "(pasted)" not in str(backend.value(placed.tab, placed.cell(row.row - placed.first_row, key)))


def test_an_older_copy_drawn_after_an_undo_gets_its_lost_view_lines_back_in_their_rows() -> None:
    """A window an undo took back is in no replay: its lines and the undo's stand in the View before the next
    resolution's. The resolution's history entry says the row its lines began at, so the lines an older copy drawn
    after the undo lost go back in the rows they held (once they could not be placed and were said to be lacking)."""
    from sheets_gm.sync.life.adjust_undo import undo_window

    table, seat, backend = new_acting("coalition")
    _do(table, "bot", 0, 0, 0)
    assert sync_any(table, force=True).resolved
    undo_window(table.sheets, table.cls, "the audit's undo")
    held = copy.deepcopy(backend.tabs)  # her file as drawn after the undo, still open in her office program
    assert sync_any(table, force=True).resolved
    read = table.read()
    count = read.record.seat_logs[seat]
    where = read.tabs.view_log_range(seat, 0, count)
    (drawn,) = backend.read([where])
    backend.tabs = held
    report = sync_any(table)
    assert report.older_copies == [seat]
    (log,) = backend.read([where])
    assert log == drawn
    said = " ".join(report.older_copy_fates)
    assert "View log lacks" not in said, said


def test_a_kept_row_comes_back_and_a_row_typed_in_its_place_in_an_older_copy_is_set_aside() -> None:
    """Win or Die (issue 53, item 6): Ann's turn keeps two refused attacks, moved up to rows 1 and 2 of her ordered
    actions table, each "✘ Not carried out in turn 1 · Ann", her Archive saying they are "still in your rows". Her
    office program held the file of before she typed them; she types a new move in its row 1 and saves it over the
    sync's write. The copy's tables were drawn for the turn that closed since, so the new move is bound to it (issue
    60: the sync cannot tell it from a line typed before that turn resolved and cleared since): set aside to her
    Archive with why, never read for the open window; both kept rows come back in their rows with their reasons."""
    table, _seat, _backend = new_acting("winordie")
    for step in range(2):
        _do(table, "bot", step, 0, 0)
        assert sync_any(table, force=True).resolved
    read = table.read()
    ann = read.record.ruleset.window(read.record.state).seats[0]
    backend = seat_backend(table.sheets, read.tabs, ann)
    assert isinstance(backend, MemoryBackend)
    held = copy.deepcopy(backend.tabs)
    typed = [("Ann-1", "move", "D4"), ("Ann-2", "attack", "E5"), ("Ann-7", "attack", "B6")]
    for n, row in enumerate(typed, start=1):
        for key, value in zip(("unit", "action", "target"), row, strict=True):
            _put(table, read, ann, "actions", f"Row {n}", key, value)
    assert sync_any(table, force=True).resolved  # the move carried out; the attacks on empty hexes kept
    kept = [r for r in _rows_as_drawn(table, ann, ("actions",)) if any(r[2].values())]
    assert [r[2]["target"] for r in kept] == ["E5", "B6"] and all(r[3].startswith("✘ Not carried out") for r in kept)
    backend.tabs = held
    copy_read = table.read()
    for key, value in (("unit", "Ann-3"), ("action", "move"), ("target", "F4")):
        _put(table, copy_read, ann, "actions", "Row 1", key, value)
    report = sync_any(table)
    assert report.older_copies == [ann] and not report.resolved
    drawn = [r for r in _rows_as_drawn(table, ann, ("actions",)) if any(r[2].values())]
    assert [r[2]["target"] for r in drawn] == ["E5", "B6"], drawn
    assert [r[3] for r in drawn] == [r[3] for r in kept], drawn
    status = backend.read([copy_read.seats[ann].tab.status_cell()])[0][0][0]
    assert "2 rows that resolution" in str(status) and "back in their rows" in str(status), status
    assert "1 row typed for a window already resolved is set aside" in str(status), status
    archive = " ".join(str(v) for v in backend.tabs[read.tabs.archive(ann)].values())
    assert "these rows were typed for" in archive and "Target: F4" in archive, archive  # with why, her text kept
