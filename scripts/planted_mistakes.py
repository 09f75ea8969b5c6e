"""A contributor's run from outside, timed, and the shared checks held to five mistakes planted in a new game.

It copies the checkout's tracked files into a scratch folder (the clone), writes a game that was never seen with
``sheets-gm new-game``, verifies it as the guide says (the game's shared tests, ``pytest --game NAME``, and its
scenarios through the GM's command) and times clone to verified match. Then it plants, one at a time, each mistake a
new game can make, in the new game's own files, runs the shared checks that must find it and prints whether they did,
for the reason the mistake names (the check's own words for what is wrong), and the first lines of what they said:

- ``window``: an order carried out in a window it was not typed for (every turn's window has the same key, so a row
  typed for one turn is still bound to the next);
- ``leak``: a short order leaked to another seat (each verdict's sentence ends with every other seat's moves);
- ``kept``: a window's unresolved orders kept in the state (the engine keeps each turn's moves, to carry them out a
  turn late), which a bot on a seat is handed;
- ``hidden``: the same, the kept orders out of ``seat_state`` (as the reference advises for stand-ins), so that no
  bot is handed them: the state keeps what nobody is shown;
- ``random``: Python's ``random`` rolled instead of the match's dice.

    .venv/bin/python scripts/planted_mistakes.py [--name bidfour] [--keep] [--only kept]

It exits 1 when a mistake is not found, or found for another reason than its own (a planted engine that does not
import, say). ``tests/commands/test_planted_mistakes.py`` runs it under ``-m soak``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The shared tests that verify a new game, as ``scripts/test_game.sh`` runs them, cut to those of the mistakes and
#: the game's own conformance.
VERIFY = ("tests/conformance/test_engine_conformance.py", "tests/conformance/test_sheet_conformance.py",
          "tests/conformance/test_game_records.py", "tests/test_scenarios.py",
          "tests/conformance/test_orders_bound_to_window.py", "tests/conformance/test_noninterference_orders.py",
          "tests/conformance/test_noninterference_resolution.py")
#: The starter's lines the mistakes that keep a window's orders change: a field for them, and the turn's orders
#: swapped for the kept ones.
KEEPS = (("    over: bool = False\n", "    over: bool = False\n    kept: kit.Mapping[str, tuple[int, ...]] = "
          "kit.field(default_factory=dict)\n"),
         ("        at = dict(state.at)\n", "        orders, state = type(orders)(dict(state.kept)), "
          "kit.replace(state, kept=dict(orders.moves))\n        at = dict(state.at)\n"))


@dataclass(frozen=True)
class Mistake:
    """A mistake planted by replacing text in one of the game's files, the shared tests that must find it, and the
    words their failure must say (that they found it for its own reason)."""

    name: str
    what: str
    file: str  # engine.py or sheet.py
    edits: tuple[tuple[str, str], ...]
    tests: tuple[str, ...]
    reason: str


MISTAKES = (
    Mistake("window", "an order carried out in a window it was not typed for", "engine.py",
            (('kit.Window(str(turn), f"turn {turn}"', 'kit.Window("1", f"turn {turn}"'),),
            ("tests/conformance/test_orders_bound_to_window.py",), "was carried out in another"),
    Mistake("leak", "a short order leaked to another seat", "engine.py",
            (('why or f"{seat} moves {\', \'.join(map(str, moves))}"))',
              'why or f"{seat} moves {\', \'.join(map(str, moves))}" + " · " + " ".join(str(m) for s, ms in '
              'orders.moves.items() if s != seat for m in ms)))'),),
            ("tests/conformance/test_noninterference_orders.py",), "before their window resolved"),
    Mistake("kept", "a window's unresolved orders kept in the state", "engine.py", KEEPS,
            ("tests/conformance/test_noninterference_orders.py",), "keep none for later"),
    Mistake("hidden", "a window's unresolved orders kept in the state, out of every seat's state", "engine.py",
            (*KEEPS, ("    def sample_roster(self) -> kit.Roster:\n",
                      "    def seat_state(self, state: State, seat: str) -> State:\n"
                      "        return kit.replace(state, kept={})\n\n"
                      "    def sample_roster(self) -> kit.Roster:\n")),
            ("tests/conformance/test_noninterference_resolution.py",), "the state keeps what nobody is shown"),
    Mistake("random", "Python's random rolled instead of the match's dice", "engine.py",
            (("from sheets_gm.rulesets import kit\n", "import random\n\nfrom sheets_gm.rulesets import kit\n"),
             ("dice.d6(stumble_key(seat, number))", "random.randint(1, 6)")),
            ("tests/conformance/test_engine_conformance.py",), "the game used randomness that is not the match's dice"),
)


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``argv`` run in the scratch checkout, its imports from there."""
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def pytest(cwd: Path, name: str, tests: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """The shared ``tests`` of the game ``name``, quick run, as ``test_game.sh`` runs them."""
    return run([sys.executable, "-m", "pytest", "-o", "addopts=", "-m", "not soak", "-n", "0", "-q", "-p",
                "no:cacheprovider", "-x", "--game", name, *tests], cwd)


def cloned(into: Path) -> Path:
    """The checkout's tracked files copied ``into`` a folder: what a clone holds."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in filter(None, listed.decode().split("\0")):
        source, target = ROOT / rel, into / rel
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def said(done: subprocess.CompletedProcess[str]) -> str:
    """The lines of a failed run that say what is wrong: its assertion and failure lines."""
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.startswith(("E ", "FAILED")) and line.strip() != "E"]
    return "\n".join(lines[:8]) or done.stdout[-1500:]


def main(argv: list[str]) -> int:
    """Clone, write, verify and time; then each mistake planted and looked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="bidfour", help="the new game's name (default: bidfour)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch checkout and print where it is")
    parser.add_argument("--only", default="", help="plant only this mistake (window, leak, kept, hidden or random)")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="contributor-"))
    try:
        start = time.perf_counter()
        root = cloned(scratch / "sheets-gm")
        cloning = time.perf_counter() - start
        made = run([sys.executable, "-m", "sheets_gm.cli", "new-game", args.name, "--title", "Bid Four"], root)
        verified = pytest(root, args.name, VERIFY)
        scenarios = run([sys.executable, "-m", "sheets_gm.cli", "scenario", f"tests/scenarios/{args.name}"], root)
        took = time.perf_counter() - start
        ok = made.returncode == verified.returncode == scenarios.returncode == 0
        print(f"clone {cloning:.1f} s; clone to verified match {took:.1f} s: {'verified' if ok else 'NOT verified'}"
              f" ({verified.stdout.strip().splitlines()[-1] if verified.stdout.strip() else made.stderr[-300:]})")
        if not ok:
            print(said(verified) or made.stderr or scenarios.stdout)
            return 1
        missed = 0
        for mistake in (m for m in MISTAKES if args.only in ("", m.name)):
            path = root / "sheets_gm" / "rulesets" / args.name / mistake.file
            clean = path.read_text(encoding="utf-8")
            planted = clean
            for old, new in mistake.edits:
                assert old in planted, f"{mistake.name}: the starter no longer has {old!r}"
                planted = planted.replace(old, new)
            path.write_text(planted, encoding="utf-8")
            try:
                done = pytest(root, args.name, mistake.tests)
            finally:
                path.write_text(clean, encoding="utf-8")
            caught = done.returncode != 0
            verdict = ("NOT FOUND" if not caught else "FOUND" if mistake.reason in done.stdout + done.stderr else
                       f"FOUND FOR ANOTHER REASON (not {mistake.reason!r})")
            missed += verdict != "FOUND"
            print(f"\n{mistake.name} ({mistake.what}): {verdict} by "
                  f"{', '.join(mistake.tests)}\n{said(done) if caught else done.stdout.strip()[-300:]}")
        return 1 if missed else 0
    finally:
        if args.keep:
            print(f"\nthe scratch checkout: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
