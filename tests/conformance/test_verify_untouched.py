"""``verify -c`` on a match nobody edited, for every game with a sheet: the replay matches every state, every
line of the public Log is the match's own (the set-up's draws, round labels, GM events and an undo included), and
every drawn cell of the board spreadsheet (the board tab, the other drawn tabs, the Log's header) is as drawn, and
nothing else on the board's spreadsheet is there that the sync did not make (``board_check``)."""

from __future__ import annotations

import dataclasses
import functools
import pickle
import shutil
import tempfile
import weakref
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.commands.verify import hand_edits
from sheets_gm.rulesets.registry import bots_of, get_ruleset
from sheets_gm.rulesets.wesnoth.resolve import ResolvedAhead
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.journal import journal_path
from sheets_gm.sync.life.adjust_undo import hand_seats, undo_window
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.life.replay import match_history, replay_document, replay_states
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.conformance.test_input_lifecycle import NOW, Table, _damage, _edit_tabs, _games, new_table
from tests.made import made_into
from tests.quick import soak_but

WINDOWS = 8
#: The windows every test here plays first, from the same match with the same bots: played once a test process
#: (``played``) and copied for each test.
PLAYED = 3
# the three tests of a game in one process, so that they share its played match
pytestmark = pytest.mark.xdist_group("verify-played")
_MADE = "played.pickle"


def _verify(table: Table) -> list[str]:
    """What ``verify -c`` finds wrong with the match: a replay mismatch, or Log lines no event says."""
    read = read_match(table.sheets, table.cls)
    doc = replay_document(read.record, match_history(table.sheets, read.record, read.tabs.spec.tabs.engine))
    found = replay_states(doc)
    if found.difference is not None:
        return [found.difference]
    forged, typed_over, edits = hand_edits(table.sheets, read, doc)  # as verify -c: the board whole too
    return [*forged, *typed_over, *edits]


def _play(table: Table, windows: int) -> None:
    for _ in range(windows):
        read = read_match(table.sheets, table.cls)
        if read.record.ruleset.window(read.record.state) is None:
            return
        type_bot_orders(table.sheets, table.cls, table.bots)
        poll(table.sheets, table.cls, now=NOW, force=True)


def played(name: str) -> Table:
    """``new_table(name)`` after its first ``PLAYED`` windows (``_play``): the match, its journal and its bots (a
    bot may carry its own random state) as they leave them, played once a process (``tests/made.py``) and copied."""
    journal = Path(tempfile.mkdtemp(prefix="verify-journal-"))
    made_into(journal, ("verify played", name, PLAYED), functools.partial(_make_played, name))
    table: Table = pickle.loads((journal / _MADE).read_bytes())
    (journal / _MADE).unlink()
    table.sheets = dataclasses.replace(table.sheets, journal=journal_path(journal / "match.toml"))
    assert table.cls is get_ruleset(table.game)
    weakref.finalize(table, shutil.rmtree, journal, True)
    return table


def _make_played(name: str, folder: Path) -> None:
    """``new_table(name)`` played for ``PLAYED`` windows, its journal's folder copied into ``folder``, the table
    pickled beside it."""
    table = new_table(name)
    _play(table, PLAYED)
    assert table.sheets.journal is not None
    shutil.copytree(table.sheets.journal.parent.parent, folder, dirs_exist_ok=True)
    with (folder / _MADE).open("wb") as out:
        _TablePickler(out).dump(table)


class _TablePickler(pickle.Pickler):
    """A table pickled whole, but for what a bot hands the ruleset about the turn it just resolved (Wesnoth's
    ``ResolvedAhead``): it counts only for the very state and dice objects it was given, which no copy holds, so a
    copy gets an empty one."""

    def reducer_override(self, obj: Any) -> Any:
        return (ResolvedAhead, ()) if isinstance(obj, ResolvedAhead) else NotImplemented


@pytest.mark.parametrize("name", soak_but(_games(), "gvg", "wesnoth"))
def test_verify_passes_an_untouched_match(name: str) -> None:
    assert _verify(new_table(name)) == []  # the set-up's lines alone (Win or Die's first player)
    table = played(name)  # (verify writes nothing: the match verified is the one played on)
    _play(table, WINDOWS - PLAYED)
    assert read_match(table.sheets, table.cls).record.resolved >= 2
    assert _verify(table) == []


# the undo and its replay are the sync's, whatever the game: the two games the tests above leave to the soak run here,
# every game under -m soak
@pytest.mark.parametrize("name", soak_but(_games(), "coalition", "champions"))
def test_verify_passes_an_untouched_match_after_an_undo(name: str) -> None:
    table = played(name)  # after PLAYED (3) windows
    undo_window(table.sheets, table.cls, "the conformance test takes it back")
    _play(table, 2)
    assert _verify(table) == []


@pytest.mark.parametrize("name", soak_but(_games(), "gvg", "winordie"))
def test_verify_passes_after_an_adjust_a_damaged_layout_repaired_and_more_windows(name: str) -> None:
    """The GM's paths between windows (issue 38, item 12): a seat handed to a bot (the adjustment every game has),
    the Log renamed, a View deleted and a column inserted, then ``repair``; the match verifies after each, once the
    GM deleted the renamed Log that repair leaves beside the one it lays out again (a tab of no part of the match)."""
    table = played(name)  # after PLAYED (3) windows
    seat = table.sheets.seats[0]
    hand_seats(table.sheets, table.cls, {seat: next(iter(bots_of(read_match(table.sheets, table.cls).record.ruleset)))},
               "the conformance test hands the seat over")
    assert _verify(table) == []
    _play(table, 2)
    read = read_match(table.sheets, table.cls)
    log = read.tabs.spec.tabs.log
    _edit_tabs(table.sheets.board, lambda tabs: tabs.rename(log, f"{log} (renamed)"))
    _damage(table, read, "delete", seat, 0)  # the seat's View deleted
    _damage(table, read, "insert", seat, 1)  # a column inserted in her orders tab
    assert log not in table.sheets.board.tab_names()
    repair_match(table.sheets, table.cls)
    left = [f"tab '{log} (renamed)' of {table.sheets.board.name} is no tab of the match"]  # repair leaves it be
    assert [said[:len(left[0])] for said in _verify(table)] == left
    _edit_tabs(table.sheets.board, lambda tabs: tabs.delete(f"{log} (renamed)"))  # the GM deletes it
    assert _verify(table) == []
    _play(table, 2)
    assert _verify(table) == []
