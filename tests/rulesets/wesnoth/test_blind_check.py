"""Wesnoth's check tells no roll: it runs on blind dice (``TurnDice.blinded``), so a fight is announced and not fought,
a rest says what each roll would heal, an advancement on a kill is judged when the fight is fought, and a row after
a fight that the fight may change waits for it. The resolution, and a step's row resolved at once, say the outcome.
"""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.orders import TurnOrders, UnitOrder
from sheets_gm.rulesets.wesnoth.state import Unit, WesnothState
from tests.rulesets.wesnoth.test_engine import rules, start


def facing(r: WesnothRuleset) -> tuple[WesnothState, Unit, Unit]:
    """Ann's leader next to Bo's, Bo's badly wounded (a hit or two kills it), with Ann to act."""
    state = start(r)
    grid = r.rules.board.grid
    ann = next(u for u in state.units if u.owner == "Ann" and u.leader)
    bo = next(u for u in state.units if u.owner == "Bo" and u.leader)
    beside = next(h for h in grid.neighbours(ann.at) if all(u.at != h for u in state.units))
    hp = r.rules.utype(bo).hitpoints
    bo = replace(bo, at=beside, wounds=hp - 1)
    units = tuple(bo if u.id == bo.id else u for u in state.units)
    return replace(state, units=units), ann, bo


def test_an_attack_is_announced_and_changes_nothing_for_the_rows_after_it() -> None:
    r = rules()
    state, ann, bo = facing(r)
    orders = TurnOrders("Ann", (UnitOrder(ann.id, attack=bo.id, advance="true"),), end_turn=True)
    said = {v.part: v for v in r.check(state, orders, r.dice(b"one seed", state))}
    assert said["attack"].accepted and said["attack"].message.startswith(f"will attack {bo.id} with "), said
    assert said["attack"].message.endswith("the dice are rolled as the turn resolves"), said
    assert said["advance"].accepted and "judged when the fight is fought" in said["advance"].message, said
    for seed in (b"one seed", b"another", b"a third"):  # whatever the dice, the same words
        assert r.check(state, orders, r.dice(seed, state)) == list(said.values())
    done = r.resolve(state, orders, r.dice(b"one seed", state))
    fought = [v for v in done.verdicts if v.part == "attack"]
    assert fought and fought[0].message.startswith(f"attacks {bo.id}"), done.verdicts  # the resolution fights


def test_a_row_the_fight_above_may_change_is_not_refused_before_it() -> None:
    """A unit moving onto the hex of a target the row above may kill: judged when the fight is fought."""
    r = rules()
    state, ann, bo = facing(r)
    grid = r.rules.board.grid
    near = next(h for h in grid.neighbours(bo.at) if h != ann.at and all(u.at != h for u in state.units))
    spear = Unit("Ann-R1", "Spearman", "Ann", near)
    state = replace(state, units=(*state.units, spear))
    orders = TurnOrders("Ann", (UnitOrder(ann.id, attack=bo.id), UnitOrder(spear.id, move=bo.at.label)), end_turn=True)
    said = r.check(state, orders, r.dice(b"one seed", state))
    assert all(v.accepted for v in said), said
    assert said[-1].message.startswith("judged when the fights above are fought (as the board stands before them: ")


def test_an_advancement_the_unit_cannot_take_is_refused_before_the_fight() -> None:
    r = rules()
    state, ann, bo = facing(r)
    orders = TurnOrders("Ann", (UnitOrder(ann.id, attack=bo.id, advance="Archmage"),), end_turn=True)
    said = {v.part: v for v in r.check(state, orders, r.dice(b"one seed", state))}
    assert not said["advance"].accepted and "not 'Archmage'" in said["advance"].message, said
    again = TurnOrders("Ann", (UnitOrder(ann.id, attack=bo.id), UnitOrder(ann.id, rest=True)), end_turn=True)
    last = r.check(state, again, r.dice(b"one seed", state))[-1]  # no fight gives a unit its action back
    assert not last.accepted and "has already acted" in last.message, last


