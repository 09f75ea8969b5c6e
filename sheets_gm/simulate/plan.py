"""What a simulation plays: the competing bots, the variants, every match's seed, the chunks.

A simulation of any ruleset pits bot A against bot B (and C… if given) over ``matches``
matches per variant: the default settings, and the house rule when ``--set`` gives one.
Match ``i`` has the same seed in every variant, derived from the simulation seed and ``i``
alone (never from the worker that plays it), so the default and the house rule are played
with the same dice keys and the same bot seeds: a paired comparison, where the differences
come from the rule and not from luck of the draw.

The seats of a match are dealt to the bots in turn, starting one further each match: with
two seats, A plays the first seat in even-numbered matches and the second in odd-numbered
ones, so no bot profits from a seat (a side of the map, playing first).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.rulesets.registry import bots_of, create_ruleset

#: The labels of the competing bots, A first (each seat of a match is played by one of them).
TEAM_LABELS = ("A", "B", "C", "D", "E", "F", "G", "H")

#: The most matches per variant a simulation accepts (a typo guard, not a limit of the engine).
MAX_MATCHES = 10_000_000


def bot_help(ruleset: str) -> dict[str, str]:
    """What each bot of ``ruleset`` does, by name, the default first."""
    return {name: kind.help for name, kind in bots_of(create_ruleset(ruleset)).items()}


class PlanError(ValueError):
    """A simulation that cannot be planned: an unknown bot, a count out of range."""


def parse_bots(text: str, known: Sequence[str]) -> tuple[str, ...]:
    """``objective,random`` → (bot A, bot B); a single name fields it as both A and B."""
    names = [part.strip().lower() for part in str(text).split(",")]
    listed = ", ".join(known)
    if not 1 <= len(names) <= len(TEAM_LABELS) or not all(names):
        raise PlanError(f"give one bot, or up to {len(TEAM_LABELS)} separated by commas, e.g. objective,random; "
                        f"got {text!r} (bots: {listed})")
    for name in names:
        if name not in known:
            raise PlanError(f"unknown bot {name!r}; choose from {listed}")
    return tuple(names) if len(names) > 1 else (names[0], names[0])


@dataclass(frozen=True, slots=True)
class Variant:
    """One set of settings to play every match with: the default, or a house rule."""

    name: str
    changes: tuple[tuple[str, str], ...]  # the --set pairs as given (empty for the default)
    settings: Any  # the ruleset's settings type

    @property
    def label(self) -> str:
        """The variant as a person reads it, e.g. ``house rule (movement=rook)``."""
        if not self.changes:
            return self.name
        return f"{self.name} ({', '.join(f'{k}={v}' for k, v in self.changes)})"


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything that decides a simulation's figures (the worker count does not)."""

    ruleset: str
    seed: str
    matches: int  # per variant
    bots: tuple[str, ...]  # bot A's, bot B's, …
    variants: tuple[Variant, ...]
    map_text: str
    map_name: str

    def __post_init__(self) -> None:
        if not 1 <= self.matches <= MAX_MATCHES:
            raise PlanError(f"the number of matches must be 1 to {MAX_MATCHES:,}; got {self.matches}")
        known = bot_help(self.ruleset)
        for bot in self.bots:
            if bot not in known:
                raise PlanError(f"unknown bot {bot!r}; choose from {', '.join(known)}")
        if not 2 <= len(self.bots) <= len(TEAM_LABELS):
            raise PlanError(f"a simulation pits 2 to {len(TEAM_LABELS)} bots; got {len(self.bots)}")
        if not self.variants:
            raise PlanError("a simulation needs at least one variant")


def variants_for(default_settings: Any, changes: Mapping[str, str], house: Any | None) -> tuple[Variant, ...]:
    """The default variant, then the house rule's when there is one."""
    default = Variant("default", (), default_settings)
    if house is None:
        return (default,)
    return (default, Variant("house rule", tuple(changes.items()), house))


def match_seed(seed: str, index: int) -> bytes:
    """The dice seed of match ``index``: SHA-256 of the simulation seed and the index, nothing else."""
    return hashlib.sha256(f"sheets-gm simulate\x00{seed}\x00{index}".encode()).digest()


def bot_seed(match: bytes, bot: int, seat: int, seats: int, bots: int) -> str:
    """The seed of bot ``bot`` (0: A, 1: B…) on ``seat`` in the match whose dice seed is ``match``."""
    if seats == bots:  # each bot plays one seat: the seed names the bot alone
        return f"{match.hex()}/{TEAM_LABELS[bot]}"
    return f"{match.hex()}/{TEAM_LABELS[bot]}/{seat}"


def bot_of_seat(index: int, seat: int, bots: int) -> int:
    """Which bot (0: A, 1: B…) plays ``seat`` in match ``index``: dealt in turn, one further each match."""
    return (index + seat) % bots


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


#: The last chunks are cut this many times finer: the workers then finish within a small chunk of each other, not
#: one waiting a whole chunk's time for the other (a tenth of a second of 2,000 GvG matches on two workers).
TAIL_CUT = 4


def chunks(plan: Plan, workers: int) -> list[Chunk]:
    """Every variant's matches cut into chunks, in variant then match order; the last ``workers`` chunks cut
    :data:`TAIL_CUT` times finer."""
    size = chunk_size(plan.matches, workers)
    cut = [Chunk(v, start, min(start + size, plan.matches))
           for v in range(len(plan.variants)) for start in range(0, plan.matches, size)]
    if workers < 2:
        return cut
    fine = -(-size // TAIL_CUT)
    tail = [Chunk(c.variant, start, min(start + fine, c.stop)) for c in cut[-workers:]
            for start in range(c.start, c.stop, fine)]
    return cut[:-workers] + tail


def describe_bots(bots: Sequence[str]) -> str:
    """``A: objective vs B: random``."""
    return " vs ".join(f"{label}: {bot}" for label, bot in zip(TEAM_LABELS, bots, strict=False))
