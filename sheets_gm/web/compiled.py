"""The page's templates compiled once per machine, not once per poll: a sync runs as a new process every minute, and
compiling the page's two templates took it longer than building the page of a Wesnoth map. Jinja's file cache of
compiled templates keeps them in a folder of the user's own (made by Jinja with mode 700 under the system's temporary
folder, refused when another user owns it), each under its template's name and checked against its source's hash
and the Python version: a template changed is compiled again. The cache only saves time: a folder that cannot be
made, read or written leaves the templates compiled in memory, as before, and the page is written all the same."""

from __future__ import annotations

import contextlib

from jinja2 import BytecodeCache, FileSystemBytecodeCache
from jinja2.bccache import Bucket

#: What reading or writing a cached template may raise when its file is unreadable, short or not Jinja's.
_BROKEN = (OSError, EOFError, ValueError, TypeError)


class _Quiet(FileSystemBytecodeCache):
    """Jinja's file cache of compiled templates, whose every failure is a miss."""

    def load_bytecode(self, bucket: Bucket) -> None:
        """The compiled template, when its file holds it whole; none otherwise (it is compiled again)."""
        try:
            super().load_bytecode(bucket)
        except _BROKEN:
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the compiled template (a temporary file renamed), unless its folder cannot take it."""
        with contextlib.suppress(*_BROKEN):
            super().dump_bytecode(bucket)


def compiled_cache(directory: str | None = None) -> BytecodeCache | None:
    """The cache of compiled templates in ``directory`` (default: the user's own under the temporary folder); None
    when it cannot be had."""
    try:
        return _Quiet(directory)
    except (OSError, RuntimeError):
        return None
