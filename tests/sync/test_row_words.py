"""What a player reads about her row once something happened to it (issue 38, item 8: reasons masked again): a
Go that resolved a step says what it did, a standing reaction says what the engine said of it, an out or knocked-down
player's row says why it takes no orders, a recruit the leader can no longer make says why it waits, two rows asking
for one item are told the truth. Played with the real sync on memory spreadsheets; every sentence comes from
``sync/rows/fates.py`` or the game's own words."""

from __future__ import annotations

import pytest

from sheets_gm.commands.polls import window_status_lines
from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.spec import Column, ColumnKind, InputTable
from sheets_gm.sheets.tables import InputTab, TypedRow
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.poll import poll
from sheets_gm.sync.rows.fate_words import idle_feedback
from sheets_gm.sync.rows.fates import held_sentence, undo_lines
from tests.sync.test_typed_row_lifecycle import NOW, Match, _winordie_turn
from tests.window_labels import english_problems, verb_after, window_labels


# -- Win or Die --------------------------------------------------------------------------------------------------
def test_a_go_that_resolved_a_step_says_so_in_the_seat_row_once_unticked() -> None:
    match, bo, _ann = _winordie_turn()
    for index in (0, 1):  # the second move finds Bo-1 already there: refused, and kept
        for key, value in (("unit", "Bo-1"), ("action", "move"), ("target", "E6")):
            match.type(bo, "actions", index, key, value)
    match.type(bo, "seat", 0, "go", True)
    assert match.poll().resolved
    closed = match.window()
    for _ in range(2):  # the resolution's drawing, then every poll while nothing is typed
        seat = match.row(bo, "seat", 0)
        assert not seat.ticked("go")
        assert seat.feedback.startswith(f"Go carried out 1 row and left 1 (still in your rows, each saying why) in "
                                        f"{closed.label}, and is unticked: tick Go again"), seat.feedback
        assert "Tick Ready when Bo's orders" in seat.feedback
        row = match.row(bo, "actions", 0)
        assert (row.text("unit"), row.text("target")) == ("Bo-1", "E6")
        # a refusal kept in its window is marked (issue 78, item 7: a row refused at its Go said so without a ✘)
        assert row.feedback == f"✘ Not resolved, kept for {closed.label}: refused: Bo-1 is already on E6."
        match.poll()


def test_a_row_refused_when_her_turn_ends_stays_typed_with_its_reason() -> None:
    match, bo, _ann = _winordie_turn()
    for index in (0, 1):
        for key, value in (("unit", "Bo-1"), ("action", "move"), ("target", "E6")):
            match.type(bo, "actions", index, key, value)
    closed = match.window()
    match.type(bo, "seat", 0, "ready", True)
    assert match.poll().resolved
    for _ in range(2):
        row = match.row(bo, "actions", 0)
        assert row.text("target") == "E6"
        assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: refused: Bo-1 is already on E6"), \
            row.feedback
        match.poll()
    assert "Target: E6 — not carried out (refused: Bo-1 is already on E6): still in your rows" in match.archive(bo)


def _parry(match: Match, ann: str) -> None:
    for key, value in (("unit", "Ann-2"), ("ability", "Parry"), ("when", "any"), ("within", 9)):
        match.type(ann, "reactions", 0, key, value)