def test_a_rest_says_what_each_roll_would_heal_not_the_roll() -> None:
    r = rules()
    state, ann, _ = facing(r)
    state = replace(state, units=tuple(replace(u, wounds=3) if u.id == ann.id else u for u in state.units))
    orders = TurnOrders("Ann", (UnitOrder(ann.id, rest=True),), end_turn=True)
    (said,) = r.check(state, orders, r.dice(b"one seed", state))
    assert said.accepted and said.message.startswith("will rest") and "rolled" not in said.message.split(";")[0], said
    assert "the die is rolled as the turn resolves" in said.message
    (rested,) = [v for v in r.resolve(state, orders, r.dice(b"one seed", state)).verdicts if v.part == "rest"]
    assert rested.message.startswith("rested: rolled "), rested


def test_a_step_resolves_its_row_at_once_and_says_the_outcome() -> None:
    r = rules(resolve="step")
    state, ann, bo = facing(r)
    window = r.window(state)
    assert window is not None and window.stepwise
    orders = TurnOrders("Ann", (UnitOrder(ann.id, attack=bo.id),), end_turn=False)
    assert r.check(state, orders, r.dice(b"s", state))[0].message.startswith("will attack")
    done = r.resolve(state, orders, r.dice(b"s", state))
    assert next(v.message for v in done.verdicts if v.part == "attack").startswith(f"attacks {bo.id}")
    assert any(e.kind == EventKind.ATTACK for e in done.events), done.events  # the dice were rolled


WALLED = """\
.       .       x       .       .       .
.       .       village .       .       .
castle1 .       .       .       .       castle2
keep1   castle1 .       .       .       keep2
"""


def test_a_refusal_no_fight_above_can_change_stays_a_refusal() -> None:
    """Issue 64, item 3: below an attack, a move into an impassable hex and an attack on a unit out of reach (neither
    unit moving) were answered "judged when the fights above are fought" and held nothing, so a ticked End turn
    closed the turn on them. Whoever dies in the fight, they are refused: ✘ before the turn resolves, as above it."""
    from sheets_gm.engine.settings import parse_settings
    from sheets_gm.rulesets.registry import create_ruleset
    from sheets_gm.rulesets.wesnoth.settings import WesnothSettings

    r = create_ruleset("wesnoth", parse_settings(WesnothSettings, {}), WALLED)
    assert isinstance(r, WesnothRuleset)
    state, ann, bo = facing(r)
    grid = r.rules.board.grid
    wall = next(h for h in grid.cells() if r.rules.board.cell(h).terrain.value == "impassable")
    near = next(h for h in grid.neighbours(wall) if all(u.at != h for u in state.units))
    far = next(h for h in grid.cells() if all(u.at != h for u in state.units) and h != near and h != wall
               and grid.distance(h, near) > 2 and r.rules.board.cell(h).terrain.value != "impassable")
    spear, ghost = Unit("Ann-R1", "Spearman", "Ann", near), Unit("Bo-R1", "Skeleton", "Bo", far)
    state = replace(state, units=(*state.units, spear, ghost))
    rows = (UnitOrder(ann.id, attack=bo.id), UnitOrder(spear.id, move=wall.label))
    (_, walled) = r.check(state, TurnOrders("Ann", rows, end_turn=True), r.dice(b"one seed", state))
    assert not walled.accepted and "judged when" not in walled.message, walled
    rows = (UnitOrder(ann.id, attack=bo.id), UnitOrder(spear.id, attack=ghost.id))
    (_, reach) = r.check(state, TurnOrders("Ann", rows, end_turn=True), r.dice(b"one seed", state))
    assert not reach.accepted and "judged when" not in reach.message, reach
    above = r.check(state, TurnOrders("Ann", tuple(reversed(rows)), end_turn=True), r.dice(b"one seed", state))[0]
    assert (above.accepted, above.message) == (reach.accepted, reach.message)  # the same words above the attack
