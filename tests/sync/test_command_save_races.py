"""No GM command writes over a cell a player saved after the command's read, on local workbooks and on Google
(``docs/sync.md``, "When a save races the sync"). A GM's ``adjust``, ``undo``, ``repair`` and ``resolve --force``
read the match, then write its seats' tabs again; a player's save landing in between is kept (its cell, or, where
an undo sets the rows typed since aside, her Archive), and the next poll answers it.

The property walked: for each command, on each backend, a save injected right before the command's write of her
spreadsheet survives, and the poll after answers it for the window then open."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import get_game, get_ruleset
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import adjust_match, undo_window
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import MatchSheets, seat_backend
from tests.conformance.test_input_lifecycle import player_save
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import GoogleApiFake
from tests.matchfiles import bots, sync
from tests.sync.test_save_races import destination, local_gvg, saving_at_red_write
from tests.sync.test_sync_google import KEYS, create, policy

GVG = get_ruleset("gvg")
SAVED = "K22"  # what she saves: a GvG destination the next poll answers (read, or refused saying why)


def _adjust(sheets: MatchSheets) -> None:
    events = get_game("gvg").gm_events(sheets.seats, {"coins": ["red=5"]}, "judge's call")
    adjust_match(sheets, GVG, events)


def _undo(sheets: MatchSheets) -> None:
    undo_window(sheets, GVG, "wrong orders typed")


def _repair(sheets: MatchSheets) -> None:
    repair_match(sheets, GVG)


def _resolve(sheets: MatchSheets) -> None:
    assert sync(sheets, force=True).resolved


#: Each GM command: whether it needs a window resolved first, and the command.
COMMANDS: dict[str, tuple[bool, Callable[[MatchSheets], None]]] = {
    "adjust": (False, _adjust), "undo": (True, _undo), "repair": (False, _repair), "resolve --force": (False, _resolve)}


def _ready(sheets: MatchSheets, name: str) -> tuple[str, str]:
    """The match as ``name`` needs it (turn 1 resolved for an undo), red's first player's Destination emptied;
    that player and the cell."""
    resolved_first, _command = COMMANDS[name]
    type_bot_orders(sheets, GVG, bots())
    player, cell = destination(read_match(sheets, GVG), "red", 0)
    seat_backend(sheets, read_match(sheets, GVG).tabs, "red").write([RangeWrite(cell, [[""]])])
    if resolved_first:  # (her cell empty in the window an undo takes back: it puts back an empty cell)
        assert sync(sheets, force=True).resolved
    return player, cell


def _kept_and_answered(sheets: MatchSheets, player: str, cell: str) -> None:
    """The property's end: her save stands in its cell (or an undo set it aside to her Archive, which lists it), and
    the next poll answers it."""
    read = read_match(sheets, GVG)
    red = seat_backend(sheets, read.tabs, "red")
    if red.read([cell]) != [[[SAVED]]]:
        (archive,) = red.read([f"'{read.tabs.archive('red')}'!A:B"])
        assert any(SAVED in str(v) for row in archive for v in row), (red.read([cell]), archive)
        return
    sync(sheets)
    after = read_match(sheets, GVG)
    row = next(r for r in after.seats["red"].rows if r.table == "players" and r.subject == player)
    assert str(row.values.get("destination")) == SAVED, row
    assert row.feedback and not row.feedback.startswith(("Waiting for your orders", "Not open now")), row


def _local(tmp_path: Path, name: str) -> None:
    sheets, red = local_gvg(tmp_path)
    player, cell = _ready(sheets, name)
    with saving_at_red_write(sheets, lambda: player_save(red, cell, SAVED)):
        COMMANDS[name][1](sheets)
    _kept_and_answered(sheets, player, cell)


def _google(fake: GoogleApiFake, name: str) -> None:
    for key in list(fake.spreadsheets):
        del fake.spreadsheets[key]
    sheets = create(fake, policy(FakeClock()), 3)
    player, cell = _ready(sheets, name)
    fake.save_before_write(KEYS["red"], cell, [[SAVED]])
    COMMANDS[name][1](sheets)
    _kept_and_answered(sheets, player, cell)


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        yield f
    assert not f.violations, f.violations


#: A few of the walk's cases, quick; the whole walk runs under ``-m soak``.
QUICK_LOCAL = ["adjust", "undo"]
QUICK_GOOGLE = ["adjust", "repair"]


@pytest.mark.parametrize("name", QUICK_LOCAL)
def test_on_local_workbooks_a_save_during_a_gms_command_is_kept_and_answered(tmp_path: Path, name: str) -> None:
    _local(tmp_path, name)


@pytest.mark.parametrize("name", QUICK_GOOGLE)
def test_on_google_a_save_during_a_gms_command_is_kept_and_answered(fake: GoogleApiFake, name: str) -> None:
    _google(fake, name)


@pytest.mark.soak
@pytest.mark.parametrize("name", [n for n in COMMANDS if n not in QUICK_LOCAL])
def test_on_local_workbooks_every_gms_command_keeps_a_save_made_during_it(tmp_path: Path, name: str) -> None:
    _local(tmp_path, name)


@pytest.mark.soak
@pytest.mark.parametrize("name", [n for n in COMMANDS if n not in QUICK_GOOGLE])
def test_on_google_every_gms_command_keeps_a_save_made_during_it(fake: GoogleApiFake, name: str) -> None:
    _google(fake, name)


def test_without_the_guard_an_adjustment_writes_over_the_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loss the guard prevents, reproduced: with no guard the adjustment lays red's table over her save."""
    monkeypatch.setattr(MatchRead, "guard", lambda self, batch, sheets: None)
    sheets, red = local_gvg(tmp_path)
    _player, cell = _ready(sheets, "adjust")
    with saving_at_red_write(sheets, lambda: player_save(red, cell, SAVED)):
        _adjust(sheets)
    assert red.read([cell]) == [[]]  # her K22 is gone: the finding



def test_a_match_keeping_a_journal_makes_the_adjustment_again_not_half(tmp_path: Path) -> None:
    """A race on the adjustment's first write leaves no change under way: the journal kept before it is dropped, so
    the adjustment made again from a fresh read is done whole (not refused as a change cut short)."""
    sheets, red = local_gvg(tmp_path)
    sheets = replace(sheets, journal=tmp_path / "journal.json")
    player, cell = _ready(sheets, "adjust")
    with saving_at_red_write(sheets, lambda: player_save(red, cell, SAVED)):
        _adjust(sheets)
    assert not (tmp_path / "journal.json").exists()
    assert read_match(sheets, GVG).record.gm_events  # the adjustment is in
    _kept_and_answered(sheets, player, cell)
