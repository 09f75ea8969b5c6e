"""A typed row's fate on the paths around the poll (issue 38): a deadline or ``resolve --force`` never empties a
row it could not read, a long cell is read whole, a cell typed past a table is answered, and a refused row keeps
its reason whatever window opens. Played with the real sync on memory spreadsheets."""

from __future__ import annotations

from datetime import timedelta

import pytest

from sheets_gm.rulesets.wesnoth.settings import WesnothSettings
from sheets_gm.sheets.layout import a1, cell_at, cells
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import seat_backend
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.sync.test_typed_row_lifecycle import NOW, Match, _winordie_turn


def _wesnoth_turn() -> tuple[Match, str, str]:
    """A Wesnoth match in its third player-turn (both sides recruited): the side to play, and the other."""
    match = Match.played("wesnoth", 3)
    seat = match.window().seats[0]
    other = next(s for s in match.read().record.seats if s != seat)
    return match, seat, other


def _unreadable_attack(match: Match, seat: str, other: str) -> str:
    """Type an attack with a weapon the unit does not have in the seat's second unit row; its refusal."""
    target = [u.id for u in match.read().record.state.units if u.owner == other][1]
    for key, value in (("action", "attack"), ("target", target), ("weapon", "nonsense")):
        match.type(seat, "units", 1, key, value)
    match.poll()
    feedback = match.row(seat, "units", 1).feedback
    assert feedback.startswith("✘ Weapon 'nonsense'"), feedback
    return feedback.removeprefix("✘ ")


# -- item 3: a deadline or resolve --force never empties an unreadable row ------------------------------------------
def test_a_forced_resolution_keeps_an_unreadable_row_with_its_reason() -> None:
    match, seat, other = _wesnoth_turn()
    why = _unreadable_attack(match, seat, other)
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    row = match.row(seat, "units", 1)
    assert (row.text("weapon"), row.text("action")) == ("nonsense", "attack")
    assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: {why}"), row.feedback
    archive = match.archive(seat)
    assert "Weapon: nonsense — not carried out (Weapon 'nonsense'" in archive and "still in your rows" in archive
    match.poll()  # and every poll after it says so again
    assert match.row(seat, "units", 1).feedback.startswith(f"✘ Not carried out in {closed.label}: {why}")


def test_a_deadline_keeps_an_unreadable_row_with_its_reason() -> None:
    match, seat, other = _wesnoth_turn()
    deadline = (NOW + timedelta(hours=1)).isoformat()
    assert poll(match.sheets, match.cls, now=NOW, force=True, next_deadline=lambda _now: deadline).resolved
    seat, other = other, seat
    why = _unreadable_attack(match, seat, other)
    closed = match.window()
    late = poll(match.sheets, match.cls, now=NOW + timedelta(hours=2))
    assert late.resolved and "deadline" in late.reason
    row = match.row(seat, "units", 1)
    assert row.text("weapon") == "nonsense"
    assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: {why}"), row.feedback



def test_a_row_typed_over_after_a_cut_resolution_is_not_answered_with_what_it_held() -> None:
    """A resolution cut before its commit is completed by the next poll from the rows it read; a refused row typed
    over meanwhile is answered as it is now, not with the refusal of what it held (found by the soak run: GvG's
    blue1 said "'zz' is not a tile" beside F22, which the next turn carried out)."""
    match = Match("gvg")
    match.type("blue", "players", 0, "destination", "zz")
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    # turn 2 opens, and reads the row at once: what its check says replaces turn 1's sentence
    assert match.row("blue", "players", 0).feedback.startswith("✘ destination 'zz' is not a tile")
    engine = match.sheets.engine
    assert isinstance(engine, MemoryBackend)
    engine.calls.clear()
    engine.fail_on_call = 2  # its read, then its write: the commit
    with pytest.raises(InjectedFault):
        poll(match.sheets, match.cls, now=NOW, force=True)
    engine.fail_on_call = None
    match.type("blue", "players", 0, "destination", "F22")
    report = match.poll()
    assert report.resolved and report.reason == "completing a resolution that was interrupted"
    row = match.row("blue", "players", 0)
    assert row.text("destination") == "F22"
    assert "zz" not in row.feedback and not row.feedback.startswith("✘"), row.feedback
    assert "zz" in match.archive("blue")  # what turn 2 read of the row, and did not carry out, is told there

