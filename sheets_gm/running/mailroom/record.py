"""The judge's record of the mail read for a match: a GM-private JSON file beside the config (``.sheets-gm/<config
name>.mail/record.json``, 0600 in a 0700 folder), an entry per mail by its key: when the server received it, its
sender and subject, what the game filed it as, the window it was read for, where its lines were typed, the sealed
strategy. It is the one keeper of what a mail said and what the game made of it; the mailbox's ledger
(``mailbox.ledger``) keeps only that a mail was handled, once, and its receipt sent. It holds the strategies, which
no seat may see: nothing of it reaches a seat's spreadsheet, the board, the page, a notice or a bot; only the
judge's workbook and the GM's commands read it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sheets_gm.mailbox.message import Mail
from sheets_gm.rulesets.parts.mail import Sealed
from sheets_gm.sheets.private_files import write_private
from sheets_gm.sync.deadline import deadline_moment


def mail_key(mail: Mail) -> str:
    """The record's key of a mail: its ``Message-ID`` (made from its UID where it has none)."""
    return mail.message_id.strip("<>") or f"{mail.uidvalidity}.{mail.uid}"


def record_path(config_path: Path) -> Path:
    """The mail record of the match configured by ``config_path``."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.mail" / "record.json"


@dataclass
class MailEntry:
    """One mail as read: ``placed`` says where its lines went, by seat: the heading's A1 cell, the lines' cells and
    their feedback cells (for the receipt); ``answer``: whether it gets an answer (``running.mailroom.answering``):
    a receipt, or for an address that is no player's the one short line of its day (``brief``); ``silent``: why it
    gets none (``answering.SILENT``); ``day``: the UTC day the server received it (a sender's answers are counted
    by it); ``answer_id``: the left part of its answer's Message-ID (a mail replying to it is never answered)."""

    key: str
    sender: str
    subject: str
    received: str
    kind: str
    window: str
    unread: str = ""
    refused: list[list[str]] = field(default_factory=list)
    chatter: list[str] = field(default_factory=list)
    placed: dict[str, dict[str, Any]] = field(default_factory=dict)
    sealed: dict[str, Any] | None = None
    answer: bool = True
    brief: bool = False
    silent: str = ""
    day: str = ""
    answer_id: str = ""
    read_for: str = ""  # what its lines are read for, when not the open window (``Filing.read_for``)

    @staticmethod
    def from_json(raw: dict[str, Any]) -> MailEntry:
        """An entry from the record's form (the fields of an older record left out)."""
        return MailEntry(**{k: v for k, v in raw.items() if k in MailEntry.__dataclass_fields__})

    def to_json(self) -> dict[str, Any]:
        """The record's form."""
        return dict(self.__dict__)

    def untyped(self) -> dict[str, str]:
        """Why the mail's lines for each seat could not be typed into its table, by seat (none once all are)."""
        return {seat: str(place["full"]) for seat, place in self.placed.items() if "full" in place}

    @property
    def strategy(self) -> Sealed | None:
        """The sealed submission it filed, if any."""
        return Sealed.from_json(self.sealed) if self.sealed else None


class MailRecord:
    """The record file, loaded whole (a war's turn is some hundreds of mails) and saved atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raw = {}
        self.entries: dict[str, MailEntry] = {k: MailEntry.from_json(v) for k, v in raw.get("mail", {}).items()}
        self.drawn: int = int(raw.get("drawn", 0))  # the rows the judge's tab of strategies held when last drawn
        self.closed: list[str] = list(raw.get("closed", []))  # the windows whose deadline cells were typed
        # each of those windows' deadline (as the engine keeps it) and label, by key (``missed_window``)
        self.deadlines: dict[str, list[str]] = {str(key): [str(v) for v in said]
                                                for key, said in raw.get("deadlines", {}).items()}
        # the deadline cells of the last window closed: what its strategies called for, and what was typed
        # (``{"window": key, "wanted": [[table, subject, column, value], …], "typed": […]}``: ``deadline.close_sealed``)
        self.proposed: dict[str, Any] = dict(raw.get("proposed", {}))

    @classmethod
    def of(cls, config_path: Path) -> MailRecord:
        """The record of the match configured by ``config_path``."""
        return cls(record_path(config_path))

    def save(self) -> None:
        """Write the record (atomically, GM-private)."""
        write_private(self.path, json.dumps({"drawn": self.drawn, "closed": self.closed, "deadlines": self.deadlines,
                                             "proposed": self.proposed,
                                             "mail": {k: e.to_json() for k, e in self.entries.items()}},
                                            ensure_ascii=False, indent=1))

    def missed_window(self, received: datetime, open_window: str) -> str:
        """Why a mail the server received at ``received`` is not read now, when the window open then has closed
        since (ruling "Mail to the judge": a mail counts at its arrival; the mailbox could not be read before that
        window closed): it reached the mailbox before the deadline of a window that is not ``open_window``, the one
        open now; '' when it did not."""
        for key, (deadline, label) in self.deadlines.items():
            moment = deadline_moment(deadline)
            if key != open_window and moment is not None and received <= moment:
                return (f"it reached the judge's mailbox before the deadline of {label} ({moment:%a %d %b %H:%M} UTC), "
                        f"but the mailbox could be read only after {label} was adjudicated: nothing of it is read for "
                        "a later turn; it is kept in the judge's record (tell the judge)")
        return ""

    def sealed(self, window: str | None = None) -> Iterator[tuple[MailEntry, Sealed]]:
        """The strategies filed (for ``window`` only, when given), in the order the server received them."""
        for entry in sorted(self.entries.values(), key=lambda e: e.received):
            found = entry.strategy
            if found is not None and (window is None or entry.window == window):
                yield entry, found
