"""What a Win or Die row says matches its fate (issue 53, item 9), on the real sync over memory spreadsheets: a
Ready ticked in the opponent's turn is answered, when ticked and when the turn it was ticked in resolves; a standing
reaction typed in her own turn says it waits for the opponent's turn (not "Kept for turn 1 · Ann"); a reason naming a
row above says the row it names once the rows moved up."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_input_lifecycle import _bot_values, _do, _put
from tests.sync.test_save_races import new_acting, sync_any


def _turn_one() -> tuple[Any, str, str]:
    """A sample match in memory, both deployments played by the bots: the table, the acting player, the other."""
    table, _seat, _backend = new_acting("winordie")
    for step in range(2):
        _do(table, "bot", step, 0, 0)
        assert sync_any(table, force=True).resolved
    read = table.read()
    window = read.record.ruleset.window(read.record.state)
    acting = window.seats[0]
    return table, acting, next(s for s in read.record.seats if s != acting)


def _said(table: Any, seat: str, name: str) -> dict[str, str]:
    """The feedback of ``seat``'s rows of table ``name``, by subject."""
    return {r.subject: r.feedback for r in table.read().seats[seat].rows if r.table == name}


def _type(table: Any, seat: str, name: str, subject: str, **cells: Any) -> None:
    read = table.read()
    for key, value in cells.items():
        _put(table, read, seat, name, subject, key, value)


def test_a_ready_ticked_in_the_opponents_turn_is_answered_and_unticked_with_why() -> None:
    """Bo ticks Ready in Ann's turn: his seat row says the turn does not take it and that it is unticked as the turn
    resolves; when Bo's turn opens, the box is empty and the row says why (not only "Tick Ready when …")."""
    table, ann, bo = _turn_one()
    _type(table, bo, "seat", bo, ready=True)
    assert not sync_any(table).resolved
    said = _said(table, bo, "seat")[bo]
    assert f"{bo}'s Ready is not taken for it, and is unticked as it resolves" in said, said
    _type(table, ann, "seat", ann, ready=True)  # Ann ends her turn
    assert sync_any(table).resolved
    read = table.read()
    assert read.record.ruleset.window(read.record.state).seats[0] == bo
    row = next(r for r in read.seats[bo].rows if r.table == "seat")
    assert not row.ticked("ready")
    assert row.feedback.startswith("Your Ready ticked in turn 1 · Ann was unticked as it resolved: turn 1 · Ann "
                                   f"waited for {ann} only"), row.feedback
    assert sync_any(table) is not None  # the next poll says it again, until the next resolution
    assert _said(table, bo, "seat")[bo].startswith("Your Ready ticked in turn 1 · Ann"), _said(table, bo, "seat")


def test_a_ready_ticked_in_the_opponents_deployment_is_unticked_as_in_a_turn() -> None:
    """Issue 64, item 8: one rule for a Ready ticked in a window that does not wait for the seat. Bo's Ready ticked
    during Ann's deployment stayed ticked into his own deployment (in a turn it is unticked); now it is answered as
    not taken and unticked as Ann's deployment resolves, as in a turn, and his row says why."""
    table, _seat, _backend = new_acting("winordie")
    read = table.read()
    ann = read.record.ruleset.window(read.record.state).seats[0]
    bo = next(s for s in read.record.seats if s != ann)
    _type(table, bo, "seat", bo, ready=True)
    assert not sync_any(table).resolved
    said = _said(table, bo, "seat")[bo]
    assert f"{bo}'s Ready is not taken for it, and is unticked as it resolves" in said, said
    _do(table, "bot", 0, 0, 0)  # Ann deploys
    assert sync_any(table, force=True).resolved
    read = table.read()
    assert read.record.ruleset.window(read.record.state).seats == (bo,)
    row = next(r for r in read.seats[bo].rows if r.table == "seat")
    assert not row.ticked("ready"), row.feedback  # was still ticked: kept for his deployment
    assert row.feedback.startswith(f"Your Ready ticked in deployment · {ann} was unticked as it resolved"), \
        row.feedback


def test_a_standing_reaction_typed_in_her_own_turn_says_it_waits_for_the_opponents_turn() -> None:
    """Ann types a Parry in her own turn, and a reaction of a unit that has none: the first says it stands for Bo's
    turn, the second why it cannot be read (to mend before Bo's turn); neither says "Kept for turn 1 · Ann", and the
    unreadable one does not hold back her Ready."""
    table, ann, bo = _turn_one()
    _type(table, ann, "reactions", "Reaction 1", unit=f"{ann}-2", ability="Parry", when="attacked")
    _type(table, ann, "reactions", "Reaction 2", unit=f"{ann}-7", ability="Parry", when="attacked")
    assert not sync_any(table).resolved
    said = _said(table, ann, "reactions")
    assert said["Reaction 1"].startswith(f"Stands for {bo}'s turn (before an enemy attack on {ann}-2): a standing "
                                         "reaction waits for your opponent's turn"), said
    assert said["Reaction 2"].startswith("✘ Ability 'Parry'") and f"mend it before {bo}'s turn" in said["Reaction 2"]
    assert not any("Kept for" in s for s in said.values()), said
    _type(table, ann, "seat", ann, ready=True)
    assert sync_any(table).resolved  # a reaction is not this turn's: her Ready is taken