def test_a_standing_reaction_that_fired_or_cannot_fire_says_what_the_engine_said() -> None:
    from sheets_gm.rulesets.winordie.enums import GmKind
    from sheets_gm.rulesets.winordie.gm import Adjustment
    from sheets_gm.sync.life.adjust_undo import adjust_match

    match, bo, ann = _winordie_turn()
    _parry(match, ann)
    state = match.read().record.state
    parrier = state.unit("Ann-2")
    board = match.read().record.ruleset.rules.board  # type: ignore[attr-defined]
    beside = next(h for h in board.neighbours(parrier.at) if state.unit_at(h) is None and not board.terrain[h].obstacle)
    adjust_match(match.sheets, match.cls, [Adjustment(GmKind.MOVE, "Bo-1", beside.label, "set the test up")])
    closed = match.window()
    for key, value in (("unit", "Bo-1"), ("action", "attack"), ("target", parrier.at.label)):
        match.type(bo, "actions", 0, key, value)
    match.type(bo, "seat", 0, "ready", True)
    assert match.poll().resolved  # Ann's Parry ("Before an enemy attack on me") fires before Bo's attack
    fired = (f"✔ {closed.label[:1].upper()}{closed.label[1:]}: Reaction 1: fired before Bo's attack: Ann-2 used Parry "
             "(the GM applies its effect); it stands, and can fire again next turn.")
    for _ in range(2):  # it said 'Kept for turn 1 · Bo.'
        assert match.row(ann, "reactions", 0).feedback == fired
        match.poll()
    adjust_match(match.sheets, match.cls, [Adjustment(GmKind.SOFTEN, "Bo-1", "1", "Parry")])
    match.type(bo, "seat", 0, "go", True)  # the GM has applied it: Bo's attack goes on
    assert match.poll().resolved
    for _ in range(2):  # issue 93, item 9: it said only "stands …, but Parry has been used this turn"
        row = match.row(ann, "reactions", 0)
        assert row.text("ability") == "Parry"
        assert row.feedback.startswith("✔ Turn 1 · Bo: Reaction 1: fired in Bo's turn: Ann-2 used Parry (the Log says "
                                       "what it did); it stands (it fires only before an enemy attack on Ann-2, as "
                                       "its card says) and can fire again next turn."), row.feedback
        match.poll()
    read = match.read()
    (log,) = match.sheets.board.read([read.tabs.log_range(0, read.record.log_rows)])
    attack = next(str(line[2]) for line in log if line[1] == "attack" and "Bo-1 attacks Ann-2" in str(line[2]))
    assert "(1 less: Ann-2's Parry, applied by the GM)" in attack, attack  # it said "(1 less, by the GM)"


def test_an_unreadable_reaction_keeps_its_reason_through_every_window() -> None:
    match, bo, ann = _winordie_turn()
    for key, value in (("unit", "Ann-1"), ("ability", "bogus")):
        match.type(ann, "reactions", 1, key, value)
    why = "✘ Ability 'bogus': Ann-1 (Sol Commander) has no such reaction"
    for seat in (bo, ann, bo):  # Bo's turn, Ann's own (reactions unread), Bo's again
        match.poll()
        assert match.row(ann, "reactions", 1).feedback.startswith(why)
        match.type(seat, "seat", 0, "ready", True)
        assert match.poll().resolved
        row = match.row(ann, "reactions", 1)
        assert row.text("ability") == "bogus" and row.feedback.startswith(why), row.feedback


# -- Champions ---------------------------------------------------------------------------------------------------
def test_two_rows_asking_for_one_item_the_second_is_told_the_first_asked_for_it() -> None:
    match = Match.played("champions", 1)  # the first move and loot: Bo picks up a Steel Axe
    state = match.read().record.state
    assert match.window().phase == "equip_fight" and state.player("Bo").bag == ("Steel Axe",)
    match.type("Bo", "equip", 0, "item1", "Steel Axe")  # the Gladiator
    match.type("Bo", "equip", 1, "item1", "steel axe")  # and the Rogue
    match.poll()
    assert match.row("Bo", "equip", 0).feedback == "✔ the Gladiator carries Steel Axe"
    assert match.row("Bo", "equip", 1).feedback == (
        "✘ Steel Axe is already asked for by the Gladiator's row in this order, and Bo has 1 (the bag holds "
        "Steel Axe): give it to one champion only. The Rogue keeps nothing")


# -- GvG ---------------------------------------------------------------------------------------------------------
def test_a_knocked_down_player_s_row_says_so_and_is_not_chased() -> None:
    match = Match("gvg")
    while not any(p.status.value == "knocked_down" for p in match.read().record.state.players):
        match.bots_play()
    state = match.read().record.state
    down = next(p for p in state.players if p.status.value == "knocked_down")
    team = state.teams[down.team]
    said = (f"{down.name} is knocked down until turn {state.turn + 1}: no orders for {down.name} in turn "
            f"{state.turn} (a row typed here is refused).")
    index = [r.subject for r in match.read().seats[team].rows if r.table == "players"].index(down.name)
    assert match.row(team, "players", index).feedback == said  # drawn so by the resolution
    report = match.poll()
    assert match.row(team, "players", index).feedback == said  # and by every poll (not 'Waiting for your orders')
    assert down.name not in report.untyped[team]
    assert down.name not in " ".join(window_status_lines(report, NOW))
    match.type(team, "players", index, "destination", "H8")  # typed anyway: the engine refuses it
    match.poll()
    assert f"{down.name} is knocked down and skips turn {state.turn}" in match.row(team, "players", index).feedback


