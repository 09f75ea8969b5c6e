"""The GvG log as a player reads it: every bonus of a move by name with its total, counted words in the
singular or the plural as the count says, and things named in words (``red's bulwark on E4``), not by id."""

from __future__ import annotations

import re

import pytest

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import play_match
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.enums import EventKind, Skill
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
from sheets_gm.rulesets.gvg.state import GvgState
from tests.paths import GVG_MAP

BOARD = GvgMap.from_text(GVG_MAP.read_text(encoding="utf-8"))
ROLES = ("dps", "dps", "tank", "tank", "healer")
ROSTER = [RosterEntry(f"{team}{i}", team, ROLES[i]) for team in ("red", "blue") for i in range(5)]
#: A count of one with a plural noun ("1 coins"), a hedged plural ("coin(s)"), an internal id ("bulwark@E4").
BAD_WORDS = re.compile(r"(?<![\d.])1 (coins|charges|ballista charges|bulwarks|steps|HPs)\b|\w\(s\)|\w@[A-Z]\d")


def start() -> tuple[GvgRules, GvgState]:
    rules = GvgRules(BOARD, GvgSettings())
    return rules, new_match(BOARD, ("red", "blue"), ROSTER, rules.settings)


def test_a_move_with_player_speed_says_the_die_the_bonus_and_the_total() -> None:
    """Without the bonus in the sentence, a 5-step move on a roll of 2 reads as an illegal move."""
    rules, state = start()
    state.coins[0] = 5
    mover = next(p for p in state.players if p.team == 0)
    dice = TurnDice(b"speed", state.turn, {f"move/{mover.name}": 2})
    far = next(tile for tile, steps in BOARD.distances(0, rules.settings.movement, mover.at).items()
               if steps == 2 + rules.settings.player_speed_bonus and BOARD.enterable(0, tile))
    orders = TurnOrders(players={mover.name: PlayerOrder(move=far)}, skills=((Skill.PLAYER_SPEED,), ()))
    resolution = resolve_turn(rules, state, orders, dice)
    moved = next(e for e in resolution.events if e.kind is EventKind.MOVED)
    bonus = rules.settings.player_speed_bonus
    assert moved.text == (f"{mover.name} moves from {mover.at.label} to {far.label} "
                          f"(rolled 2 [{state.turn}/move/{mover.name}] + {bonus} (Player Speed) = {2 + bonus}).")
    reach = moved.to_json()["data"]["reach"]
    assert reach["roll"] == 2 and reach["bonuses"] == [{"name": "Player Speed", "value": bonus}]
    assert reach["steps"] == 2 + bonus


def _whole_log(matches: int) -> list[Event]:
    rules, _ = start()
    events: list[Event] = []
    for i in range(matches):
        _, state = start()
        second = ObjectiveBot(f"w/{i}/2") if i % 2 else RandomBot(f"w/{i}/2")
        play_match(rules, state, (ObjectiveBot(f"w/{i}/1"), second), f"words/{i}".encode(),
                   on_turn=lambda _orders, resolution: events.extend(resolution.events))
    return events


@pytest.fixture(scope="module")
def whole_log() -> list[Event]:
    return _whole_log(12)


def test_no_log_line_says_1_coins_coin_s_or_an_internal_id(whole_log: list[Event]) -> None:
    bad = [e.text for e in whole_log if BAD_WORDS.search(e.text)]
    assert not bad, bad[:5]
    assert any(re.match(r"Battle for (red|blue)'s (bulwark|fish) on [A-Z]\d+ \(Pv[PE]\)", e.text) for e in whole_log)


def test_every_move_of_a_carrier_or_a_player_with_player_speed_says_why_it_could(whole_log: list[Event]) -> None:
    moves = [e for e in whole_log if e.kind is EventKind.MOVED]
    sped = [e for e in moves if e.data["reach"] is not None and e.data["reach"].speed_bonus]
    carried = [e for e in moves if e.data["reach"] is not None and e.data["reach"].roll is None]
    assert sped and carried  # the bots buy Player Speed and carry trees in these matches
    assert all(re.search(r"\(rolled \d \[\d+/move/\w+\] \+ \d \(Player Speed\) = \d+\)\.$", e.text) for e in sped)
    assert all(re.search(r"\(carrying the tree[^:]*: .*\d+ steps?\)\.$", e.text) for e in carried)
