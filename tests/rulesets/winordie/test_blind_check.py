"""Win or Die's check tells no roll: it runs on blind dice (``TurnDice.blinded``), so an attack is announced and not
fought, whatever the seed; the resolution fights it and says the damage."""

from __future__ import annotations

from sheets_gm.rulesets.winordie.enums import ActionKind
from sheets_gm.rulesets.winordie.orders import Action, WodOrders
from tests.rulesets.winordie.helpers import SEED, deployed, rules


def test_an_attack_is_announced_before_it_resolves_and_fought_when_it_does() -> None:
    r = rules()
    state = deployed(r).copy()
    acting = state.acting
    board = r.rules.board
    attacker = next(u for u in state.units if u.owner == acting and u.at is not None
                    and not any(a.before for a in state.card_of(u).abilities))
    enemy = next(u for u in state.units if u.owner != acting and u.at is not None)
    taken = {u.at for u in state.units}
    assert attacker.at is not None
    enemy.at = next(h for h in board.neighbours(attacker.at) if h not in taken and board.terrain[h].value == ".")
    enemy.hidden = attacker.hidden = False
    orders = WodOrders(actions={acting: (Action(ActionKind.ATTACK, attacker.id, enemy.id),)}, hold=(acting,))
    said = [v.message for v in r.check(state, orders, r.dice(SEED, state))]
    assert said == [f"Row 1: {attacker.id} will attack {enemy.id}: the dice are rolled as the turn resolves."], said
    for seed in (b"another", b"a third"):
        assert [v.message for v in r.check(state, orders, r.dice(seed, state))] == said
    fought = [v.message for v in r.resolve(state, orders, r.dice(SEED, state)).verdicts]
    assert fought[0].startswith(f"Row 1: {attacker.id} deals "), fought
