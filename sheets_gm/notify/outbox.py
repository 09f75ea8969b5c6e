"""The outbox: every notice waits here until its channel takes it, and each is sent once.

A folder in the GM's own ``.sheets-gm`` folder beside the config (``<config name>.outbox``, mode 0700, every
file 0600: a letter holds a seat's private news and its members' addresses):

- ``letters/``: a JSON file per delivery waiting (one channel, one recipient), named after its key's hash,
  with how often it was tried, the last error and when it may be tried again (a server's Retry-After); beside
  it, a chat post's picture (the turn's map, a PNG of some hundred kilobytes) under the same name ending
  ``.png``, kept out of the JSON and posted with every try of the letter;
- ``ledger.json`` and ``ledger.jsonl``: every key ever queued, and when it was sent: a poll that builds a notice
  again (a resolution completed after a fault, every poll of an open window) queues nothing new. A change is a line
  added (``notify.ledger_file``), never the whole ledger written again;
- ``reminder.json``: when the open window's reminder falls due, so that an idle poll knows to read then;
- ``window.json``: the window open at the last poll that read: a letter of another window (its "is open" or its
  reminder) is stale, and is dropped rather than sent;
- ``notes.json``: what was not delivered and why, for the GM (``status``, ``doctor``): an address the mail
  server refused for good, a post the webhook refused for good, a post in doubt, a notice gone stale;
- ``alarm.json``: each channel's failure as ``--quiet`` said it last, so that cron's mail says it once.

Every error, note and reason the outbox keeps has passed ``notify.redact`` first: no server's words quoting a
webhook's token are ever written here.

The ledger is changed under ``ledger.lock`` (held a moment, never while sending), so two syncs queueing at once
never lose each other's keys.

Only the standard library is imported: cron's idle sync asks ``due`` before anything else loads, and does
nothing more when nothing waits. Two processes never send at once: a sender holds ``send.lock``, and a
second one, finding it held, leaves the letters to the next poll rather than wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path

from sheets_gm.notify.due import Due, outbox_path, reminder_at
from sheets_gm.notify.ledger_file import LedgerFile
from sheets_gm.notify.redact import redact
from sheets_gm.sheets.private_files import private_folder, write_private

#: A letter's channels.
EMAIL = "email"
CHAT = "chat"
#: How many notes of letters not delivered the outbox keeps for the GM.
NOTES_KEPT = 100


@dataclass(frozen=True)
class Letter:
    """One delivery: a notice (or one part of a long one) to one recipient over one channel.

    ``to`` holds the addresses of an e-mail (a seat's members); ``sent_to`` those the mail server accepted it for
    already (never sent to again), ``dropped`` those it refused for good (with its words); ``not_before`` is when it
    may be tried again (ISO, after a server asked to wait or refused for now), ``error`` why the last try failed.
    ``window`` names the window the notice belongs to (its "is open" or its reminder: '' for news, which never
    goes stale) and ``until`` the moment it is stale anyway (a reminder's deadline). ``doubt`` counts the posts
    of it that the webhook never answered (it may have taken them): one repeat at most. ``seq`` keeps the order
    the letters were queued in. ``zone``: the time zone its deadline is given in (its addresses are the seat's
    players of that zone), None for a letter with no deadline of a seat's."""

    key: str
    channel: str
    recipient: str
    subject: str
    body: str
    queued_at: str
    to: tuple[str, ...] = ()
    tries: int = 0
    error: str = ""
    tried_at: str = ""
    not_before: str = ""
    sent_to: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    window: str = ""
    until: str = ""
    doubt: int = 0
    seq: int = 0
    zone: str | None = None  # the time zone its deadline is given in, for its players of that zone (None: any)
    attachment: str = ""  # a file posted with it (a chat post's whole report), as text
    attachment_name: str = ""
    topic: str = ""  # what it tells of its window (its notice's kind): a newer letter of the same replaces it
    left: str = ""  # a reminder's time left as written ("9 min"), said anew as it is when sent (``notify.send``)
    picture: str = ""  # the file name of a picture posted with it (the turn's map), kept beside it (``Outbox.picture``)
    in_reply_to: str = ""  # the Message-ID of the mail it answers (a receipt's), for In-Reply-To and References

    @property
    def pending(self) -> tuple[str, ...]:
        """The addresses it is still to be sent to: neither accepted nor refused for good."""
        done = set(self.sent_to) | {d.split(" ", 1)[0] for d in self.dropped}
        return tuple(a for a in self.to if a not in done)

    def stale(self, open_window: str | None, now: datetime) -> str:
        """Why it belongs to a time gone by ('' when it does not): its window closed, or its moment passed."""
        if self.window and open_window is not None and self.window != open_window:
            return "its window closed before it could be sent"
        try:
            until = datetime.fromisoformat(self.until) if self.until else None
        except ValueError:
            until = None
        if until is not None and now >= until:
            return "its deadline passed before it could be sent"
        return ""

    def replaces(self, older: Letter) -> bool:
        """Whether this letter makes ``older`` (waiting still) needless: the same news of the same window to the same
        readers, told anew (the deadline moved while the mail was down): only the newer one goes."""
        return bool(self.topic and self.window) and self.key != older.key and not older.sent_to and (
            self.channel, self.recipient, self.window, self.topic, self.zone) == (
            older.channel, older.recipient, older.window, older.topic, older.zone)

    def to_json(self) -> str:
        """The letter's file."""
        return json.dumps({**asdict(self), "to": list(self.to), "sent_to": list(self.sent_to),
                           "dropped": list(self.dropped)}, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Letter:
        """A letter from its file (ValueError for a file that is not one)."""
        try:
            raw = json.loads(text)
            return cls(**{**raw, "to": tuple(raw.get("to", ())), "sent_to": tuple(raw.get("sent_to", ())),
                          "dropped": tuple(raw.get("dropped", ()))})
        except (TypeError, AttributeError) as exc:
            raise ValueError(f"not a letter ({exc})") from None

    def waits_until(self) -> datetime | None:
        """When it may be tried again, if a server asked to wait."""
        try:
            return datetime.fromisoformat(self.not_before) if self.not_before else None
        except ValueError:
            return None

    def due(self, now: datetime) -> bool:
        """Whether it may be tried at ``now``."""
        until = self.waits_until()
        return until is None or now >= until


def iso(moment: datetime) -> str:
    """A moment as the outbox keeps it."""
    return moment.isoformat(timespec="seconds")


class Outbox:
    """The outbox of one match (see the module notes)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.letters_dir = folder / "letters"
        self._ledger = LedgerFile(folder)
        self.reminder_path = folder / "reminder.json"
        self.window_path = folder / "window.json"
        self.notes_path = folder / "notes.json"
        self.alarm_path = folder / "alarm.json"

    @classmethod
    def of(cls, config_path: Path) -> Outbox:
        """The outbox of the match configured by ``config_path``."""
        return cls(outbox_path(config_path))

    # -- the ledger --------------------------------------------------------------------------------
    def ledger(self) -> dict[str, str]:
        """Every key ever queued: ``queued`` while it waits, else when it was sent (``notify.ledger_file``)."""
        return self._ledger.read()

    def _file(self, key: str) -> Path:
        return self.letters_dir / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"

    def _picture_file(self, key: str) -> Path:
        return self._file(key).with_suffix(".png")

    def picture(self, letter: Letter) -> bytes | None:
        """The picture ``letter`` is posted with, as it was queued (None: it has none, or its file is gone)."""
        if not letter.picture:
            return None
        try:
            return self._picture_file(letter.key).read_bytes()
        except OSError:
            return None

    def _forget(self, key: str) -> None:
        """The files of the letter ``key`` (its JSON, its picture) out of the outbox."""
        self._file(key).unlink(missing_ok=True)
        self._picture_file(key).unlink(missing_ok=True)

    # -- queueing and sending ------------------------------------------------------------------------
    def add(self, letters: Iterable[Letter], pictures: Mapping[str, bytes] | None = None) -> list[Letter]:
        """Queue the letters whose key was never queued, each with its picture in ``pictures`` (by key), if any;
        returns those queued now. The letter's files are written before the ledger names it, so a crash between
        the two sends it (once) rather than never."""
        letters = list(letters)
        if not letters:
            return []
        with self._ledger.held() as ledger:
            fresh = [letter for letter in letters if letter.key not in ledger]
            if fresh:
                private_folder(self.letters_dir)
            # The ledger only grows: its size numbers the letters in the order they were queued.
            fresh = [replace(letter, seq=len(ledger) + number) for number, letter in enumerate(fresh)]
            self._replace_older(fresh, ledger)
            for letter in fresh:
                if pictures and letter.key in pictures:
                    write_private(self._picture_file(letter.key), pictures[letter.key])
                write_private(self._file(letter.key), letter.to_json())
                ledger[letter.key] = "queued"
        return fresh

    def _replace_older(self, fresh: list[Letter], ledger: dict[str, str]) -> None:
        """The letters waiting that a ``fresh`` one replaces (``Letter.replaces``) leave the outbox unsent; the
        ledger says by which. Not a loss: its news goes, in its newer words."""
        if not any(letter.topic and letter.window for letter in fresh):
            return
        for older in self.waiting():
            newer = next((letter for letter in fresh if letter.replaces(older)), None)
            if newer is not None:
                ledger[older.key] = f"replaced {newer.queued_at} by the newer {newer.key}"
                self._forget(older.key)

    def skip(self, keys: Iterable[str], why: str) -> None:
        """Record ``keys`` as never to be sent (a seat with no address): a later poll does not build them again."""
        keys = list(keys)
        if not keys:
            return
        with self._ledger.held() as ledger:
            ledger.update({key: f"not sent: {why}" for key in keys if key not in ledger})

    def waiting(self) -> list[Letter]:
        """Every letter waiting, oldest first (a file that is no letter is named in its place, never dropped)."""
        found: list[Letter] = []
        try:
            files = sorted(self.letters_dir.glob("*.json"))
        except OSError:
            return []
        for path in files:
            try:
                found.append(Letter.from_json(path.read_text(encoding="utf-8")))
            except (OSError, ValueError) as exc:
                found.append(Letter(f"?/{path.name}", "?", "?", f"{path.name} cannot be read", "", "", error=str(exc)))
        return sorted(found, key=lambda letter: (letter.queued_at, letter.seq, letter.key))

    def sent(self, letter: Letter, now: datetime) -> None:
        """``letter`` was taken by its channel: it leaves the outbox, and the ledger says when."""
        refused = f" (not to {redact(', '.join(letter.dropped))}: refused for good)" if letter.dropped else ""
        with self._ledger.held() as ledger:
            ledger[letter.key] = f"sent {iso(now)}{refused}"
        self._forget(letter.key)

    def failed(self, letter: Letter, error: str, now: datetime, retry_at: datetime | None = None,
               **changes: object) -> Letter:
        """``letter`` could not be sent (to every address): it stays, with why, when it may be tried again and
        ``changes`` (the addresses that took it, those refused for good, a post in doubt)."""
        kept = replace(letter, tries=letter.tries + 1, error=redact(error), tried_at=iso(now),
                       not_before=iso(retry_at) if retry_at is not None else "", **changes)  # type: ignore[arg-type]
        write_private(self._file(letter.key), kept.to_json())
        return kept

    def keep(self, letter: Letter) -> None:
        """``letter`` written back as it is now (its addresses mended, another's stale notices folded in)."""
        write_private(self._file(letter.key), letter.to_json())

    def drop(self, letter: Letter, why: str, now: datetime, *, noted: bool = False) -> None:
        """``letter`` is never sent (or never sent again): it leaves the outbox, the ledger says why, and the GM
        reads it in the notes (``status``, ``doctor``) unless they hold it already (``noted``: each of its
        addresses refused for good has a note of its own)."""
        with self._ledger.held() as ledger:
            ledger[letter.key] = f"dropped {iso(now)}: {redact(why)}"
        if not noted:
            self.note(letter, why, now)
        self._forget(letter.key)

    # -- what the GM is told of letters not delivered ----------------------------------------------------
    def note(self, letter: Letter, what: str, now: datetime, about: str = "") -> None:
        """Keep ``what`` happened to ``letter`` for the GM (the last hundred notes are kept); ``about``: what
        notes alike share whatever the server's words (an address refused for good: a server's refusal may carry
        a trace of its own each time, as Gmail's does)."""
        notes = self.notes()
        note = {"at": iso(now), "channel": letter.channel, "recipient": letter.recipient, "subject": letter.subject,
                "what": redact(what)}
        notes.append({**note, "about": redact(about)} if about else note)
        private_folder(self.folder)
        write_private(self.notes_path, json.dumps(notes[-NOTES_KEPT:], ensure_ascii=False, indent=0))

    def notes(self) -> list[dict[str, str]]:
        """What was not delivered and why, oldest first (see ``note``)."""
        try:
            raw = json.loads(self.notes_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [{str(k): str(v) for k, v in n.items()} for n in raw if isinstance(n, dict)] \
            if isinstance(raw, list) else []

    # -- the GM's undos -------------------------------------------------------------------------------------
    def undos(self) -> list[dict[str, str]]:
        """The GM's undos the notices tell, oldest first: each one's ``reason``, the ``window`` it reopened (its key
        and ``label``) and the resolutions counted then (``at``), and, once a poll saw it, the ``deal`` (the match's
        undo count) then; [] for none. A file of one undo (as kept before several were) is a list of one."""
        try:
            raw = json.loads((self.folder / "undo.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [{str(k): str(v) for k, v in u.items()} for u in (raw if isinstance(raw, list) else [raw])
                if isinstance(u, dict) and u]

    def set_undos(self, undos: list[dict[str, str]]) -> None:
        """Keep the GM's undos (see ``undos``)."""
        private_folder(self.folder)
        write_private(self.folder / "undo.json", json.dumps(undos, ensure_ascii=False))

    # -- the addresses muted --------------------------------------------------------------------------------
    def muted(self) -> frozenset[str]:
        """The e-mail addresses the GM muted (``notices --mute``: a player who asked to hear no more), folded."""
        try:
            raw = json.loads((self.folder / "muted.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return frozenset()
        return frozenset(str(a).casefold() for a in raw) if isinstance(raw, list) else frozenset()

    def mute(self, add: Iterable[str], remove: Iterable[str] = ()) -> frozenset[str]:
        """Mute the addresses ``add`` and hear ``remove`` again; the addresses muted now."""
        muted = (set(self.muted()) | {a.strip().casefold() for a in add}) - {a.strip().casefold() for a in remove}
        private_folder(self.folder)
        write_private(self.folder / "muted.json", json.dumps(sorted(muted), ensure_ascii=False))
        return frozenset(muted)

    # -- the window open now ----------------------------------------------------------------------------
    def open_at(self, window: str) -> None:
        """The poll that read found ``window`` open (a letter of any other window is stale)."""
        if self.open_window() != window:
            private_folder(self.folder)
            write_private(self.window_path, json.dumps({"window": window}))

    def open_window(self) -> str | None:
        """The window the last poll that read found open (None before any)."""
        try:
            return str(json.loads(self.window_path.read_text(encoding="utf-8"))["window"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    # -- what --quiet said --------------------------------------------------------------------------------
    def alarms(self) -> dict[str, dict[str, str]]:
        """Each channel's state as kept for ``--quiet``: its failure (``error``) and whether it was ``said``."""
        try:
            raw = json.loads(self.alarm_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in raw.items() if isinstance(v, dict)} \
            if isinstance(raw, dict) else {}

    def set_alarms(self, alarms: dict[str, dict[str, str]]) -> None:
        """Keep the channels' states (see ``alarms``)."""
        if alarms != self.alarms():
            private_folder(self.folder)
            write_private(self.alarm_path, json.dumps(alarms, ensure_ascii=False))

    def postpone(self, letter: Letter, error: str, retry_at: datetime | None) -> Letter:
        """``letter`` was not tried because its channel failed just before: it keeps its tries, and says why."""
        kept = replace(letter, error=redact(error),
                       not_before=iso(retry_at) if retry_at is not None else letter.not_before)
        write_private(self._file(letter.key), kept.to_json())
        return kept

    @contextlib.contextmanager
    def sending(self) -> Iterator[bool]:
        """The right to send, held while the block runs: True, or False when another process sends now (then
        leave the letters to the next poll: a poll never waits for another's sending)."""
        private_folder(self.folder)
        fd = os.open(self.folder / "send.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(fd)

    # -- the reminder ---------------------------------------------------------------------------------
    def remind_at(self, window: str, moment: datetime | None) -> None:
        """The open window ``window``'s reminder falls due at ``moment`` (None: no reminder to wait for)."""
        if moment is None:
            self.reminder_path.unlink(missing_ok=True)
            return
        private_folder(self.folder)
        write_private(self.reminder_path, json.dumps({"window": window, "at": iso(moment)}))

    def reminder(self) -> datetime | None:
        """When the reminder waited for falls due, if one is."""
        return reminder_at(self.reminder_path)


def due(config_path: Path, now: datetime) -> Due:
    """What an idle poll of the match configured by ``config_path`` must do about notices (see ``Due``); a
    match without notices has no outbox, and the answer costs one failed look for a folder."""
    box = Outbox.of(config_path)
    if not box.folder.is_dir():
        return Due()
    letters = box.waiting()
    reminder = box.reminder()
    return Due(sum(1 for letter in letters if letter.due(now)), reminder is not None and now >= reminder)
