"""Ready means ready: a seat's Ready (End turn, Go in a batch turn) is not taken while one of her rows for the open
window is refused, whatever the game (``docs/sync.md``, "The life of a typed row").

The poll asks this module, after the seat's rows are read and the engine has checked them: a seat whose box is
ticked over a row that says ``✘`` (a cell that cannot be read, a refusal the game shows before resolving) is not
counted as ready, her Ready cell names the rows it waits for, and the window waits for her: for the rows to be
mended or cleared, for the deadline, or for the GM's ``resolve --force``, which close it as the rules say (the
rows that read are carried out, the refused ones stay with their reason). A standing row (a reaction, read in
every window) and a row held for her next turn are not this window's: they hold nothing back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sheets_gm.engine.ruleset import Verdict
from sheets_gm.sheets.adapter import SeatInput
from sheets_gm.sync.rows.seat_read import SeatRead


def refused_rows(seat_read: SeatRead | None, seat_input: SeatInput[Any], shown: Sequence[Verdict]) -> list[str]:
    """The subjects of the seat's rows for the open window that say ``✘``, in order: those with a cell it cannot
    read (``seat_input.problems``) and those a verdict ``shown`` before resolving refuses; rows only in a standing
    table, and rows held for her next turn, left out."""
    standing: set[str] = set()
    if seat_read is not None:
        tables = {p.spec.name: p.spec for p in seat_read.tab.tables}
        own = {r.subject for r in seat_read.rows if r.typed and not tables[r.table].standing}
        standing = {r.subject for r in seat_read.rows if r.typed and tables[r.table].standing} - own
    subjects = [s for s, said in seat_input.problems.items() if said]
    subjects += [v.subject for v in shown if not v.accepted]
    return [s for s in dict.fromkeys(subjects) if s not in standing and s not in seat_input.held]


def ready_taken(seat_read: SeatRead | None, seat_input: SeatInput[Any],
                shown: Sequence[Verdict]) -> tuple[SeatInput[Any], list[str]]:
    """``seat_input`` counted as ready only if no row of hers for the window is refused, and the rows its Ready waits
    for ([] when it is taken, or not ticked)."""
    if not seat_input.ready:
        return seat_input, []
    waits = refused_rows(seat_read, seat_input, shown)
    return (replace(seat_input, ready=False), waits) if waits else (seat_input, [])
