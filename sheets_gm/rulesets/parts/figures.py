"""What a ruleset tells ``simulate`` about its matches: the figures it counts per seat, and how
a match can end.

The core plays the matches; the ruleset's tally reads every resolved window's events (and
the last state) into a few numbers per seat: coins earned, players knocked down, trees
captured (the guild game); villages taken, gold (Wesnoth); loot picked up (Champions). The report
shows each figure's mean per seat and match (a ``MEAN``), or the share of seat-matches in
which it happened, with its Wilson interval (a ``SHARE``: the tally gives 1 or 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from sheets_gm.engine.ruleset import Resolution


class FigureKind(StrEnum):
    """How a figure is summed up over matches."""

    MEAN = "mean"  # a count or amount: its mean per seat and match
    SHARE = "share"  # 1 or 0 per seat and match: the share of seat-matches, with its interval


@dataclass(frozen=True, slots=True)
class FigureSpec:
    """One per-seat figure: its key (JSON, CSV), its label (tables) and how it is summed up."""

    key: str
    label: str
    kind: FigureKind = FigureKind.MEAN


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One match as the tally saw it: how it ended, each seat's figures and attributes (in seat order)."""

    ending: str  # one of the spec's ending keys
    figures: tuple[tuple[float, ...], ...]  # per seat, in the spec's figure order
    attributes: tuple[tuple[str, ...], ...] = ()  # per seat, in the spec's attribute order


class MatchTally(Protocol):
    """Reads one match as it is played."""

    def window(self, resolution: Resolution[Any]) -> None:
        """One resolved window (its events and the state after it)."""
        ...

    def finish(self, state: Any) -> MatchSummary:
        """The summary, from the last state."""
        ...


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """What a ruleset's simulations report."""

    length_unit: str  # what a window is called in "match length, turns"
    endings: tuple[tuple[str, str], ...]  # (key, label): how a match can end, e.g. ("capture", "decided by …")
    figures: tuple[FigureSpec, ...]
    # Seat attributes to break win rates down by (a faction, a spawn class). A seat whose value is "" is left out of
    # that attribute's table (Wesnoth's matchup line is given by one seat of each pairing). An attribute also
    # named in ``grids`` has values "ROW vs COLUMN" and is printed as a grid: the row's win rate against the column.
    attributes: tuple[str, ...] = ()
    grids: tuple[str, ...] = ()
    sides_note: str = ""  # how seats are dealt to the bots, for the report
    first_seat: str = "the first seat"  # how the report names the first seat, e.g. "slot 1 (red)"
    # A free-for-all's bots are no teams: the report names each by its kind ("affinity"), not as "Team A".
    bots_by_kind: bool = False
