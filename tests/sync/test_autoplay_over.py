"""Bots typing new orders over those saved earlier in the same window (``type_bot_orders(over=True)``), as a
player who changes her orders: each row they fill holds their orders alone, nothing left of the earlier ones
(a target typed before, read with a new raid, rejected the row and left the seat waiting: a Coalition match of the
host's benchmark did so every run)."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend

COALITION = get_ruleset("coalition")


def new_war() -> MatchSheets:
    """A Coalition match of the sample armies, every spreadsheet in memory."""
    rules = create_ruleset("coalition")
    roster = rules.sample_roster()
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats), MemoryBackend("judge"))
    create_match(sheets, rules, roster, seed=b"over")
    return sheets


def typed(sheets: MatchSheets, seed: str, *, ready: bool, over: bool = False) -> None:
    make = next(iter(bots_of(create_ruleset("coalition")).values())).make
    type_bot_orders(sheets, COALITION, {s: make(f"{seed}/{s}") for s in sheets.seats}, ready=ready, over=over)


def typed_cells(sheets: MatchSheets) -> dict[tuple[str, str, str, str], Any]:
    """Every typed cell of every side's rows, by side, table, row and column."""
    read = read_match(sheets, COALITION)
    return {(seat, row.table, row.subject, key): value for seat in sheets.seats for row in read.seats[seat].rows
            for key, value in row.values.items()}


def test_orders_typed_over_leave_nothing_of_the_earlier_ones() -> None:
    changed, fresh = new_war(), new_war()
    typed(changed, "bench/restart", ready=False)  # a first save ...
    typed(changed, "bench", ready=True, over=True)  # ... then other orders over it, Ready
    typed(fresh, "bench", ready=True)
    assert typed_cells(changed) == typed_cells(fresh)
