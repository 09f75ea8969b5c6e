"""Sharing a match's spreadsheets: who may read or edit which (Google only).

The board is readable by every member of the roster; a seat's orders spreadsheet is editable by
that seat's members; the judge's spreadsheet by the judge (the GMs of the config); the engine
spreadsheet is the GMs' alone, and the GMs edit every spreadsheet. Every spreadsheet shared is first locked:
its editors cannot share it on (``writersCanShare = false``), so a team member cannot hand the team's orders to
the enemy. Drive lets only a file's owner set that lock: on a spreadsheet the GM made herself and shared with a
service account, the lock is left to her, and the lines say where she clicks (``doctor`` checks it). A seat's
typed cells are protected for its members by the layout (the ``emails`` given when the match is created).
Local workbooks are files: the GM shares them, and the plan says with whom.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.engine.words import some_of
from sheets_gm.sheets.backend import OwnerOnlyError, SharingLock, SheetBackend
from sheets_gm.sync.sheets import MatchSheets


@runtime_checkable
class Shareable(Protocol):
    """A backend that can give people access (the Google backend)."""

    def share(self, emails: Sequence[str], role: str = "writer", *, notify: bool = True,
              message: str | None = None) -> list[str]:
        """Give each address ``role`` on the spreadsheet; returns those e-mailed although ``notify`` was off."""
        ...

    def restrict_sharing(self) -> SharingLock:
        """Let no editor share the spreadsheet on (Drive's ``writersCanShare = false``): whether it is locked now,
        keeps no such lock (a file of a shared drive), or may be locked by its owner alone."""
        ...

    def owner_lock(self) -> tuple[str, bool | None]:
        """The e-mail address of the spreadsheet's owner ("" when unknown), and whether its editors may share it on
        (None when unknown)."""
        ...


#: The Share dialog's names of the roles a match shares with.
ROLE_WORDS = {"writer": "Editor", "commenter": "Commenter", "reader": "Viewer"}


def lock_by_hand(owner: str) -> str:
    """What the owner of a spreadsheet (``owner``, her address, "" when unknown) clicks to lock it: Drive lets no
    one else."""
    who = f"its owner ({owner})" if owner else "its owner"
    return (f"{who} can do it: in Google Drive, open its Share dialog, click the gear (Settings) and untick "
            "\"Editors can change permissions and share\" (Drive lets only a file's owner change it)")


@dataclass(frozen=True, slots=True)
class Grant:
    """Who gets which role on one spreadsheet."""

    backend: SheetBackend
    role: str
    emails: tuple[str, ...]


def sharing_plan(sheets: MatchSheets, emails: Mapping[str, Sequence[str]], gm: Sequence[str] = ()) -> list[Grant]:
    """The grants for a match: board readers, each seat's order writers, the judge's writers, the GMs as
    writers everywhere. ``emails``: the addresses of each seat's members by seat (``seat_emails``), and
    of the judge under ``JUDGE``.

    A spreadsheet holding several roles gets the widest of them (one spreadsheet for
    everything gives every member write access: use separate spreadsheets for privacy)."""
    everyone = [e for seat in sheets.seats for e in emails.get(seat, ())]
    wanted: list[tuple[SheetBackend, str, Sequence[str]]] = [(sheets.board, "reader", everyone)]
    for seat, backend in zip(sheets.seats, sheets.orders, strict=True):
        wanted.append((backend, "writer", emails.get(seat, ())))
    if sheets.judge is not None:
        wanted.append((sheets.judge, "writer", emails.get(JUDGE, ())))
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


def _signed_in(backend: Shareable) -> str:
    """Who the commands are signed in as, in words: the service account by its address, else the GM's account."""
    account = getattr(backend, "account", None)
    return f"the service account {account}" if account else "the Google account you signed in with"


def _whom(emails: Sequence[str]) -> str:
    """The addresses of a grant as a line names them: a few, and how many in all (the roster lists each)."""
    if len(emails) <= 5:
        return ", ".join(emails)
    return f"{len(emails)} addresses ({some_of(emails, 3)}: the roster's email column lists them all)"


def share_match(grants: Sequence[Grant], *, notify: bool = True) -> list[str]:
    """Carry out the grants on every backend that can share; returns one line per grant for the GM
    (what was shared on Google; for a local file, with whom to share it), and a line per spreadsheet on its lock.

    Drive keeps a file's lock to its owner: where these credentials are an editor, the lock's line names the owner
    and where she clicks, and a grant Drive refuses (the owner locked the file before init shared it) names whom
    she shares it with, by the Share dialog's roles; neither stops the others."""
    done: list[str] = []
    restricted: list[int] = []
    owners: dict[int, tuple[str, bool | None]] = {}

    def owner(backend: Shareable) -> str:
        if id(backend) not in owners:
            owners[id(backend)] = backend.owner_lock()
        return owners[id(backend)][0]

    for grant in grants:
        if isinstance(grant.backend, Shareable) and id(grant.backend) not in restricted:
            # First, so that no editor granted below may share it on with anyone, even for a moment.
            restricted.append(id(grant.backend))
            lock = grant.backend.restrict_sharing()
            if lock is SharingLock.LOCKED:
                done.append(f"Locked: {grant.backend.name}: only its owner can share it on (Drive's \"Editors can "
                            "change permissions and share\" is off)")
            elif lock is SharingLock.SHARED_DRIVE:
                done.append(f"Not locked: {grant.backend.name} is in a shared drive, where Drive keeps no such lock "
                            "per file: the shared drive's own sharing settings say who may share it on")
            elif owner(grant.backend) and owners[id(grant.backend)][1] is False:
                done.append(f"Locked: {grant.backend.name}: only its owner can share it on (its owner turned Drive's "
                            "\"Editors can change permissions and share\" off)")
            else:
                done.append(f"Not locked: {grant.backend.name}: its editors can still share it on, and Drive lets "
                            f"only its owner stop them ({_signed_in(grant.backend)} is one of its editors); now that "
                            f"init has shared it, {lock_by_hand(owner(grant.backend))}. `doctor` warns until it is "
                            "done")
        if isinstance(grant.backend, Shareable):
            try:
                invited = grant.backend.share(list(grant.emails), grant.role, notify=notify)
            except OwnerOnlyError:
                done.append(f"Not shared: {grant.backend.name}: its owner has turned off \"Editors can change "
                            f"permissions and share\", so {_signed_in(grant.backend)}, an editor, cannot share it; "
                            f"{owner(grant.backend) or 'its owner'} shares it in its Share dialog: "
                            f"{ROLE_WORDS.get(grant.role, grant.role)} for {_whom(grant.emails)}")
                continue
            line = f"Shared: {grant.backend.name}: {grant.role} for {_whom(grant.emails)}"
            if invited:
                line += (f" (invited by e-mail all the same: {some_of(invited)}; Google lets an address without "
                         "a Google account in only through its invitation e-mail)")
            done.append(line)
        else:
            done.append(f"Share it yourself: {grant.backend.name} is a local file; {grant.role} for "
                        f"{_whom(grant.emails)}")
    return done
