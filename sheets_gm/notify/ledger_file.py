"""The outbox's ledger on disk: ``ledger.json`` (every key as of its last folding) and ``ledger.jsonl`` beside it (a
JSON line per key changed since, ``[key, value]``), so that marking one letter sent writes one line, not the whole
ledger again: a war's turn sends some thousand receipts to a ledger of tens of thousands of keys.

Reading is the file and then its lines in order (the last line for a key wins); a line a crash cut short is read as
nothing (that change is lost, as a crash before it would have lost it). A holder of this object reads only the lines
added since its last read, as long as ``ledger.json`` is the same file. When the lines outweigh the file (and at
least :data:`FOLD_AT` bytes), they are folded into a new ``ledger.json`` (written whole, then put in place) and the
lines file emptied: a crash between the two leaves lines the new file already holds, read again to the same values.

Every change and every read is made under the outbox's ``ledger.lock`` (:meth:`LedgerFile.held`, or a shared hold
for a read alone), so no reader sees the file of one folding with the lines of another. Only the standard library
is imported (cron's idle sync may ask the outbox before anything else loads).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

from sheets_gm.sheets.private_files import append_private, private_folder, write_private

TYPE_CHECKING = False  # (mypy reads it as typing's: ``typing`` itself is not loaded where cron's idle sync runs)
if TYPE_CHECKING:
    from typing import Any

#: Bytes of lines below which they are never folded into ``ledger.json`` (a young match keeps one small file).
FOLD_AT = 256 * 1024


class LedgerError(OSError):
    """The ledger cannot be read: never guess (queuing anew could send every notice of the match twice)."""


class LedgerFile:
    """One outbox's ledger (see the module notes): ``read`` it, or change it within ``held``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "ledger.json"
        self.lines_path = folder / "ledger.jsonl"
        self._entries: dict[str, str] = {}
        self._base: tuple[int, int, int] | None = None  # the identity of the ledger.json the entries were read from
        self._offset = 0  # where the next unread line starts in ledger.jsonl
        self._holding = False

    def read(self) -> dict[str, str]:
        """Every key and its value now (a copy: the caller may change it)."""
        if self._holding:
            return dict(self._current())
        with self._lock(fcntl.LOCK_SH):
            return dict(self._current())

    @contextlib.contextmanager
    def held(self) -> Iterator[dict[str, str]]:
        """The ledger, held against every other process's change and read while the block changes it (a moment: no
        sending happens under it); the keys the block changed are written when it ends, one line each."""
        with self._lock(fcntl.LOCK_EX):
            self._holding = True
            try:
                ledger = _Changes(self._current())
                yield ledger
                before = self._entries
                changed = [(key, ledger[key]) for key in ledger.changed if before.get(key) != ledger[key]]
                if changed:
                    self._append(changed)
            finally:
                self._holding = False

    @contextlib.contextmanager
    def _lock(self, kind: int) -> Iterator[None]:
        private_folder(self.folder)
        fd = os.open(self.folder / "ledger.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, kind)
            yield
        finally:
            os.close(fd)

    def _current(self) -> dict[str, str]:
        """The entries as the files hold them now: the lines added since the last read applied, or everything read
        again where ``ledger.json`` is another file (folded by another process, or moved aside)."""
        base = _identity(self.path)
        if base != self._base or _size(self.lines_path) < self._offset:
            self._entries, self._offset, self._base = self._read_base(), 0, base
        self._read_lines()
        return self._entries

    def _read_base(self) -> dict[str, str]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise LedgerError(f"the outbox's ledger {self.path} cannot be read ({exc}); move it and "
                              f"{self.lines_path.name} aside to start a new one (notices already sent may then go "
                              "again)") from None
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def _read_lines(self) -> None:
        try:
            with open(self.lines_path, "rb") as lines:
                lines.seek(self._offset)
                data = lines.read()
        except FileNotFoundError:
            self._offset = 0
            return
        end = data.rfind(b"\n") + 1  # a last line without its end is a crash's (or a writer's not done): unread
        for line in data[:end].splitlines():
            with contextlib.suppress(ValueError, TypeError):
                key, value = json.loads(line)
                self._entries[str(key)] = str(value)
        self._offset += end

    def _append(self, changed: list[tuple[str, str]]) -> None:
        """Write ``changed`` as lines (ended first if a crash left the last one open), or fold everything into
        ``ledger.json`` when the lines outweigh it."""
        data = "".join(json.dumps([key, value], ensure_ascii=False) + "\n" for key, value in changed).encode()
        size = _size(self.lines_path)
        if size > self._offset:  # the end of a line a crash cut: a line of its own before ours
            data = b"\n" + data
        if size + len(data) > max(FOLD_AT, _size(self.path)):
            self._entries.update(changed)
            self._fold()
            return
        append_private(self.lines_path, data)
        self._entries.update(changed)
        self._offset = size + len(data)

    def _fold(self) -> None:
        """Every entry into a new ``ledger.json``, then the lines emptied."""
        write_private(self.path, json.dumps(self._entries, ensure_ascii=False, indent=0, sort_keys=True))
        with contextlib.suppress(FileNotFoundError):
            os.truncate(self.lines_path, 0)
        self._base, self._offset = _identity(self.path), 0


class _Changes(dict[str, str]):
    """A copy of the ledger that notes the keys set in it (``changed``): what a block changed is found without
    comparing every key of a war's ledger."""

    def __init__(self, entries: dict[str, str]) -> None:
        super().__init__(entries)
        self.changed: list[str] = []

    def __setitem__(self, key: str, value: str) -> None:
        self.changed.append(key)
        super().__setitem__(key, value)

    def update(self, *others: Any, **more: str) -> None:
        """As ``dict.update``, each key noted."""
        for key, value in dict(*others, **more).items():
            self[key] = value

    def __delitem__(self, key: str) -> None:
        raise TypeError("the ledger only grows: a key is never taken out")


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return 0
