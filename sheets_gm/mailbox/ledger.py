"""The mailbox's ledger: which mail was handled, so that each is handled once, across cut polls and restarts.

A file of the GM's own (0600, in the match's ``.sheets-gm`` folder: it names every player's address and what each
sent), a JSON line per event, each written and fsync'ed before what it announces:

- ``begin``: a mail is about to be filed (its UIDVALIDITY, UID and Message-ID). Written before its filing writes
  anything; a poll cut after it (even by kill -9) leaves the mail **begun**, and the next poll hands it back
  (``pending``) to be filed again (the filing's writes are idempotent);
- ``finish``: its filing is done (or it is ``gone`` from the folder before it could be filed again). A finished
  mail is never handed back again;
- ``receipt``: its sender's receipt was sent (written by older versions; read as nothing: whether a mail is answered,
  and why not, is the door's record's, ``running.mailroom.record``);
- ``flagged``: the server flagged it read (``\\Seen``). A mail finished and never flagged (a poll cut between the
  two) is flagged by the next poll (``unflagged``);
- ``skip``: a mail found under a new UID (the folder's UIDVALIDITY changed) whose Message-ID the ledger knows;
- ``seen``: every UID of the folder up to this one was looked at (nothing there, or only mail already known);
- ``trouble`` and ``mended``: the mailbox could not be read (a login refused, a folder missing, a server down), and
  that it can be again: each said once, not at every poll (``trouble``).

The ledger keeps the handled-once protocol alone: which mail, begun or finished. What
a mail said and what the game made of it (sender, subject, arrival, what it was filed as, for which window, where its
lines went) is the filing's own record (the door's, ``running.mailroom.record``): each fact has one keeper.

A mail is known by its Message-ID (``Mail.message_id``) and by its folder's UIDVALIDITY and its UID: a
UIDVALIDITY change (a folder rebuilt by the server) falls back on the Message-IDs. The last line of a file cut
mid-write is ended before anything is added, and read as nothing.

Mail is begun in the order ``reader.new_mail`` gives it (UID order), one by one or all at once (``begin`` takes
several, ``finish`` too: one fsync for a whole poll's mail): the highest UID begun is where the next poll's
new mail starts, and every mail begun and not finished is handed back.
"""

from __future__ import annotations

import json
from pathlib import Path

from sheets_gm.engine.plain import Plain
from sheets_gm.sheets.private_files import append_private

#: Types alone below (mypy reads them as ``typing.TYPE_CHECKING``): the idle poll reads the ledger without loading
#: ``typing``, the mail's parser or the config's.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sheets_gm.mailbox.message import Mail
    from sheets_gm.match.config import MatchConfig


class MailRecord(Plain):
    """What the ledger keeps of one mail: where it is in the folder, whether it was filed to the end (or was
    ``gone`` first). A plain record (``engine.plain``): the idle poll reads the
    ledger, and loads no ``dataclasses``."""

    __slots__ = ("finished", "flagged", "gone", "message_id", "uid", "uidvalidity")

    def __init__(self, message_id: str, uidvalidity: int, uid: int, finished: bool = False, gone: bool = False,
                 flagged: bool = False) -> None:
        self.message_id, self.uidvalidity, self.uid = message_id, uidvalidity, uid
        self.finished, self.gone, self.flagged = finished, gone, flagged


