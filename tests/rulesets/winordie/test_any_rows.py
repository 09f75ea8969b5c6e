"""Whatever a player types into her rows, resolution never crashes and never changes the state it got."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.rulesets.winordie.enums import ActionKind, Enhancement, Side, Trigger
from sheets_gm.rulesets.winordie.orders import Action, Placement, Reaction, WodOrders
from tests.quick import soak_but
from tests.rulesets.winordie.helpers import canonical, deployed, rules

RULES = rules()
STATE = deployed(RULES, b"fuzz")
BEFORE = canonical(RULES.state_codec.to_json(STATE))
NEW = RULES.new_match(RULES.sample_roster(), b"fuzz")
WORDS = st.one_of(st.sampled_from([u.id for u in STATE.units] + [u.token for u in STATE.units] +
                                  [h.label for h in RULES.rules.board.cells()] +
                                  ["Fire Volley", "Parry", "Iron Wall", "Lancer", "Z99", "", "A0"]),
                  st.text(max_size=12))
ACTIONS = st.builds(Action, st.sampled_from(ActionKind), WORDS, WORDS, st.one_of(st.none(), st.sampled_from(Side)),
                    st.one_of(st.just(""), WORDS), st.lists(st.sampled_from(Enhancement), max_size=3).map(tuple))
REACTIONS = st.builds(Reaction, WORDS, WORDS, st.sampled_from(Trigger), st.integers(-2, 5))


@pytest.mark.parametrize("examples", soak_but([150, 20], 20))
def test_any_rows_resolve_without_crashing(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(rows=st.lists(ACTIONS, max_size=10), reactions=st.lists(REACTIONS, max_size=4), hold=st.booleans())
    def walk(rows: list[Action], reactions: list[Reaction], hold: bool) -> None:
        seat = STATE.acting
        other = STATE.other(seat)
        orders = WodOrders({seat: tuple(rows)}, (seat,) if hold else (), {other: tuple(reactions)})
        verdicts = RULES.check(STATE, orders, RULES.dice(b"fuzz", STATE))
        assert len([v for v in verdicts if v.seat == seat]) == len(rows)
        result = RULES.resolve(STATE, orders, RULES.dice(b"fuzz", STATE))
        assert canonical(RULES.state_codec.to_json(STATE)) == BEFORE
        assert RULES.state_codec.from_json(RULES.state_codec.to_json(result.state)) is not None

    walk()


@pytest.mark.parametrize("examples", soak_but([60, 20], 20))
def test_any_deployment_resolves_without_crashing(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(rows=st.lists(st.builds(Placement, WORDS, WORDS), max_size=9))
    def walk(rows: list[Placement]) -> None:
        seat = NEW.acting
        result = RULES.resolve(NEW, WodOrders(deploy={seat: tuple(rows)}), RULES.dice(b"fuzz", NEW))
        placed = [u for u in result.state.units if u.at is not None]
        assert placed == [] or len(placed) == sum(1 for u in NEW.units if u.owner == seat)

    walk()
