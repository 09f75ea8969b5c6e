"""A big Coalition war through the sheets on the fake Google: every army gets a row, and what it costs.

A roster of ``--armies`` armies a side (default 70) is created in one spreadsheet per role on the fake
Google of ``tests/fakes/google_api.py`` (through real gspread and ``GoogleSheetBackend``); the armies
stand in pairs on Dominaria, and ``--battles`` of the Coalition's (default 40) engage the Phyrexian
next to them, so the judge's tables (laid out for 30 battles and 80 armies in battle) must grow at the
orders' resolution. Printed per step: wall time, and API calls per spreadsheet (R = values.batchGet,
W = values.batchUpdate, L = a layout: spreadsheets.get + spreadsheets.batchUpdate). The steps: init,
an idle poll, the orders' resolution (the judge's tab grows there: one layout more on the judge's
spreadsheet), the judge's results typed by the stand-in judge, their resolution.

    .venv/bin/python scripts/bench_big_war.py [--armies 70] [--battles 40]
    .venv/bin/python scripts/bench_big_war.py --armies 300 --bots   # every army ordered by the bots
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "scripts"):  # tests.fakes: the fake Google lives with the tests; bench_sync beside
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_sync import NOW, Match, Usage, metered_spreadsheets  # noqa: E402

from sheets_gm.engine.ruleset import JUDGE, Member, Roster  # noqa: E402
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sheets.layout import a1  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.life.create import create_match  # noqa: E402
from sheets_gm.sync.poll import poll  # noqa: E402
from sheets_gm.sync.read import read_match  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402
from tests.fakes.google_api import GoogleApiFake  # noqa: E402

ROLES = ("board", "engine", "coalition", "phyrexia", JUDGE)


PLANES = (("Dominaria", 24, "ABCDEFGHI"), ("Phyrexia", 24, "ABCDEFGHI"), ("Mirrodin", 18, "ABCDEFGH"))


def _pairs(count: int) -> list[tuple[str, str]]:
    """Side-by-side squares, plane by plane (Dominaria, Phyrexia, then Mirrodin), row by row: a Coalition
    army's and its foe's. Past the 288 pairs the planes hold, the pairs start again from the first square (two
    allied armies may share a square)."""
    out = [(f"{plane} {c}{r}", f"{plane} {c + 1}{r}") for plane, width, rows in PLANES for r in rows
           for c in range(1, width, 2)]
    return [out[n % len(out)] for n in range(count)]


def roster(armies: int) -> Roster:
    """``armies`` armies a side, in pairs of neighbouring squares."""
    members = []
    for n, (ours, theirs) in enumerate(_pairs(armies), start=1):
        members.append(Member(f"Coal {n:03d}", "coalition", {"rank": "3", "at": ours,
                                                               "units": "5000/2500/1500/1000",
                                                               "factions": "white blue", "primary": "white"}))
        members.append(Member(f"Phyr {n:03d}", "phyrexia", {"rank": "1", "at": theirs,
                                                             "units": "500/250/150/100"}))
    return Roster(("coalition", "phyrexia"), tuple(members))


def _calls(u: Usage) -> str:
    layouts = u.other // 2
    text = f"{u.reads}R" + (f"+{u.writes}W" if u.writes else "") + (f"+{layouts}L" if layouts else "")
    return text + ("+1?" if u.other % 2 else "")


def main(argv: Sequence[str] | None = None) -> int:
    """Play the steps and print a line for each (1 if the fake saw a request Google would refuse)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=70, help="armies a side (default 70)")
    parser.add_argument("--battles", type=int, default=40, help="Coalition armies that engage (default 40)")
    parser.add_argument("--bots", action="store_true",
                        help="every army's order typed by the sides' bots instead of --battles engagements")
    args = parser.parse_args(argv)
    rules = create_ruleset("coalition")
    cls = get_ruleset("coalition")
    pairs = _pairs(args.armies)
    with GoogleApiFake() as fake:
        meters = metered_spreadsheets(fake, ROLES, "BigWar")
        sheets = MatchSheets(("coalition", "phyrexia"), meters["board"], meters["engine"],
                             (meters["coalition"], meters["phyrexia"]), meters[JUDGE])
        match = Match(fake, sheets, meters)
        print(f"A Coalition war of {args.armies} armies a side, {args.battles} battles: API calls per spreadsheet")
        print(f"{'step':<34} {'seconds':>7}  " + "  ".join(f"{r:>9}" for r in ROLES))

        def step(name: str, run: object) -> None:
            start = time.perf_counter()
            with match.measure() as usage:
                run()  # type: ignore[operator]
            took = time.perf_counter() - start
            print(f"{name:<34} {took:>7.2f}  " + "  ".join(f"{_calls(usage[r]):>9}" for r in ROLES))

        step("init", lambda: create_match(sheets, rules, roster(args.armies), seed=b"big war"))
        step("idle poll", lambda: poll(sheets, cls, now=NOW))
        read = read_match(sheets, cls)
        tab = read.seats["coalition"].tab
        armies = tab.table("armies")
        writes = []
        for row in read.seats["coalition"].rows:
            n = int(row.subject.split()[1]) if row.table == "armies" else 0
            if 0 < n <= args.battles and not args.bots:
                index = row.row - armies.first_row
                writes += [RangeWrite(a1(tab.name, armies.cell(index, "to")), [[pairs[n - 1][1].split(" ")[1]]]),
                           RangeWrite(a1(tab.name, armies.cell(index, "order")), [["engage"]]),
                           RangeWrite(a1(tab.name, armies.cell(index, "target")), [[f"Phyr {n:03d}"]])]
        if args.bots:
            type_bot_orders(sheets, cls, {seat: bots_of(read.record.ruleset)["commander"].make(seat)
                                          for seat in ("coalition", "phyrexia")})
        sheets.of("coalition").write([*writes, RangeWrite(a1(tab.name, tab.table("side").cell(0, "ready")),
                                                          [[True]])])
        other = read.seats["phyrexia"].tab
        sheets.of("phyrexia").write([RangeWrite(a1(other.name, other.table("side").cell(0, "ready")), [[True]])])
        step("orders resolved (judge tab grows)", lambda: poll(sheets, cls, now=NOW))
        judged = read_match(sheets, cls)
        results = [r for r in judged.seats[JUDGE].rows if r.table == "results"]
        print(f"  battles announced: {sum(1 for b in judged.record.state.battles if b.announced)}, result rows: "
              f"{len(results)}, losses rows: {len([r for r in judged.seats[JUDGE].rows if r.table == 'losses'])}")
        type_bot_orders(sheets, cls, {JUDGE: bots_of(judged.record.ruleset)["commander"].make("judge")})
        step("results resolved", lambda: poll(sheets, cls, now=NOW))
        after = read_match(sheets, cls)
        ruleset, state = after.record.ruleset, after.record.state
        window, outcome = ruleset.window(state), ruleset.outcome(state)
        ended = f"the war is over: {outcome.text}" if outcome is not None else "no window is open"
        now = f"{window.label} is open" if window is not None else ended
        print(f"  battles still waiting: {sum(1 for b in state.battles if b.announced)}; {now}")
        if fake.violations:
            print(f"the fake saw requests Google would refuse: {fake.violations}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
