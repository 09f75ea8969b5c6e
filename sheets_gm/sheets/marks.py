"""A file's fingerprint: size, modification time and content hash (standard library only).

The poll gate compares a local workbook with the fingerprint the last poll left, and the local
backend gives the fingerprint of what it has just saved, so that our own save is never taken
for a player's.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class FileMark:
    """One version of a file: its size, modification time (ns) and SHA-256 of its bytes."""

    size: int
    mtime_ns: int
    sha256: str


def file_mark(path: Path) -> FileMark | None:
    """The fingerprint of the file at ``path`` now (None when it is missing or not a regular file)."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return FileMark(before.st_size, before.st_mtime_ns, hashlib.sha256(data).hexdigest())


def bytes_mark(data: bytes, mtime_ns: int) -> FileMark:
    """The fingerprint of a file just written with ``data`` and modification time ``mtime_ns``."""
    return FileMark(len(data), mtime_ns, hashlib.sha256(data).hexdigest())


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
        return hashlib.sha256(path.read_bytes()).hexdigest() == mark.sha256
    except OSError:
        return False
