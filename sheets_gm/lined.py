"""A mapping read from a YAML file that remembers the line of each key: what the games' fields and scenarios are
given. Its own module, so that they do not import PyYAML (``yamlio``) when nothing is read from a file: a simulation's
or a command's start-up pays for none of its parsers."""

from __future__ import annotations

from typing import Any


class LinedDict(dict[str, Any]):
    """A mapping that remembers the line of each key (``lines``) and of itself (``line``)."""

    line: int = 0
    lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """The line of ``key``, or of the mapping itself if the key is absent."""
        return self.lines.get(key, self.line)
