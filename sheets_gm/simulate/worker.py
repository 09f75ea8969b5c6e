"""Playing a chunk of matches in one process, each summed up as a small plain record.

A match is played through the ruleset interface alone: each window, every acting seat's
bot gives its orders, the ruleset resolves them, and the ruleset's tally reads the events.
A record holds only numbers and short strings (no state, no events), so a chunk of them
pickles in a few kilobytes on its way back to the parent process.
"""

from __future__ import annotations

import gc
import signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.ruleset import JUDGE, Bot, Resolution, Ruleset
from sheets_gm.rulesets.registry import create_ruleset, game_of
from sheets_gm.simulate.plan import bot_of_seat, bot_seed, match_seed


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One simulated match: its bots by seat, who won, how and when, and each seat's figures."""

    variant: int
    index: int
    bots: tuple[int, ...]  # per seat: which bot played it (0: A, 1: B…)
    winners: tuple[int, ...]  # the winning seats (none: a draw)
    windows: int  # resolved windows
    ending: str  # one of the ruleset's ending keys
    figures: tuple[tuple[float, ...], ...]  # per seat, in the ruleset's figure order
    attributes: tuple[tuple[str, ...], ...] = ()  # per seat, in the ruleset's attribute order

    def won_by(self, bot: int) -> bool:
        """Whether a seat played by ``bot`` is among the winners."""
        return any(self.bots[seat] == bot for seat in self.winners)


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """What a worker needs to play a chunk: plain, picklable data (the board as text)."""

    ruleset: str
    map_text: str
    settings: Any
    bots: tuple[str, ...]
    seed: str
    variant: int
    start: int
    stop: int


def play_out(rules: Ruleset[Any, Any, Any], state: Any, players: Mapping[str, Bot[Any, Any]], dice_seed: bytes,
             on_window: Callable[[Resolution[Any]], object], limit: int | None = None) -> tuple[Any, int]:
    """A match played from ``state`` to its end (or the game's window cap, or ``limit`` windows) by ``players`` (a
    bot per seat, and per JUDGE for a judge's windows), ``on_window`` told each resolution; returns the last state
    and the number of windows played."""
    windows = 0
    cap = rules.traits.max_windows if limit is None else min(limit, rules.traits.max_windows)
    while windows < cap:
        window = rules.window(state)
        if window is None:
            break
        dice = rules.dice(dice_seed, state)
        orders = rules.merge_orders({seat: players[seat].orders(state, seat, dice) for seat in window.seats})
        resolution = rules.resolve(state, orders, dice)
        on_window(resolution)
        state = resolution.state
        windows += 1
    return state, windows


def play_one(rules: Ruleset[Any, Any, Any], bots: tuple[str, ...], seed: str, variant: int,
             index: int) -> MatchRecord:
    """Play match ``index`` of ``variant`` from the ruleset's sample roster and sum it up."""
    dice_seed = match_seed(seed, index)
    state = rules.new_match(rules.sample_roster(), dice_seed)
    seats = rules.seats(state)
    simulation = game_of(rules).simulation
    if simulation is None:
        raise ValueError(f"the {rules.traits.title} game has no bots to simulate with")
    kinds = simulation.bots(rules)
    dealt = tuple(bot_of_seat(index, s, len(bots)) for s in range(len(seats)))
    players = {seat: kinds[bots[b]].make(bot_seed(dice_seed, b, s, len(seats), len(bots)))
               for s, (seat, b) in enumerate(zip(seats, dealt, strict=True))}
    if rules.traits.judge:  # a judge's window lists JUDGE, which is no seat: the first bot kind plays it
        players[JUDGE] = kinds[bots[0]].make(f"{bot_seed(dice_seed, 0, 0, len(seats), len(bots))}/{JUDGE}")
    tally = simulation.tally(rules, state)
    state, windows = play_out(rules, state, players, dice_seed, tally.window)
    outcome = rules.outcome(state)
    winners = () if outcome is None else tuple(seats.index(s) for s in outcome.winners)
    summary = tally.finish(state)
    return MatchRecord(variant, index, dealt, winners, windows, summary.ending, summary.figures,
                       summary.attributes)


_RULES: dict[tuple[str, str, Any], Ruleset[Any, Any, Any]] = {}


def rules_of(task: ChunkTask) -> Ruleset[Any, Any, Any]:
    """The rules of a chunk, kept for the life of the process (the board's caches warm up once), and by the workers
    forked from it."""
    key = (task.ruleset, task.map_text, task.settings)
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = create_ruleset(task.ruleset, task.settings, task.map_text)
    return found


def run_chunk(task: ChunkTask) -> list[MatchRecord]:
    """Play the chunk's matches in index order; the records come back in the same order."""
    rules = rules_of(task)
    return [play_one(rules, task.bots, task.seed, task.variant, i) for i in range(task.start, task.stop)]


def start_worker() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it cancels the chunks not started), and the cycle
    collector runs a thirtieth as often. A match's turns make short-lived objects without cycles, which reference
    counting frees, so every default collection (each 700 allocations) walks the young objects for nothing; the
    objects inherited from the parent are frozen out of the walks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
