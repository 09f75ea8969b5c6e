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

from sheets_gm.rulesets.parts.figures import FigureKind, SimulationSpec
from sheets_gm.simulate.plan import TEAM_LABELS, Plan
from sheets_gm.simulate.worker import MatchRecord

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
class BotFigures:
    """One bot's figures over one variant's matches: its wins, and each figure per seat and match."""

    label: str  # "A", "B"…
    bot: str
    wins: Proportion  # matches in which a seat it played won
    values: tuple[float | Proportion, ...]  # in the spec's figure order: a mean, or a share (SHARE figures)

    def value(self, spec: SimulationSpec, key: str) -> float | Proportion:
        """The figure called ``key``."""
        return self.values[[f.key for f in spec.figures].index(key)]

    def mean(self, spec: SimulationSpec, key: str) -> float:
        """The ``MEAN`` figure called ``key`` (TypeError for a share)."""
        value = self.value(spec, key)
        if isinstance(value, Proportion):
            raise TypeError(f"{key} is a share, not a mean")
        return value

    def share(self, spec: SimulationSpec, key: str) -> Proportion:
        """The ``SHARE`` figure called ``key`` (TypeError for a mean)."""
        value = self.value(spec, key)
        if not isinstance(value, Proportion):
            raise TypeError(f"{key} is a mean, not a share")
        return value


@dataclass(frozen=True, slots=True)
class VariantFigures:
    """The figures of one variant (the default or the house rule) over all its matches."""

    name: str
    label: str
    changes: tuple[tuple[str, str], ...]
    matches: int
    draws: Proportion
    turns: Spread  # resolved windows per match
    turns_histogram: dict[int, int]  # resolved windows → matches
    endings: tuple[Proportion, ...]  # in the spec's ending order
    ending_draws: tuple[int, ...]  # draws per ending
    first_slot_wins: Proportion  # wins of the first seat, whichever bot played it
    teams: tuple[BotFigures, ...]
    attributes: tuple[dict[str, Proportion], ...] = ()  # per spec attribute: win rate of the seats per value
    # per spec attribute: the matches in which a seat had each value (a mirror match's two seats count once)
    attribute_matches: tuple[dict[str, int], ...] = ()


def _bot(spec: SimulationSpec, bot: int, name: str, records: Sequence[MatchRecord]) -> BotFigures:
    n = len(records)
    mine = [r.figures[seat] for r in records for seat, b in enumerate(r.bots) if b == bot]
    values: list[float | Proportion] = []
    for i, figure in enumerate(spec.figures):
        if figure.kind is FigureKind.SHARE:
            values.append(Proportion(sum(1 for f in mine if f[i]), len(mine)))
        else:
            values.append(math.fsum(f[i] for f in mine) / len(mine))
    return BotFigures(TEAM_LABELS[bot], name, Proportion(sum(1 for r in records if r.won_by(bot)), n),
                      tuple(values))


def _attributes(spec: SimulationSpec, records: Sequence[MatchRecord]) -> tuple[dict[str, Proportion], ...]:
    out = []
    for a in range(len(spec.attributes)):
        seats: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for r in records:
            for seat, values in enumerate(r.attributes):
                if values[a]:  # "": this seat is not counted under the attribute
                    seats[values[a]] += 1
                    wins[values[a]] += seat in r.winners
        out.append({value: Proportion(wins[value], seats[value]) for value in sorted(seats)})
    return tuple(out)


def _attribute_matches(spec: SimulationSpec, records: Sequence[MatchRecord]) -> tuple[dict[str, int], ...]:
    """Per attribute, the matches in which some seat had each value."""
    out = []
    for a in range(len(spec.attributes)):
        matches: Counter[str] = Counter()
        for r in records:
            matches.update({values[a] for values in r.attributes if values[a]})
        out.append(dict(sorted(matches.items())))
    return tuple(out)


def summarize(plan: Plan, spec: SimulationSpec, variant: int, records: Sequence[MatchRecord]) -> VariantFigures:
    """The figures of ``plan``'s variant ``variant`` from its records (any order: they are sorted)."""
    ordered = sorted(records, key=lambda r: r.index)
    if not ordered:
        raise ValueError("no match records to sum up")
    if any(r.variant != variant for r in ordered):
        raise ValueError(f"records of another variant were given for variant {variant}")
    n = len(ordered)
    v = plan.variants[variant]
    turns = [r.windows for r in ordered]
    endings = [key for key, _label in spec.endings]
    return VariantFigures(
        name=v.name,
        label=v.label,
        changes=v.changes,
        matches=n,
        draws=Proportion(sum(1 for r in ordered if not r.winners), n),
        turns=Spread.of(turns),
        turns_histogram=dict(sorted(Counter(turns).items())),
        endings=tuple(Proportion(sum(1 for r in ordered if r.ending == key), n) for key in endings),
        ending_draws=tuple(sum(1 for r in ordered if r.ending == key and not r.winners) for key in endings),
        first_slot_wins=Proportion(sum(1 for r in ordered if 0 in r.winners), n),
        teams=tuple(_bot(spec, b, name, ordered) for b, name in enumerate(plan.bots)),
        attributes=_attributes(spec, ordered),
        attribute_matches=_attribute_matches(spec, ordered),
    )
