"""Fingerprint every game's engine: seeded bot matches, every event and final state hashed.

A change that must not alter play (a refactor, a sheet fix) prints the same line per game
before and after; a rules fix that is meant to change play prints a new one for its game,
and its commit says so. Each game plays ``--matches`` matches through the ruleset interface
alone, from its sample roster with default settings on its default board: match ``i`` has
the dice seed ``fingerprint/<game>/<i>``, and its seats are played by the game's bot kinds in
turn (seat ``s`` of match ``i`` by kind ``(i + s) mod kinds``; not a kind made for practice, which plays
toward a person), each seeded from the match.
What is hashed: every event (its JSON), every resolution's state (the state codec's JSON) and
the outcome, in order.

    .venv/bin/python scripts/check_fingerprints.py            # every game
    .venv/bin/python scripts/check_fingerprints.py wesnoth    # one or more games

GvG's historic fingerprint (``scripts/check_gvg_hash.py``) stays as it is: its matches and
bots predate the generic interface.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any

from sheets_gm.engine.ruleset import JUDGE, Resolution
from sheets_gm.rulesets.registry import bots_of, create_ruleset, ruleset_names
from sheets_gm.simulate.worker import play_out

#: Matches per game: enough to reach every phase of every game, small enough for a quick check.
DEFAULT_MATCHES = {"champions": 20, "coalition": 10, "gvg": 20, "wesnoth": 6, "winordie": 20}


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()


def fingerprint(game: str, matches: int) -> tuple[int, int, str]:
    """(windows, events, SHA-256 hex) over ``matches`` seeded bot matches of ``game``."""
    rules = create_ruleset(game)
    kinds = [k for k in bots_of(rules).values() if not k.tutor]  # practice's kinds play a person, not a bot
    digest = hashlib.sha256()
    windows = events = 0
    for i in range(matches):
        seed = f"fingerprint/{game}/{i}".encode()
        state = rules.new_match(rules.sample_roster(), seed)
        seats = rules.seats(state)
        players = {seat: kinds[(i + s) % len(kinds)].make(f"fingerprint/{game}/{i}/{s}")
                   for s, seat in enumerate(seats)}
        if rules.traits.judge:
            players[JUDGE] = kinds[0].make(f"fingerprint/{game}/{i}/{JUDGE}")
        digest.update(_dump(rules.state_codec.to_json(state)))

        def seen(resolution: Resolution[Any]) -> None:
            nonlocal events
            for event in resolution.events:
                digest.update(_dump(event.to_json()))
                events += 1
            digest.update(_dump(rules.state_codec.to_json(resolution.state)))

        state, played = play_out(rules, state, players, seed, seen)
        windows += played
        outcome = rules.outcome(state)
        digest.update(_dump(None if outcome is None else [sorted(outcome.winners), outcome.text]))
    return windows, events, digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    """Print one line per game: matches, windows, events and the hash."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games to fingerprint (default: all of {', '.join(ruleset_names())})")
    parser.add_argument("--matches", type=int, default=0, help="matches per game (default: each game's own count)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in ruleset_names()]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; known: {', '.join(ruleset_names())}")
    for game in args.games or ruleset_names():
        matches = args.matches or DEFAULT_MATCHES.get(game, 10)
        started = time.perf_counter()
        windows, events, digest = fingerprint(game, matches)
        print(f"{game}: {matches} matches, {windows:,} windows, {events:,} events, sha256 {digest} "
              f"({time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
