"""Fingerprint the GvG engine: 100 seeded bot matches, every event and final state hashed.

A refactor that must not change GvG prints the same hash before and after; a rules fix that
is meant to change play prints a new one (say so in its commit). Matches 0-49 are
ObjectiveBot against ObjectiveBot, 50-99 ObjectiveBot against RandomBot; match ``i`` uses
the seed ``hash/<i>``.

    .venv/bin/python scripts/check_gvg_hash.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.bots.base import Bot, play_match
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.orders import TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import standard_match
from sheets_gm.rulesets.gvg.state import GvgState

DEFAULT_MAP = Path(__file__).resolve().parent.parent / "templates" / "gvg" / "map.txt"


def fingerprint(matches: int = 100) -> tuple[int, str]:
    """(events, SHA-256 hex) over ``matches`` seeded matches' events and final states."""
    rules = GvgRules(GvgMap.from_text(DEFAULT_MAP.read_text(encoding="utf-8")), GvgSettings())
    start = standard_match(rules.board, rules.settings)
    digest = hashlib.sha256()
    events = 0

    def record(_orders: TurnOrders, resolution: Resolution[GvgState]) -> None:
        nonlocal events
        for event in resolution.events:
            digest.update(json.dumps(event.to_json(), sort_keys=True, ensure_ascii=False).encode())
            events += 1

    for i in range(matches):
        second: Bot = ObjectiveBot(f"hash/{i}/2") if i < matches // 2 else RandomBot(f"hash/{i}/2")
        result = play_match(rules, start, (ObjectiveBot(f"hash/{i}/1"), second), f"hash/{i}".encode(),
                            on_turn=record)
        digest.update(json.dumps(result.state.to_json(), sort_keys=True).encode())
    return events, digest.hexdigest()


def main() -> int:
    """Print the event count and the hash."""
    events, digest = fingerprint()
    print(f"100 seeded GvG matches: {events:,} events, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
