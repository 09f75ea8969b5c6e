"""What a poll compares with the board tab it reads is what a resolution draws there: each game's
``board_tab_before`` (the board tab's drawing, without the public tabs that cost more to draw: the Coalition's
planes, Wesnoth's Units tab, Win or Die's Cards) draws the board tab as ``drawings_before`` does, and any other tab
it draws as that does too, at every state of a bot match's first windows."""

from __future__ import annotations

from typing import Any

import pytest

from sheets_gm.engine.ruleset import JUDGE, Resolution
from sheets_gm.rulesets.registry import bots_of, create_ruleset, ruleset_names, sheet_of
from sheets_gm.simulate.worker import play_out

DEADLINE = "Friday 20:00 UTC"


@pytest.mark.parametrize("game", ruleset_names())
def test_the_board_tab_is_drawn_alone_as_with_every_other_tab(game: str) -> None:
    rules = create_ruleset(game)
    adapter = sheet_of(rules)
    state = rules.new_match(rules.sample_roster(), b"board tab")
    bot = next(k for k in bots_of(rules).values() if not k.tutor)
    players = {seat: bot.make(f"board tab/{seat}") for seat in (*rules.seats(state), JUDGE)}
    states = [state]

    def seen(resolution: Resolution[Any]) -> None:
        states.append(resolution.state)

    play_out(rules, state, players, b"board tab", seen, limit=4)
    for s in states:
        every = adapter.drawings_before(s, DEADLINE)
        alone = adapter.board_tab_before(s, DEADLINE)
        assert [d for d in alone if not d.tab] == [d for d in every if not d.tab]
        assert all(d in every for d in alone)
