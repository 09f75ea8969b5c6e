"""Wesnoth shows the engine's verdicts before resolving, and they tell no roll: a refused recruit says why in its
row, as the sync's own output does; a row whose outcome the dice decide (a rest, an attack) says what it will do,
and that the dice are rolled as the turn resolves (the check runs on blind dice, ``TurnDice.blinded``)."""

from __future__ import annotations

from sheets_gm.sync.poll import poll
from tests.sync.test_typed_row_lifecycle import NOW, Match


def test_a_recruit_its_gold_does_not_cover_says_so_in_its_row_before_the_turn_resolves() -> None:
    match = Match("wesnoth")
    ann = match.window().seats[0]
    for i in range(4):  # 15 gold: three Thieves at 4 gold each, not a fourth
        match.type(ann, "recruit", i, "type", "Thief")
    report = match.poll()
    assert not report.resolved
    assert any("Thief costs 4 gold; Ann has 3" in p for _, p in report.rejected)  # the sync's own output
    said = [match.row(ann, "recruit", i).feedback for i in range(4)]
    assert said[:3] == [f"✔ will recruit Ann-R{n} (Thief) on {at} for 4 gold" for n, at in
                        zip((1, 2, 3), ("P4", "N5", "O5"), strict=True)], said
    assert said[3] == "✘ Thief costs 4 gold; Ann has 3", said  # not "Kept for round 1 …"
    assert not any(s.startswith("Kept for") for s in said)


def test_a_row_whose_outcome_the_dice_decide_says_what_it_will_do_and_not_the_roll() -> None:
    match = Match("wesnoth")
    ann = match.window().seats[0]
    match.type(ann, "units", 0, "action", "rest")  # a rest rolls its die: its outcome waits for the resolution
    report = match.poll()
    assert not report.resolved
    leader = match.row(ann, "units", 0).feedback
    assert leader.startswith("✔ will rest") and "the die is rolled as the turn resolves" in leader, leader
    assert "rolled 1" not in leader and "rested" not in leader, leader


def test_the_resolution_that_opens_a_turn_shows_a_kept_recruit_s_refusal_at_once_as_the_next_poll_does() -> None:
    """Recruits typed ahead, in the other side's turn, are checked by the resolution that opens their side's turn
    (``rows/opened.check_opened``) as a poll checks them: with no die rolled, a recruit the gold does not cover says
    so at once, not a poll later."""
    match = Match("wesnoth")
    bo = match.read().record.seats[1]
    for i in range(4):
        match.type(bo, "recruit", i, "type", "Thief")  # typed ahead: kept for Bo's turn
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # Ann's turn resolves and Bo's opens
    assert match.window().seats == (bo,), match.window()
    said = [match.row(bo, "recruit", i).feedback for i in range(4)]
    assert said[3].startswith("✘") and "gold" in said[3], said
    assert not match.poll().resolved
    assert [match.row(bo, "recruit", i).feedback for i in range(4)] == said  # what the next poll writes too


def test_the_leaders_recruit_row_says_its_recruits_in_the_order_they_will_happen() -> None:
    """Issue 78, item 7: the leader's row listed its recruits' ✘ before the ✔ of those that will happen ("✘ Thief
    costs 4 gold; Ann has 3 · ✔ will recruit Ann-R1 …"). It says them one by one, in the order they are made."""
    match = Match("wesnoth")
    ann = match.window().seats[0]
    for i in range(4):  # 15 gold: three Thieves at 4 gold each, not a fourth
        match.type(ann, "recruit", i, "type", "Thief")
    match.type(ann, "units", 0, "action", "recruit")
    match.poll()
    parts = match.row(ann, "units", 0).feedback.split(" · ")
    assert [p[:1] for p in parts[:4]] == ["✔", "✔", "✔", "✘"], parts
    assert parts[0].startswith("✔ will recruit Ann-R1") and parts[3] == "✘ Thief costs 4 gold; Ann has 3", parts