# -- Wesnoth -----------------------------------------------------------------------------------------------------
def test_a_recruit_typed_after_the_leader_acted_says_why_it_waits_and_is_read_in_her_next_turn() -> None:
    match = Match("wesnoth")
    ann = match.window().seats[0]
    closed = match.window()
    for key, value in (("action", "rest"), ("go", True)):
        match.type(ann, "units", 0, key, value)
    assert match.poll().resolved  # the leader rests: its one action this turn
    match.type(ann, "recruit", 0, "type", "Thief")
    match.poll()
    row = match.row(ann, "recruit", 0)
    assert row.feedback == (f"Kept for {ann}'s next turn (Ann-L has already acted this turn, and recruiting is the "
                            f"leader's whole action): it is read when that opens, not in {closed.label}."), row.feedback
    match.type(ann, "seat", 0, "ready", True)
    assert match.poll().resolved  # End turn: the recruit is not emptied, nor archived as resolved
    row = match.row(ann, "recruit", 0)
    assert row.text("type") == "Thief" and row.feedback.startswith(f"Kept for {ann}'s next turn"), row.feedback
    assert "Type: Thief" not in match.archive(ann)
    bo = match.window().seats[0]
    match.type(bo, "seat", 0, "ready", True)
    assert match.poll().resolved  # Bo's turn ends: Ann's opens, and her End turn recruits the Thief
    match.type(ann, "seat", 0, "ready", True)
    assert match.poll().resolved
    units = match.read().record.state.units
    assert any(u.owner == ann and u.type == "Thief" for u in units)
    assert "Recruit 1 — Type: Thief" in match.archive(ann)


def test_each_step_her_go_resolved_keeps_its_answer_through_her_turn() -> None:
    """Issue 93, item 9: a turn played a row at a time (a unit's Go each) kept only the last step's answer: the row
    the first Go carried out said 'Waiting for your orders' once the second resolved. Each row says what its step
    did until her next turn's first resolution, through the later steps, her End turn and the opponent's turn."""
    from tests.sync.test_row_fates import _wesnoth_turn

    match, seat, _other = _wesnoth_turn()
    closed = match.window()
    for index, to in ((1, "P22"), (2, "N23")):
        for key, value in (("action", "move"), ("to", to), ("go", True)):
            match.type(seat, "units", index, key, value)
        assert match.poll().resolved
    said = [f"✔ Carried out in {closed.label}: moved to {to} (1 move)." for to in ("P22", "N23")]
    match.type(seat, "seat", 0, "ready", True)
    for step in ("a later step", "her End turn", "the opponent's turn"):
        for index, sentence in ((1, said[0]), (2, said[1])):
            assert match.row(seat, "units", index).feedback.startswith(sentence), (step, index)
        if step == "a later step":
            assert match.poll().resolved  # her End turn
        elif step == "her End turn":
            match.bots_play()
    for key, value in (("action", "move"), ("to", "P21"), ("go", True)):
        match.type(seat, "units", 3, key, value)
    assert match.poll().resolved  # her next turn's first step: the last turn's answers go
    assert match.row(seat, "units", 1).feedback.startswith("Waiting for your orders"), match.row(seat, "units", 1)


def keeps(feedback: str, why: str) -> bool:
    """Whether a row's answer is still its refusal ``why`` (a window that closed on it may say so first: "✘ Not
    carried out in turn 1 · …: <why>")."""
    return feedback.startswith("✘") and why.removeprefix("✘ ") in feedback


