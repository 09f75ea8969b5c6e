"""Playing a chunk of matches in one process, each summed up as a small plain record.

A record holds only numbers (no state, no events), so a chunk of them pickles in a few
kilobytes on its way back to the parent process. The figures come from the log events of
every turn, read as they are made: coins taken and boss rewards (earned), skills activated
(spent, by skill), knock-downs, tree pickups and trees carried home (captures).
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from enum import IntEnum

from sheets_gm.engine.gvg.board import GvgMap
from sheets_gm.engine.gvg.bots import play_match
from sheets_gm.engine.gvg.enums import EventKind, Skill
from sheets_gm.engine.gvg.resolve import Resolution
from sheets_gm.engine.gvg.rules import GvgRules
from sheets_gm.engine.gvg.settings import GvgSettings
from sheets_gm.engine.gvg.setup import standard_match
from sheets_gm.engine.gvg.state import GvgState, TurnOrders
from sheets_gm.simulate.plan import BOTS, bot_seed, match_seed, slot_of_a

#: The skills in the order of ``TeamRecord.spent``.
SKILLS: tuple[Skill, ...] = tuple(Skill)
_SKILL_INDEX = {skill.value: i for i, skill in enumerate(SKILLS)}


class Ending(IntEnum):
    """How a match was decided."""

    CAPTURE = 0  # a carrier brought the enemy tree home (both at once: a draw)
    TURN_LIMIT = 1  # the last turn passed: the turn-limit rule decided (a win or a draw)


@dataclass(frozen=True, slots=True)
class TeamRecord:
    """One team's figures in one match."""

    coins_earned: int  # jungle coins and boss rewards
    spent: tuple[int, ...]  # coins spent on each skill, in ``SKILLS`` order
    pickups: int  # times a player of the team picked up the enemy tree
    knocked_down: int  # times a player of the team was knocked down
    captured: bool  # whether the team carried the enemy tree home


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One simulated match: who won, how and when, and each team's figures (A first)."""

    variant: int
    index: int
    slot_of_a: int  # the team slot team A played (0: red, 1: blue)
    winner: int | None  # 0: team A, 1: team B, None: a draw
    turns: int  # resolved turns
    ending: Ending
    teams: tuple[TeamRecord, TeamRecord]


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """What a worker needs to play a chunk: plain, picklable data (the map as text)."""

    map_text: str
    settings: GvgSettings
    bots: tuple[str, str]
    seed: str
    variant: int
    start: int
    stop: int


class _Tally:
    """Reads every turn's events into per-slot counters (an ``on_turn`` of ``play_match``)."""

    __slots__ = ("captured", "earned", "knocked", "pickups", "slot_of_player", "slot_of_team", "spent")

    def __init__(self, state: GvgState) -> None:
        self.slot_of_team = {name: i for i, name in enumerate(state.teams)}
        self.slot_of_player = {p.name: p.team for p in state.players}
        self.earned = [0, 0]
        self.spent = ([0] * len(SKILLS), [0] * len(SKILLS))
        self.pickups = [0, 0]
        self.knocked = [0, 0]
        self.captured = [False, False]

    def __call__(self, orders: TurnOrders, resolution: Resolution) -> None:
        for event in resolution.events:
            kind = event.kind
            if kind is EventKind.MOVED or kind is EventKind.BATTLE:
                continue  # the most frequent kinds, of no interest here
            data = event.data
            if kind is EventKind.COIN_TAKEN:
                self.earned[self.slot_of_team[data["team"]]] += 1
            elif kind is EventKind.KNOCKED_DOWN:
                self.knocked[self.slot_of_player[data["player"]]] += 1
            elif kind is EventKind.SKILL_ACTIVATED:
                self.spent[self.slot_of_team[data["team"]]][_SKILL_INDEX[data["skill"]]] += data["cost"]
            elif kind is EventKind.BOSS_KILLED:
                self.earned[self.slot_of_team[data["team"]]] += data["reward"]
            elif kind is EventKind.TREE_PICKED_UP:
                self.pickups[self.slot_of_player[data["player"]]] += 1
            elif kind is EventKind.TREE_RETURNED:
                slot = self.slot_of_player[data["player"]]
                if self.slot_of_team[data["tree"]] != slot:  # not a team returning its own tree
                    self.captured[slot] = True

    def team(self, slot: int) -> TeamRecord:
        """The figures of the team in ``slot``."""
        return TeamRecord(self.earned[slot], tuple(self.spent[slot]), self.pickups[slot], self.knocked[slot],
                          self.captured[slot])


def play_one(rules: GvgRules, start: GvgState, bots: tuple[str, str], seed: str, variant: int,
             index: int) -> MatchRecord:
    """Play match ``index`` of ``variant`` from ``start`` and sum it up."""
    dice_seed = match_seed(seed, index)
    a = slot_of_a(index)
    team_bots = (BOTS[bots[0]](bot_seed(dice_seed, 0)), BOTS[bots[1]](bot_seed(dice_seed, 1)))
    in_slots = team_bots if a == 0 else (team_bots[1], team_bots[0])
    tally = _Tally(start)
    result = play_match(rules, start, in_slots, dice_seed, on_turn=tally)
    final = result.state
    winner = None if final.winner is None else final.winner ^ a  # slot → team (A is 0)
    ending = Ending.CAPTURE if any(tally.captured) else Ending.TURN_LIMIT
    teams = (tally.team(a), tally.team(1 - a))
    return MatchRecord(variant, index, a, winner, result.turns, ending, teams)


_BOARDS: dict[str, GvgMap] = {}
_STARTS: dict[tuple[str, GvgSettings], tuple[GvgRules, GvgState]] = {}


def _rules_and_start(map_text: str, settings: GvgSettings) -> tuple[GvgRules, GvgState]:
    """The rules and the starting state, kept for the life of the process (the map's caches warm up once)."""
    key = (map_text, settings)
    found = _STARTS.get(key)
    if found is None:
        board = _BOARDS.get(map_text)
        if board is None:
            board = _BOARDS[map_text] = GvgMap.from_text(map_text)
        rules = GvgRules(board, settings)
        found = _STARTS[key] = (rules, standard_match(board, settings))
    return found


def run_chunk(task: ChunkTask) -> list[MatchRecord]:
    """Play the chunk's matches in index order; the records come back in the same order."""
    rules, start = _rules_and_start(task.map_text, task.settings)
    return [play_one(rules, start, task.bots, task.seed, task.variant, i) for i in range(task.start, task.stop)]


def ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it cancels the chunks not started)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
