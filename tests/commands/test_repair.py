"""init never destroys a GvG match; repair rebuilds an edited layout around it and keeps every typed order.

What any game on the generic sync shares (a deleted tab, a header typed over) is in test_window_commands.py;
this file keeps what a GvG team's edits do to its orders tab: a row per player and the captain's row."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.read import read_match
from tests.at_rest.starter import starter_match
from tests.matchfiles import GVG, local_match, record_of, type_orders, typed_match


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def match(tmp_path: Path) -> Path:
    """A local match at turn 1 whose players have typed their orders (captains not ready)."""
    return typed_match(tmp_path, ready=False)[0]


def typed_orders(config: Path) -> dict[str, dict[str, object]]:
    """Each typed row's cells (a player's destination, action and teleport; a captain's skills) as the sync
    reads them, by row subject."""
    read = read_match(open_match_sheets(load_config(config)), GVG)
    return {row.subject: dict(row.values) for seat in read.seats.values() for row in seat.rows if row.typed}


def edit(config: Path, change: Callable[[openpyxl.Workbook], None]) -> None:
    """Change the workbook as a player in LibreOffice would."""
    path = config.parent / "match.xlsx"
    book = openpyxl.load_workbook(path)
    change(book)
    book.save(path)


def seed_hash(config: Path) -> str:
    return record_of(open_match_sheets(load_config(config))).seed_hash


def test_init_refuses_a_match_whose_layout_was_edited_and_points_to_repair(
        match: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = seed_hash(match)
    edit(match, lambda book: book["Orders red"].__setitem__("D4", "Where to?"))
    code, _, err = run(capsys, "sync", "-c", match)
    assert code == 1 and "tab 'Orders red' cell D4 should say 'Destination'" in err and "sheets-gm repair" in err
    code, _, err = run(capsys, "init", "gvg", "-c", match)
    assert code == 1 and "would let players read secrets" in err  # this old layout: one workbook for all
    monkeypatch.setattr("sheets_gm.init.start.refuse_exposures", lambda config: None)
    code, _, err = run(capsys, "init", "gvg", "-c", match)
    assert code == 1 and "already holds a gvg match at turn 1 (0 windows resolved" in err
    assert f"sheets-gm repair -c {match}" in err
    code, out, _ = run(capsys, "doctor", "-c", match)
    assert code == 1 and "sheets-gm repair" in out
    book = openpyxl.load_workbook(match.parent / "match.xlsx")
    assert book["Orders red"]["D4"].value == "Where to?"  # init wrote nothing
    assert any(v for row in book["Engine"].iter_rows(values_only=True) for v in row if v == before)


def test_repair_restores_a_header_and_keeps_the_seed_and_every_typed_order(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before, typed = seed_hash(match), typed_orders(match)
    assert len(typed) >= 4 and "red0" in typed
    edit(match, lambda book: book["Orders red"].__setitem__("D4", "Where to?"))
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    assert f"{len(typed)} typed rows are back" in out and "seed hash" in out and "Kept a copy" in out
    [kept] = list((match.parent / "backups").glob("*-repair"))  # issue 54: one folder, named by date and command
    assert [p.name for p in kept.iterdir()] == ["match.xlsx"] and f"in backups/{kept.name}/" in out
    assert not list(match.parent.glob("match.before-repair-*.xlsx"))
    assert openpyxl.load_workbook(match.parent / "match.xlsx")["Orders red"]["D4"].value == "Destination"
    assert seed_hash(match) == before
    assert typed_orders(match) == typed
    code, out, _ = run(capsys, "resolve", "-c", match, "--force", "--turn", "1")
    assert code == 0 and "Turn 1 resolved" in out
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0 and "around the match (1 window resolved, seed hash" in out, err  # one, not "1 windows"


def test_repair_finds_orders_in_swapped_columns(match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typed = typed_orders(match)

    def swap(book: openpyxl.Workbook) -> None:
        ws = book["Orders blue"]
        for row in range(4, 12):
            d, e = ws.cell(row, 4).value, ws.cell(row, 5).value
            ws.cell(row, 4).value, ws.cell(row, 5).value = e, d

    edit(match, swap)
    assert run(capsys, "sync", "-c", match)[0] == 1
    assert run(capsys, "repair", "-c", match)[0] == 0
    assert typed_orders(match) == typed


def test_repair_finds_orders_in_a_renamed_tab_and_rebuilds_a_deleted_board(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typed = typed_orders(match)

    def rename_and_delete(book: openpyxl.Workbook) -> None:
        book["Orders red"].title = "Our orders"
        del book["Board"]

    edit(match, rename_and_delete)
    assert run(capsys, "sync", "-c", match)[0] == 1
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    assert "its typed rows were found in tab 'Our orders'" in out
    assert typed_orders(match) == typed
    book = openpyxl.load_workbook(match.parent / "match.xlsx")
    assert {"Board", "Orders red", "Our orders"} <= set(book.sheetnames)
    assert book["Board"]["Q1"].value == "sheets-gm · WWM GvG board"
    code, out, _ = run(capsys, "resolve", "-c", match, "--force", "--turn", "1")
    assert code == 0 and "Turn 1 resolved" in out
    code, out, _ = run(capsys, "verify", "-c", match)  # the old tab repair leaves is no tab of the match
    assert code == 1 and "tab 'Our orders' of " in out and "is no tab of the match" in out, out
    edit(match, lambda book: book.remove(book["Our orders"]))
    code, out, _ = run(capsys, "verify", "-c", match)
    assert code == 0, out


def test_repair_without_a_match_says_to_create_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "match.toml"
    config.write_text('ruleset = "gvg"\nteams = ["red", "blue"]\n[sheets]\nbackend = "local"\nboard = "m.xlsx"\n',
                      encoding="utf-8")
    openpyxl.Workbook().save(tmp_path / "m.xlsx")
    code, _, err = run(capsys, "repair", "-c", config)
    assert code == 1 and "m.xlsx has no tab 'Engine'" in err
    assert "there is nothing to repair: create one with sheets-gm init gvg" in err
    assert "restore the tab from a backup or an export" in err


def test_a_renamed_board_is_named_by_sync_and_after_repair(match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine holds the match, so sync does not suggest init; after repair the renamed tab, which stays beside
    the Board laid out again, is named so that the GM deletes it."""
    edit(match, lambda book: setattr(book["Board"], "title", "Board (2)"))
    code, _, err = run(capsys, "sync", "-c", match)
    assert code == 1 and "The engine tab holds the match, so a tab was renamed or deleted" in err
    assert "If the match was never created" not in err
    code, out, _ = run(capsys, "status", "-c", match)
    assert code == 1
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    assert "Note: tab 'Board (2)' in " in out and "match.xlsx is no part of the match's layout" in out
    assert "'Engine'" not in out and "'Roster'" not in out and "'Board'" not in out


