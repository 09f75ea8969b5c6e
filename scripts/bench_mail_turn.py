"""A 600-army war turn's mail to the judge, against the same lines pasted: what the judge's mailbox costs a poll.

A local Coalition match of ``--armies`` armies a side (default 300: a 600-army war), each Coalition army beside its
Phyrexian foe, each army played by a player with her own address. Two ways through one turn, alternated ``--pairs``
times from copies of one match, each timed from the first mail (or the paste) to the last receipt queued:

- **pasted**: the Coalition's movement post (an engage line per army) pasted into its Forum tab, the poll that
  resolves it; then the poll of the results window (the judge has nothing typed);
- **mail**: the same lines as one mail per army (``--armies`` movement mails) filed, answered and receipted around
  the poll that resolves them (``running.mailroom.door.with_mail``, the mailbox's side a list in memory: the IMAP
  round trips are the reader's, measured by its own tests); then a strategy mail per Coalition army naming its
  battle (``--armies`` strategy mails; an army that shares its square with an ally past the map's 288 pairs fights
  in another's battle or none, and its mail is answered so) filed into the judge's record and Strategies tab and
  receipted around the results window's poll.

Printed: each pair's times, the medians, the ratio mail / pasted (the issue's bar: at most 2), and the load.

    .venv/bin/python scripts/bench_mail_turn.py [--armies 300] [--pairs 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sheets_gm.mailbox.message import Mail  # noqa: E402
from sheets_gm.match.config import MatchConfig, load_config  # noqa: E402
from sheets_gm.rulesets.registry import get_ruleset  # noqa: E402
from sheets_gm.running.connect import open_match_sheets  # noqa: E402
from sheets_gm.running.mailroom.door import with_mail  # noqa: E402
from sheets_gm.running.run import sync_once  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sync.read import read_match  # noqa: E402
from tests.rulesets.coalition.helpers import ROSTER_COLUMNS, local_match  # noqa: E402

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")
PLANES = (("Dominaria", 24, "ABCDEFGHI"), ("Phyrexia", 24, "ABCDEFGHI"), ("Mirrodin", 18, "ABCDEFGH"))


def _pairs(count: int) -> list[tuple[str, str, int, str]]:
    """(plane, row, column, the next square) of side-by-side squares: a Coalition army's and its foe's. Past the 288
    pairs the default map holds, the pairs start again from the first (two allied armies share a square)."""
    out = [(plane, r, c, f"{c + 1}{r}") for plane, width, rows in PLANES for r in rows for c in range(1, width, 2)]
    return [out[n % len(out)] for n in range(count)]


def _roster(armies: int) -> list[list[object]]:
    rows: list[list[object]] = []
    for n, (plane, r, c, _next) in enumerate(_pairs(armies), start=1):
        rows.append([f"Coal {n:03d}", "coalition", 3, f"{plane} {c}{r}", "5000/2500/1500/1000", "white blue",
                     "white", f"C{n:03d}", f"c{n:03d}@example.org"])
        rows.append([f"Phyr {n:03d}", "phyrexia", 1, f"{plane} {c + 1}{r}", "500/250/150/100", "", "", f"P{n:03d}",
                     f"p{n:03d}@example.org"])
    return rows


def _lines(armies: int) -> list[str]:
    return [f"Coal {n:03d}: {plane}; {c}{r} > {nxt} - engage Phyr {n:03d}"
            for n, (plane, r, c, nxt) in enumerate(_pairs(armies), start=1)]


class _Box:
    """The mailbox's side of the door, in memory."""

    def __init__(self, mails: Sequence[Mail]) -> None:
        self.mails = list(mails)

    def new_mail(self) -> list[Mail]:
        return self.mails

    def finish(self, mails: Sequence[Mail]) -> None:
        """Handled."""

    def say(self, text: str) -> None:
        """Said."""
        print(text)


def _mail(uid: int, sender: str, subject: str, text: str, minutes: int) -> Mail:
    return Mail(uid, 1, f"<b{uid}@example.org>", sender, "", NOW + dt.timedelta(minutes=minutes), subject, text)


def _pasted(config: MatchConfig, lines: list[str]) -> float:
    sheets = open_match_sheets(config)
    table = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(0, "line")), [[line] for line in lines])])
    start = time.perf_counter()
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    assert read_match(open_match_sheets(config), CLS).record.state.battles  # as the mail's run reads it
    sync_once(config, open_match_sheets(config), now=NOW)
    return time.perf_counter() - start


def _mailed(config: MatchConfig, lines: list[str], armies: int) -> float:
    moves = [_mail(n, f"c{n:03d}@example.org", "moves", line, 0) for n, line in enumerate(lines, start=1)]
    start = time.perf_counter()
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW, force=True),
              _Box(moves))
    assert read_match(open_match_sheets(config), CLS).record.state.battles  # (timed: as the pasted run reads it)
    plans = [_mail(10_000 + n, f"c{n:03d}@example.org", f"C{n:03d}: Coal {n:03d} attacks Phyr {n:03d}",
                   "Flank left at dawn.", 10) for n in range(1, armies + 1)]
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW), _Box(plans))
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    """Build the match once, time the pairs, print the medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=300, help="armies a side (default 300)")
    parser.add_argument("--pairs", type=int, default=3, help="paired runs (default 3)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-mail-"))
    try:
        base = work / "base"
        started = time.perf_counter()
        local_match(base, _roster(args.armies), b"bench mail", NOW, (*ROSTER_COLUMNS, "player", "email"))
        print(f"match of {2 * args.armies} armies made in {time.perf_counter() - started:.1f} s")
        lines = _lines(args.armies)
        pasted: list[float] = []
        mailed: list[float] = []
        for n in range(args.pairs):
            for kind, runs in (("pasted", pasted), ("mail", mailed)) if n % 2 == 0 else (("mail", mailed),
                                                                                         ("pasted", pasted)):
                folder = work / f"{kind}{n}"
                shutil.copytree(base, folder)
                config = load_config(folder / "match.toml")
                runs.append(_pasted(config, lines) if kind == "pasted" else _mailed(config, lines, args.armies))
            print(f"pair {n + 1}: pasted {pasted[-1]:.2f} s, mail {mailed[-1]:.2f} s")
        a, b = statistics.median(pasted), statistics.median(mailed)
        print(f"medians: pasted {a:.2f} s, mail {b:.2f} s ({args.armies} movement and {args.armies} strategy mails); "
              f"mail / pasted = {b / a:.2f} (bar: 2.00)")
        print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
              f"({os.cpu_count()} cores; a shared machine: noisy)")
        return 0 if b <= 2 * a else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
