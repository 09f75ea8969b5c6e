"""Exporting a match on the generic sync: each spreadsheet as .xlsx, a CSV per visible tab (formulas
neutralised), and the JSON replay from which ``sheets-gm verify`` recomputes every roll."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.files import orders_file
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sheets.private_files import private_folder, write_private
from sheets_gm.sheets.xlsx import openpyxl, unpacked_size_problem
from sheets_gm.sync.command_journal import (
    begin_command,
    command_path,
    end_command,
    export_moving,
    export_staging,
    move_staged,
)
from sheets_gm.sync.life.replay import match_history, replay_document
from sheets_gm.sync.life.settle import settle_cut_command
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import ABOUT_TAB
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what spreadsheet programs run as a formula


def neutralise(value: CellValue) -> str:
    """A cell as CSV text that no spreadsheet program will run as a formula (OWASP: prefix a quote).

    >>> neutralise("=1+1"), neutralise("-3"), neutralise("Ann"), neutralise(None)
    ("'=1+1", "'-3", 'Ann', '')
    """
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def to_csv(grid: Grid) -> str:
    """A tab's values as CSV, every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; also makes the writer quote a lone \r
    width = max((len(r) for r in grid), default=0)
    for row in grid:
        writer.writerow([neutralise(v) for v in row] + [""] * (width - len(row)))
    return out.getvalue()


def match_replay(sheets: MatchSheets, ruleset_class: type[AnyRuleset]) -> dict[str, Any]:
    """The replay of a match, read from its sheets (the layout checked, the history rows read)."""
    read = read_match(sheets, ruleset_class)
    return replay_document(read.record, match_history(sheets, read.record, read.tabs.spec.tabs.engine))


def _visible_tabs(data: bytes, where: str) -> list[tuple[str, Grid]]:
    """Each visible tab of an .xlsx file with what its cells hold: a formula someone typed stays its text (the
    CSV then neutralises it), never an empty cell, as a computed value that no program stored would be. A file
    that would unpack past the limit (``unpacked_size_problem``) is refused, named by ``where``."""
    if too_large := unpacked_size_problem(data):
        raise SheetAccessError(f"{where} is not exported as CSV: {too_large}")
    book = openpyxl.load_workbook(io.BytesIO(data))
    out: list[tuple[str, Grid]] = []
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            continue
        rows: Grid = []
        for row in sheet.iter_rows(values_only=True):
            cells: list[CellValue] = [v if isinstance(v, str | int | float | bool) or v is None else str(v)
                                      for v in row]
            rows.append(cells)
        while rows and not any(v not in (None, "") for v in rows[-1]):
            rows.pop()
        out.append((sheet.title, rows))
    return out


def _file_names(sheets: MatchSheets) -> dict[int, str]:
    """A file name per distinct spreadsheet, by role ("match" when one holds everything)."""
    roles = {id(sheets.board): "board", id(sheets.engine): "engine"}
    for seat, backend in zip(sheets.seats, sheets.orders, strict=True):
        roles.setdefault(id(backend), orders_file(seat).removesuffix(".xlsx"))
    if sheets.judge is not None:
        roles.setdefault(id(sheets.judge), "judge")
    names = {id(b): roles[id(b)] for b in sheets.write_order()}
    return {k: "match" for k in names} if len(names) == 1 else names


def export_match(sheets: MatchSheets, ruleset_class: type[AnyRuleset], folder: Path,
                 told: list[str] | None = None) -> tuple[MatchRecord, list[Path]]:
    """Write every spreadsheet (.xlsx), a CSV per visible tab and replay.json into ``folder``; returns the
    match's record (for its seed) and the files written. They hold the seed (the engine's workbook, replay.json)
    and the Roster tab's e-mails, so each file is 0600 and a folder created here 0700: the GM chooses what to give
    the players.

    One transaction (``sync/command_journal.py``): the files are staged in a private folder inside ``folder``, then
    moved into place; an export cut short is rolled back or completed by the next command. A repair or an export
    cut short before it is settled first, and a change cut short completed: what the GM is told of them is added
    to ``told``."""
    said = settle_cut_command(sheets, ruleset_class)  # a repair or an export cut short, first
    if said and told is not None:
        told.append(said)
    read = read_match(sheets, ruleset_class)
    if read.completed and told is not None:
        told.append(read.completed)
    journal = command_path(sheets.journal)
    created = not folder.is_dir()
    staging = export_staging(folder)
    begin_command(journal, "export", f"the export into {folder}", phase="staging", folder=str(folder),
                  created=created)
    if created:  # a folder of the GM's choosing that exists keeps its mode; its files are private
        private_folder(folder)
    shutil.rmtree(staging, ignore_errors=True)  # a cut export's, when the match keeps no journal
    private_folder(staging)
    names: list[str] = []
    files = _file_names(sheets)
    for backend in sheets.write_order():
        data = backend.export_xlsx()
        name = f"{files[id(backend)]}.xlsx"
        write_private(staging / name, data)
        names.append(name)
        for tab, grid in _visible_tabs(data, backend.name):
            if tab == ABOUT_TAB:
                continue
            write_private(staging / f"{tab}.csv", to_csv(grid))
            names.append(f"{tab}.csv")
    doc = replay_document(read.record, match_history(sheets, read.record, read.tabs.spec.tabs.engine))
    write_private(staging / "replay.json", json.dumps(doc, indent=1, ensure_ascii=False))
    names.append("replay.json")
    export_moving(journal, folder, names)  # every file staged: from here a cut export is completed
    move_staged(folder, names)
    end_command(journal)
    return read.record, [folder / name for name in names]
