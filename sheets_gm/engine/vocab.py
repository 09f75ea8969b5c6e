"""Reading a word the user typed as a member of one of the engine's enums."""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

E = TypeVar("E", bound=Enum)


class VocabularyError(ValueError):
    """A word that is not one of the accepted values."""


def choices(enum: type[Enum]) -> str:
    """The accepted values of an enum, for a message: ``dps, tank or healer``."""
    values = [str(m.value) for m in enum]
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]


def parse_choice(enum: type[E], text: object, what: str) -> E:
    """The member of ``enum`` written as ``text`` (case, spaces and dashes forgiven)."""
    word = str(text).strip().lower().replace(" ", "_").replace("-", "_")
    for member in enum:
        if str(member.value) == word:
            return member
    raise VocabularyError(f"unknown {what} {text!r}; use {choices(enum)}")


def plural(count: int, noun: str) -> str:
    """``1 move``, ``3 moves``, ``0 wounds``: a count with its noun in the number it needs."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
