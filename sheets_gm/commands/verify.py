"""``sheets-gm verify``: replay a match and check every roll and state."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command


def run(args: argparse.Namespace) -> int:
    """Replay the JSON export; exit 1 on the first mismatch."""
    from sheets_gm.sync.export import ReplayError, replay_states

    try:
        doc = json.loads(args.replay.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"no such file: {args.replay}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{args.replay} is not a readable JSON replay ({exc})") from None
    if not isinstance(doc, dict):
        raise UserError(f"{args.replay} is not a sheets-gm replay")
    try:
        check = replay_states(doc)
    except ReplayError as exc:
        raise UserError(f"{args.replay}: {exc}") from None
    if check.difference is not None:
        print(f"MISMATCH after {check.turns} turns: {check.difference}")
        return 1
    print(f"OK: {check.turns} turns and {check.rolls} dice replayed from the seed; every state matches.")
    return 0


def register(sub: Any) -> None:
    """Add ``verify`` to the command line."""
    p = command(sub, "verify", run, "replay a match from its JSON export and check every roll and state",
                "Recompute every turn of an exported match from its seed and orders; exit 1 on any mismatch.",
                "sheets-gm verify demo-out/export/replay.json")
    p.add_argument("replay", type=Path, metavar="REPLAY.json")