# -- item 2: a typed cell is read whole, or refused by name --------------------------------------------------------
def _coalition_post(match: Match, bump: str) -> str:
    """A forum post ordering each of the Coalition's 13 armies (one line each), then the rulebook's own line
    asking where Mirran Partisans leaves to if its engagement is won."""
    armies = [a for a in match.read().record.state.armies if a.side.value == "coalition"]
    lines = [f"{a.name}: {a.at.split()[0]}; {a.at.split()[1]}" for a in armies if a.name != "Mirran Partisans"]
    lines += ["Mirran Partisans: Mirrodin; 10D > 11D > 11E > 11F - engage Razor Fields Company",
              f"Joint engage bump: Mirran Partisans > {bump}"]
    return "\n".join(lines)


def test_a_pasted_post_of_thirteen_armies_is_read_whole() -> None:
    match = Match("coalition")
    post = _coalition_post(match, "11G")
    assert len(post) > 400
    match.type("coalition", "armies", 0, "line", post)
    report = match.poll()
    assert report.rejected == []
    rows = [match.row("coalition", "armies", i) for i in range(13)]
    assert all(r.feedback.startswith("✔") for r in rows), [r.feedback for r in rows]
    assert rows[0].text("line") == post  # the cell as pasted, not cut


def test_the_joint_engage_bump_line_of_a_post_is_read() -> None:
    match = Match("coalition")
    match.type("coalition", "armies", 0, "line", _coalition_post(match, "3A"))  # not next to 11F: refused
    report = match.poll()
    assert report.rejected == [(  # the army is named once, not before its own message again
        "coalition · Mirran Partisans",
        "a joint engage bump names a square next to the engaged square 11F, for an army that engages")]


def test_a_cell_past_the_limit_is_refused_by_name_and_kept() -> None:
    match = Match("coalition")
    post = _coalition_post(match, "11G") + "\n" + "x" * 16_000
    match.type("coalition", "armies", 0, "line", post)
    match.poll()
    row = match.row("coalition", "armies", 0)
    assert row.text("line") == post
    header = "Or the forum line (Army: Plane; 3A > 3B - engage Target)"
    assert row.feedback.startswith(f"✘ The cell under “{header}” holds 16,"), row.feedback
    assert "a cell is read up to 16,000" in row.feedback
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    row = match.row("coalition", "armies", 0)
    assert row.text("line") == post and "a cell is read up to 16,000" in row.feedback


# -- item 7: a cell typed past a table's last column is answered in place, never wiped ------------------------------
def _champions_fight() -> tuple[Match, str]:
    match = Match.played_until("champions", lambda m: m.window().phase == "equip_fight")
    return match, match.window().seats[0]


def _past(match: Match, seat: str, table: str, typed: dict[str, str], extra: str) -> tuple[MemoryBackend, str]:
    """Type ``typed`` in the table's first row and ``extra`` in the column right of its last; that row's range."""
    read = match.read()
    seat_read = read.seats[seat]
    placed = seat_read.tab.table(table)
    for key, value in typed.items():
        match.type(seat, table, 0, key, value)
    backend = seat_backend(match.sheets, read.tabs, seat)
    assert isinstance(backend, MemoryBackend)
    (col,) = placed.past_cols()
    backend.type(seat_read.tab.name, cell_at(col, placed.first_row), extra)
    return backend, a1(seat_read.tab.name, cells(0, placed.first_row, placed.feedback_col, placed.first_row))


