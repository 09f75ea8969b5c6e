"""What compiling the GvG engine's hot modules with mypyc would buy (issue 66): an experiment, not a build.

Exports a commit of this repository (default HEAD) twice into a temporary folder, compiles ``MODULES`` in one copy
with mypyc (it needs a C compiler and Python's headers, and takes minutes), checks that the compiled copy prints the
same GvG fingerprint (``scripts/check_gvg_hash.py``) as the interpreted one, then plays the same seeded simulation
matches (a ``simulate`` worker's chunk: bots, checks, resolution and tally) in each copy alternately, each in a fresh
process after a warm-up, and prints the CPU seconds of every run and the median paired ratio.

    .venv/bin/python scripts/bench_compiled.py                       # 400 matches, 3 pairs
    .venv/bin/python scripts/bench_compiled.py --matches 1000 --pairs 5 --commit main

``board.py`` stays interpreted: a compiled class cannot be weakly referenced, and the bots key their geometry on
the map in a ``WeakKeyDictionary``. So does ``simulate/worker.py``: compiled, its pool's worker processes died
(``BrokenProcessPool``) in ``sheets-gm simulate``. The compiled copy can be timed as the command runs, too:
``scripts/bench_simulate.py --vs FOLDER`` with a copy kept by ``--keep FOLDER``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

MODULES = (
    *(f"sheets_gm/rulesets/gvg/bots/{m}.py" for m in ("base", "captain", "fights", "geometry", "moves", "objective",
                                                        "plan", "random_bot", "skills")),
    *(f"sheets_gm/rulesets/gvg/resolve/{m}.py" for m in ("__init__", "commands", "fights", "movement", "neutral",
                                                           "pickups", "schedule", "tiles", "upkeep", "work")),
    *(f"sheets_gm/rulesets/gvg/{m}.py" for m in ("check", "combat", "figures", "orders", "rules", "state")),
    "sheets_gm/engine/dice.py", "sheets_gm/engine/events.py", "sheets_gm/engine/grid.py",
)

# Played in a fresh interpreter with its imports from the tree on PYTHONPATH: a warm-up chunk, then the timed one.
_PLAY = """
import gc, sys, time
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import default_board_text
from sheets_gm.simulate.worker import ChunkTask, run_chunk
matches = int(sys.argv[1])
text = default_board_text("gvg")
run_chunk(ChunkTask("gvg", text, GvgSettings(), ("objective", "objective"), "compiled", 0, 0, 20))
gc.freeze()
gc.set_threshold(20_000, 20, 20)
start = time.process_time()
records = run_chunk(ChunkTask("gvg", text, GvgSettings(), ("objective", "objective"), "compiled", 0, 20, 20 + matches))
print(time.process_time() - start, sum(r.windows for r in records))
"""


def compiled_copy(tree: Path) -> None:
    """Compile ``MODULES`` in ``tree`` in place with mypyc (the extension modules land next to their sources, and
    Python imports them first). setuptools rejects the project's ``pyproject.toml`` when mypyc builds, so the copy's
    is emptied; a ``mypy.ini`` stands in for its type-checking settings."""
    (tree / "pyproject.toml").write_text("", encoding="utf-8")
    (tree / "mypy.ini").write_text("[mypy]\npython_version = 3.11\nignore_missing_imports = True\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypyc", *MODULES], cwd=tree, env=_env(tree), capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def fingerprint(tree: Path) -> str:
    """What ``tree``'s ``scripts/check_gvg_hash.py`` prints."""
    return subprocess.run([sys.executable, "scripts/check_gvg_hash.py"], cwd=tree, env=_env(tree), check=True,
                          capture_output=True, text=True).stdout.strip()


def play(tree: Path, matches: int) -> tuple[float, int]:
    """CPU seconds of ``matches`` simulation matches played with ``tree``'s code, and the windows they took."""
    out = subprocess.run([sys.executable, "-c", _PLAY, str(matches)], cwd=tree, env=_env(tree), check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1])


def main(argv: Sequence[str] | None = None) -> int:
    """Build the two copies, compare their fingerprints, and print the paired CPU figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commit", default="HEAD", help="the commit to export (default HEAD)")
    parser.add_argument("--matches", type=int, default=400, help="timed matches per run (default 400)")
    parser.add_argument("--pairs", type=int, default=3, help="alternated pairs of runs (default 3)")
    parser.add_argument("--keep", type=Path, help="build the compiled copy in this new folder and keep it")
    args = parser.parse_args(argv)
    # imported here, as bench_simulate does: scripts/ is on the path when this runs as a script
    from bench_engine import exported

    with tempfile.TemporaryDirectory(prefix="bench-compiled-") as folder:
        plain, built = Path(folder) / "interpreted", args.keep or Path(folder) / "compiled"
        for tree in (plain, built):
            tree.mkdir()
            exported(args.commit, tree)
        compiled_copy(built)
        prints = fingerprint(plain), fingerprint(built)
        print(f"interpreted: {prints[0]}\ncompiled:    {prints[1]}")
        if prints[0] != prints[1]:
            print("the compiled copy plays differently: no timing")
            return 1
        ratios: list[float] = []
        for pair in range(args.pairs):
            order = [plain, built] if pair % 2 == 0 else [built, plain]
            seconds = {tree: play(tree, args.matches) for tree in order}
            (old, windows), (new, _) = seconds[plain], seconds[built]
            ratios.append(old / new)
            print(f"pair {pair + 1}: interpreted {old:.2f} CPU s, compiled {new:.2f} CPU s "
                  f"({args.matches} matches, {windows} turns): {old / new:.2f}x")
        print(f"median paired ratio interpreted/compiled: {statistics.median(ratios):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
