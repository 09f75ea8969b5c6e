"""A file's fingerprint: size, modification time and content hash (standard library only).

The poll gate compares a local workbook with the fingerprint the last poll left, and the local
backend gives the fingerprint of what it has just saved, so that our own save is never taken
for a player's. Cron's idle poll loads this module: a plain class (no ``dataclasses``), and ``hashlib`` only
when a file's time moved.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileMark:
    """One version of a file: its size, modification time (ns) and SHA-256 of its bytes (compared by value)."""

    __slots__ = ("mtime_ns", "sha256", "size")

    def __init__(self, size: int, mtime_ns: int, sha256: str) -> None:
        self.size = size
        self.mtime_ns = mtime_ns
        self.sha256 = sha256

    def as_dict(self) -> dict[str, int | str]:
        """Its fields by name, as the poll state's file keeps them."""
        return {"size": self.size, "mtime_ns": self.mtime_ns, "sha256": self.sha256}

    def _key(self) -> tuple[int, int, str]:
        return self.size, self.mtime_ns, self.sha256

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FileMark) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"FileMark(size={self.size!r}, mtime_ns={self.mtime_ns!r}, sha256={self.sha256!r})"


def _sha256(data: bytes) -> str:
    import hashlib  # not at the top: an idle poll whose files kept their times hashes nothing

    return hashlib.sha256(data).hexdigest()


def file_mark(path: Path) -> FileMark | None:
    """The fingerprint of the file at ``path`` now (None when it is missing or not a regular file)."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return FileMark(before.st_size, before.st_mtime_ns, _sha256(data))


def bytes_mark(data: bytes, mtime_ns: int) -> FileMark:
    """The fingerprint of a file just written with ``data`` and modification time ``mtime_ns``."""
    return FileMark(len(data), mtime_ns, _sha256(data))


def unchanged(path: Path, mark: FileMark) -> bool:
    """Whether the file at ``path`` still holds what ``mark`` saw: the same size and modification time, or,
    when those moved (a copy, ``touch``, a save of the same bytes), the same content."""
    try:
        now = os.stat(path)
    except OSError:
        return False
    if now.st_size != mark.size:
        return False
    if now.st_mtime_ns == mark.mtime_ns:
        return True
    try:
        return _sha256(path.read_bytes()) == mark.sha256
    except OSError:
        return False