def test_repair_of_a_fresh_init_notes_no_tab(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine workbook's About tab, written by init, is no stray tab: repair says nothing of it."""
    config = starter_match(tmp_path, "wesnoth").path  # init's, made once a test run (tests/at_rest): copied
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "Note:" not in out and "'About'" not in out


def test_repair_keeps_a_refused_row_typed_in_a_table_row_without_a_player(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A row typed under the players (no name in it) is answered ✘ and kept by every sync; repair keeps it too."""
    def stray(book: openpyxl.Workbook) -> None:
        ws = book["Orders red"]
        last = max(r for r in range(5, 20) if str(ws.cell(r, 1).value or "").startswith("red"))
        ws.cell(last + 1, 4).value = "H8"

    edit(match, stray)
    for _ in range(3):
        assert run(capsys, "sync", "-c", match)[0] == 0
    ws = openpyxl.load_workbook(match.parent / "match.xlsx")["Orders red"]
    row = next(r for r in range(5, 20) if ws.cell(r, 4).value == "H8")
    answer = ws.cell(row, ws.max_column).value
    assert str(answer).startswith("✘")
    edit(match, lambda book: setattr(book["Orders red"], "title", "Our orders"))
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    ws = openpyxl.load_workbook(match.parent / "match.xlsx")["Orders red"]
    assert ws.cell(row, 4).value == "H8" and str(ws.cell(row, ws.max_column).value).startswith("✘")
    assert "0 typed rows" not in out


def test_repair_after_a_column_inserted_keeps_the_orders_and_leaves_one_feedback_column(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typed = typed_orders(match)

    def insert(book: openpyxl.Workbook) -> None:
        ws = book["Orders blue"]
        ws.insert_cols(5)
        ws["E5"] = "our plan"  # typed in the inserted column: no column of the table

    edit(match, insert)
    assert run(capsys, "sync", "-c", match)[0] == 1
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    assert "read by its header and is laid out again where it belongs" in out
    assert "cell E5 in " in out and "held 'our plan'" in out
    assert typed_orders(match) == typed
    ws = openpyxl.load_workbook(match.parent / "match.xlsx")["Orders blue"]
    headers = [c.value for row in ws.iter_rows(min_row=1, max_row=ws.max_row) for c in row]
    assert headers.count("Feedback") == 2  # one per table (players, captain), none left beside them
    assert all(ws.cell(r, c).value in (None, "") for r in range(1, ws.max_row + 1)
               for c in range(13, ws.max_column + 1))  # right of the Feedback column (L)
    assert run(capsys, "sync", "-c", match)[0] == 0


def test_repair_after_a_column_inserted_sets_a_cell_typed_in_it_aside_in_the_team_s_archive(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Eve typed 'our plan' in a column a teammate inserted inside the players table. No column of the table is
    there after repair: the GM is told, and so is the team, whose Archive keeps the text (its cell is gone), with
    the lines it held before still there and the next entry of a resolution written under it."""
    def insert(book: openpyxl.Workbook) -> None:
        ws = book["Orders blue"]
        ws.insert_cols(5)
        ws["E5"] = "our plan"

    edit(match, insert)
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    assert "held 'our plan'" in out
    archive = openpyxl.load_workbook(match.parent / "match.xlsx")["Archive blue"]
    lines = [" ".join(str(c) for c in row if c) for row in archive.iter_rows(min_row=2, values_only=True)]
    said = [i for i, line in enumerate(lines) if "our plan" in line]
    assert said and "repair" in " ".join(lines[: said[0] + 1]), lines
    assert run(capsys, "sync", "-c", match)[0] == 0
    type_orders(open_match_sheets(load_config(match)))
    assert run(capsys, "sync", "-c", match)[0] == 0
    archive = openpyxl.load_workbook(match.parent / "match.xlsx")["Archive blue"]
    after = [" ".join(str(c) for c in row if c) for row in archive.iter_rows(min_row=2, values_only=True)]
    assert after[: len(lines)] == lines and any("resolved" in line for line in after[len(lines):]), after


def test_repair_after_a_column_inserted_moves_a_cell_typed_beside_the_table_back_with_it(
        match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A cell typed beside the players table (H5: a column the table does not use, answered ✘ in its row) is
    shifted by a column inserted before it; repair puts it back where it was, still answered, not dropped."""
    edit(match, lambda book: book["Orders blue"].cell(5, 8, "past the table"))
    assert run(capsys, "sync", "-c", match)[0] == 0
    edit(match, lambda book: book["Orders blue"].insert_cols(2))
    code, out, err = run(capsys, "repair", "-c", match)
    assert code == 0, err
    assert "held 'past the table'" not in out  # not an orphan: moved back
    assert run(capsys, "sync", "-c", match)[0] == 0
    ws = openpyxl.load_workbook(match.parent / "match.xlsx")["Orders blue"]
    assert ws.cell(5, 8).value == "past the table"
    assert str(ws.cell(5, 12).value).startswith("✘") and "past the table" in str(ws.cell(5, 12).value)


def test_a_resolution_s_journal_is_kept_in_the_gm_s_folder_and_dropped_at_its_commit(
        match: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands hand the poll the journal path beside the poll state (``.sheets-gm``): a resolution writes it
    before the seats' files and drops it once the engine committed."""
    from sheets_gm.sync import journal

    journal_file = match.parent / ".sheets-gm" / f"{match.stem}.journal.json"
    assert open_match_sheets(load_config(match)).journal == journal_file
    kept: list[int] = []
    write = journal.write_journal

    def noted(path: Path | None, entry: journal.ResolutionRecord) -> None:
        write(path, entry)
        assert path == journal_file and path.exists()
        kept.append(entry.resolution)

    monkeypatch.setattr(journal, "write_journal", noted)
    code, out, err = run(capsys, "resolve", "-c", match, "--force", "--window", "1")
    assert code == 0 and kept == [1], out + err
    assert not journal_file.exists()


def test_repair_copies_are_kept_together_and_only_the_last_five_repairs(match: Path) -> None:
    """Issue 54: each repair's copies in one folder named by config, date and command; the sixth repair removes the
    oldest folder and says which."""
    from sheets_gm.upkeep.backups import REPAIRS_KEPT, backup_workbooks, repair_folders

    config = load_config(match)
    stamps = [f"20261126-0{n}0000" for n in range(REPAIRS_KEPT + 1)]
    pruned_each = []
    for stamp in stamps:
        folder, copies, pruned = backup_workbooks(config, stamp)
        assert folder == match.parent / "backups" / f"match-{stamp}-repair" and copies == [folder / "match.xlsx"]
        pruned_each.append([p.name for p in pruned])
    assert pruned_each == [[]] * REPAIRS_KEPT + [[f"match-{stamps[0]}-repair"]]
    assert [p.name for p in repair_folders(config)] == [f"match-{s}-repair" for s in stamps[1:]]


def archive_text(book: openpyxl.Workbook) -> str:
    """Every cell of red's Archive, one after the other."""
    return " ".join(str(v) for row in book["Archive red"].iter_rows(values_only=True) for v in row if v)


def through_a_repair(capsys: pytest.CaptureFixture[str], config: Path, check: Callable[[], None]) -> None:
    """``check`` holds before and after a repair of red's tab with a column inserted before its tables, and a sync."""
    check()
    edit(config, lambda book: book["Orders red"].insert_cols(1))
    code, _out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert run(capsys, "sync", "-c", config)[0] == 0
    check()


def test_a_row_typed_under_the_last_table_stays_once_in_its_row_through_resolutions_and_a_repair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``Dmitri | E4`` typed two rows under the last table (and a word in the blank row between the tables) is
    answered in its row, kept there once, never copied into another row nor set aside while it stands there, across
    resolutions; a repair after a column inserted before it puts it back in its columns (issue 53, item 8)."""
    config, sheets = local_match(tmp_path)
    tab = read_match(sheets, GVG).seats["red"].tab
    under, between = tab.last_row + 2, tab.blank_rows()[0]

    def typed(book: openpyxl.Workbook) -> None:
        book["Orders red"].cell(under, 1, "Dmitri")
        book["Orders red"].cell(under, 2, "E4")
        book["Orders red"].cell(between, 2, "between")

    edit(config, typed)
    for _turn in range(2):
        type_orders(sheets)
        code, out, err = run(capsys, "sync", "-c", config)
        assert code == 0 and "resolved" in out, err

    def check() -> None:
        book = openpyxl.load_workbook(config.parent / "match.xlsx")
        ws = book["Orders red"]
        feedback = tab.width
        texts = [str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None]
        assert texts.count("Dmitri") == 1 and texts.count("between") == 1, texts
        assert [ws.cell(under, c).value for c in (1, 2, 3)] == ["Dmitri", "E4", None]
        assert str(ws.cell(under, feedback).value).startswith(f"✘ Row {under} is under the last table")
        assert [ws.cell(between, c).value for c in (1, 2, 3)] == [None, "between", None]
        assert str(ws.cell(between, feedback).value).startswith(f"✘ Row {between} is between two tables")
        archive = archive_text(book)
        assert "Dmitri" not in archive and "between" not in archive and "Set aside" not in archive, archive

    through_a_repair(capsys, config, check)


def test_rows_pasted_under_the_tables_stay_through_a_resolution_and_a_repair_answered_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Forty rows pasted under the last table, answered once in the first one's cell (issue 79), stay where they are
    through a resolution; a repair after a column inserted before them puts each back in its columns, and the one
    answer with them: none is lost, none copied, none set aside. Without the repair keeping the rows answered with
    the others (``quiet``), the repair drops 39 of them and this fails."""
    config, sheets = local_match(tmp_path)
    tab = read_match(sheets, GVG).seats["red"].tab
    first = tab.last_row + 3

    def pasted(book: openpyxl.Workbook) -> None:
        for i in range(40):
            book["Orders red"].cell(first + i, 1, f"junk{i}")
            book["Orders red"].cell(first + i, 3, i)

    edit(config, pasted)
    type_orders(sheets)
    code, out, err = run(capsys, "sync", "-c", config)
    assert code == 0 and "resolved" in out and out.count("under the last table") == 1, err

    def check() -> None:
        book = openpyxl.load_workbook(config.parent / "match.xlsx")
        ws = book["Orders red"]
        texts = [str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None]
        for i in range(40):
            assert [ws.cell(first + i, c).value for c in (1, 2, 3)] == [f"junk{i}", None, i]
            assert texts.count(f"junk{i}") == 1
        said = [ws.cell(first + i, tab.width).value for i in range(40)]
        assert str(said[0]).startswith(f"✘ Rows {first} to {first + 39} are under the last table") and \
            said[1:] == [None] * 39, said
        archive = archive_text(book)
        assert "junk" not in archive and "Set aside" not in archive, archive

    through_a_repair(capsys, config, check)