def test_a_fourth_item_and_a_fifth_action_past_their_tables_are_refused_in_place_and_kept() -> None:
    match, seat = _champions_fight()
    items, item_row = _past(match, seat, "equip", {"item1": "Sword", "item2": "Shield", "item3": "Boots"}, "Ring")
    _sets, set_row = _past(match, seat, "sets", {f"action{i}": "evade" for i in range(1, 5)}, "attack")
    report = match.poll()
    said = dict(report.rejected)
    equip, sets = (next(why for who, why in said.items() if who.startswith(f"{seat} · ") and part in why)
                   for part in ("Item 3", "Action 4"))
    assert equip.startswith("Column G ('Ring') is past this table, which ends at column F: its columns are "
                            "Champion, For, Health, Item 1, Item 2, Item 3.")
    assert sets.startswith("Column G ('attack') is past this table")
    for where, extra in ((item_row, "Ring"), (set_row, "attack")):
        line = items.read([where])[0][0]
        assert line[6] == extra and str(line[7]).startswith("✘ Column G")
        assert not any(str(v).startswith("✔") for v in line)
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    for where, extra in ((item_row, "Ring"), (set_row, "attack")):
        line = items.read([where])[0][0]
        assert line[6] == extra and str(line[7]).startswith("✘ Column G"), line  # never wiped


# -- item 4: refused rows are never tried and emptied without a fate ----------------------------------------------
def test_a_refused_recruit_in_step_mode_stays_with_why_at_end_turn() -> None:
    match = Match("wesnoth", WesnothSettings(start_gold=5))  # one Thief, not two
    ann = match.window().seats[0]
    for key, value in (("action", "recruit"), ("go", True)):
        match.type(ann, "units", 0, key, value)
    match.type(ann, "recruit", 0, "type", "Thief")
    match.type(ann, "recruit", 1, "type", "Thief")
    assert match.poll().resolved  # the Go: one Thief recruited, the second refused and kept
    row = match.row(ann, "recruit", 0)
    assert row.text("type") == "Thief" and row.feedback.startswith("Not resolved, kept for round 1"), row.feedback
    leader = match.row(ann, "units", 0)
    assert leader.feedback.startswith("✘ Carried out in part in round 1 · dawn · Ann: done: recruited Ann-R1"), \
        leader.feedback
    match.poll()  # the leader has acted: the recruit waits for Ann's next turn, and says why
    row = match.row(ann, "recruit", 0)
    assert "Thief costs 4 gold" in row.feedback and "Ann-L has already acted this turn" in row.feedback, row.feedback
    match.type(ann, "seat", 0, "ready", True)
    assert match.poll().resolved  # End turn: the recruit is not tried again, and stays for her next turn
    row = match.row(ann, "recruit", 0)
    assert row.text("type") == "Thief"
    assert row.feedback.startswith("✘ Not carried out in round 1 · dawn · Ann: recruit: Thief costs 4 gold") and \
        "Kept for Ann's next turn" in row.feedback, row.feedback
    archive = match.archive(ann)
    assert "Recruit 2 — Type: Thief — not carried out (recruit: Thief costs 4 gold" in archive
    assert archive.count("Type: Thief") == 2  # the two recruits the Go read, and nothing at End turn


# -- item 8: a row carried out in part says what was not done --------------------------------------------------------
def test_a_row_carried_out_in_part_says_what_was_not_done() -> None:
    match, seat, other = _wesnoth_turn()
    unit = match.row(seat, "units", 1).subject
    state = match.read().record.state
    assert (unit, next(u.at.label for u in state.units if u.id == unit)) == ("Bo-R1", "P23")  # P22 is free
    far = [u.id for u in state.units if u.owner == other][1]
    closed = match.window()
    for key, value in (("action", "move"), ("to", "P22"), ("target", far), ("go", True)):
        match.type(seat, "units", 1, key, value)
    assert match.poll().resolved  # the move is made, the attack refused: the enemy is far away
    row = match.row(seat, "units", 1)
    assert not row.typed
    assert row.feedback.startswith(f"✘ Carried out in part in {closed.label}: done: moved to P22"), row.feedback
    assert f"not done: {far} on " in row.feedback
    match.poll()
    assert match.row(seat, "units", 1).feedback == row.feedback  # not 'Waiting for your orders' on the next poll
    assert "— carried out in part (done: moved to P22" in match.archive(seat)