def ledger_path(config_path: Path) -> Path:
    """Where the mailbox ledger of the match configured by ``config_path`` is kept:
    ``.sheets-gm/<config name>.mailbox.jsonl`` beside the config."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.mailbox.jsonl"


class MailLedger:
    """A match's mailbox ledger, read from its file at once and written line by line (see the module notes)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._records: dict[str, MailRecord] = {}
        self._by_uid: dict[tuple[int, int], str] = {}
        self.uidvalidity: int | None = None  # the folder's, as last seen (None: never read)
        self.last_uid = 0  # the highest UID looked at under ``uidvalidity``
        self.troubled = ""  # the kind of the trouble last said ('' when none, or mended)
        self._load()

    @classmethod
    def for_match(cls, config: MatchConfig) -> MailLedger:
        """The ledger of the match ``config`` (``ledger_path``)."""
        return cls(ledger_path(config.path))

    def _load(self) -> None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        if data and not data.endswith(b"\n"):  # a line cut mid-write: end it, so the next is a line of its own
            append_private(self.path, b"\n")
        for line in data.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue  # the line a crash cut: nothing it announced was done
            if isinstance(event, dict):
                self._apply(event)

    def _apply(self, event: dict[str, Any]) -> None:
        """One line's event applied to what is held."""
        op = event.get("op")
        if "uidvalidity" in event and event["uidvalidity"] != self.uidvalidity:
            self.uidvalidity, self.last_uid = int(event["uidvalidity"]), 0
        if op == "begin":
            record = MailRecord(str(event["message_id"]), int(event["uidvalidity"]), int(event["uid"]))
            old = self._records.get(record.message_id)
            self._records[record.message_id] = record if old is None else old.replaced(
                uidvalidity=record.uidvalidity, uid=record.uid)
            self._by_uid[(record.uidvalidity, record.uid)] = record.message_id
        elif op == "skip":
            self._by_uid[(int(event["uidvalidity"]), int(event["uid"]))] = str(event["message_id"])
        elif op == "finish" and event.get("message_id") in self._records:
            old = self._records[event["message_id"]]
            self._records[old.message_id] = old.replaced(finished=True, gone=bool(event.get("gone")))
        elif op == "flagged":
            for message_id in event.get("message_ids", []):
                if message_id in self._records:
                    self._records[message_id] = self._records[message_id].replaced(flagged=True)
        if op == "trouble":
            self.troubled = str(event.get("kind", ""))
        elif op == "mended":
            self.troubled = ""
        if op in ("begin", "skip"):
            self.last_uid = max(self.last_uid, int(event["uid"]))
        elif op == "seen":
            self.last_uid = max(self.last_uid, int(event["upto"]))

    def _write(self, *events: dict[str, Any]) -> None:
        """Write ``events`` durably (one fsync for them all), then hold them."""
        if not events:
            return
        append_private(self.path, "".join(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
                                          for event in events).encode())
        for event in events:
            self._apply(event)

    def record(self, message_id: str) -> MailRecord | None:
        """What the ledger keeps of the mail ``message_id`` (None: never begun)."""
        return self._records.get(message_id)

    def records(self) -> list[MailRecord]:
        """Every mail the ledger keeps, in the order first begun."""
        return list(self._records.values())

    def pending(self) -> list[MailRecord]:
        """The mails begun and not finished (a poll cut while filing them, a window undone), in UID order: the
        next poll files them again."""
        return sorted((r for r in self._records.values() if not r.finished), key=lambda r: (r.uidvalidity, r.uid))

    def unflagged(self) -> list[MailRecord]:
        """The mails finished and not yet flagged on the server, at a UID of the folder as last seen (a poll cut
        between the two): the next poll flags them. A mail gone from the folder, or at the UID of an older
        UIDVALIDITY (which names another mail now), is left."""
        return [r for r in self._records.values()
                if r.finished and not r.gone and not r.flagged and r.uidvalidity == self.uidvalidity]

    def flagged(self, *mails: Mail | MailRecord) -> None:
        """The server flagged the mails read (written at once, one line for them all)."""
        ids = [m.message_id for m in mails if m.message_id in self._records and not self._records[m.message_id].flagged]
        if ids:
            self._write({"op": "flagged", "message_ids": ids})

    def finished(self, message_id: str) -> bool:
        """Whether the mail ``message_id`` was filed to the end: it is never handed back again."""
        record = self._records.get(message_id)
        return record is not None and record.finished

    def known_uid(self, uidvalidity: int, uid: int) -> str:
        """The Message-ID of the mail the ledger knows at that UID of the folder ('' when none)."""
        return self._by_uid.get((uidvalidity, uid), "")

    def begin(self, *mails: Mail) -> None:
        """The mails are about to be filed: written and fsync'ed (once for them all) before anything of their
        filing. A mail begun already (handed back) writes nothing more, unless it is at a new UID."""
        events = []
        for mail in mails:
            old = self._records.get(mail.message_id)
            if old is not None and not old.finished and (old.uidvalidity, old.uid) == (mail.uidvalidity, mail.uid):
                continue
            events.append({"op": "begin", "message_id": mail.message_id, "uidvalidity": mail.uidvalidity,
                           "uid": mail.uid})
        self._write(*events)

    def finish(self, *mails: Mail | str, gone: bool = False) -> None:
        """The mails (or their Message-IDs) were filed (``gone``: they left the folder before they could be filed
        again), written at once (one fsync) after every write of their filing: never handed back again (an undone
        window's mail comes back with its rows, from the undo's archive, not from the mailbox)."""
        ids = [m if isinstance(m, str) else m.message_id for m in mails]
        for message_id in ids:
            if message_id not in self._records:
                raise KeyError(f"the mail {message_id} was never begun: begin it before filing it")
        self._write(*({"op": "finish", "message_id": i, **({"gone": True} if gone else {})} for i in ids))

    def skip(self, uidvalidity: int, uid: int, message_id: str) -> None:
        """A mail already known by its Message-ID, found at a new UID: looked at, not read again."""
        self._write({"op": "skip", "uidvalidity": uidvalidity, "uid": uid, "message_id": message_id})

    def seen(self, uidvalidity: int, upto: int) -> None:
        """Every UID of the folder up to ``upto`` was looked at (held only when it moves the mark)."""
        if uidvalidity != self.uidvalidity or upto > self.last_uid:
            self._write({"op": "seen", "uidvalidity": uidvalidity, "upto": upto})

    def trouble(self, kind: str, text: str) -> bool:
        """The mailbox could not be read (``kind``: a ``MailboxError``'s): whether to say so, which is only when it
        is not the trouble said last (a login refused at every poll is said once)."""
        if kind == self.troubled:
            return False
        self._write({"op": "trouble", "kind": kind, "text": text})
        return True

    def mended(self) -> bool:
        """The mailbox was read: whether a trouble was said before (then say it is over, once)."""
        if not self.troubled:
            return False
        self._write({"op": "mended"})
        return True
