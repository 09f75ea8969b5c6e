"""A seat's View log laid out again row for row, each recomputed line in the row it held.

Each resolution's history entry says where its lines began in each View (``seat_logs_from``) and in the Log
(``log_from``). Between the end of one resolution's lines and the start of the next's lie the lines the replay
recomputes only in part: its GM events', and those of a window an undo took back and the undo's own, which the
replay has not. A resolution's recomputed lines go back in their rows; each stretch between them gets its GM
events' lines and the public lines the Log holds in the same stretch that name the seat (``view_from_log``), in
the Log's order from the stretch's top (none when more Log lines name the seat than the stretch has rows: which
were shown cannot be told). What is left of a stretch (lines shown to this seat alone) stays empty: those rows
are counted as lines that cannot be put back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.events import Event, visible_to
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.layout import Grid
from sheets_gm.sync.life.log_check import ReplayedSteps
from sheets_gm.sync.life.view_from_log import NO_SEAT_KINDS, log_only_lines, with_log_lines
from sheets_gm.sync.writes import log_lines

Step = tuple[Any, Any, list[Event]]
ViewOf = Callable[[Sequence[Step]], Grid]  # a seat's View lines of some replay steps


@dataclass
class PlacedView:
    """A View log laid out row for row: its ``rows`` (None where a line could not be put back) and how many public
    lines were copied from the Log."""

    rows: list[list[Any] | None]
    copied: int = 0

    @property
    def missing(self) -> int:
        """How many rows could not be put back."""
        return sum(1 for r in self.rows if r is None)


def _anchors(entries: Sequence[Mapping[str, Any]], seat: str) -> list[tuple[int, int]] | None:
    """Each resolution's first View row and first Log row (None when a history entry does not say them)."""
    out: list[tuple[int, int]] = []
    for e in entries:
        starts, log_from = e.get("seat_logs_from"), e.get("log_from")
        if not isinstance(starts, dict) or not isinstance(log_from, int):
            return None
        row = starts.get(seat, 0)
        if not isinstance(row, int):
            return None
        out.append((row, log_from))
    return out


def placed_view(steps: ReplayedSteps, gm_counts: Sequence[int], entries: Sequence[Mapping[str, Any]],
                adapter: AnySheetAdapter, view_of: ViewOf, log: Grid, seat: str, names: frozenset[str],
                count: int, taken_back: Mapping[int, bool] | None = None) -> PlacedView | None:
    """``seat``'s ``count`` View rows rebuilt from the replay ``steps`` (each history entry's GM events, as many as
    ``gm_counts`` says, then its resolution; then the GM events since), each resolution's lines (``view_of``) in the
    rows its entry gives and the stretches between filled from the ``log`` with the public lines naming one of
    ``names`` (those of a window an undo took back as its undo listed them: ``taken_back``, by Log row); None when
    the history does not say where the lines began or they do not fit the rows."""
    anchors = _anchors(entries, seat)
    if anchors is None or len(anchors) != len(gm_counts):
        return None
    out = PlacedView([None] * count)
    view_at = log_at = k = 0
    known: Grid = [list(r) for r in log_lines(visible_to(steps.opening, None))]  # the set-up's, atop the Log
    for (row, log_from), gm in zip(anchors, gm_counts, strict=True):
        if not _fill(out, view_of(steps.steps[k:k + gm]), steps.steps[k:k + gm], (view_at, row),
                     (log[log_at:log_from], log_at, taken_back), adapter, names, known):
            return None
        known = []
        _, _, events = steps.steps[k + gm]
        lines = view_of(steps.steps[k + gm:k + gm + 1])
        if row + len(lines) > count:
            return None
        out.rows[row:row + len(lines)] = [list(r) for r in lines]
        logged = len(log_lines(visible_to(events, None), adapter))  # its Log rows: a long line takes several
        view_at, log_at, k = row + len(lines), log_from + logged, k + gm + 1
    if not _fill(out, view_of(steps.steps[k:]), steps.steps[k:], (view_at, count), (log[log_at:], log_at, taken_back),
                 adapter, names, known):
        return None
    return out


def _fill(out: PlacedView, mine: Grid, steps: Sequence[Step], rows: tuple[int, int],
          stretch: tuple[Grid, int, Mapping[int, bool] | None], adapter: AnySheetAdapter, names: frozenset[str],
          known: Grid) -> bool:
    """Lay ``mine`` (the seat's lines of the GM-event ``steps`` of a stretch) and the stretch's Log lines (``stretch``:
    its rows, the index of its first, and the undos' listings ``taken_back``) the replay has not (nor ``known``: the
    set-up's, which no seat's View lists) that name one of ``names`` in the View ``rows`` (first, end), in the Log's
    order from the top; False when they do not fit."""
    first, end = rows
    log, log_first, taken_back = stretch
    public = [*known, *log_lines(visible_to([e for _, _, events in steps for e in events], None), adapter)]
    extra = log_only_lines(log, public, names, NO_SEAT_KINDS, taken_back, log_first)
    lines = with_log_lines(mine, log, extra)
    if first + len(lines) > end:  # more Log lines name the seat than its View showed: which ones cannot be told
        extra, lines = [], mine
    if first > end or first + len(lines) > end:
        return False
    out.rows[first:first + len(lines)] = [list(r) for r in lines]
    out.copied += len(extra)
    return True
