"""``verify -c`` on a match nobody edited, for every game with a sheet: the replay matches every state and every
line of the public Log is the match's own (the set-up's draws, round labels, GM events and an undo included)."""

from __future__ import annotations

import pytest

from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.life.log_check import forged_log_lines
from sheets_gm.sync.life.replay import match_history, replay_document, replay_states
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.conformance.test_input_lifecycle import NOW, Table, _games, new_table

WINDOWS = 8


def _verify(table: Table) -> list[str]:
    """What ``verify -c`` finds wrong with the match: a replay mismatch, or Log lines no event says."""
    read = read_match(table.sheets, table.cls)
    doc = replay_document(read.record, match_history(table.sheets, read.record, read.tabs.spec.tabs.engine))
    found = replay_states(doc)
    if found.difference is not None:
        return [found.difference]
    return forged_log_lines(table.sheets, doc, read.record.log_rows)


def _play(table: Table, windows: int) -> None:
    for _ in range(windows):
        read = read_match(table.sheets, table.cls)
        if read.record.ruleset.window(read.record.state) is None:
            return
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW, force=True)


@pytest.mark.parametrize("name", _games())
def test_verify_passes_an_untouched_match(name: str) -> None:
    table = new_table(name)
    assert _verify(table) == []  # the set-up's lines alone (Win or Die's first player)
    _play(table, WINDOWS)
    assert read_match(table.sheets, table.cls).record.resolved >= 2
    assert _verify(table) == []


@pytest.mark.parametrize("name", _games())
def test_verify_passes_an_untouched_match_after_an_undo(name: str) -> None:
    table = new_table(name)
    _play(table, 3)
    undo_window(table.sheets, table.cls, "the conformance test takes it back")
    _play(table, 2)
    assert _verify(table) == []
