"""A Coalition war at the size a table plays it, laid out in local workbooks to print: ``--armies`` armies a side
(default 120) and ``--battles`` of them engaged (default 76), resolved up to the judge's window, so that the
Judge tab, the judge's View and the planes hold every battle. Then print them with ``scripts/render_tabs.py``:

    .venv/bin/python scripts/print_big_war.py OUT [--armies 120] [--battles 76] [--crowd]
    .venv/bin/python scripts/render_tabs.py OUT --workbooks judge,board

``--crowd`` adds the crowded squares a war makes (to print the planes): twelve Coalition armies on Dominaria 23I, and
on Dominaria 21I six Coalition armies of 35-character names beside three Phyrexian ones.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_big_war import _pairs, roster  # noqa: E402
from bench_sync import NOW  # noqa: E402

from sheets_gm.engine.ruleset import JUDGE, Member, Roster  # noqa: E402
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sheets.layout import a1  # noqa: E402
from sheets_gm.sheets.local.backend import LocalWorkbookBackend  # noqa: E402
from sheets_gm.sync.life.create import create_match  # noqa: E402
from sheets_gm.sync.poll import poll  # noqa: E402
from sheets_gm.sync.read import read_match  # noqa: E402
from sheets_gm.sync.sheets import MatchSheets  # noqa: E402

ROLES = ("board", "engine", "orders-coalition", "orders-phyrexia", JUDGE)
#: The crowded squares of ``--crowd``: a square of twelve armies, and one of long names on both sides.
CROWDED, LONG_NAMED = "Dominaria 23I", "Dominaria 21I"


def crowded(base: Roster) -> Roster:
    """``base`` with the armies of the crowded squares: twelve Coalition armies on ``CROWDED``; six Coalition armies
    of 35-character names and three Phyrexian ones on ``LONG_NAMED``."""
    coalition = {"rank": "3", "units": "5000/2500/1500/1000", "factions": "white blue", "primary": "white"}
    extra = [Member(f"Crowd {n:02d}", "coalition", {**coalition, "at": CROWDED}) for n in range(1, 13)]
    extra += [Member(f"Wardens of the Whispering Marsh {n:03d}", "coalition", {**coalition, "at": LONG_NAMED})
              for n in range(1, 7)]
    extra += [Member(f"Gix Harvester {n}", "phyrexia", {"rank": "2", "units": "5000/2500/1500/1000",
                                                        "at": LONG_NAMED}) for n in range(1, 4)]
    return Roster(base.seats, (*base.members, *extra))


def main(argv: Sequence[str] | None = None) -> int:
    """Lay out the war in OUT, engage the battles, resolve the orders; print how many battles wait for the judge."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="an empty folder for the workbooks")
    parser.add_argument("--armies", type=int, default=120, help="armies a side (default 120)")
    parser.add_argument("--battles", type=int, default=76, help="Coalition armies that engage (default 76)")
    parser.add_argument("--crowd", action="store_true", help="add the crowded squares (see above)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    backends = {}
    for role in ROLES:
        path = args.out / f"{role}.xlsx"
        openpyxl.Workbook().save(path)
        backends[role] = LocalWorkbookBackend(path)
    sheets = MatchSheets(("coalition", "phyrexia"), backends["board"], backends["engine"],
                         (backends["orders-coalition"], backends["orders-phyrexia"]), backends[JUDGE])
    cls = get_ruleset("coalition")
    members = crowded(roster(args.armies)) if args.crowd else roster(args.armies)
    create_match(sheets, create_ruleset("coalition"), members, seed=b"big war")
    read = read_match(sheets, cls)
    tab = read.seats["coalition"].tab
    armies = tab.table("armies")
    pairs = _pairs(args.armies)
    writes = []
    for row in read.seats["coalition"].rows:
        n = int(row.subject.split()[1]) if row.table == "armies" and row.subject.startswith("Coal ") else 0
        if 0 < n <= args.battles:
            index = row.row - armies.first_row
            writes += [RangeWrite(a1(tab.name, armies.cell(index, "to")), [[pairs[n - 1][1].split(" ")[1]]]),
                       RangeWrite(a1(tab.name, armies.cell(index, "order")), [["engage"]]),
                       RangeWrite(a1(tab.name, armies.cell(index, "target")), [[f"Phyr {n:03d}"]])]
    sheets.of("coalition").write([*writes, RangeWrite(a1(tab.name, tab.table("side").cell(0, "ready")), [[True]])])
    other = read.seats["phyrexia"].tab
    sheets.of("phyrexia").write([RangeWrite(a1(other.name, other.table("side").cell(0, "ready")), [[True]])])
    poll(sheets, cls, now=NOW)
    state = read_match(sheets, cls).record.state
    print(f"{sum(1 for b in state.battles if b.announced)} battles wait for the judge in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
