"""The core reads a board text once per process for each game (``Ruleset.create``): a game writes ``read_board`` and
caches nothing, and the cache is keyed by the text's value and the class, never by which string holds it."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from sheets_gm.engine.ruleset import (
    BoardKind,
    Information,
    Ruleset,
    RulesetTraits,
    SeatKind,
    TurnStructure,
)
from sheets_gm.rulesets.registry import default_board_text, get_ruleset, ruleset_names


class _Counted(Ruleset[dict[str, Any], dict[str, Any], dict[str, Any]]):
    """A game with a board to parse and no cache of its own: it counts its reads."""

    traits: ClassVar[RulesetTraits] = RulesetTraits(
        name="counted", title="Counted (test game)", turn_structure=TurnStructure.SIMULTANEOUS,
        seat_kind=SeatKind.PLAYER, information=Information.PERFECT, board_kind=BoardKind.SQUARE, judge=False,
        min_seats=2, max_seats=2, max_windows=1, settings_type=dict)
    reads: ClassVar[list[str]] = []
    board: tuple[str, ...]

    @classmethod
    def read_board(cls, text: str) -> tuple[str, ...]:
        """The board's words."""
        cls.reads.append(text)
        return tuple(text.split())

    @classmethod
    def from_board(cls, settings: Any, board: tuple[str, ...]) -> _Counted:
        """The rules on the board's words."""
        made = cls(settings, " ".join(board))
        made.board = board
        return made


def test_a_game_without_a_cache_reads_each_board_text_once() -> None:
    text = "".join(["north ", "south"])  # built at run time: equal texts held by two strings
    again = "".join(["north", " south"])
    assert text is not again
    first = _Counted.create({"a": 1}, text)
    second = _Counted.create({"a": 2}, again)
    other = _Counted.create({"a": 1}, "east west")
    assert _Counted.reads == ["north south", "east west"]
    assert first.board is second.board and first.board == ("north", "south") and other.board == ("east", "west")
    assert (first.settings, second.settings) == ({"a": 1}, {"a": 2})


@pytest.mark.parametrize("name", ruleset_names())
def test_every_game_reads_its_board_once_through_the_core(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = get_ruleset(name)
    text = default_board_text(name)
    reads: list[str] = []

    def counted(text: str) -> Any:
        reads.append(text)
        return read(text)

    read = ruleset.read_board
    monkeypatch.setattr(ruleset, "read_board", counted)
    settings = ruleset.traits.settings_type()
    first, second = (ruleset.create(settings, "".join(list(text))) for _ in range(2))
    assert len(reads) <= 1 and first.board_text == second.board_text == ruleset.create(settings, text).board_text
    if text:  # the game itself caches nothing: two reads make two boards
        assert read(text) is not read(text)
