"""Benchmark a local-workbook match as a GM runs it: start-up, an idle sync, the demo.

Prints, each as the median of ``--repeats`` runs of a fresh process:
- for each game of ``--game`` (default GvG), an idle ``sheets-gm sync`` on a local workbook (what cron runs every
  minute) against a bare ``python -c pass``, paired: the two run alternately, so a busy machine slows both alike;
  the medians and the median of the per-pair ratios (goal: at most 2x), and the same
  ratio of CPU time (user + system, from ``getrusage(RUSAGE_CHILDREN)``: steadier on a shared machine);
- a sync that reads (its poll state removed first, as on a machine that never polled the match);
- the wall time of ``sheets-gm demo`` (a whole bot match through the workbook);
- how many modules an idle local sync imports, and which heavy stacks among them (Google's
  client, requests, tenacity, numpy) it should not need;
- how many times the demo loads the workbook file (openpyxl's ``load_workbook``).

    .venv/bin/python scripts/bench_local.py                 # 5 repeats
    .venv/bin/python scripts/bench_local.py --repeats 3 --demo-seed 3
    .venv/bin/python scripts/bench_local.py --game all --repeats 40 --skip-demo   # the idle poll of every game
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("gspread", "google.auth", "google.oauth2", "requests", "tenacity", "numpy")
#: Every game the bench can set a match up for (GvG as it always did, the others as ``init GAME --practice``).
GAMES = ("gvg", "wesnoth", "champions", "coalition", "winordie")

#: Runs one idle sync in this process and prints what it imported (as JSON).
_IMPORTS_PROBE = """
import json, sys
from sheets_gm.cli import main
code = main(["sync", "-c", sys.argv[1], "--quiet"])
heavy = [m for m in {heavy!r} if m in sys.modules]
print(json.dumps({{"code": code, "modules": len(sys.modules), "heavy": heavy}}))
"""

#: Plays the demo in this process, counting the workbook loads.
_LOADS_PROBE = """
import json, sys
import openpyxl
import sheets_gm.sheets.local.backend as local
count = 0
real = openpyxl.load_workbook
def counting(*args, **kwargs):
    global count
    count += 1
    return real(*args, **kwargs)
openpyxl.load_workbook = counting
if hasattr(local, "load_workbook"):
    local.load_workbook = counting