def test_a_refused_champions_row_stays_with_why_while_its_champion_s_other_row_is_carried_out() -> None:
    match, seat = _champions_fight()
    gladiator = match.row(seat, "equip", 0).subject
    match.type(seat, "equip", 0, "item1", "Excalibur")  # no such item: refused
    match.type(seat, "sets", 0, "action1", "attack")  # the same champion's actions: read
    match.poll()
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    equip, sets = match.row(seat, "equip", 0), match.row(seat, "sets", 0)
    assert equip.subject == sets.subject == gladiator
    assert equip.text("item1") == "Excalibur"
    assert equip.feedback.startswith(f"✘ Not carried out in {closed.label}: there is no item 'Excalibur'"), \
        equip.feedback
    assert not sets.typed and "Carried out in part" not in sets.feedback
    archive = match.archive(seat)
    assert f"{gladiator} — Item 1: Excalibur — not carried out (there is no item 'Excalibur'" in archive
    assert f"{gladiator} — Action 1: attack\n" in archive


def _coalition_results() -> Match:
    """A Coalition match in its first battle results window (two battles: Dominaria 19D and Mirrodin 11F)."""
    match = Match.played("coalition", 1)
    assert match.window().phase == "results"
    assert [r.subject for r in match.read().seats["judge"].rows if r.table == "results"] == \
        ["Dominaria 19D", "Mirrodin 11F"]
    return match


def test_a_result_refused_for_its_losses_keeps_its_losses_rows_with_why() -> None:
    match = _coalition_results()
    match.type("judge", "results", 0, "winner", "Llanowar Wardens")
    match.type("judge", "losses", 0, "slot1", "99999")  # Llanowar Wardens has 5000 there
    match.type("judge", "losses", 1, "slot1", "10")
    match.poll()
    why = "result Dominaria 19D: Llanowar Wardens loses 99999 in slot 1; it has 5000 there"
    for index in (0, 1):  # the losses rows say why their battle's result is refused (they said 'Kept for …')
        assert match.row("judge", "losses", index).feedback == f"✘ {why}"
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    for index, lost in ((0, "99999"), (1, "10")):
        row = match.row("judge", "losses", index)
        assert row.text("slot1") == lost, row  # not emptied at the next window
        assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: {why} · Kept for when this table "), \
            row.feedback
    assert "Llanowar Wardens — Lost in slot 1: 99999 — not carried out (result Dominaria 19D" in \
        match.archive("judge")
    match.bots_play()  # the next turn's orders: the judge's window opens again, and its check speaks afresh
    assert match.window().phase == "results"
    match.poll()
    row = match.row("judge", "results", 0)
    assert (row.subject, row.text("winner")) == ("Dominaria 19D", "Llanowar Wardens")
    assert row.feedback.startswith("✘ result Dominaria 19D: "), row.feedback  # not turn 1's sentence


# -- item 8: a reason is never masked by 'Kept for …' when the window changes ----------------------------------------
def test_an_unreadable_side_row_keeps_its_reason_through_the_judge_s_window() -> None:
    match = Match("coalition")
    match.type("coalition", "armies", 0, "line", "Urza's Vanguard: Dominaria; 4C")
    match.type("coalition", "armies", 0, "to", "4D")
    match.poll()
    why = "✘ the forum line and the order columns are both filled"
    assert match.row("coalition", "armies", 0).feedback.startswith(why)
    # the bots type their orders (a battle is announced), over her End square: still both filled, so the side's
    # Ready is not taken (issue 53: Ready means ready); the GM forces the window
    type_bot_orders(match.sheets, match.cls, match.bots)
    assert not match.poll().resolved
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    assert match.window().phase == "results"  # the judge's window opens
    closed = "✘ Not carried out in turn 1 · orders: the forum line and the order columns are both filled"
    for _ in range(2):  # the resolution's drawing, then every poll while the judge writes
        row = match.row("coalition", "armies", 0)
        assert row.feedback.startswith(closed), row.feedback
        assert "For turn 2 · orders: read as it stands at the players' deadline" in row.feedback, row.feedback
        match.poll()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the next turn's orders: read again
    match.poll()
    row = match.row("coalition", "armies", 0)
    assert row.window == match.window().key and row.feedback.startswith(why), row.feedback


