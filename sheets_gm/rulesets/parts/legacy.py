"""Matches and replays that an earlier version of a game wrote, read in today's terms.

A game whose matches in play were laid out by code that is gone (the guild game's own sync, before
it moved onto the generic one) declares the ``legacy`` part of its record: a ``LegacyUpgrades``
that recognises the old engine record and the old replay formats and converts them, as plain data,
into what the generic sync and ``verify`` read. The converters are pure: they never import the old
code, so they keep working once it is deleted. ``sync/life/legacy/upgrade.py`` applies them to a
match's spreadsheets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

#: A tab's cells as read, row by row from A1 (a ``sheets.layout.Grid``).
RawCells = Sequence[Sequence[Any]]


class LegacyError(ValueError):
    """An old record or replay that cannot be read: the message names the cell or key and what it should hold."""


@dataclass(frozen=True)
class UpgradedMatch:
    """An old engine record in the generic record's terms (``sync/match_record.py``), as JSON-ready data.

    ``history`` holds one generic history entry per resolution (resolution, window, orders,
    state_before, log_from, events, seat_logs_from, gm_events); ``seat_orders`` holds, for each of
    them, every seat's part of its orders, so the seats' archives can be written again."""

    ruleset: str
    settings: Mapping[str, Any]
    board: str
    state: Mapping[str, Any]
    seed: bytes
    seed_hash: str
    seats: tuple[str, ...]
    log_rows: int = 0
    deadline: str = ""
    resolved: int = 0
    gm_events: Mapping[str, Any] | None = None
    history: tuple[Mapping[str, Any], ...] = ()
    seat_orders: tuple[Mapping[str, Mapping[str, Any]], ...] = ()


@dataclass(frozen=True)
class CarriedOrders:
    """What a seat had typed for the open window on the old layout: its part of the orders as JSON (None:
    nothing usable), and a sentence per typed thing that cannot be carried over."""

    orders: Mapping[str, Any] | None = None
    dropped: tuple[str, ...] = field(default_factory=tuple)


class LegacyUpgrades(Protocol):
    """How a ruleset reads what its earlier versions wrote (the ``legacy`` part of its ``Game`` record)."""

    #: What messages call the old layout ("this match is on the old … layout").
    layout_name: str
    #: The ``format`` values of the old replays ``upgrade_replay`` reads.
    replay_formats: tuple[str, ...]
    #: Tabs of the old layout's board spreadsheet that the generic layout does not have (deleted on upgrade).
    old_tabs: tuple[str, ...]

    def detect(self, raw: RawCells) -> bool:
        """Whether the engine tab's cells (from A1) are an old record: ``upgrade_record`` should read it."""
        ...

    def upgrade_record(self, raw: RawCells, where: str) -> UpgradedMatch:
        """The old engine tab (its cells from A1, history rows included) as the generic record; LegacyError
        naming the cell when it cannot be read."""
        ...

    def orders_tab(self, seat: str) -> str:
        """The name of ``seat``'s orders tab on the old layout."""
        ...

    def carried_orders(self, raw: RawCells, state: Mapping[str, Any], seat: str) -> CarriedOrders:
        """What ``seat`` typed for the open window in its old orders tab (cells from A1), as orders JSON."""
        ...

    def upgrade_replay(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """An old replay (its ``format`` in ``replay_formats``) as a generic windows replay; LegacyError naming
        the key when it is malformed."""
        ...