from sheets_gm.cli import main
main(["demo", "--out", sys.argv[1], "--seed", sys.argv[2]])
print(json.dumps({"loads": count}))
"""


def _python() -> str:
    return sys.executable


def _program() -> list[str]:
    """How cron starts a sync: the installed ``sheets-gm`` beside this Python, else ``python -m sheets_gm.cli``."""
    installed = Path(_python()).with_name("sheets-gm")
    return [str(installed)] if installed.exists() else [_python(), "-m", "sheets_gm.cli"]


def make_game_match(folder: Path, game: str) -> Path:
    """A local match of ``game`` in ``folder``: GvG's as ``make_match``, another game's as ``init GAME --practice``
    starts it (a private match against the game's bot); returns its config."""
    if game == "gvg":
        return make_match(folder)
    config = folder / "match.toml"
    subprocess.run([_python(), "-m", "sheets_gm.cli", "init", game, "--practice", "-c", str(config)], check=True,
                   capture_output=True, cwd=folder)
    return config


def make_match(folder: Path, env: dict[str, str] | None = None) -> Path:
    """A local match (4 players, no deadline) created with ``init`` in the private layout every starter config
    has (a board, one orders workbook per team, the engine under gm/); returns its config. ``env``: the
    environment ``init`` runs in (another tree's ``sheets_gm`` on its path), this one's by default."""
    (folder / "roster.csv").write_text("name,team,role\nAnn,red,dps\nBen,red,tank\n"
                                       "Cat,blue,dps\nDan,blue,healer\n", encoding="utf-8")
    config = folder / "match.toml"
    config.write_text('ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
                      '[sheets]\nbackend = "local"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\n'
                      'orders = { red = "orders-red.xlsx", blue = "orders-blue.xlsx" }\n', encoding="utf-8")
    subprocess.run([_python(), "-m", "sheets_gm.cli", "init", "gvg", "-c", str(config)], check=True,
                   capture_output=True, cwd=folder, env=env)
    return config


def timed(command: Sequence[str], cwd: Path) -> float:
    """Wall seconds of one run of ``command`` (it must succeed)."""
    return measured(command, cwd)[0]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(command: Sequence[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``command`` (it must succeed)."""
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=cwd)
    return time.perf_counter() - start, _children_cpu() - cpu


def idle_figures(game: str, repeats: int) -> None:
    """Print the idle poll of a fresh local ``game`` match against ``python -c pass``, paired (wall and CPU)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = make_game_match(folder, game)
        sync = [*_program(), "sync", "-c", str(config), "--quiet"]
        timed(sync, folder)  # the first poll reads and leaves the poll state
        timed(sync, folder)  # warm the file cache
        bare = [_python(), "-c", "pass"]
        pairs = [(measured(bare, folder), measured(sync, folder)) for _ in range(repeats)]
    passes, idle = [p[0] for p, _ in pairs], [s[0] for _, s in pairs]
    wall = statistics.median(s[0] / p[0] for p, s in pairs)
    cpu = statistics.median(s[1] / p[1] for p, s in pairs if p[1] > 0)
    print(f"{game}: idle local sync median {statistics.median(idle) * 1000:.1f} ms wall, python -c pass "
          f"{statistics.median(passes) * 1000:.1f} ms; paired over {repeats} runs: {wall:.2f}x wall, "
          f"{cpu:.2f}x CPU (medians of the pairs' ratios; goal: at most 2x)")


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--demo-seed", default="3", help="the demo's seed (default 3)")
    parser.add_argument("--skip-demo", action="store_true", help="measure the idle sync only")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="gvg",
                        help="whose idle poll to measure: one game, or all (default gvg)")
    args = parser.parse_args(argv)
    for game in GAMES if args.game == "all" else (args.game,):
        idle_figures(game, args.repeats)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = make_match(folder)
        sync = [*_program(), "sync", "-c", str(config), "--quiet"]
        timed(sync, folder)  # the first poll reads and leaves the poll state
        state = folder / ".sheets-gm" / "match.poll.json"

        def reading() -> float:
            state.unlink(missing_ok=True)
            return timed(sync, folder)

        full = [reading() for _ in range(args.repeats)]
        print(f"a local sync that reads (no poll state): median {statistics.median(full):.2f} s wall "
              f"(min {min(full):.2f}, max {max(full):.2f})")
        probe = subprocess.run([_python(), "-c", _IMPORTS_PROBE.format(heavy=HEAVY), str(config)], check=True,
                               capture_output=True, text=True, cwd=folder)
        imports = json.loads(probe.stdout.strip().splitlines()[-1])
        print(f"modules imported by an idle local sync: {imports['modules']}; heavy stacks among them: "
              f"{', '.join(imports['heavy']) or 'none'}")
        if args.skip_demo:
            return 0
        demo = [_python(), "-m", "sheets_gm.cli", "demo", "--out", str(folder / "demo"), "--seed", args.demo_seed]
        runs = [timed(demo, folder) for _ in range(args.repeats)]
        print(f"demo (seed {args.demo_seed}): median {statistics.median(runs):.2f} s wall over {args.repeats} runs "
              f"(min {min(runs):.2f}, max {max(runs):.2f})")
        loads = subprocess.run([_python(), "-c", _LOADS_PROBE, str(folder / "demo2"), args.demo_seed], check=True,
                               capture_output=True, text=True, cwd=folder)
        print(f"workbook loads in one demo: {json.loads(loads.stdout.strip().splitlines()[-1])['loads']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