def test_actions_typed_in_the_opponent_s_turn_still_say_so_after_her_go() -> None:
    match, acting, waiting = _winordie_turn()
    state = match.read().record.state
    mine = next(u for u in state.units if u.owner == waiting)
    for key, value in (("unit", mine.id), ("action", "move"), ("target", "C5")):
        match.type(waiting, "actions", 0, key, value)
    match.poll()
    held = f"Kept for {waiting}'s next turn: it is read when that opens"
    assert match.row(waiting, "actions", 0).feedback.startswith(held)
    unit = next(u for u in state.units if u.owner == acting and u.at is not None)
    for key, value in (("unit", unit.id), ("action", "move"), ("target", unit.at.label if unit.at else "")):
        match.type(acting, "actions", 0, key, value)
    match.type(acting, "seat", 0, "go", True)
    assert match.poll().resolved  # her Go resolves a step of her turn: the window stays hers
    for _ in range(2):  # the resolution's drawing, then the next poll (it said 'Kept for turn 1 · …')
        row = match.row(waiting, "actions", 0)
        assert row.text("target") == "C5" and row.feedback.startswith(held), row.feedback
        match.poll()


def test_an_out_player_s_typing_is_told_it_is_not_read() -> None:
    match = Match.played_until("champions", lambda m: any(p.out for p in m.read().record.state.players))
    out = next(p.name for p in match.read().record.state.players if p.out)
    match.type(out, "move_loot", 0, "move", "A1")
    match.poll()
    said = f"✘ {out} is out: all four champions died"
    assert match.row(out, "move_loot", 0).feedback.startswith(said)  # it said 'Kept for …'s next turn'
    match.bots_play()
    row = match.row(out, "move_loot", 0)
    assert row.text("move") == "A1" and row.feedback.startswith(said) and "is not read" in row.feedback


def test_a_champions_set_with_a_typo_is_fought_with_the_default_and_told_so_not_kept_as_not_carried_out() -> None:
    """The check replaces an unreadable action by the default and the fight uses that set (``champions/check.py``):
    the row was carried out in part, so it is cleared saying what was done and what was not, not kept as "not
    carried out" to be refused again every window (issue 38, item 4)."""
    match, seat = _champions_fight()
    match.type(seat, "sets", 1, "action1", "dance")
    match.type(seat, "sets", 1, "action2", "evade")
    match.poll()
    before = match.row(seat, "sets", 1)
    assert "✘ action 1: unknown action 'dance'" in before.feedback and "✔ the Rogue will" in before.feedback, \
        before.feedback
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    row = match.row(seat, "sets", 1)
    assert not row.typed, row
    assert row.feedback.startswith(f"✘ Carried out in part in {closed.label}: done: the Rogue will attack "), \
        row.feedback
    assert "not done: action 1: unknown action 'dance'" in row.feedback
    archive = match.archive(seat)
    assert "Ann.rogue — Action 1: dance, Action 2: evade — carried out in part" in archive, archive[-600:]


def test_a_champions_heal_by_a_mage_is_fought_as_the_default_one_answer_holding_no_ready() -> None:
    """Issue 93, item 5: a Heal by a non-Healer is replaced by the default, as the rules say, yet the row read ✘ and ✔
    at once and held the seat's Ready. The row reads ✔ alone, says the rule and the default, and Ready is taken."""
    match, seat = _champions_fight()
    type_bot_orders(match.sheets, match.cls, match.bots, ready=False)  # every seat's orders typed
    mage = next(i for i in range(4) if str(match.row(seat, "sets", i).subject).endswith(".mage"))
    match.type(seat, "sets", mage, "action1", "heal")
    assert not match.poll().resolved
    said = match.row(seat, "sets", mage).feedback
    assert "only the Healer heals" in said and said.startswith("✔") and "✘" not in said, said
    for each in match.window().seats:
        match.type(each, "fight", 0, "ready", True)
    assert match.poll().resolved  # her Ready was taken


