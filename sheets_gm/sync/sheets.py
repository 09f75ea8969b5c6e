"""The spreadsheets of a match, and batching: one read and one write per distinct spreadsheet."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sheets_gm.sheets.adapter import CONFIG_STAND_IN
from sheets_gm.sheets.backend import RangeWrite, SavedOnce, SheetBackend, WorkbookOpenError
from sheets_gm.sheets.layout import Grid, ReadGuard
from sheets_gm.sync.match_tabs import MatchTabs


@dataclass(frozen=True)
class MatchSheets:
    """Where a match lives: the board, the engine, each seat's orders and, for a game with a judge,
    the judge's tab (any of them may be the same spreadsheet). ``orders[i]`` is ``seats[i]``'s."""

    seats: tuple[str, ...]
    board: SheetBackend
    engine: SheetBackend
    orders: tuple[SheetBackend, ...]
    judge: SheetBackend | None = None
    # The match's config as a command that the sheets suggest names it (``-c friday.toml``): the stand-in where
    # there is none (a demo, a test), as the commands' help writes it.
    config_name: str = CONFIG_STAND_IN
    # The match's write-ahead journal in the GM's private folder (``sync/journal.py``): each seat's pending row of the
    # resolution under way, so that ``repair`` can put it back in a Copies tab deleted before the commit. None: the
    # match keeps none (a test, a demo).
    journal: Path | None = None

    @classmethod
    def single(cls, seats: tuple[str, ...], backend: SheetBackend) -> MatchSheets:
        """Everything in one spreadsheet or workbook."""
        return cls(seats, backend, backend, tuple(backend for _ in seats), backend)

    def of(self, seat: str) -> SheetBackend:
        """The spreadsheet of ``seat``'s orders (KeyError naming the seat if it has none)."""
        if seat not in self.seats:
            raise KeyError(f"no orders spreadsheet for {seat!r}; the match's seats are {', '.join(self.seats)}")
        return self.orders[self.seats.index(seat)]

    def judge_sheet(self) -> SheetBackend:
        """The judge's spreadsheet: its own if configured, else the engine's (the GM's)."""
        return self.judge if self.judge is not None else self.engine

    def write_order(self) -> list[SheetBackend]:
        """Distinct spreadsheets in the order a resolution writes them: seats, judge, board, engine last.

        A spreadsheet holding several roles is written once, at the place of its last role, so
        the engine (the commit) is always written last."""
        roles: list[SheetBackend] = [*self.orders, *([self.judge] if self.judge is not None else []),
                                     self.board, self.engine]
        out: list[SheetBackend] = []
        for backend in reversed(roles):
            if not any(backend is seen for seen in out):
                out.append(backend)
        out.reverse()
        return out


@dataclass
class ReadBatch:
    """Ranges to read, grouped by spreadsheet; ``run`` makes one call per spreadsheet."""

    asks: list[tuple[SheetBackend, str]] = field(default_factory=list)
    results: dict[tuple[int, str], Grid] = field(default_factory=dict)
    struck: set[str] = field(default_factory=set)  # the ranges read with their strikethrough (``SheetBackend.read``)

    def ask(self, backend: SheetBackend, a1: str, *, struck: bool = False) -> None:
        """Add a range to read from ``backend`` (with ``struck``, its text struck through read so)."""
        self.asks.append((backend, a1))
        if struck:
            self.struck.add(a1)

    def run(self, order: Sequence[SheetBackend]) -> None:
        """Read every asked range: one call per distinct spreadsheet."""
        for backend in order:
            ranges = list(dict.fromkeys(a for b, a in self.asks if b is backend))
            if not ranges:
                continue
            struck = [a for a in ranges if a in self.struck]
            grids = backend.read(ranges, struck=struck) if struck else backend.read(ranges)
            for a1, grid in zip(ranges, grids, strict=True):
                self.results[(id(backend), a1)] = grid

    def get(self, backend: SheetBackend, a1: str) -> Grid:
        """What was read for ``a1`` from ``backend``."""
        return self.results[(id(backend), a1)]


@dataclass
class WriteBatch:
    """Ranges to write, grouped by spreadsheet; ``run`` makes one call per spreadsheet with writes."""

    writes: list[tuple[SheetBackend, RangeWrite]] = field(default_factory=list)
    guards: list[tuple[SheetBackend, ReadGuard]] = field(default_factory=list)

    def guard(self, backend: SheetBackend, a1: str, grid: Grid) -> None:
        """Write nothing over a cell of ``a1`` saved in ``backend`` since it was read as ``grid`` (``sheets/guard``)."""
        self.guards.append((backend, ReadGuard(a1, grid)))

    def unguard(self, backend: SheetBackend) -> None:
        """Drop ``backend``'s guards (its tab was laid out again: what was read is no longer where it was)."""
        self.guards = [(b, g) for b, g in self.guards if b is not backend]

    def put(self, backend: SheetBackend, a1: str, values: Grid, notes: Grid | None = None) -> None:
        """Add a range to write to ``backend`` (with its cells' notes, if given: see ``RangeWrite``)."""
        self.writes.append((backend, RangeWrite(a1, values, notes)))

    def count(self) -> int:
        """How many ranges are queued."""
        return len(self.writes)

    def run(self, order: Sequence[SheetBackend], *, past_open: bool = False) -> int:
        """Write everything, one call per spreadsheet in ``order``; returns the number of calls. ``past_open``: a
        workbook open in an office program is passed over and the others written, then its WorkbookOpenError raised
        (answers to the other seats need not wait for it; a resolution, which must write them all, stops there)."""
        calls = 0
        held_open: list[WorkbookOpenError] = []
        for backend in order:
            mine = [w for b, w in self.writes if b is backend]
            if mine:
                guard = [g for b, g in self.guards if b is backend]
                try:
                    if guard:
                        backend.write(mine, guard=guard)
                    else:
                        backend.write(mine)
                except WorkbookOpenError as exc:
                    if not past_open:
                        raise
                    held_open.append(exc)
                    continue
                calls += 1
        if held_open:
            raise held_open[0]
        return calls


@contextmanager
def each_saved_once(order: Sequence[SheetBackend]) -> Iterator[None]:
    """Inside the block, each spreadsheet of ``order`` that saves its whole file at every change (a local workbook,
    ``SavedOnce``) holds the changes made to it, and each is saved once when the block ends, in ``order`` (as a
    ``WriteBatch`` writes them); an error saves none of those not yet saved. Google's are written as they change."""
    with ExitStack() as stack:
        for backend in reversed(list(dict.fromkeys(order))):  # entered last, saved first
            if isinstance(backend, SavedOnce):
                stack.enter_context(backend.saved_once())
        yield


def seat_backend(sheets: MatchSheets, tabs: MatchTabs, seat: str) -> SheetBackend:
    """The spreadsheet holding ``seat``'s input tab (the judge's for the judge)."""
    return sheets.of(seat) if seat in tabs.seats else sheets.judge_sheet()
