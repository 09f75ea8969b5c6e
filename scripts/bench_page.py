"""What the match page costs: its build beside the resolution that triggers it, its size per window of history, and
how long a browser takes to load and draw it.

For each game (its sample roster) and for a Coalition war of ``--armies`` armies a side (default 300): a local match
is created, the bots type their orders, and the poll that resolves them is timed (``sync.poll``, the sync's
resolution: read, resolve, write every workbook); then the page is built from that poll's facts into a new folder,
as the match layer does after it (``web.page.page_input`` and ``web.site.build_site``). Printed: the median of
``--repeats`` builds, the median of as many polls (each a new match) and the build's share of it (the issue's bar:
at most 10 %). Then each game's pages after ``--windows`` resolutions of a bot match (the pure engine:
``tests/web/pages.py``): their bytes per window (bar: under 1 MB), and the median time headless chromium takes from
navigation to the page drawn (its load event, then two frames; bar: under 1 s), the war's page included.

    .venv/bin/python scripts/bench_page.py [--armies 300] [--repeats 3] [--windows 4]
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import openpyxl  # noqa: E402
from bench_big_war import roster as war_roster  # noqa: E402
from bench_coalition import median_seconds  # noqa: E402

from sheets_gm.engine.ruleset import Roster  # noqa: E402
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, ruleset_names  # noqa: E402
from sheets_gm.sheets.local.backend import LocalWorkbookBackend  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.life.create import create_match  # noqa: E402
from sheets_gm.sync.poll import WindowReport, poll  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from sheets_gm.web.page import page_input  # noqa: E402
from sheets_gm.web.site import build_site  # noqa: E402
from tests.web.pages import bot_match, build_pages  # noqa: E402

SEED = b"bench-page"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def resolved_poll(name: str, members: Roster | None, work: Path) -> tuple[float, WindowReport]:
    """A local match of ``name`` (``members``, or the game's sample roster) whose first window the bots fill; the
    time of the poll that resolves it, and its report."""
    rules = create_ruleset(name)
    members = members or rules.sample_roster()
    path = work / f"{name}.xlsx"
    openpyxl.Workbook().save(path)
    sheets = MatchSheets.single(members.seats, LocalWorkbookBackend(path))
    create_match(sheets, rules, members, seed=SEED, title="Bench")
    kinds = bots_of(rules)
    make = next(iter(kinds.values())).make
    type_bot_orders(sheets, get_ruleset(name), {seat: make(f"bench/{seat}") for seat in members.seats}, ready=True)
    start = time.perf_counter()
    report = poll(sheets, get_ruleset(name), now=NOW, force=True)
    return time.perf_counter() - start, report


_FOLDERS = itertools.count()


def _as_before(folder: Path, number: int) -> None:
    """The page's ``folder`` as it stood before resolution ``number``: its record without that window's page."""
    record = json.loads((folder / "record.json").read_text(encoding="utf-8"))
    record["built"] = ""
    record["windows"] = [w for w in record["windows"] if w["n"] != number]
    (folder / "record.json").write_text(json.dumps(record), encoding="utf-8")
    (folder / f"w{number}.html").unlink()


def build_share(label: str, name: str, members: Roster | None, repeats: int, work: Path) -> None:
    polls = []
    for _ in range(repeats):  # the resolution's median too: one poll's time on a busy machine is noise
        folder = work / f"poll-{next(_FOLDERS)}"
        folder.mkdir()
        polls.append(resolved_poll(name, members, folder))
    took, report = statistics.median(t for t, _ in polls), polls[-1][1]
    assert report.resolved and report.facts is not None, f"{label}: the poll resolved nothing ({report.reason})"
    facts = report.facts
    page = page_input(facts, "Bench", "board.xlsx")
    warm = work / f"page-{next(_FOLDERS)}"
    build_site(warm, page)

    def first() -> None:  # a new page: the board before the resolution drawn too
        build_site(work / f"page-{next(_FOLDERS)}", page_input(facts, "Bench", "board.xlsx"))

    def steady() -> None:  # a page that had the window before: the resolution's page and the page of now
        folder = work / f"page-{next(_FOLDERS)}"
        shutil.copytree(warm, folder)
        _as_before(folder, page.resolved)
        start = time.perf_counter()  # the page's drawings of the state counted too
        build_site(folder, page_input(facts, "Bench", "board.xlsx"))
        times.append(time.perf_counter() - start)

    times: list[float] = []
    new = median_seconds(first, repeats)
    median_seconds(steady, repeats)
    build = statistics.median(times)
    print(f"{label:<28} resolution {took * 1000:7.0f} ms   page {build * 1000:5.0f} ms  share {build / took:6.1%}"
          f"   (a new page, the start drawn too: {new * 1000:5.0f} ms, {new / took:6.1%})")


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def drawn_seconds(driver: Any, page: Path, repeats: int) -> float:
    """The median time from navigation to the page drawn: its load event, then two animation frames."""
    times: list[float] = []
    for _ in range(repeats):
        driver.get("about:blank")
        driver.get(page.as_uri())
        times.append(float(driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "requestAnimationFrame(function () { requestAnimationFrame(function () {"
            "  done(performance.now() / 1000); }); });")))
    return statistics.median(times)


def sizes_and_loads(windows: int, armies: int, repeats: int, work: Path) -> None:
    driver = _browser()
    try:
        sites = {name: build_pages(work / f"site-{name}", *bot_match(name, windows)) for name in ruleset_names()}
        rules = create_ruleset("coalition")
        start = rules.new_match(war_roster(armies), SEED)
        sites[f"coalition {armies}"] = build_pages(work / "site-war", rules, start, [])
        for label, folder in sites.items():
            pages = [*list(folder.glob("w*.html")), folder / "index.html"]
            shared = sum((folder / n).stat().st_size for n in ("page.js", "page.css", "windows.js", "record.json"))
            per_window = (sum(p.stat().st_size for p in pages) + shared) / len(pages)
            largest = max(p.stat().st_size for p in pages)
            load = drawn_seconds(driver, folder / "index.html", repeats)
            print(f"{label:<28} {len(pages):3d} windows   {per_window / 1024:7.0f} KB a window (largest "
                  f"{largest / 1024:5.0f} KB)   load and draw {load * 1000:5.0f} ms")
    finally:
        driver.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--windows", type=int, default=4)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        print("The page's build beside the poll that resolves (a local match; medians):")
        for name in ruleset_names():
            build_share(name, name, None, args.repeats, work)
        build_share(f"coalition, {args.armies} armies a side", "coalition", war_roster(args.armies), args.repeats,
                    work)
        print("\nThe pages: size a window, and headless chromium's load and draw (medians):")
        sizes_and_loads(args.windows, args.armies, args.repeats, work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