def test_a_pasted_post_of_thirteen_armies_in_one_cell_of_the_forum_tab_is_read_whole_with_its_bump_line() -> None:
    """The same post pasted into the first Post line cell of the side's Forum tab, read through the sheet: every
    army is ordered, the joint engage bump line is read (and answered by the rule it breaks), the cell kept whole."""
    match = Match("coalition")
    post = "Coalition movement, turn 1\n\n" + _coalition_post(match, "3A")
    read = match.read()
    forum = read.seats["coalition"].tab.page_of("post")
    backend = seat_backend(match.sheets, read.tabs, "coalition")
    assert isinstance(backend, MemoryBackend)
    backend.type(forum.name, forum.table("post").cell(0, "line"), post)
    report = match.poll()
    assert report.rejected == [(
        "coalition · Mirran Partisans",
        "a joint engage bump names a square next to the engaged square 11F, for an army that engages")]
    rows = [match.row("coalition", "armies", i) for i in range(13)]
    assert all("ordered by the pasted post's line in coalition line 1" in r.feedback for r in rows), \
        [r.feedback for r in rows]
    line = match.row("coalition", "post", 0)
    assert line.text("line") == post and "Coalition movement" not in line.feedback, line.feedback  # a title


def test_a_readable_recruit_beside_one_that_cannot_be_read_is_kept_with_why_when_the_turn_ends() -> None:
    """The leader recruits every typed row in one action, so none is made while one cannot be read: a deadline or a
    forced resolution left the readable row cleared and archived as read, though nothing was recruited (found by
    the audit of issue 38, item 4). It stays typed, saying why, and the Archive says it was not carried out."""
    match = Match("wesnoth")
    ann = match.window().seats[0]
    match.type(ann, "units", 0, "action", "recruit")
    match.type(ann, "recruit", 0, "type", "Dragon")
    match.type(ann, "recruit", 1, "type", "Thief")
    match.poll()
    waiting = match.row(ann, "recruit", 1)
    assert waiting.feedback.startswith("✘ Not recruited while Recruit 1 cannot be read"), waiting.feedback
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    assert not any(u.owner == ann and not u.leader for u in match.read().record.state.units)  # nothing recruited
    row = match.row(ann, "recruit", 1)
    assert row.text("type") == "Thief", row
    assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: Not recruited while Recruit 1 cannot be "
                                   "read"), row.feedback
    assert "Recruit 2 — Type: Thief — not carried out (Not recruited while Recruit 1" in match.archive(ann)


def test_a_readable_recruit_whose_leader_s_row_cannot_be_read_is_kept_with_why_when_the_turn_ends() -> None:
    """The leader's row ('zz' for its Order) cannot be read, so it recruits nothing: the recruit rows said nothing,
    and a forced resolution cleared them and archived them as read (found by the lifecycle check's engine oracle).
    They stay typed, saying they wait for the leader's row, and the Archive says they were not carried out."""
    match = Match("wesnoth")
    ann = match.window().seats[0]
    match.type(ann, "units", 0, "order", "zz")
    match.type(ann, "units", 0, "action", "recruit")
    match.type(ann, "recruit", 0, "type", "Thief")
    match.poll()
    leader = match.row(ann, "units", 0).subject
    waiting = match.row(ann, "recruit", 0)
    assert waiting.feedback.startswith(f"✘ Not recruited while {leader}'s row cannot be read"), waiting.feedback
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    assert not any(u.owner == ann and not u.leader for u in match.read().record.state.units)  # nothing recruited
    row = match.row(ann, "recruit", 0)
    assert row.text("type") == "Thief", row
    assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: Not recruited while {leader}'s row"), \
        row.feedback
    assert "Recruit 1 — Type: Thief — not carried out" in match.archive(ann)


