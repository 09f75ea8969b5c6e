"""Files only the GM's account may read: folders 0700 and files 0600, whatever the umask.

The GM's secrets live in files on the GM's computer: the engine workbook (the seed, the state, every e-mail),
the judge's workbook, the copies kept before a repair or an ``init --overwrite``, an export (the engine again),
and ``.sheets-gm/`` (kept reads holding the engine's cells and every seat's unresolved orders, the poll state,
the Google sign-in). Whatever creates one of them goes through here, so another account on the same computer
cannot read it; ``doctor`` names any that others can read (``exposed_mode``) with the ``chmod`` to run.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600


def private_folder(folder: Path) -> Path:
    """``folder``, created if missing (with its parents), then set to 0700: only the GM's account may list or enter
    it. A file system that keeps no such modes (Windows) leaves it as it is."""
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        os.chmod(folder, PRIVATE_FOLDER)
    return folder


def make_private(path: Path) -> None:
    """Set the file ``path`` to 0600 (only the GM's account reads and writes it); nothing when it is gone."""
    with contextlib.suppress(OSError):
        os.chmod(path, PRIVATE_FILE)


def open_private(path: Path) -> int:
    """A new file ``path`` (it must not exist), opened for writing with mode 0600 from the start: no moment when
    another account could read it, whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), PRIVATE_FILE)
    with contextlib.suppress(OSError):
        os.fchmod(fd, PRIVATE_FILE)  # the umask may only take bits away, but a file system may add some
    return fd


def write_private(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically (a reader sees the old file or the new one), the file
    0600 and its folder 0700 (``private_folder``). OSError when it cannot be written."""
    private_folder(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = open_private(tmp)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def exposed_mode(path: Path) -> str:
    """The permissions of ``path`` as ``ls -l`` shows them (``rw-r--r--``) when an account other than its owner may
    read, write or enter it; '' when only the owner may (or it is gone, or the system keeps no such modes)."""
    if os.name == "nt":
        return ""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return ""
    if not mode & 0o077:
        return ""
    return stat.filemode(mode)[1:]


def append_private(path: Path, data: bytes) -> None:
    """Add ``data`` at the end of ``path`` and make it durable before returning (fsync'ed; a file new here is made
    0600 in a 0700 folder, its name made durable too): a record written before what it announces, which a crash
    right after must not lose. OSError when it cannot be written."""
    new = not path.exists()
    if new:
        private_folder(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0), PRIVATE_FILE)
    try:
        if new:
            with contextlib.suppress(OSError):
                os.fchmod(fd, PRIVATE_FILE)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    if new and os.name != "nt":
        with contextlib.suppress(OSError):
            folder = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
