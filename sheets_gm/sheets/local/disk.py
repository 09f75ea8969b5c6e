"""The workbook file on disk: what identifies one saved version, an atomic save, and the sidecar lock's ``flock``."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import NamedTuple

from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.marks import FileMark, bytes_mark

NEW_FILE_MODE = 0o666
"""A new file's mode before the umask, like any new file."""

PRIVATE_FILE_MODE = 0o600
"""The GM's own workbooks (the engine): only the GM's account reads them."""


class Stamp(NamedTuple):
    """What identifies one version of the file on disk."""

    device: int
    inode: int
    size: int
    mtime_ns: int


class FileChangedError(Exception):
    """The workbook was replaced while a new version was being prepared (internal: the save starts again)."""


def stamp_of(path: Path) -> Stamp:
    """The stamp of the file at ``path``; a :class:`SheetAccessError` saying what to do if it is missing or no
    file."""
    try:
        st = os.stat(path)
    except FileNotFoundError as e:
        raise SheetAccessError(
            f"{path} does not exist: create it with `sheets-gm init` or check the path"
        ) from e
    except OSError as e:
        raise SheetAccessError(f"cannot open {path}: {e.strerror or e}") from e
    if not stat.S_ISREG(st.st_mode):
        raise SheetAccessError(f"{path} is not a file")
    return Stamp(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def save_atomically(path: Path, data: bytes, expected: Stamp | None, *, must_not_exist: bool = False,
                    mode: int = NEW_FILE_MODE) -> FileMark:
    """Put ``data`` at ``path`` atomically, if the file there is still the version ``expected``; the saved file's
    mark. A temporary file in the same folder, flushed and fsync'ed, then moved over the file (a symlink's
    target, not the link), so a crash leaves the old or the new file, never half of one. A file saved over keeps
    the mode it had; a new one gets ``mode`` (less the umask). :class:`FileChangedError` if the file changed
    meanwhile; with ``must_not_exist``, a :class:`SheetAccessError` if a file is there."""
    target = path
    with contextlib.suppress(OSError):
        target = path.resolve()  # replace the file a symlink points at, not the link
    tmp = target.parent / f".{target.name}.{secrets.token_hex(6)}.sheets-gm.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(tmp, flags, mode)
    except OSError as e:
        raise SheetAccessError(f"cannot save {path}: {e.strerror or e}") from e
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if expected is not None:
                with contextlib.suppress(OSError):
                    os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
            current = stamp_of(path) if target.exists() else None
            if must_not_exist and current is not None:
                raise SheetAccessError(f"{path} already exists; pass overwrite=True to replace it")
            if not must_not_exist and current != expected:
                raise FileChangedError
            mark = bytes_mark(data, os.stat(tmp).st_mtime_ns)  # the moved file keeps its inode and times
            if must_not_exist:
                _link_no_clobber(tmp, target, path)
            else:
                os.replace(tmp, target)
        except OSError as e:
            hint = " (is it open in another program? close it and try again)" if isinstance(
                e, PermissionError
            ) else ""
            raise SheetAccessError(f"cannot save {path}: {e.strerror or e}{hint}") from e
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _fsync_dir(target.parent)
    return mark


if sys.platform == "win32":
    import msvcrt

    def try_lock(fd: int) -> bool:
        """Take the lock on ``fd`` if it is free; True if taken."""
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(fd: int) -> None:
        """Let the lock on ``fd`` go."""
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def try_lock(fd: int) -> bool:
        """Take the lock on ``fd`` if it is free; True if taken."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(fd: int) -> None:
        """Let the lock on ``fd`` go."""
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)


def _link_no_clobber(tmp: Path, target: Path, shown: Path) -> None:
    """Put ``tmp`` at ``target`` only if nothing is there (atomic where links exist)."""
    try:
        os.link(tmp, target)
    except FileExistsError as e:
        raise SheetAccessError(f"{shown} already exists; choose another file or overwrite it explicitly") from e
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise SheetAccessError(
                f"{shown} already exists; choose another file or overwrite it explicitly"
            ) from None
        os.replace(tmp, target)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; a no-op where folders cannot be opened)."""
    if sys.platform == "win32":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
