"""The workbook file on disk: what identifies one saved version, an atomic save, and the sidecar lock's ``flock``."""

from __future__ import annotations

import contextlib
import os
import re
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


#: How the temporary file of a save ends: ``.NAME.<12 hex>.sheets-gm.tmp`` beside the workbook.
TEMP_SUFFIX = ".sheets-gm.tmp"


def temp_name(target: Path) -> Path:
    """A new temporary file's path for a save of ``target``, in its folder."""
    return target.parent / f".{target.name}.{secrets.token_hex(6)}{TEMP_SUFFIX}"


def cut_saves(path: Path) -> list[Path]:
    """The temporary files a save of ``path`` that was cut short (a kill, a power cut) left in its folder (and in
    its target's, for a symlink): ``.NAME.<12 hex>.sheets-gm.tmp``, nothing else."""
    targets = [path]
    with contextlib.suppress(OSError):
        targets.append(path.resolve())
    found: dict[Path, None] = {}
    for target in targets:
        pattern = re.compile(rf"\.{re.escape(target.name)}\.[0-9a-f]{{12}}{re.escape(TEMP_SUFFIX)}")
        with contextlib.suppress(OSError):
            for entry in os.scandir(target.parent):
                if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                    found[Path(entry.path)] = None
    return list(found)


def sweep_cut_saves(path: Path) -> list[Path]:
    """Remove the temporary files of saves of ``path`` cut short (``cut_saves``); those removed. Only under the
    workbook's lock: a save under way holds it, so no file of a save still running is taken."""
    removed = []
    for leftover in cut_saves(path):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(leftover)
            removed.append(leftover)
    return removed


def _umask() -> int:
    """The process's umask (read from /proc where it can be, so no other thread sees it changed)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_atomically(path: Path, data: bytes, expected: Stamp | None, *, must_not_exist: bool = False,
                    mode: int = NEW_FILE_MODE) -> FileMark:
    """Put ``data`` at ``path`` atomically, if the file there is still the version ``expected``; the saved file's
    mark. A temporary file in the same folder, flushed and fsync'ed, then moved over the file (a symlink's
    target, not the link), so a crash leaves the old or the new file, never half of one. A file saved over keeps
    the mode it had; a new one gets ``mode`` (less the umask). :class:`FileChangedError` if the file changed
    meanwhile; with ``must_not_exist``, a :class:`SheetAccessError` if a file is there.

    The temporary file is made 0600 (O_EXCL; narrower when the file will be) and given the final file's mode only
    once it is whole, right before it is moved: a save cut short leaves a file only the GM's account reads (the
    engine's seed, a seat's private workbook), which the next command that opens the match removes
    (``sweep_cut_saves``)."""
    target = path
    with contextlib.suppress(OSError):
        target = path.resolve()  # replace the file a symlink points at, not the link
    tmp = temp_name(target)
    final = mode & ~_umask()
    if expected is not None:
        with contextlib.suppress(OSError):
            final = stat.S_IMODE(os.stat(target).st_mode)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(tmp, flags, final & PRIVATE_FILE_MODE)  # never wider than the file will be, nor than 0600
    except OSError as e:
        raise SheetAccessError(f"cannot save {path}: {e.strerror or e}") from e
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            with contextlib.suppress(OSError):
                os.chmod(tmp, final)  # whole now: the mode the file will have
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
