"""The status line's bots: a seat out of the game is not named (issue 64: the line listed the bots of players who
were out)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast

from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.sync.bot_seats import bots_phrase


def test_a_bot_of_a_player_who_is_out_is_not_named() -> None:
    rules = create_ruleset("champions")
    state = rules.new_match(rules.sample_roster(), b"bots phrase")
    first, second = state.players[0], state.players[1]
    record = cast(Any, SimpleNamespace(ruleset=rules, state=state, bots={first.name: "seek", second.name: "stack"}))
    assert bots_phrase(record) == f"bots play {first.name} (seek), {second.name} (stack)"
    record.state = replace(state, players=(replace(first, out_round=1), second, *state.players[2:]))
    assert bots_phrase(record) == f"bots play {second.name} (stack)"
    record.state = replace(state, players=(replace(first, out_round=1), replace(second, out_round=1),
                                           *state.players[2:]))
    assert bots_phrase(record) == ""


def test_the_stand_in_judge_is_not_counted_among_the_armies() -> None:
    """Issue 64: a war of 600 armies played by bots and a stand-in judge said "601 played by bots"."""
    rules = create_ruleset("coalition")
    state = rules.new_match(rules.sample_roster(), b"bots phrase")
    armies = {a.name: "commander" for a in state.armies[:7]}
    record = cast(Any, SimpleNamespace(ruleset=rules, state=state, bots={**armies, "judge": "commander"}))
    assert bots_phrase(record) == "7 played by bots (commander); the judge's results by the commander bot"


def test_no_bot_of_a_coalition_side_that_conceded_is_named() -> None:
    """Issue 64, as Wesnoth's: after a side's concession the status line still named its bot and its armies' bots
    (a person who conceded and left her side to a bot, or a bot's side conceded by the GM)."""
    rules = create_ruleset("coalition")
    state = rules.new_match(rules.sample_roster(), b"bots phrase")
    theirs = next(a.name for a in state.armies if a.side.value == "phyrexia")
    ours = next(a.name for a in state.armies if a.side.value == "coalition")
    record = cast(Any, SimpleNamespace(ruleset=rules, state=state, bots={
        "phyrexia": "commander", theirs: "commander", ours: "commander", "judge": "commander"}))
    assert bots_phrase(record) == (f"bots play phyrexia (commander), {theirs} (commander), {ours} (commander), "
                                   "judge (commander)")
    record.state = rules.concede(state, "phyrexia", "").state
    assert bots_phrase(record) == f"bots play {ours} (commander), judge (commander)"
    record.state = rules.concede(state, "coalition", "left the table").state
    assert bots_phrase(record) == f"bots play phyrexia (commander), {theirs} (commander), judge (commander)"


def test_a_bot_of_a_wesnoth_player_who_is_out_is_not_named() -> None:
    """Issue 64, checked for every game with seats that go out: a Wesnoth player conquered (or who conceded) in a
    game of three or four plays no more, and the status line still named her bot."""
    rules = create_ruleset("wesnoth")
    state = rules.new_match(rules.sample_roster(), b"bots phrase")
    first, second = state.players[0], state.players[1]
    record = cast(Any, SimpleNamespace(ruleset=rules, state=state, bots={first.name: "skirmisher"}))
    assert bots_phrase(record) == f"bots play {first.name} (skirmisher)"
    record.state = state.evolve(players=(replace(first, out=True), second, *state.players[2:]))
    assert bots_phrase(record) == ""


def test_no_bot_of_a_destroyed_coalition_army_is_named() -> None:
    """A destroyed army drops out of the state: its bot plays no more, and the status line named it still (the
    ruleset asked alone could not tell a destroyed army, so the core names the bots' seats and members to it)."""
    rules = create_ruleset("coalition")
    state = rules.new_match(rules.sample_roster(), b"bots phrase")
    gone, kept = state.armies[0].name, state.armies[1].name
    record = cast(Any, SimpleNamespace(ruleset=rules, state=state, bots={
        "coalition": "commander", gone: "commander", kept: "commander", "judge": "commander"}))
    assert bots_phrase(record) == f"bots play coalition (commander), {gone} (commander), {kept} (commander), " \
                                  "judge (commander)"
    record.state = state.with_(armies=tuple(a for a in state.armies if a.name != gone))  # as a battle's results do
    assert bots_phrase(record) == f"bots play coalition (commander), {kept} (commander), judge (commander)"
    assert rules.seats_out(record.state, tuple(record.bots)) == frozenset({gone})
