"""What the match page costs, measured as issue goals name it: for each game (its sample roster) and for a Coalition
war of ``--armies`` armies a side (default 300: a 600-army war), a local match played by its bots for ``--windows``
windows (default 5), each window's poll that resolves it timed (``sync.poll``: read, resolve, write every workbook)
and, paired with it in the same run, the page's build after it into the match's one page folder, as the match layer
does after every poll (``web.page.page_input``, ``web.site.build_site``). Printed first, one line each: the median
and the largest of the windows' ratios build / resolution (bar: at most 10 %), the median of the same ratios in
the process's CPU time (steadier on a shared machine), the first window's ratio and the windows' builds over their
resolutions summed (wall clock), the load and draw of the page in
headless chromium (Debian's, as ``tests/web`` drives it: navigation to the load event and two frames, the median of
``--repeats``; bar: under 1 s) and the bytes a window (every page of the folder and the files they share, over the
pages; bar: under 1 MB); the machine's load average beside them. Then each window's figures; with ``--replay N``,
first each window's build made N times more on copies of the folder as it stood, its least CPU time over the
resolution's CPU time (the figure another program's work on the shared cores moves least).

With ``--vs COMMIT``, the figure that counts on a shared machine: every match played at once by this checkout's code
and by COMMIT's (``git archive`` unpacked in a temporary folder), each in a worker process of its own, the two driven
a step at a time by this one: each resolves alone, then each window's ``--replay`` builds (default 5) of each are
made interleaved, which goes first alternating; printed first, per game, the median over the windows of the paired
ratio of their least build CPU (branch / base), then each one's median ratio of least build over resolution (over
the mean of the two sides' CPU for the window's resolving poll: the same poll, its noise shared by both figures).

    .venv/bin/python scripts/bench_page.py [--armies 300] [--windows 5] [--repeats 3] [--replay 9]
    .venv/bin/python scripts/bench_page.py --vs main --replay 5   # (from the checkout: COMMIT is read of its git)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: The code measured: this checkout's, or the tree ``--vs`` unpacked a commit into (its worker's, ``_worker``)
ROOT = Path(os.environ.get("SHEETS_GM_BENCH_TREE") or Path(__file__).resolve().parent.parent)
for folder in (ROOT, ROOT / "scripts"):  # (its bench_big_war too: it puts its own tree first)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import openpyxl  # noqa: E402
from bench_big_war import roster as big_roster  # noqa: E402

from sheets_gm.engine.ruleset import JUDGE, Member, Roster  # noqa: E402
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, ruleset_names  # noqa: E402
from sheets_gm.sheets.local.backend import LocalWorkbookBackend  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.life.create import create_match  # noqa: E402
from sheets_gm.sync.poll import poll  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from sheets_gm.web.page import PageInput, page_input  # noqa: E402
from sheets_gm.web.site import build_site  # noqa: E402

SEED = b"bench-page"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
SHARED = ("page.js", "page.css", "windows.js")  # (and the record, in windows.js)


def war_roster(armies: int) -> Roster:
    """``armies`` armies a side in neighbouring pairs (``bench_big_war``'s), each Phyrexian as strong as its foe: a
    war that lasts its windows (the big war's weaker Phyrexians fall in the first battles, and the war with them)."""
    return Roster(("coalition", "phyrexia"), tuple(
        m if m.seat == "coalition" else Member(m.name, m.seat, {**m.fields, "units": "5000/2500/1500/1000"})
        for m in big_roster(armies).members))


@dataclass(frozen=True)
class Played:
    """A match's page folder after its windows, and each window's (resolution, build) seconds: wall clock, and the
    process's CPU time (steadier on a shared machine: another program's turn on the cores is not counted)."""

    folder: Path
    pairs: tuple[tuple[float, float], ...]
    cpu: tuple[tuple[float, float], ...]
    least: tuple[float, ...] = ()  # each window's build replayed (``--replay``): its least CPU time


@dataclass(frozen=True)
class Step:
    """A poll of a bench match, before the page is built after it: the page folder, the page to build, whether the
    poll resolved a window, and its wall-clock and CPU seconds."""

    folder: Path
    page: PageInput
    resolved: bool
    took: float
    took_cpu: float


def steps(name: str, members: Roster | None, windows: int, work: Path, settings: Any = None) -> Iterator[Step]:
    """A local match of ``name`` (``members``, or the game's sample roster; ``settings``, or the defaults), polled
    once before anyone orders (a host's first poll of a new match: the page of the start is built then), then its
    bots ordering every window (the judge's too) for ``windows`` windows or until it ends: each poll timed, yielded
    before the caller builds its page into the step's folder (as the match layer does after every poll)."""
    rules = create_ruleset(name, settings)
    members = members or rules.sample_roster()
    path = work / f"{name}-{len(members.members)}.xlsx"
    openpyxl.Workbook().save(path)
    sheets = MatchSheets.single(members.seats, LocalWorkbookBackend(path))
    create_match(sheets, rules, members, seed=SEED, title="Bench")
    cls = get_ruleset(name)
    make = next(iter(bots_of(rules).values())).make
    bots = {seat: make(f"bench/{seat}") for seat in (*members.seats, *((JUDGE,) if rules.traits.judge else ()))}
    folder = work / f"page-{name}-{len(members.members)}"
    first = poll(sheets, cls, now=NOW)  # the match's first poll, before anyone's orders: it reads, and builds the
    if first.facts is not None:  # page (of the start), as a host's first poll of a new match does
        yield Step(folder, page_input(first.facts, "Bench", "board.xlsx"), bool(first.resolved), 0.0, 0.0)
    resolved = 0
    for _ in range(windows * 3):  # a window the bots cannot fill is polled again, up to thrice the windows asked
        if resolved >= windows:
            break
        type_bot_orders(sheets, cls, bots, ready=True)
        start, start_cpu = time.perf_counter(), time.process_time()
        report = poll(sheets, cls, now=NOW, force=True)
        took, took_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        if report.facts is None:
            break
        resolved += bool(report.resolved)
        yield Step(folder, page_input(report.facts, "Bench", "board.xlsx"), bool(report.resolved), took, took_cpu)
        if report.facts.record.ruleset.window(report.facts.record.state) is None:
            break


def play(name: str, members: Roster | None, windows: int, work: Path, settings: Any = None,
         replay: int = 0) -> Played:
    """The match of ``steps``, the page built after each poll, each resolving poll's build timed (with ``replay``,
    first ``replay`` times more on copies of the folder as it stood, each timed: the least CPU time of a build,
    which another program's work on the shared cores hardly moves)."""
    pairs: list[tuple[float, float]] = []
    cpu: list[tuple[float, float]] = []
    least: list[float] = []
    folder = work
    for step in steps(name, members, windows, work, settings):
        folder = step.folder
        if step.resolved and replay:
            least.append(replayed(folder, step.page, replay))
        start, start_cpu = time.perf_counter(), time.process_time()
        build_site(folder, step.page)
        built, built_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        if step.resolved:
            pairs.append((step.took, built))
            cpu.append((step.took_cpu, built_cpu))
    return Played(folder, tuple(pairs), tuple(cpu), tuple(least))


def replayed(folder: Path, page: PageInput, times: int) -> float:
    """The least CPU time of ``times`` builds of ``page``, each on a copy of ``folder`` as it stands."""
    return min(replay_once(folder, page, k) for k in range(times))


def replay_once(folder: Path, page: PageInput, k: int) -> float:
    """The CPU time of a build of ``page`` on a copy of ``folder`` as it stands (the ``k``-th copy)."""
    copy = folder.with_name(f"{folder.name}.replay{k}")
    if folder.exists():
        shutil.copytree(folder, copy)
    start = time.process_time()
    build_site(copy, page)
    spent = time.process_time() - start
    shutil.rmtree(copy, ignore_errors=True)
    return spent


def _match(label: str, armies: int) -> tuple[str, Roster | None, Any]:
    """The game, roster and settings of a bench match: a game's sample match, or ``war`` (the Coalition's war of
    ``armies`` armies a side, the round's victory points raised as a GM of so big a war would: its battles would end
    it in one turn)."""
    if label != "war":
        return label, None, None
    return "coalition", war_roster(armies), replace(get_ruleset("coalition").traits.settings_type(),
                                                     victory_vp=100 * armies)


def _worker(label: str, armies: int, windows: int) -> int:
    """One side of a paired run (``--vs``), the code of ``ROOT``: the match played, and at each resolving poll its
    CPU seconds told on stdout (a line of JSON), then each line read on stdin done: ``replay`` (a build on a copy of
    the folder as it stands, its CPU seconds told) or ``build`` (the page built, the match played on)."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stdout = sys.stderr  # the protocol's lines alone on the pipe
    import sheets_gm

    print(json.dumps({"code": str(Path(sheets_gm.__file__).resolve().parent.parent)}), file=out)
    with tempfile.TemporaryDirectory() as temporary:
        k = 0
        for step in steps(*_match(label, armies)[:2], windows, Path(temporary), _match(label, armies)[2]):
            if step.resolved:
                print(json.dumps({"cpu": step.took_cpu, "marker": step.page.marker}), file=out)
                while (command := sys.stdin.readline().strip()) == "replay":
                    k += 1
                    print(json.dumps({"cpu": replay_once(step.folder, step.page, k)}), file=out)
                if command != "build":
                    return 1
            build_site(step.folder, step.page)
    print(json.dumps({"done": True}), file=out)
    return 0


class _Side:
    """A worker of a paired run: its process, and what it told."""

    def __init__(self, label: str, tree: Path, args: argparse.Namespace) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", label, "--armies", str(args.armies),
             "--windows", str(args.windows)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "SHEETS_GM_BENCH_TREE": str(tree)})
        self.code = str(self.read()["code"])
        if self.code != str(tree.resolve()):
            raise SystemExit(f"the worker of {tree} ran the code of {self.code}")

    def read(self) -> dict[str, Any]:
        """Its next line."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"a worker ended early (code {self.process.wait()})")
        return dict(json.loads(line))

    def ask(self, command: str) -> dict[str, Any]:
        """Send ``command``, read its answer."""
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.read()


def paired(label: str, trees: tuple[Path, Path], args: argparse.Namespace) -> list[tuple[float, float, float, float]]:
    """The match ``label`` played by this checkout's code and the base's side by side, one step at a time: at each
    resolution, ``args.replay`` builds each on copies of its folder, the two interleaved (which goes first
    alternates); each window's (resolution CPU, least build CPU) of the branch, then of the base."""
    sides = [_Side(label, tree, args) for tree in trees]
    out: list[tuple[float, float, float, float]] = []
    told = [side.read() for side in sides]
    while not any(t.get("done") for t in told):
        least = [float("inf"), float("inf")]
        for k in range(args.replay):
            for i in ((0, 1) if k % 2 == 0 else (1, 0)):
                least[i] = min(least[i], float(sides[i].ask("replay")["cpu"]))
        out.append((float(told[0]["cpu"]), least[0], float(told[1]["cpu"]), least[1]))
        told = [side.ask("build") for side in sides]  # one after the other: each resolves alone
    for side in sides:
        side.process.wait()
    return out


def compare(base: str, args: argparse.Namespace) -> int:
    """``--vs``: every game and the war played by this checkout's code and by ``base``'s (unpacked from git),
    interleaved; printed first, per game, the median of the windows' paired ratios of least build CPU."""
    replays = args.replay or 5
    args.replay = replays
    with tempfile.TemporaryDirectory() as temporary:
        tree = Path(temporary) / "base"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", base], check=True, capture_output=True).stdout  # (the repository
        # of the working folder: this script may run from a copy of the branch, made to be left alone while it runs)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        trees = (Path(__file__).resolve().parent.parent, tree)
        labels = [*ruleset_names(), "war"]
        results = {label: paired(label, trees, args) for label in labels}
    load_average = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if os.path.exists("/proc/loadavg") \
        else "?"
    print(f"Paired against {base} (same run, interleaved; least build CPU of {replays}, branch over base, and each "
          f"over the two resolutions' mean CPU; medians of the windows; load average {load_average}; 2 cores, "
          "shared: noisy)")
    print(f"{'match':<22} {'windows':>7} {'branch/base':>12} {'branch':>8} {'base':>8}")
    for label, rows in results.items():
        name = f"coalition war {2 * args.armies}" if label == "war" else label
        print(f"{name:<22} {len(rows):>7} {statistics.median(b / bb for _, b, _, bb in rows):>12.3f} "
              f"{statistics.median(2 * b / (t + tt) for t, b, tt, _ in rows):>8.1%} "
              f"{statistics.median(2 * bb / (t + tt) for t, _, tt, bb in rows):>8.1%}")
    print("\nEach window: the branch's least build ms / resolution ms, then the base's")
    for label, rows in results.items():
        print(f"{label:<22} " + "  ".join(f"{b * 1000:.1f}/{t * 1000:.0f} {bb * 1000:.1f}/{tt * 1000:.0f}"
                                          for t, b, tt, bb in rows))
    return 0


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def drawn_seconds(driver: Any, page: Path | str, repeats: int) -> float:
    """The median time from navigation to the page drawn (a file, or an address): its load event, then two animation
    frames."""
    times: list[float] = []
    for _ in range(repeats):
        driver.get("about:blank")
        driver.get(page.as_uri() if isinstance(page, Path) else page)
        times.append(float(driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "requestAnimationFrame(function () { requestAnimationFrame(function () {"
            "  done(performance.now() / 1000); }); });")))
    return statistics.median(times)


def trail_seconds(driver: Any) -> float:
    """On the page open in ``driver``: the time from a click on the first army's square's trail button (its
    resolutions' trail files loaded, its path drawn, its steps listed) to the next frame (-1: the page has none)."""
    return float(driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "var g = document.querySelector('svg.map g.p.u');"
        "if (!g) { done(-1); return; }"
        "g.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
        "var button = document.querySelector('#makeup .trails button');"
        "if (!button) { done(-1); return; }"
        "var start = performance.now();"
        "button.click();"
        "(function wait() { if (!document.getElementById('trail').hidden) {"
        "  requestAnimationFrame(function () { done((performance.now() - start) / 1000); }); }"
        "  else { setTimeout(wait, 5); } })();"))


