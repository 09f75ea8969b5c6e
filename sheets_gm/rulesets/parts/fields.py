"""Checked reading of scenario fields: each error names the file, the line and what is accepted."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, TypeVar

from sheets_gm.engine.grid import Coord, CoordError
from sheets_gm.engine.vocab import parse_choice
from sheets_gm.lined import LinedDict

E = TypeVar("E", bound=Enum)


class ScenarioError(ValueError):
    """A scenario file that is not well formed."""


class Fields:
    """Reads the fields of one scenario file, with its name for every message."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, line: int, message: str) -> ScenarioError:
        """An error at ``line`` of the file."""
        return ScenarioError(f"{self.where}:{line}: {message}")

    def mapping(self, value: Any, line: int, what: str, allowed: Iterable[str] | None = None) -> LinedDict:
        """A mapping (None reads as empty); with ``allowed``, unknown keys are errors."""
        if value is None:
            empty = LinedDict()
            empty.lines = {}
            empty.line = line
            return empty
        if not isinstance(value, LinedDict):
            raise self.fail(line, f"{what} must be a mapping of key: value")
        if allowed is not None:
            known = list(allowed)
            for key in value:
                if key not in known:
                    message = f"unknown key {key!r} in {what}; known keys: {', '.join(known)}"
                    raise self.fail(value.line_of(key), message)
        return value

    def single(self, value: Any, line: int, what: str, example: str) -> tuple[str, Any]:
        """The one key and value of a one-entry mapping such as ``{red: 3}``."""
        entries = list(self.mapping(value, line, what).items())
        if len(entries) != 1:
            raise self.fail(line, f"{what} takes exactly one entry, e.g. {example}; got {len(entries)}")
        return entries[0]

    def sequence(self, value: Any, line: int, what: str) -> list[Any]:
        """A list (None reads as empty)."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(line, f"{what} must be a list")
        return value

    def integer(self, value: Any, line: int, what: str, low: int | None = None, high: int | None = None) -> int:
        """A whole number within bounds."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(line, f"{what} must be a whole number, got {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{low} to {high}" if high is not None else f"{low} or more"
            raise self.fail(line, f"{what} is {value}; use {span}")
        return value

    def text(self, value: Any, line: int, what: str) -> str:
        """A non-empty string."""
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise self.fail(line, f"{what} must be a word, got {value!r}")
        return str(value).strip()

    def coord(self, value: Any, line: int, what: str, board_contains: Any = None, last: str = "") -> Coord:
        """A tile such as ``D2``, on the board if ``board_contains`` is given."""
        try:
            tile = Coord.parse(str(value))
        except CoordError as exc:
            raise self.fail(line, f"{what}: {exc}") from None
        if board_contains is not None and not board_contains(tile):
            raise self.fail(line, f"{what}: {tile.label} is off the map (A1 to {last})")
        return tile

    def choice(self, enum: type[E], value: Any, line: int, what: str) -> E:
        """A member of ``enum`` by its value."""
        try:
            return parse_choice(enum, value, what)
        except ValueError as exc:
            raise self.fail(line, str(exc)) from None
