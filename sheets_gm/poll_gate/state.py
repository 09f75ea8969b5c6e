"""What the last poll of a match saw, kept on the GM's machine so that an idle poll can skip its reads.

One small JSON file per match, beside the sync lock in the config's ``.sheets-gm`` folder (the
GM's folder, never a player's file): the config file's and each local workbook's fingerprint
(size, modification time, content hash) as the last full poll left them, the open window's
deadline (so a due deadline is seen without parsing the engine record), what that poll said,
and for a Google match Drive's page token, when each spreadsheet was last read, which ones the last
poll wrote, Drive's version of each spreadsheet that its kept read
covers, and when Drive's file index was last asked (``poll_gate.drive``).

The file is only ever a shortcut: it is removed before a full poll starts and written after it
succeeds, so a poll that fails half-way leaves none, and a machine without one (a second machine
carrying the match on, a fresh checkout) simply reads everything; so does a copy of the match's folder made
elsewhere, since a local match's file names the folder it was written for. Only the standard library is
imported here: cron's idle sync decides from this file alone, before any game or sheet code loads.
"""

from __future__ import annotations

import contextlib
import json
from datetime import datetime
from pathlib import Path

from sheets_gm.engine.plain import Plain
from sheets_gm.sheets.marks import FileMark

#: Bumped when the file's meaning changes; a file of another version is ignored (the poll reads all).
STATE_VERSION = 3


class PollState:
    """What the last full poll of a match saw and said (see the module notes); compared by value.

    A plain class rather than a dataclass: cron's idle poll builds one, and ``dataclasses`` (with ``inspect``)
    would be most of what it imports."""

    __slots__ = ("checked_at", "config", "deadline", "drive_token", "files", "finished", "folder", "full_read_at",
                 "read_at", "summary", "unseen", "versions", "warning", "written")

    def __init__(self, config: FileMark, deadline: str = "", finished: bool = False, summary: str = "",
                 warning: str = "", files: dict[str, FileMark] | None = None, full_read_at: str = "",
                 drive_token: str = "", read_at: dict[str, str] | None = None, written: list[str] | None = None,
                 versions: dict[str, int] | None = None, checked_at: str = "", unseen: list[str] | None = None,
                 folder: str = "") -> None:
        self.config = config
        self.deadline = deadline  # the open window's deadline as the engine record keeps it ('' for none)
        self.finished = finished
        self.summary = summary  # the line the poll printed ('' when it must not be repeated, e.g. a resolution)
        self.warning = warning  # a warning every poll repeats until the GM fixes it (settings drift)
        self.files: dict[str, FileMark] = {} if files is None else files  # local workbooks, by path
        # Google: when the last read of every spreadsheet started (ISO, UTC, this machine's clock)
        self.full_read_at = full_read_at
        self.drive_token = drive_token  # Google: the page token of Drive's change log after the last question
        # Google: when each spreadsheet was last read, by key
        self.read_at: dict[str, str] = {} if read_at is None else read_at
        # Google: spreadsheets the last poll wrote unseen (read back)
        self.written: list[str] = [] if written is None else written
        # Google: Drive's version each kept read covers, by key
        self.versions: dict[str, int] = {} if versions is None else versions
        self.checked_at = checked_at  # Google: when Drive's file index was last asked (the safety net)
        # Google: spreadsheets Drive shows these credentials not at all
        self.unseen: list[str] = [] if unseen is None else unseen
        self.folder = folder  # local: the config's folder, resolved; a copy of the match elsewhere judges nothing by it

    def _fields(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PollState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return f"PollState({', '.join(f'{k}={v!r}' for k, v in self._fields().items())})"

    def to_json(self) -> str:
        """The file's text."""
        fields = self._fields()
        fields["config"] = self.config.as_dict()
        fields["files"] = {where: mark.as_dict() for where, mark in self.files.items()}
        return json.dumps({"version": STATE_VERSION, **fields}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PollState | None:
        """The state in ``text``; None when it is not a state file of this version (then the poll reads all)."""
        try:
            raw = json.loads(text)
            if raw.pop("version") != STATE_VERSION:
                return None
            raw["config"] = FileMark(**raw["config"])
            raw["files"] = {k: FileMark(**v) for k, v in raw["files"].items()}
            return cls(**raw)
        except (ValueError, TypeError, KeyError, AttributeError):
            return None


class Said(Plain):
    """What a poll said, as the next idle poll repeats it: ``summary`` ('' when it must not be repeated, e.g. a
    resolution) and ``warning`` (what every poll repeats until the GM fixes it)."""

    __slots__ = ("summary", "warning")

    def __init__(self, summary: str = "", warning: str = "") -> None:
        self.summary = summary
        self.warning = warning


def state_path(config_path: Path) -> Path:
    """The state file of the match configured by ``config_path`` (beside its sync lock)."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.poll.json"


def load_state(path: Path) -> PollState | None:
    """The state saved at ``path``, or None (missing, unreadable, another version)."""
    try:
        return PollState.from_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


#: The records this process could not write since :func:`unwritten` was last asked (a full disk): a poll whose only
#: write is its record fails silently otherwise, and the next poll reads everything again, and again.
_UNWRITTEN: list[str] = []


def save_state(path: Path, state: PollState) -> None:
    """Write ``state`` atomically (a reader sees the old file or the new one); a failure costs the next poll a full
    read, and is kept for :func:`unwritten` (the host says it)."""
    from sheets_gm.sheets.private_files import write_private  # not at the top: an idle poll writes nothing

    try:
        write_private(path, state.to_json())
    except OSError as exc:
        _UNWRITTEN.append(f"{path.name} ({exc.strerror or exc})")


def unwritten() -> list[str]:
    """The records that could not be written since the last call (each with why), forgotten once asked."""
    out = list(_UNWRITTEN)
    _UNWRITTEN.clear()
    return out


def forget_state(path: Path) -> None:
    """Remove the state file: the next poll reads everything."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def iso(moment: datetime) -> str:
    """``moment`` as the state file keeps it."""
    return moment.isoformat(timespec="seconds")


def tell_once(config_path: Path, topic: str) -> bool:
    """Whether the GM is yet to be told of ``topic`` about the match configured by ``config_path`` (then it is
    remembered, in ``.sheets-gm/<config>.told.json``, which no GM command forgets, unlike the poll's record): a
    sentence init, a poll or a command says once for the match, whichever comes first."""
    from sheets_gm.sheets.private_files import private_folder, write_private

    path = config_path.parent / ".sheets-gm" / f"{config_path.stem}.told.json"
    try:
        told = json.loads(path.read_text(encoding="utf-8")).get("told", [])
    except (OSError, ValueError, AttributeError):
        told = []
    if not isinstance(told, list) or topic in told:
        return not isinstance(told, list)
    try:
        private_folder(path.parent)
        write_private(path, json.dumps({"told": [*told, topic]}))
    except OSError:
        pass  # told again next time rather than never
    return True