def test_a_reason_naming_a_row_above_follows_the_rows_moved_up() -> None:
    """Row 1 a move, Row 2 unreadable, Row 3 waiting for it ("waiting: Row 2 above cannot be read yet"); the turn
    is closed by the GM: the move is carried out, Rows 2 and 3 move up to Rows 1 and 2, and the waiting row names
    Row 1, where the unreadable row stands now, not its own Row 2."""
    table, ann, _bo = _turn_one()
    _type(table, ann, "actions", "Row 1", unit=f"{ann}-1", action="move", target="D4")
    _type(table, ann, "actions", "Row 2", unit=f"{ann}-2", action="zz", target="E5")
    _type(table, ann, "actions", "Row 3", unit=f"{ann}-3", action="move", target="F3")
    assert not sync_any(table).resolved
    assert _said(table, ann, "actions")["Row 3"] == "✘ waiting: Row 2 above cannot be read yet"
    assert sync_any(table, force=True).resolved
    said = _said(table, ann, "actions")
    closed = "✘ Not carried out in turn 1 · Ann: "  # the turn closed without them: kept, each saying why
    assert said["Row 1"].startswith(f"{closed}Action 'zz'"), said
    assert said["Row 2"].startswith(f"{closed}waiting: Row 1 above cannot be read yet"), said


def test_a_row_below_an_unreadable_one_names_its_own_fault_and_waits() -> None:
    """Issue 64, item 3: a row below an unreadable one said only "waiting: Row 1 above cannot be read yet", hiding
    its own fault until Row 1 was mended. It names its own fault first, then waits; a row of no fault of its own
    only waits; and a row naming a unit that a call above, not read, may bring in is not refused for its Unit.
    Checked to fail with the old words (the waiting alone)."""
    table, ann, _bo = _turn_one()
    _type(table, ann, "actions", "Row 1", unit=f"{ann}-1", action="zz", target="D4")
    _type(table, ann, "actions", "Row 2", unit=f"{ann}-2", action="move", target="Q99")
    _type(table, ann, "actions", "Row 3", unit=f"{ann}-3", action="move", target="F3")
    assert not sync_any(table).resolved
    said = _said(table, ann, "actions")
    assert said["Row 2"].startswith("✘ Target 'Q99' is not a hex of the map") and \
        said["Row 2"].endswith("waiting: Row 1 above cannot be read yet"), said
    assert said["Row 3"] == "✘ waiting: Row 1 above cannot be read yet", said
    _type(table, ann, "actions", "Row 1", unit=f"{ann}-1", action="call", target="Nobody's card")
    _type(table, ann, "actions", "Row 2", unit=f"{ann}-C1", action="move", target="F3")
    assert not sync_any(table).resolved
    assert _said(table, ann, "actions")["Row 2"] == "✘ waiting: Row 1 above cannot be read yet"


def _deploying() -> tuple[Any, str, dict[str, Any]]:
    """A Win or Die match at its deployment: the table, the deploying player, and the hex her bot would type for each
    of her units (its Deploy on cells, by unit)."""
    table, _seat, _backend = new_acting("winordie")
    read = table.read()
    ann = read.record.ruleset.window(read.record.state).seats[0]
    hexes = _bot_values(table, read)[ann]["units"]
    return table, ann, hexes


def test_a_good_deployment_row_beside_a_refused_one_says_why_it_waits() -> None:
    """Found playing as a player: Ann deploys one unit on a good hex and types a hex off the map for another; the
    check says the good row is not deployed while another is refused (a legion deploys all its units at once), and
    that a unit with no hex is not placed, but her cells said only "Kept for deployment · Ann." (Win or Die shows
    its verdicts once resolved: the deployment's hide nothing, and the engine says so, ``Verdict.shown_early``)."""
    table, ann, hexes = _deploying()
    good, bad, empty = sorted(hexes)[:3]
    _type(table, ann, "units", good, **hexes[good])
    _type(table, ann, "units", bad, deploy="Z99")
    _type(table, ann, "units", empty, deploy="")
    assert not sync_any(table).resolved
    said = _said(table, ann, "units")
    assert "Z99" in said[bad] and said[bad].startswith("✘"), said[bad]
    assert said[good].startswith(f"✘ {good} is not deployed, as no unit is while another row is refused: a legion "
                                 "deploys all its units at once"), said[good]
    assert said[empty].startswith(f"✘ {empty} is not placed: place every unit of the legion"), said[empty]


def test_two_rows_on_one_hex_and_a_bad_hex_are_each_told_once_and_nothing_contradicts() -> None:
    """Issue 78, item 7: "Ann-5 is deployed there already" beside Ann-5's own row saying "Ann-5 is not deployed",
    and a second ✘ ("is not placed") on a row whose hex was already refused."""
    table, ann, hexes = _deploying()
    first, second, bad = sorted(hexes)[:3]
    _type(table, ann, "units", first, **hexes[first])
    _type(table, ann, "units", second, **hexes[first])
    _type(table, ann, "units", bad, deploy="Z99")
    assert not sync_any(table).resolved
    said = _said(table, ann, "units")
    assert said[first].startswith(f"✘ {first} is not deployed"), said[first]
    assert f"{first} is deployed there" not in said[second] and f"{first}'s row" in said[second], said[second]
    for row in (second, bad):
        assert said[row].count("✘") == 1, said[row]
