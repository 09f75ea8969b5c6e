"""What a simulation plays: the two bot teams, the variants, every match's seed, the chunks.

A simulation pits team A against team B (each a kind of bot) over ``matches`` matches per
variant: the default settings, and the house rule when ``--set`` gives one. Match ``i``
has the same seed in every variant, derived from the simulation seed and ``i`` alone
(never from the worker that plays it), so the default and the house rule are played with
the same dice keys and the same bot seeds: a paired comparison, where the differences
come from the rule and not from luck of the draw.

Team A plays team slot 1 (red, who starts on row 1) in even-numbered matches and slot 2
in odd-numbered ones, so neither team profits from a side of the map.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sheets_gm.engine.gvg.bots import Bot, ObjectiveBot, RandomBot
from sheets_gm.engine.gvg.settings import GvgSettings

#: The team labels of a simulation (each team is one kind of bot).
TEAM_LABELS = ("A", "B")

#: The most matches per variant a simulation accepts (a typo guard, not a limit of the engine).
MAX_MATCHES = 10_000_000


def _no_skills_bot(seed: str) -> Bot:
    return ObjectiveBot(seed, buys_skills=False)


#: The bots a simulation can field, by name.
BOTS: dict[str, Callable[[str], Bot]] = {
    "objective": ObjectiveBot,
    "random": RandomBot,
    "noskills": _no_skills_bot,
}

#: What each bot does, for ``--help`` and the docs.
BOT_HELP: dict[str, str] = {
    "objective": "plays for the tree and buys command skills (the engine's ObjectiveBot)",
    "random": "random but legal orders (the engine's RandomBot)",
    "noskills": "the objective bot with a captain who never buys a command skill",
}


class PlanError(ValueError):
    """A simulation that cannot be planned: an unknown bot, a count out of range."""


def parse_bots(text: str) -> tuple[str, str]:
    """``objective,random`` → (team A's bot, team B's bot); a single name fields it on both teams."""
    names = [part.strip().lower() for part in str(text).split(",")]
    known = ", ".join(BOTS)
    if len(names) not in (1, 2) or not all(names):
        raise PlanError(f"give one bot for both teams or two separated by a comma, e.g. objective,random; "
                        f"got {text!r} (bots: {known})")
    for name in names:
        if name not in BOTS:
            raise PlanError(f"unknown bot {name!r}; choose from {known}")
    return (names[0], names[-1])


@dataclass(frozen=True, slots=True)
class Variant:
    """One set of settings to play every match with: the default, or a house rule."""

    name: str
    changes: tuple[tuple[str, str], ...]  # the --set pairs as given (empty for the default)
    settings: GvgSettings

    @property
    def label(self) -> str:
        """The variant as a person reads it, e.g. ``house rule (movement=rook)``."""
        if not self.changes:
            return self.name
        return f"{self.name} ({', '.join(f'{k}={v}' for k, v in self.changes)})"


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything that decides a simulation's figures (the worker count does not)."""

    seed: str
    matches: int  # per variant
    bots: tuple[str, str]  # team A's, team B's
    variants: tuple[Variant, ...]
    map_text: str
    map_name: str

    def __post_init__(self) -> None:
        if not 1 <= self.matches <= MAX_MATCHES:
            raise PlanError(f"the number of matches must be 1 to {MAX_MATCHES:,}; got {self.matches}")
        for bot in self.bots:
            if bot not in BOTS:
                raise PlanError(f"unknown bot {bot!r}; choose from {', '.join(BOTS)}")
        if not self.variants:
            raise PlanError("a simulation needs at least one variant")


def variants_for(changes: Mapping[str, str], house: GvgSettings | None) -> tuple[Variant, ...]:
    """The default variant, then the house rule's when there is one."""
    default = Variant("default", (), GvgSettings())
    if house is None:
        return (default,)
    return (default, Variant("house rule", tuple(changes.items()), house))


def match_seed(seed: str, index: int) -> bytes:
    """The dice seed of match ``index``: SHA-256 of the simulation seed and the index, nothing else."""
    return hashlib.sha256(f"sheets-gm simulate\x00{seed}\x00{index}".encode()).digest()


def bot_seed(match: bytes, team: int) -> str:
    """The seed of team ``team``'s bot (0: A, 1: B) in the match whose dice seed is ``match``."""
    return f"{match.hex()}/{TEAM_LABELS[team]}"


def slot_of_a(index: int) -> int:
    """The team slot (0: red, 1: blue) team A plays in match ``index``: they alternate."""
    return index % 2


@dataclass(frozen=True, slots=True)
class Chunk:
    """Matches ``start`` to ``stop - 1`` of one variant: what one worker plays in one go."""

    variant: int
    start: int
    stop: int

    @property
    def size(self) -> int:
        """How many matches the chunk holds."""
        return self.stop - self.start


def chunk_size(matches: int, workers: int) -> int:
    """Matches per chunk: about 20 chunks per worker (an even finish), at most 100 (a lively bar)."""
    return max(1, min(100, -(-matches // (workers * 20))))


def chunks(plan: Plan, workers: int) -> list[Chunk]:
    """Every variant's matches cut into chunks, in variant then match order."""
    size = chunk_size(plan.matches, workers)
    return [Chunk(v, start, min(start + size, plan.matches))
            for v in range(len(plan.variants)) for start in range(0, plan.matches, size)]


def describe_bots(bots: Sequence[str]) -> str:
    """``A: objective vs B: random``."""
    return " vs ".join(f"{label}: {bot}" for label, bot in zip(TEAM_LABELS, bots, strict=True))
