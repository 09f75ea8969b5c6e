"""``sheets-gm scenario``: run rules scenario files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command


def run(args: argparse.Namespace) -> int:
    """Run the scenario files and folders; exit 1 if any fails or none ran."""
    from sheets_gm.scenario.runner import run_paths

    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        raise UserError(f"no such file or folder: {', '.join(missing)}")
    passed, failed = run_paths(args.paths)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


#: The scenarios shipped with the program, a folder per game (absolute: the help's example works from any folder).
SHIPPED_SCENARIOS = Path(__file__).resolve().parent.parent.parent / "tests" / "scenarios"


def register(sub: Any) -> None:
    """Add ``scenario`` to the command line."""
    p = command(sub, "scenario", run, "run rules scenarios (YAML files or folders)",
                "Run rules scenario files; print one line per scenario; exit 1 if any fails. A scenario is a "
                "YAML file: a game, a starting position, orders and the outcome expected (docs/scenarios.md "
                f"says how to write one). The shipped ones are in {SHIPPED_SCENARIOS}, a folder per game.",
                f"sheets-gm scenario {SHIPPED_SCENARIOS / 'wesnoth'}\n"
                "         sheets-gm scenario my-rulings/ charge.yaml")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                   help="a scenario file (.yaml or .yml), or a folder: every such file in it and its subfolders")
