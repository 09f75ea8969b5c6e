"""Ready means ready (issue 53, item 4): in every game, a Ready (End turn) ticked while a row of that seat for the
open window is refused is not taken; the row and the Ready cell say why; a deadline or ``resolve --force`` still
closes the window. GvG and Champions took it; now the core holds it for all."""

from __future__ import annotations

from sheets_gm.sync.poll import poll
from tests.sync.test_typed_row_lifecycle import NOW, Match


def _tick_everyone_else(match: Match, but: str, table: str) -> None:
    for seat in match.window().seats:
        if seat != but:
            match.type(seat, table, 0, "ready", True)


def test_a_gvg_captains_skill_misspelt_holds_her_ready_until_it_is_mended() -> None:
    match = Match("gvg")
    red = match.window().seats[0]
    match.type(red, "captain", 0, "skill1", "Player Sped")
    match.type(red, "captain", 0, "ready", True)
    _tick_everyone_else(match, red, "captain")
    report = match.poll()
    assert not report.resolved and red in report.waiting_for
    said = match.row(red, "captain", 0).feedback
    assert "Player Sped" in said and "✘ Ready is ticked, but not taken while this row is refused" in said, said
    match.type(red, "captain", 0, "skill1", "")  # cleared (her team has no coins yet): her Ready counts
    assert match.poll().resolved


def test_a_champions_loot_typed_wrong_holds_ready_and_a_force_still_closes_the_window() -> None:
    match = Match("champions")
    ann = match.window().seats[0]
    match.type(ann, "move_loot", 0, "loot1", "magic")
    match.type(ann, "move_loot", 0, "ready", True)
    _tick_everyone_else(match, ann, "move_loot")
    report = match.poll()
    assert not report.resolved and report.waiting_for == [ann]
    said = match.row(ann, "move_loot", 0).feedback
    assert "magic" in said and "Ready is ticked, but not taken" in said, said
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the GM closes it as the rules say



def test_a_row_typed_wrong_while_its_table_is_closed_says_why_at_once() -> None:
    """Issue 53, item 5: a row typed while its table is closed (a Champions move-and-loot row in the equip and fight
    window, a Coalition side's row in the judge's window) said only "Kept for when this table opens again", its ✘
    coming back when the table opened. The reason is true now: it says it while it waits, so she can fix it."""
    match = Match("champions")
    ann = match.window().seats[0]
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    assert match.window().phase != "move_loot"
    match.type(ann, "move_loot", 0, "loot1", "magic")
    match.poll()
    said = match.row(ann, "move_loot", 0).feedback
    assert said.startswith("✘ unknown looting action 1 'magic'; use physical, magical") and \
        "— fix it before this table opens · Kept for when this table opens again for Ann" in said, said
    match.type(ann, "move_loot", 0, "loot1", "magical")  # mended while it waits: kept, nothing refused
    match.poll()
    assert match.row(ann, "move_loot", 0).feedback.startswith("Kept for when this table opens again for Ann")
