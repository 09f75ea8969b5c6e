"""Sharing a match's spreadsheets: who may read or edit which (Google only).

The board is readable by every player; a team's orders spreadsheet is editable by that
team's players; the engine spreadsheet is the GM's alone. Each player's own order row is
protected for that player by the layout (``create_match(emails=...)``). Local workbooks
are files: the GM shares them however they like, so there is nothing to do here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sheets_gm.rulesets.gvg.setup import RosterEntry
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sync.sheets import MatchSheets


@runtime_checkable
class Shareable(Protocol):
    """A backend that can give people access (the Google backend)."""

    def share(self, emails: Sequence[str], role: str = "writer", *, notify: bool = True,
              message: str | None = None) -> list[str]:
        """Give each address ``role`` on the spreadsheet; returns those e-mailed although ``notify`` was off."""
        ...


@dataclass(frozen=True, slots=True)
class Grant:
    """Who gets which role on one spreadsheet."""

    backend: SheetBackend
    role: str
    emails: tuple[str, ...]


def sharing_plan(sheets: MatchSheets, roster: Sequence[RosterEntry], emails: Mapping[str, str],
                 gm: Sequence[str] = ()) -> list[Grant]:
    """The grants for a match: board readers, each team's order writers, the GM as writer everywhere.

    A spreadsheet holding several roles gets the widest of them (one spreadsheet for
    everything gives every player write access: use separate spreadsheets for privacy)."""
    by_team = {team: [emails[p.name] for p in roster if p.team == team and p.name in emails] for team in sheets.seats}
    everyone = [e for team in sheets.seats for e in by_team[team]]
    wanted: list[tuple[SheetBackend, str, list[str]]] = [(sheets.board, "reader", everyone)]
    for i, team in enumerate(sheets.seats):
        wanted.append((sheets.orders[i], "writer", by_team[team]))
    grants: list[Grant] = []
    for backend in sheets.write_order():
        readers = [e for b, role, es in wanted if b is backend and role == "reader" for e in es]
        writers = [e for b, role, es in wanted if b is backend and role == "writer" for e in es] + list(gm)
        writers = list(dict.fromkeys(writers))
        readers = [e for e in dict.fromkeys(readers) if e not in writers]
        if writers:
            grants.append(Grant(backend, "writer", tuple(writers)))
        if readers:
            grants.append(Grant(backend, "reader", tuple(readers)))
    return grants


def share_match(grants: Sequence[Grant], *, notify: bool = True) -> list[str]:
    """Carry out the grants on every backend that can share; returns one line per grant for the GM."""
    done: list[str] = []
    for grant in grants:
        if isinstance(grant.backend, Shareable):
            invited = grant.backend.share(list(grant.emails), grant.role, notify=notify)
            line = f"{grant.backend.name}: {grant.role} for {', '.join(grant.emails)}"
            if invited:
                line += (f" (invited by e-mail all the same: {', '.join(invited)}; Google lets an address without "
                         "a Google account in only through its invitation e-mail)")
            done.append(line)
        else:
            done.append(f"{grant.backend.name}: a local file — share it yourself ({', '.join(grant.emails)})")
    return done
