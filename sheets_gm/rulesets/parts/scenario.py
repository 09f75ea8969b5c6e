"""The scenario part of a game: its own keys, a reader of its shapes, and the ``Scenario`` it reads a file into.

The runner (``scenario.runner``) reads the parts every scenario shares (``name``,
``ruleset``, ``settings``, ``expect.log_contains``) once; a ruleset's codec reads the rest
(who plays, the board, ``given``, ``turns``, the rest of ``expect``) in its own shapes,
described in ``docs/scenarios.md``, with every error naming the file and line
(``rulesets.parts.fields``), into a ``Scenario`` that the one loop in ``scenario.play`` resolves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from sheets_gm.engine.ruleset import Resolution, Ruleset, Verdict
from sheets_gm.lined import LinedDict
from sheets_gm.rulesets.parts.fields import Fields

StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")

#: Keys every scenario file may have, whatever its ruleset.
COMMON_KEYS = ("name", "ruleset", "settings", "given", "turns", "expect")


@dataclass(frozen=True, slots=True)
class Play(Generic[OrdersT]):
    """One window a scenario resolves: the orders typed for it and the dice pinned for it.

    ``refusal_is_error`` makes a refused order a mistake in the file (the Coalition judge's result a
    scenario writes must be one the judge could enter) rather than something ``expect`` checks."""

    orders: OrdersT
    pins: Mapping[str, Any] = field(default_factory=dict)
    refusal_is_error: bool = False


#: The next window of an entry, from the state now, the last window's resolution (None before the first)
#: and how many windows the entry has played; None when the entry is done (or, where the game has no
#: use for the rest once it has ended, when it has).
NextPlay = Callable[[StateT, Resolution[StateT] | None, int], Play[OrdersT] | None]


@dataclass(frozen=True, slots=True)
class Entry(Generic[StateT, OrdersT]):
    """One item of a scenario's ``turns``: where it starts, its GM events, whose it is, and its windows."""

    line: int
    label: str  # "turn 2", "round 1": how notes and errors name it
    next_play: NextPlay[StateT, OrdersT]
    gm: Sequence[Any] = ()
    seat: str | None = None  # the seat whose window it must be, where the file names one

    @classmethod
    def of(cls, line: int, label: str, plays: Sequence[Play[OrdersT]], gm: Sequence[Any] = (),
           seat: str | None = None) -> Entry[StateT, OrdersT]:
        """An entry whose windows are known when the file is read (most games' turns)."""
        return cls(line, label, lambda _state, _last, n: plays[n] if n < len(plays) else None, gm, seat)


@dataclass(frozen=True, slots=True)
class Scenario(Generic[StateT, OrdersT]):
    """A scenario file read by its game's codec, ready for ``play``.

    ``compare`` lists every difference between ``expect`` and the final state, given every verdict the
    windows gave (so ``refused`` can be checked). ``skip_after_the_end``: whether entries after the game
    ended are passed over (GvG, Champions) or a mistake in the file (the games played turn by turn).
    ``game_over`` says whether the game the scenario plays has ended: by default when no window is open;
    Win or Die's scenario plays one game of a match and ends with it."""

    rules: Ruleset[StateT, OrdersT, Any]
    state: StateT
    entries: Sequence[Entry[StateT, OrdersT]]
    compare: Callable[[StateT, Sequence[Verdict]], list[str]]
    skip_after_the_end: bool = False
    game_over: Callable[[StateT], bool] | None = None

    def over(self, state: StateT) -> bool:
        """Whether the game the scenario plays has ended in ``state``."""
        return self.game_over(state) if self.game_over is not None else self.rules.window(state) is None



class ScenarioCodec(Protocol):
    """A ruleset's reader of scenario files."""

    @property
    def keys(self) -> tuple[str, ...]:
        """Every top-level key its files may have, common ones included, in the order to list them."""
        ...

    def load(self, doc: LinedDict, fields: Fields, settings: Any) -> Scenario[Any, Any]:
        """The file read: the engine rules, the given state, the entries of ``turns`` and how to compare
        ``expect`` (all but ``log_contains``, which the runner checks); ScenarioError naming the line
        for a malformed file."""
        ...