def per_window(folder: Path) -> tuple[float, int, list[Path]]:
    """The folder's bytes a window (its pages and the files they share: the script, the style, the Log beside each
    page, the maps' ground pictures and names files; over the pages), its largest page's bytes, and its pages."""
    pages = [*sorted(folder.glob("w*.html")), folder / "index.html"]
    shared = sum((folder / n).stat().st_size for n in SHARED) + sum(
        p.stat().st_size for p in (*folder.glob("*.json"), *folder.glob("ground-*")) if p.name != "record.json")
    return (sum(p.stat().st_size for p in pages) + shared) / len(pages), max(p.stat().st_size for p in pages), pages


def _share(pairs: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    ratios = [built / took for took, built in pairs]
    return statistics.median(ratios), max(ratios)


def _summed(pairs: tuple[tuple[float, float], ...]) -> float:
    """The windows' builds over their resolutions, each summed (the page's share of what the match's polls cost)."""
    return sum(built for _, built in pairs) / sum(took for took, _ in pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=300, help="armies a side of the war (default 300)")
    parser.add_argument("--windows", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3, help="page loads per page in chromium (their median)")
    parser.add_argument("--replay", type=int, default=0, help="also build each window's page this many times more "
                        "on copies of the folder: the least CPU time of a build over the resolution's CPU time")
    parser.add_argument("--vs", metavar="COMMIT", help="play each match with this checkout's code and COMMIT's side "
                        "by side, interleaved: the paired ratios of their builds (--replay builds each, default 5)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # one side of --vs: a game's name, or 'war'
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(args.worker, args.armies, args.windows)
    if args.vs:
        return compare(args.vs, args)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        played = {name: play(*_match(name, args.armies)[:2], args.windows, work, _match(name, args.armies)[2],
                             args.replay) for name in ruleset_names()}
        war, roster, settings = _match("war", args.armies)
        played[f"coalition war {2 * args.armies}"] = play(war, roster, args.windows, work, settings, args.replay)
        driver = _browser()
        try:
            loads = {label: max(drawn_seconds(driver, page, args.repeats) for page in
                                (p.folder / "index.html", max(per_window(p.folder)[2], key=lambda f: f.stat().st_size)))
                     for label, p in played.items()}
        finally:
            driver.quit()
        load_average = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if os.path.exists("/proc/loadavg") \
            else "?"
        print(f"The page against the issue's bars (load average {load_average}; 2 cores, shared: noisy):")
        print(f"{'match':<22} {'windows':>7} {'build/resolution median':>24} {'largest':>8} {'CPU median':>11} "
              f"{'first':>6} {'summed':>7} {'load+draw':>10} {'KB a window':>12}")
        for label, p in played.items():
            middle, worst = _share(p.pairs)
            size, _, _ = per_window(p.folder)
            print(f"{label:<22} {len(p.pairs):>7} {middle:>24.1%} {worst:>8.1%} {_share(p.cpu)[0]:>11.1%} "
                  f"{_share(p.pairs[:1])[0]:>6.1%} {_summed(p.pairs):>7.1%} {loads[label] * 1000:>8.0f} ms "
                  f"{size / 1024:>9.0f} KB")
        if args.replay:
            print(f"\nEach window's least build CPU ms of {args.replay} (over its resolution's CPU ms), the median")
            for label, p in played.items():
                ratios = [built / took for (took, _), built in zip(p.cpu, p.least, strict=True)]
                print(f"{label:<22} " + "  ".join(f"{b * 1000:.1f}/{t * 1000:.0f}" for (t, _), b in
                                                  zip(p.cpu, p.least, strict=True)) +
                      f"   median {statistics.median(ratios):.1%}")
        print("\nEach window: resolution ms / build ms (ratio); the largest page, in KB")
        for label, p in played.items():
            windows = "  ".join(f"{t * 1000:.0f}/{b * 1000:.0f} ({b / t:.0%})" for t, b in p.pairs)
            print(f"{label:<22} {windows}   largest page {per_window(p.folder)[1] / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
