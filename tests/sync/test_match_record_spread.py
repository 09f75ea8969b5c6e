"""The engine record keeps a value longer than a cell (a war of hundreds of armies) across the cells right of it,
instead of cutting it at the cell's limit and leaving a match that no longer reads."""

from __future__ import annotations

import base64
import random
from pathlib import Path

import pytest

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import create_workbook
from sheets_gm.sheets.local.cells import MAX_CELL_CHARS
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_record import (
    CELL_CHUNK,
    VALUE_CELLS,
    ValueTooLongError,
    compact_json,
    joined_cells,
    packed_cell,
    spread_cells,
)
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets


def test_a_long_value_runs_on_into_the_cells_to_its_right_and_reads_back_whole() -> None:
    text = "{" + "Ça va – 🐉 " * 9_000 + "}"
    cells = spread_cells(text, "state value")
    assert len(cells) == -(-len(text) // CELL_CHUNK) and str(cells[0]).startswith(f"⧉{len(cells)}⧉")
    assert joined_cells(["state", *cells, "left over from a longer value"], 1) == text
    assert spread_cells("{}", "state value") == ["{}"] and joined_cells(["state", "{}", "old"], 1) == "{}"
    tidy = "x" * (VALUE_CELLS * CELL_CHUNK + 1)  # longer than the cells hold: packed, then spread
    assert joined_cells(["state", *spread_cells(tidy, "state value")], 1) == tidy
    noise = base64.b64encode(random.Random(89).randbytes(VALUE_CELLS * CELL_CHUNK)).decode()  # packs to no less
    with pytest.raises(ValueTooLongError, match=r"state value is .* characters long, .* packed: the engine keeps at "
                                                r"most .*; nothing was written"):
        spread_cells(noise, "state value")


def test_a_war_whose_state_is_longer_than_a_workbook_cell_is_created_and_read_back(tmp_path: Path) -> None:
    rules = create_ruleset("coalition")
    members = tuple(Member(f"{side.title()} army number {n:03d}", side,
                           {"rank": "3", "at": f"Dominaria {1 + n % 12 + (12 if side == 'phyrexia' else 0)}"
                                              f"{'ABDGH'[n % 5]}",
                            "units": "5000/2500/1500/1000", **({"factions": "white blue", "primary": "white"}
                                                               if side == "coalition" else {})})
                    for side in ("coalition", "phyrexia") for n in range(150))
    roster = Roster(("coalition", "phyrexia"), members)
    backend = create_workbook(tmp_path / "war.xlsx", WorkbookLayout("war", (TabLayout("Turn report", 2, 2),)))
    sheets = MatchSheets.single(roster.seats, backend)
    record = create_match(sheets, rules, roster, seed=b"long")
    assert len(compact_json(rules.state_codec.to_json(record.state))) > MAX_CELL_CHARS  # more than a cell holds
    read = read_match(sheets, get_ruleset("coalition"))
    assert read.record.state == record.state and len(read.record.state.armies) == 300


def test_a_cell_the_sync_keeps_for_itself_is_packed_past_a_chunk_and_a_damaged_one_is_named() -> None:
    rows = compact_json({"rows": [{"table": "results", "row": n, "values": {"winner": "attacker"}}
                                  for n in range(3_000)]})
    cell = packed_cell(rows, "rows read")
    assert len(rows) > 3 * CELL_CHUNK and cell.startswith("⧉z⧉") and len(cell) < CELL_CHUNK
    assert joined_cells(["window", cell, 12], 1) == rows
    with pytest.raises(ValueError, match="cannot be unpacked"):
        joined_cells(["window", cell[:-40], 12], 1)
