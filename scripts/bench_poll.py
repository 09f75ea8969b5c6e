"""What one poll of ``serve`` costs when it answers a save: the CPU of a poll's process forked from a warmed server,
as ``serve`` forks it (``host.processes``), paired against a baseline commit in the same run.

Set-up (this checkout's code): one local match of each of the five games (GvG, Wesnoth, Coalition, Champions, and
Win or Die as a practice match) made with ``init`` and polled twice by cron's ``sync`` (its first answers, then
idle), as a host finds the matches it restarts on; then each copied once and its bots' orders typed in it (orders,
not Ready: the save the host answers). Each poll measured is made on a fresh copy of that saved match (its record's
paths moved to the copy), so every poll reads the same save.

Two worker processes, one per tree (this checkout and ``--vs COMMIT``, ``git archive`` unpacked), each import what
``serve``'s poll server imports (``commands.serve.poll_preload``, their own) and nothing else; for each poll the
worker copies the saved match (not counted), forks, and the forked child makes the host's one call
(``host.outcome.VISIT``: ``visit.visit``) and exits; the CPU (user + system) of the child, from ``wait4``, is the
figure. The two trees' polls of a game alternate (which goes first alternating), ``--polls`` rounds; printed per
game, each tree's median CPU a poll and the median of the paired ratios (this / base), the load beside them.

Before the figures, the two trees' first poll of each game are compared as a player, the GM and the page see them:
every workbook cell by cell (value, and the XML of each part but the file's own dates), the notices' outbox and
the match page's files, byte for byte; a difference is printed (a benchmark of a poll that writes something else
proves nothing).

    .venv/bin/python scripts/bench_poll.py --vs main [--polls 9] [--game gvg,wesnoth]
    .venv/bin/python scripts/bench_poll.py --profile gvg      # one poll of this tree under cProfile, the top lines
    .venv/bin/python scripts/bench_poll.py --profile gvg --imports   # the modules that poll imported
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


# ----- the worker: one tree's polls, forked from a process that imported what serve's poll server imports -----

def _worker(preload: Sequence[str], now: str) -> None:
    """Read a job a line on stdin ({"src", "dst", "profile"}), copy the saved match, fork a poll of it, write its
    CPU and outcome a line on stdout."""
    import importlib

    for module in preload:
        importlib.import_module(module)
    moment = datetime.fromisoformat(now)
    for line in sys.stdin:
        job = json.loads(line)
        dst = Path(job["dst"])
        _copy_match(Path(job["src"]), dst)
        read, write = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:  # the poll's process
            os.close(read)
            said = _child(dst / "match.toml", moment, job.get("profile"))
            os.write(write, said.encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read, encoding="utf-8") as answer:
            said = answer.read()
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "said": said, "status": status}),
              flush=True)


def _child(config: Path, moment: datetime, profile: str | None) -> str:
    """The host's one call in a poll's process (``host.outcome.VISIT``); under cProfile when ``profile`` names a
    file for its statistics; with ``profile`` "imports", the modules the poll imported, said instead."""
    from sheets_gm.host.outcome import VISIT

    def clock() -> datetime:
        return moment

    if profile == "imports":
        before = set(sys.modules)
        outcome = VISIT(config, None, clock)
        return "imported in the poll: " + " ".join(sorted(set(sys.modules) - before))
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        outcome = profiler.runcall(VISIT, config, None, clock)
        profiler.dump_stats(profile)
    else:
        outcome = VISIT(config, None, clock)
    return f"{outcome.done}: {outcome.line}"[:2000]


def _copy_match(src: Path, dst: Path) -> None:
    """The saved match copied (sizes and times kept, so that its record's fingerprints hold), its paths moved."""
    shutil.copytree(src, dst)
    for record in (dst / ".sheets-gm").glob("*.poll.json"):
        record.write_text(record.read_text(encoding="utf-8").replace(str(src.resolve()), str(dst.resolve())),
                          encoding="utf-8")


# ----- the driver -----

def _saved_matches(root: Path, games: Sequence[str]) -> dict[str, Path]:
    """Each game's match, polled before, with its bots' orders typed (see the module notes)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench_serve as serve_bench  # (this tree's: the set-up is the same for both)

    templates = serve_bench.local_templates(root / "templates", games)
    saved = {}
    for game, template in zip(games, templates, strict=True):
        for _ in range(2):
            subprocess.run([*serve_bench.program(), "sync", "-c", "match.toml", "--quiet"], capture_output=True,
                           cwd=template, check=False)
        folder = root / "saved" / game
        _copy_match(template, folder)
        serve_bench.type_orders(folder / "match.toml", ready=False, seed=f"bench-poll/{game}")
        saved[game] = folder
    return saved


class Worker:
    """One tree's worker process (see ``_worker``)."""

    def __init__(self, source: Path | None, root: Path, now: str) -> None:
        env = {**os.environ}
        if source is not None:
            env["PYTHONPATH"] = str(source)
        python = sys.executable
        preload = subprocess.run([python, "-c", "import json; from sheets_gm.commands.serve import poll_preload; "
                                  "print(json.dumps(poll_preload()))"], env=env, cwd=root, check=True,
                                 capture_output=True, text=True).stdout
        self.proc = subprocess.Popen([python, str(Path(__file__).resolve()), "--worker", preload, now], env=env,
                                     cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def poll(self, src: Path, dst: Path, profile: str | None = None) -> dict[str, Any]:
        """One poll of a fresh copy ``dst`` of ``src``: its CPU, wall time and what it said."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"src": str(src), "dst": str(dst), "profile": profile}) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _cells(path: Path) -> dict[tuple[str, str], Any]:
    import openpyxl

    book = openpyxl.load_workbook(path)
    return {(ws.title, c.coordinate): c.value for ws in book.worksheets for row in ws.iter_rows() for c in row
            if c.value is not None}


def _compare(game: str, this: Path, base: Path) -> bool:
    """Whether the two trees' polls left the same files, as a player, the GM and the page see them (each workbook's
    parts but the file's own dates; the records, kept reads and locks left out); the differences printed."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # for the tests' view of a match folder
    from tests.sheets.practice import seen_files

    mine, theirs = seen_files(this), seen_files(base)
    differ = sorted(name for name in mine.keys() | theirs.keys() if mine.get(name) != theirs.get(name))
    for name in differ[:12]:
        print(f"  {game}: {name} differs ({len(mine.get(name, b''))} / {len(theirs.get(name, b''))} bytes)")
    books = sorted({name.split(":")[0] for name in differ if ":" in name})
    for book in books:
        same = _cells(this / book) == _cells(base / book)
        print(f"  {game}: {book}: cell by cell {'equal' if same else 'DIFFERENT'}")
    return not differ


def _measure(args: argparse.Namespace, root: Path) -> None:
    games = args.game.split(",")
    now = datetime.now(UTC).isoformat()
    saved = _saved_matches(root, games)
    base = None
    if args.vs:
        sys.path.insert(0, str(ROOT / "scripts"))
        import bench_serve as serve_bench

        base = serve_bench.source_of(args.vs, root / "base")
    trees = {"this": Worker(None, root, now), **({"base": Worker(base, root, now)} if base else {})}
    cpu: dict[tuple[str, str], list[float]] = {}
    ratios: dict[str, list[float]] = {}
    print(f"load before: {_load()}")
    for turn in range(args.polls):
        for game in games:
            order = list(trees) if turn % 2 == 0 else list(reversed(trees))
            got = {}
            for code in order:
                answer = trees[code].poll(saved[game], root / "polls" / code / f"{game}-{turn}")
                if turn == 0:
                    print(f"  {code} {game}: {answer['said'][:160]}")
                got[code] = answer["cpu"]
                cpu.setdefault((code, game), []).append(answer["cpu"])
            if base:
                ratios.setdefault(game, []).append(got["this"] / got["base"])
    print(f"load after: {_load()}")
    if base:
        same = all([_compare(game, root / "polls" / "this" / f"{game}-0", root / "polls" / "base" / f"{game}-0")
                    for game in games])
        print("The two trees' polls left the same files." if same else "The two trees' polls DIFFER (above).")
    for game in games:
        line = f"{game}: this {statistics.median(cpu['this', game]):.3f} CPU s a poll"
        if base:
            line += (f", base {statistics.median(cpu['base', game]):.3f}; ratio this/base median "
                     f"{statistics.median(ratios[game]):.2f}")
        print(line)
    for worker in trees.values():
        worker.close()


def _profile(args: argparse.Namespace, root: Path) -> None:
    import pstats

    saved = _saved_matches(root, [args.profile])
    worker = Worker(None, root, datetime.now(UTC).isoformat())
    worker.poll(saved[args.profile], root / "warm")  # (the first fork pays for what the page compiles once)
    stats = root / "poll.prof"
    answer = worker.poll(saved[args.profile], root / "profiled", "imports" if args.imports else str(stats))
    worker.close()
    print(f"{answer['said']}\nCPU {answer['cpu']:.3f} s, wall {answer['wall']:.3f} s")
    if args.imports:
        return
    if args.keep_profile:
        shutil.copy(stats, args.keep_profile)
    pstats.Stats(str(stats)).sort_stats(args.sort).print_stats(args.lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (see the module notes)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _worker(json.loads(argv[1]), argv[2])
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vs", default="", help="the baseline commit (default: none, this tree alone)")
    parser.add_argument("--polls", type=int, default=9, help="polls a game and tree (default 9)")
    parser.add_argument("--game", default="gvg,wesnoth,coalition,champions,winordie")
    parser.add_argument("--profile", default="", help="a game: one poll of it profiled instead")
    parser.add_argument("--keep-profile", default="", help="where to copy the profile's statistics")
    parser.add_argument("--imports", action="store_true", help="with --profile: the modules the poll imported")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--lines", type=int, default=40)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-poll-") as tmp:
        root = Path(tmp)
        if args.profile:
            _profile(args, root)
        else:
            _measure(args, root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
