"""A reaction fires only where its card says (issue 93, item 2; rulings "A reaction fires only where its card says"):
a Drum of Dread ("Before an enemy action next to me") written `any` does not fire before a drummer 4 hexes away,
and the stand-in GM takes no morale for a drum whose drummer was not next to the acting unit; a row asking more
than its card lets it says where it fires, and a row that can never fire is refused with why, spending no token."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sheets_gm.rulesets.winordie.cards import Ability
from sheets_gm.rulesets.winordie.enums import AbilityType, Phase, Trigger
from sheets_gm.rulesets.winordie.orders import Reaction
from sheets_gm.rulesets.winordie.resolve.reactions import standing_reactions
from sheets_gm.rulesets.winordie.rules import public_name
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Pending, Unit, WodState
from tests.rulesets.winordie.helpers import deployed, rules

DRUM = "Before an enemy action next to me: that enemy's legion loses 1 morale."
ENTANGLE = "Before an enemy moves within 2 hexes of me: its move stops after 1 hex."


def _drummer(r: Any, distance: int) -> tuple[WodState, Unit, Unit]:
    """A deployed match in its first turn with the opponent's first unit ``distance`` hexes from the acting
    player's first unit: (state, actor, drummer)."""
    state = deployed(r).copy()
    state.phase, state.turn = Phase.ACTIONS, max(state.turn, 1)
    actor = next(u for u in state.units if u.owner == state.acting and u.at is not None)
    drummer = next(u for u in state.units if u.owner != state.acting and u.at is not None)
    taken = {u.at for u in state.units}
    board = r.rules.board
    assert actor.at is not None
    drummer.at = next(h for h in board.cells() if h not in taken and not board.terrain[h].obstacle
                      and board.distance(actor.at, h) == distance)
    return state, actor, drummer


def test_the_stand_in_gm_takes_no_morale_for_a_drum_far_from_the_acting_unit() -> None:
    r = rules(WodSettings(stand_in_gm=True))
    for distance, applies in ((1, True), (4, False)):
        state, actor, drummer = _drummer(r, distance)
        state.pending.append(Pending(state.next_pending, state.turn, drummer.owner, drummer.id, "Drum of Dread",
                                     DRUM, f"{public_name(state, actor)} move A1"))
        events = r.stand_in_gm_events(state)
        assert bool(events) is applies, (distance, events)


def test_a_row_asking_more_than_its_card_says_where_it_fires_and_one_that_never_can_is_refused() -> None:
    r = rules()
    state, _actor, drummer = _drummer(r, 4)
    card = state.card_of(drummer)
    state.cards[card.name] = replace(card, abilities=(Ability(AbilityType.REACTION, "Drum of Dread", DRUM),
                                                      Ability(AbilityType.REACTION, "Entangle", ENTANGLE)))
    verdicts: list[Any] = []
    rows = (Reaction(drummer.id, "Drum of Dread", Trigger.ANY, row=1),
            Reaction(drummer.id, "Drum of Dread", Trigger.NEAR, 4, row=2),
            Reaction(drummer.id, "Entangle", Trigger.ATTACKED, row=3))
    standing = standing_reactions(r.rules, state, drummer.owner, rows, verdicts)
    said = {v.message.split(":")[0]: v for v in verdicts}
    assert [s.row for s in standing] == [1, 2]
    for row in (1, 2):
        verdict = said[f"Reaction {row}"]
        assert verdict.accepted, verdict
        where = f"it fires only before an enemy action by a unit next to {drummer.id}, as its card says"
        assert where in verdict.message, verdict
    never = said["Reaction 3"]
    assert not never.accepted and "it can never fire: its card says before an enemy move" in never.message, never
