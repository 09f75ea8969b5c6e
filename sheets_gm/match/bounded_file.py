"""A file the GM names in a config, read with the checks every such file gets: a regular file only (a device such as
``/dev/zero`` or a FIFO is refused without reading it, so nothing grows without bound and nothing waits), and no
more than a bound of bytes. The config itself (``config.read_config_toml``) and the roster (``seat_roster``) are
read through here."""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The largest config file read (a match config is a few kilobytes; anything far larger is not one): the config's
#: load and the idle decision's look at its [mailbox] (``running.mail_check``) alike.
MAX_CONFIG_BYTES = 1_000_000


class FileRefused(Exception):
    """A file not read: the message names it and why (the caller says what it should be)."""


def check_bounded(path: Path, limit: int, *, what: str) -> None:
    """What ``read_bounded`` refuses, from the file's status alone (nothing is opened, so a FIFO cannot hang it):
    :class:`FileRefused` for a folder, a device, a FIFO or a socket, or a file longer than ``limit``;
    FileNotFoundError when there is no file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileRefused(f"{path} cannot be read: {exc.strerror or exc}") from None
    _check_status(path, info, limit, what)


def _check_status(path: Path, info: os.stat_result, limit: int, what: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise FileRefused(f"{path} is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"{path} is not a regular file (a device, a pipe or a socket)")
    if info.st_size > limit:
        raise FileRefused(f"{path} is {info.st_size:,} bytes long: {what} (at most {limit:,} bytes are read)")


def read_bounded(path: Path, limit: int, *, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; :class:`FileRefused` for a folder, a device,
    a FIFO or a socket (refused before a byte is read), a file longer than ``limit`` (said in ``what``'s words: "a
    match config is a few kilobytes"), or one that cannot be read. FileNotFoundError is left to the caller."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise FileRefused(f"{path} is a folder") from None
    except OSError as exc:
        raise FileRefused(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        _check_status(path, os.fstat(fd), limit, what)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise FileRefused(f"{path} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefused(f"{path} grew past {limit:,} bytes while it was read")
    return data
