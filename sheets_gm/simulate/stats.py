"""The figures of a simulation, from its match records: rates with intervals, means and spreads.

Win rates come with the **Wilson score interval** at 95% (Wilson 1927; Newcombe 1998,
method 3), not the textbook "p ± 1.96·√(p(1−p)/n)" (Wald) interval. The Wald interval is
too narrow for small samples and breaks down at the edges: after 10 wins in 10 matches
it says [100%, 100%], as if the team could never lose. A GM asks exactly those questions
(a bot that nearly always wins, a house rule tried on 50 matches), and Wilson's interval
stays inside 0–100%, is never empty, and covers the true rate about 95% of the time even
for a few dozen matches.

The difference of two win rates (house rule minus default) comes with Newcombe's hybrid
score interval (Newcombe 1998, method 10), built from the two Wilson intervals; the
difference of two mean match lengths with the normal (Welch) interval, fine for the
hundreds of matches a simulation plays.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.simulate.plan import TEAM_LABELS, Plan
from sheets_gm.simulate.worker import SKILLS, Ending, MatchRecord

#: The standard normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (95% by default).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if trials <= 0:
        raise ValueError(f"a proportion needs at least one trial; got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be 0 to {trials}; got {successes}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not leave it a hair inside.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def newcombe_difference(first: tuple[int, int], second: tuple[int, int], z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for the rate of ``second`` minus the rate of ``first``.

    Each argument is (successes, trials). The two samples are taken as independent.
    """
    p1, p2 = first[0] / first[1], second[0] / second[1]
    l1, u1 = wilson_interval(*first, z=z)
    l2, u2 = wilson_interval(*second, z=z)
    d = p2 - p1
    return d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


@dataclass(frozen=True, slots=True)
class Proportion:
    """``count`` out of ``total``, with its rate and Wilson 95% interval."""

    count: int
    total: int

    @property
    def rate(self) -> float:
        """count / total."""
        return self.count / self.total

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the rate."""
        return wilson_interval(self.count, self.total)


@dataclass(frozen=True, slots=True)
class Spread:
    """The mean, sample standard deviation, least and greatest of some values."""

    mean: float
    sd: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The spread of ``values`` (at least one)."""
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return cls(math.fsum(values) / len(values), sd, min(values), max(values), len(values))

    def difference(self, other: Spread, z: float = Z95) -> tuple[float, float, float]:
        """``other.mean - self.mean`` and its normal 95% interval (low, high)."""
        d = other.mean - self.mean
        half = z * math.sqrt(self.sd ** 2 / self.n + other.sd ** 2 / other.n)
        return d, d - half, d + half


@dataclass(frozen=True, slots=True)
class TeamFigures:
    """One team's figures over one variant's matches; means are per match."""

    label: str  # "A" or "B"
    bot: str
    wins: Proportion
    captures: Proportion  # matches in which the team carried the enemy tree home
    turn_limit_wins: Proportion  # matches the team won at the turn limit (farthest tree)
    pickups: float  # enemy-tree pickups per match
    knocked_down: float  # own players knocked down per match
    coins_earned: float
    coins_spent: dict[str, float]  # per skill (by its value), per match
    coins_spent_total: float


@dataclass(frozen=True, slots=True)
class VariantFigures:
    """The figures of one variant (the default or the house rule) over all its matches."""

    name: str
    label: str
    changes: tuple[tuple[str, str], ...]
    max_turns: int
    matches: int
    draws: Proportion
    turns: Spread  # resolved turns per match
    turns_histogram: dict[int, int]  # resolved turns → matches
    decided_by_capture: Proportion
    decided_at_turn_limit: Proportion
    turn_limit_draws: int
    first_slot_wins: Proportion  # wins of team slot 1 (red), whichever bot played it
    teams: tuple[TeamFigures, TeamFigures]


def _team(label: int, bot: str, records: Sequence[MatchRecord]) -> TeamFigures:
    n = len(records)
    mine = [r.teams[label] for r in records]
    spent = {skill.value: math.fsum(t.spent[i] for t in mine) / n for i, skill in enumerate(SKILLS)}
    return TeamFigures(
        label=TEAM_LABELS[label],
        bot=bot,
        wins=Proportion(sum(1 for r in records if r.winner == label), n),
        captures=Proportion(sum(1 for t in mine if t.captured), n),
        turn_limit_wins=Proportion(
            sum(1 for r in records if r.winner == label and r.ending is Ending.TURN_LIMIT), n),
        pickups=math.fsum(t.pickups for t in mine) / n,
        knocked_down=math.fsum(t.knocked_down for t in mine) / n,
        coins_earned=math.fsum(t.coins_earned for t in mine) / n,
        coins_spent=spent,
        coins_spent_total=math.fsum(spent.values()),
    )


def summarize(plan: Plan, variant: int, records: Sequence[MatchRecord]) -> VariantFigures:
    """The figures of ``plan``'s variant ``variant`` from its records (any order: they are sorted)."""
    ordered = sorted(records, key=lambda r: r.index)
    if not ordered:
        raise ValueError("no match records to sum up")
    if any(r.variant != variant for r in ordered):
        raise ValueError(f"records of another variant were given for variant {variant}")
    n = len(ordered)
    spec = plan.variants[variant]
    turns = [r.turns for r in ordered]
    at_limit = [r for r in ordered if r.ending is Ending.TURN_LIMIT]
    return VariantFigures(
        name=spec.name,
        label=spec.label,
        changes=spec.changes,
        max_turns=spec.settings.max_turns,
        matches=n,
        draws=Proportion(sum(1 for r in ordered if r.winner is None), n),
        turns=Spread.of(turns),
        turns_histogram=dict(sorted(Counter(turns).items())),
        decided_by_capture=Proportion(n - len(at_limit), n),
        decided_at_turn_limit=Proportion(len(at_limit), n),
        turn_limit_draws=sum(1 for r in at_limit if r.winner is None),
        first_slot_wins=Proportion(sum(1 for r in ordered if r.winner is not None
                                       and r.winner == r.slot_of_a), n),
        teams=(_team(0, plan.bots[0], ordered), _team(1, plan.bots[1], ordered)),
    )
