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
    """One version of a file: its size, modification time (ns) and SHA-256 of its bytes (compared by value), and,
    where known, the rest of its identity on disk: its inode and change time (ns), which no program sets back
    (``untouched``; 0: not known). Those two are not compared: the same bytes are the same version."""

    __slots__ = ("ctime_ns", "ino", "mtime_ns", "sha256", "size")

    def __init__(self, size: int, mtime_ns: int, sha256: str, ino: int = 0, ctime_ns: int = 0) -> None:
        self.size = size
        self.mtime_ns = mtime_ns
        self.sha256 = sha256
        self.ino = ino
        self.ctime_ns = ctime_ns

    def as_dict(self) -> dict[str, int | str]:
        """Its fields by name, as the poll state's file keeps them."""
        return {"size": self.size, "mtime_ns": self.mtime_ns, "sha256": self.sha256, "ino": self.ino,
                "ctime_ns": self.ctime_ns}

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
    return FileMark(before.st_size, before.st_mtime_ns, _sha256(data), before.st_ino, before.st_ctime_ns)


def bytes_mark(data: bytes, mtime_ns: int) -> FileMark:
    """The fingerprint of a file just written with ``data`` and modification time ``mtime_ns``."""
    return FileMark(len(data), mtime_ns, _sha256(data))


def with_identity(path: Path, mark: FileMark) -> FileMark:
    """``mark`` (of bytes just written to ``path``) with the file's inode and change time, when the file there has
    its size and modification time (else ``mark`` as it is: the next safety look reads it)."""
    try:
        now = os.stat(path)
    except OSError:
        return mark
    if now.st_size != mark.size or now.st_mtime_ns != mark.mtime_ns:
        return mark
    return FileMark(mark.size, mark.mtime_ns, mark.sha256, now.st_ino, now.st_ctime_ns)


def untouched(path: Path, mark: FileMark) -> bool:
    """Whether nothing at all touched the file at ``path`` since ``mark`` was taken: the same inode, size,
    modification and change time (a ``stat``, no read). A file written again with its old time set back, or
    another file moved in its place, has moved its change time or inode; False where ``mark`` knows neither."""
    if not mark.ino or not mark.ctime_ns:
        return False
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_ino, now.st_size, now.st_mtime_ns, now.st_ctime_ns) == (mark.ino, mark.size, mark.mtime_ns,
                                                                           mark.ctime_ns)


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