# -- Coalition ---------------------------------------------------------------------------------------------------
def test_the_judge_s_unreadable_rows_keep_their_reasons_until_the_judge_s_window_opens_again() -> None:
    match = Match.played("coalition", 1)
    assert match.window().phase == "results"
    match.type("judge", "losses", 0, "slot1", "abc")
    match.poll()
    why = "✘ Lost in slot 1 'abc' is not a whole number"
    assert keeps(match.row("judge", "losses", 0).feedback, why)
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the next turn's orders
    for _ in range(2):
        assert keeps(match.row("judge", "losses", 0).feedback, why)
        match.poll()
    type_bot_orders(match.sheets, match.cls, {s: b for s, b in match.bots.items() if s != "judge"})
    assert match.poll().resolved and match.window().phase == "results"  # the judge's window opens again
    for _ in range(2):
        row = match.row("judge", "losses", 0)
        assert row.text("slot1") == "abc" and keeps(row.feedback, why), row.feedback
        match.poll()


def test_a_row_typed_ahead_is_drawn_as_its_turn_reads_it_and_keeps_its_reason_while_it_waits() -> None:
    match, bo, ann = _winordie_turn()
    for key, value in (("unit", "Bo-1"), ("action", "move"), ("target", "C5")):  # Ann names Bo's unit: unreadable
        match.type(ann, "actions", 0, key, value)
    for key, value in (("unit", "Ann-1"), ("action", "move"), ("target", "C5")):  # and Bo names Ann's
        match.type(bo, "actions", 0, key, value)
    match.poll()
    bo_why = "✘ Unit 'Ann-1' is not one of your units on the board"
    ann_why = "✘ Unit 'Bo-1' is not one of your units on the board"
    # typed in her opponent's turn, it waits for hers and already says what her turn will refuse (issue 64, item 4)
    said = match.row(ann, "actions", 0).feedback
    assert said.startswith(ann_why) and "Kept for Ann's next turn" in said, said
    assert keeps(match.row(bo, "actions", 0).feedback, bo_why)
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # Bo's turn closes: Ann's opens
    for _ in range(2):  # the resolution's drawing (it said 'Kept for turn 2 · Ann.'), then the next poll
        assert keeps(match.row(ann, "actions", 0).feedback, ann_why)
        bo_row = match.row(bo, "actions", 0)
        assert keeps(bo_row.feedback, bo_why) and "Kept for Bo's next turn" in bo_row.feedback, bo_row.feedback
        match.poll()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # and back to Bo's
    for _ in range(2):
        row = match.row(ann, "actions", 0)
        assert keeps(row.feedback, ann_why) and "Kept for Ann's next turn" in row.feedback, row.feedback
        assert keeps(match.row(bo, "actions", 0).feedback, bo_why)
        match.poll()



# -- every game's window labels, in the sentences a row says about the window -------------------------------------
@pytest.mark.parametrize("label", window_labels())
def test_a_rows_sentences_about_the_window_take_its_labels_verb(label: str) -> None:
    """A row in a table closed now, a seat with nothing to write, a row kept for the seat's next turn and rows typed
    ahead that an undo set aside say the window's label with the verb it takes: 'turn 1 · orders are being played',
    never 'orders is'."""
    columns = (Column(key="seat", header="Seat", kind=ColumnKind.SUBJECT),
               Column(key="window", header="Window", kind=ColumnKind.WINDOW),
               Column(key="order", header="Order", kind=ColumnKind.TEXT),
               Column(key="feedback", header="Feedback", kind=ColumnKind.FEEDBACK))
    closed = InputTable(name="later", rows="seat", phases=("elsewhere",), columns=columns)
    open_now = InputTable(name="rows", rows="seat", columns=columns)
    hers, others = Window("1", label, "now", ("Ann",), 1), Window("1", label, "now", ("Bo",), 1)
    ahead = TypedRow("rows", "Ann", 0, "", {"order": "A1"}, "")
    lines = [idle_feedback(hers, "Ann", closed, ""), idle_feedback(others, "Ann", open_now, ""),
             held_sentence(hers, "Ann", closed), held_sentence(others, "Ann", open_now),
             *(line.text for line in undo_lines(InputTab("Ann", "Ann", ()), hers, "", (), (ahead,), None))]
    assert len(lines) == 5
    for line in lines[:4]:  # the undo's line names the window with no verb after it
        assert not verb_after(label, line, "is", "are"), line
    for line in (lines[0], lines[1], lines[4]):  # a kept row says "the seat's next turn" beside a turn's label
        assert not english_problems(label, line), (line, english_problems(label, line))
