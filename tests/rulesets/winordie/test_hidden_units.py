"""A player's sheet and the public board never show the other player's hidden units; nor does the public log."""

from __future__ import annotations

import re

from sheets_gm.engine.events import visible_to
from sheets_gm.rulesets.winordie.enums import EventKind
from tests.rulesets.winordie.helpers import canonical, deployed, play, rules


def _names(text: str, ids: set[str]) -> set[str]:
    return {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}


def test_no_view_shows_an_enemy_hidden_unit_s_id_or_card_row() -> None:
    r = rules()
    state = deployed(r)
    for seat in state.seats:
        other = state.other(seat)
        hidden = {u.id for u in state.units if u.owner == other and u.hidden}
        assert hidden
        for text in (canonical(r.view(state, seat)), canonical(r.view(state, None))):
            assert not _names(text, hidden)
        mine = canonical(r.view(state, seat))
        assert all(u.id in mine for u in state.units if u.owner == seat)


def test_no_view_in_a_whole_match_shows_an_enemy_hidden_unit() -> None:
    r = rules()
    for seed, bot in ((b"a", "cautious"), (b"b", "random"), (b"c", "advance")):
        for _before, _events, state in play(r, seed, bot):
            for seat in state.seats:
                hidden = {u.id for u in state.units if u.owner == state.other(seat) and u.hidden}
                assert not _names(canonical(r.view(state, seat)), hidden), (seed, state.turn)
                assert not _names(canonical(r.view(state, None)), hidden), (seed, state.turn)


def test_the_public_board_shows_hidden_units_as_tokens_with_their_hex() -> None:
    r = rules()
    state = deployed(r)
    board = r.view(state, None)["board"]
    hidden = [u for u in state.units if u.hidden]
    assert len([e for e in board if "token" in e]) == len(hidden)
    assert {e["at"] for e in board if "token" in e} == {u.at.label for u in hidden if u.at}
    assert all(set(e) == {"token", "owner", "at", "tokens", "damage"} for e in board if "token" in e)


def test_public_events_never_name_a_unit_while_it_is_hidden() -> None:
    r = rules()
    for seed in (b"a", b"b", b"c"):
        for before, events, after in play(r, seed):
            still_hidden = {u.id for u in after.units if u.hidden} & {u.id for u in before.units if u.hidden}
            for event in visible_to(events, None):
                text = event.text + canonical(event.to_json())
                assert not _names(text, still_hidden), event.text


def test_the_deploying_player_alone_reads_which_unit_each_token_is() -> None:
    r = rules()
    state = r.new_match(r.sample_roster(), b"deploy")
    from tests.rulesets.winordie.helpers import step

    _state, events, _orders = step(r, state, seed=b"deploy")
    private = [e for e in events if e.kind is EventKind.DEPLOYED and e.audience is not None]
    assert len(private) == 1
    assert private[0].audience == frozenset({state.first})
    seat = state.first
    assert private[0] not in visible_to(events, None)
    assert private[0] not in visible_to(events, state.other(seat))


def test_secrets_are_listed_for_every_hidden_unit() -> None:
    r = rules()
    state = deployed(r)
    for seat in state.seats:
        secrets = r.secrets(state, seat)
        assert len(secrets) == sum(1 for u in state.units if u.owner == seat and u.hidden)
        assert all(s in canonical(r.view(state, seat)) for s in secrets)
