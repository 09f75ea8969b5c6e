"""Every game's player workbooks typed and saved through LibreOffice itself, then synced: what Calc saves (its own
.xlsx writer: text, numbers, ticked boxes as ``=TRUE()``) is read as the orders the player typed.

Skipped where ``soffice`` is not on the PATH or the system ``python3`` has no ``uno`` module (LibreOffice's
Python bridge, package python3-uno). One LibreOffice run types every game's files (``lo_type.py``): under the soak
marker; the quick run types Wesnoth's (text, a number, a box ticked and one left unticked, cells emptied) and GvG's (a
team's workbook), a fifth of what Champions' sixteen workbooks cost.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.registry import get_game, ruleset_names
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import Grid, ReadGuard, split_a1
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.match_record import history_range, joined_cells
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.conformance.test_input_lifecycle import NOW, Table, _local_match, new_table
from tests.office.office import Office, office_ready
from tests.quick import soak_but
from tests.sheets.test_read_whole import reads_as_openpyxl_reads

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not office_ready(), reason="LibreOffice (soffice and python3-uno) is not installed")]


def _games() -> list[str]:
    return [n for n in ruleset_names() if get_game(n).sheet is not None]


#: The games the quick run has LibreOffice type: every kind of value Calc saves (Wesnoth's), a team's workbook (GvG's).
QUICK_GAMES = ("gvg", "wesnoth")


def _typed_by_bots(table: Table) -> tuple[dict[str, list[list[Any]]], dict[str, Any]]:
    """What each acting seat's bot would type now, as the LibreOffice job's cells by workbook path (Ready ticked),
    without writing it; and the orders, by seat."""
    job: dict[str, list[list[Any]]] = {}
    backends = {id(b): b for b in table.sheets.orders}
    saved = {}
    def capture(path: Path) -> Callable[..., list[Grid]]:
        def write(writes: Sequence[RangeWrite], *, read_back: Sequence[str] = (),
                  guard: Sequence[ReadGuard] = ()) -> list[Grid]:
            for w in writes:
                tab, cell = split_a1(w.range)
                job.setdefault(str(path), []).append([tab, cell, w.values[0][0]])
            return []

        return write

    for backend in backends.values():
        assert isinstance(backend, LocalWorkbookBackend)
        saved[id(backend)] = backend
        backend.write = capture(backend.path)  # type: ignore[method-assign]
    try:
        orders = type_bot_orders(table.sheets, table.cls, table.bots)
    finally:
        for backend in saved.values():
            del backend.write
    return job, orders


@pytest.mark.parametrize("games", soak_but(["every", "quick"], "quick"))
def test_what_libreoffice_saves_is_read_as_typed_in_every_game(tmp_path: Path, games: str, office: Office) -> None:
    names = _games() if games == "every" else QUICK_GAMES
    tables = {name: new_table(name, _local_match, _folder(tmp_path, name)) for name in names}
    job: dict[str, list[list[Any]]] = {}
    expected: dict[str, Any] = {}
    for name, table in tables.items():
        cells, orders = _typed_by_bots(table)
        job.update(cells)
        rules = table.read().record.ruleset
        expected[name] = rules.orders_codec.to_json(rules.merge_orders(orders))
    (tmp_path / "job.json").write_text(json.dumps(job), encoding="utf-8")
    typed = office.run("lo_type.py", str(tmp_path / "job.json"), str(tmp_path / "lo-profile"))
    assert typed.returncode == 0, typed.stderr
    held = {name: Path(next(iter(p for p in job if p.startswith(str(tmp_path / name))))) for name in tables}
    copies = {name: path.read_bytes() for name, path in held.items()}  # a copy as Calc saved it, kept open there
    for data in copies.values():  # loaded twice (its tabs' rows then kept) and by openpyxl's own reader: the same
        reads_as_openpyxl_reads(data)
    for name, table in tables.items():
        report = poll(table.sheets, table.cls, now=NOW)
        if not report.resolved:  # a game that waits for more than the ticks typed: the GM closes the window
            report = poll(table.sheets, table.cls, now=NOW, force=True)
        assert report.resolved, (name, report)
        read = read_match(table.sheets, table.cls)
        (grid,) = table.sheets.engine.read([history_range(read.tabs.spec.tabs.engine, 1)])
        assert json.loads(joined_cells(grid[0], 1))["orders"] == expected[name], name
        _older_copy_saved_over(table, held[name], copies[name])


def _older_copy_saved_over(table: Table, path: Path, saved: bytes) -> None:
    """Calc's copy of before the resolution saved over the sync's write (its lock file left behind): the next poll
    sees it by what Calc kept of the marks the sync wrote, draws it again and resolves nothing; the orders in it,
    carried out already, are not read again, and the poll after resolves nothing either."""
    resolved = read_match(table.sheets, table.cls).record.resolved
    path.write_bytes(saved)
    report = poll(table.sheets, table.cls, now=NOW)
    assert report.older_copies and not report.resolved, (table.name, report)
    assert not poll(table.sheets, table.cls, now=NOW).resolved, table.name
    assert read_match(table.sheets, table.cls).record.resolved == resolved, table.name


def _folder(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir()
    return folder