# -- a window opened by a resolution answers the rows kept for it at once ---------------------------------------------
def test_the_resolution_that_opens_an_equip_window_answers_a_kept_row_for_that_window() -> None:
    def bagged(match: Match) -> list[str]:
        return [p.name for p in match.read().record.state.players if p.bag and not p.out]

    match = Match.played_until("champions", lambda m: m.window().phase == "equip_fight" and bool(bagged(m)))
    seat = bagged(match)[0]
    item = next(p.bag[0] for p in match.read().record.state.players if p.name == seat)
    type_bot_orders(match.sheets, match.cls, {s: b for s, b in match.bots.items() if s != seat})
    match.type(seat, "equip", 0, "item1", item)
    match.type(seat, "equip", 1, "item1", item)  # two rows ask for the one item: the second is refused
    match.poll()
    claimed = f"{item} is already asked for by the Gladiator's row"
    assert claimed in match.row(seat, "equip", 1).feedback
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the Gladiator takes it; the row is kept
    assert match.window().phase == "move_loot"
    assert claimed in match.row(seat, "equip", 1).feedback  # kept for when the table opens again
    type_bot_orders(match.sheets, match.cls, {s: b for s, b in match.bots.items() if s != seat})
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the next equip window opens
    assert match.window().phase == "equip_fight"
    opened = match.row(seat, "equip", 1)
    assert opened.text("item1") == item
    assert claimed not in opened.feedback, opened.feedback  # the window closed said it; this one says its own
    match.poll()
    assert match.row(seat, "equip", 1).feedback == opened.feedback  # the next poll says nothing else


# -- Win or Die's deployment names a unit's row as the player sees it --------------------------------------------------
def test_a_deployment_verdict_names_the_unit_whose_row_she_sees_not_its_place_among_the_rows_read() -> None:
    match = Match("winordie")
    closed = match.window()
    seat = closed.seats[0]
    units = [r.subject for r in match.read().seats[seat].rows if r.table == "units"]
    match.type(seat, "units", 3, "deploy", "A7")  # the fourth unit's row alone, the rows above it left empty
    report = poll(match.sheets, match.cls, now=NOW, force=True)
    assert report.resolved  # nothing deployed: the other units are not placed
    row = match.row(seat, "units", 3)
    assert row.text("deploy") == "A7"
    # it said "Row 1: Bo-4 is not deployed …": the first placement read, in the table's fourth row
    # told before it resolved (a deployment's verdicts hide nothing), its ✘ stays as the window stays open
    assert row.feedback.startswith(f"✘ Not resolved, kept for {closed.label}: {units[3]} is not deployed, as no unit "
                                   "is while another row is refused"), row.feedback
    assert "Row 1" not in row.feedback
    assert "Row 1" not in " ".join(why for _who, why in report.rejected), report.rejected


@pytest.mark.parametrize("what", ["Bo-2 deals 3 damage to Ann-3, which dies.", "Bo-2 moves to D3", "Ann wins!"])
def test_a_carried_out_row_says_what_it_did_with_one_full_stop(what: str) -> None:
    """Issue 64: "✔ Carried out in turn 7 · Bo: Row 1: Bo-2 deals 3 damage to Ann-3, which dies.." (the engine's
    verdict ends its sentence already)."""
    from sheets_gm.engine.ruleset import Window
    from sheets_gm.sync.rows.fates import carried_sentence

    said = carried_sentence(Window(key="7", label="turn 7 · Bo", phase="actions", seats=("Bo",), turn=7), what)
    assert said.startswith("✔ Carried out in turn 7 · Bo: ") and not said.endswith("..") and said[-1] in ".!", said


def test_the_archive_says_a_window_the_gm_forced_was_closed_by_her() -> None:
    """Issue 64: a turn closed by resolve --force over a Ready that was not taken (a row refused) was archived as
    "Turn 1 · Bo resolved with what you typed: … Bo — Ready ✔", as if her Ready had closed it."""
    match, acting, _other = _winordie_turn()
    mine = next(u.id for u in match.read().record.state.units if u.owner == acting)
    for key, value in (("unit", mine), ("action", "move"), ("target", "Z9")):
        match.type(acting, "actions", 0, key, value)
    match.type(acting, "seat", 0, "ready", True)
    assert not match.poll().resolved  # the refused row holds her Ready
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    archive = match.archive(acting)
    assert "was closed by the GM (resolve --force) and resolved with what you typed:" in archive, archive
