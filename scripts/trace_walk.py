"""The walk of one match through a poll: how many rooms it enters, and how often it returns to one it left.

A room is a package of ``sheets_gm`` (``sheets_gm.sync.rows``, ``sheets_gm.host``…). The walk follows every call into
``sheets_gm`` code (``sys.setprofile``) from the path's entry (cron's ``commands.polls.run_sync``, serve's
``host.visit.visit``) down to ``--depth`` calls below it (its orchestration: deeper calls are the rooms' own work),
and counts the rooms entered and the returns: calls into a room the walk had already
left. Each path is traced on a local GvG match its gate must read (its poll state removed first), after one
untraced run of the same path so that no first import is counted:

- ``cron``: ``sheets-gm sync -c match.toml`` as cron runs it (``commands.polls.run_sync``);
- ``serve``: one look of ``sheets-gm serve`` at the match (``host.visit.visit``).

    .venv/bin/python scripts/trace_walk.py [--depth 3] [--show]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def room_of(frame: FrameType) -> str:
    """The package of the code a frame runs ('' outside ``sheets_gm``)."""
    name = str(frame.f_globals.get("__name__", ""))
    return name.rpartition(".")[0] if name.startswith("sheets_gm.") else ""


def walk_of(run: Callable[[], Any], entry: str, depth: int) -> list[str]:
    """The rooms ``run`` enters from the function ``entry`` (``module:function``) on, in order (a room entered
    again right after it is one entry), down to ``depth`` calls of ``sheets_gm`` code below ``entry``."""
    rooms: list[str] = []
    stack: list[bool] = []  # for each frame called since the entry, whether it is sheets_gm code
    module, _, function = entry.partition(":")

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            if not stack:
                if frame.f_code.co_name == function and frame.f_globals.get("__name__") == module:
                    stack.append(True)
                return
            room = room_of(frame)
            level = sum(stack)
            stack.append(bool(room))
            if room and level <= depth and (not rooms or rooms[-1] != room):
                rooms.append(room)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return rooms


def figures(rooms: list[str]) -> tuple[int, int]:
    """Rooms entered, and returns to a room already left."""
    seen: set[str] = set()
    returns = 0
    for room in rooms:
        returns += room in seen
        seen.add(room)
    return len(seen), returns


def local_match(folder: Path) -> Path:
    """A local GvG match (4 players) made by ``init``; its config."""
    (folder / "roster.csv").write_text("name,team,role\nAnn,red,dps\nBen,red,tank\nCat,blue,dps\nDan,blue,healer\n",
                                       encoding="utf-8")
    config = folder / "match.toml"
    config.write_text('ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
                      '[sheets]\nbackend = "local"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\n'
                      'orders = { red = "orders-red.xlsx", blue = "orders-blue.xlsx" }\n', encoding="utf-8")
    subprocess.run([sys.executable, "-m", "sheets_gm.cli", "init", "gvg", "-c", str(config)], check=True,
                   capture_output=True, cwd=folder)
    return config


def main(argv: list[str]) -> int:
    """Trace each path once (after an untraced run) and print its rooms and returns."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3, help="calls of sheets_gm code below the entry (default 3)")
    parser.add_argument("--show", action="store_true", help="print each walk's rooms in order")
    args = parser.parse_args(argv)
    from sheets_gm.cli import main as cli
    from sheets_gm.host.visit import visit
    from sheets_gm.poll_gate.state import state_path

    with tempfile.TemporaryDirectory() as scratch:
        config = local_match(Path(scratch))

        def cron() -> None:
            cli(["sync", "-c", str(config), "--quiet"])

        def serve() -> None:
            visit(config, None, lambda: datetime.now(UTC))

        for name, run, entry in (("cron", cron, "sheets_gm.commands.polls:run_sync"),
                                 ("serve", serve, "sheets_gm.host.visit:visit")):
            state_path(config).unlink(missing_ok=True)
            run()  # the imports and first reads, untraced
            state_path(config).unlink(missing_ok=True)  # the gate must read again
            rooms = walk_of(run, entry, args.depth)
            entered, returns = figures(rooms)
            print(f"{name:6} {entered:3} rooms entered, {returns:3} returns to a room left (depth {args.depth})")
            if args.show:
                print("       " + " > ".join(r.removeprefix("sheets_gm.") for r in rooms))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
