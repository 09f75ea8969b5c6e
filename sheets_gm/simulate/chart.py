"""The PNG chart: win rates with their 95% intervals, and how long matches last.

matplotlib is an optional extra (``pip install 'sheets-gm[plot]'``): it is imported only
when a chart is drawn, and its absence is a clear message, not a crash. The chart is
drawn on a ``Figure`` of its own (no pyplot, no global backend), so it works without a
display and leaves the rest of the process alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sheets_gm.simulate.figures import SimulationSpec
from sheets_gm.simulate.plan import Plan, describe_bots
from sheets_gm.simulate.stats import Proportion, VariantFigures

INSTALL_HINT = "pip install 'sheets-gm[plot]' (or pip install matplotlib)"


class ChartUnavailableError(RuntimeError):
    """matplotlib is not installed, so no PNG chart can be drawn."""


def _bar(p: Proportion) -> tuple[float, float, float]:
    """The rate in percent and its distances to the interval's ends (for error bars)."""
    low, high = p.interval
    return 100 * p.rate, 100 * (p.rate - low), 100 * (high - p.rate)


def write_chart(path: Path, plan: Plan, spec: SimulationSpec, figures: Sequence[VariantFigures]) -> None:
    """Draw the win rates (with Wilson 95% intervals) and the match lengths of every variant to ``path``."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ChartUnavailableError(f"the PNG chart needs matplotlib, an optional extra: {INSTALL_HINT}") from None

    fig = Figure(figsize=(12, 4.8), layout="constrained")
    wins, lengths = fig.subplots(1, 2, width_ratios=(1, 1.3))
    groups = [f"{t.label}: {t.bot}" for t in figures[0].teams] + ["draws"]
    width = 0.8 / len(figures)
    for v, f in enumerate(figures):
        bars = [_bar(t.wins) for t in f.teams] + [_bar(f.draws)]
        xs = [g + (v - (len(figures) - 1) / 2) * width for g in range(len(groups))]
        wins.bar(xs, [b[0] for b in bars], width * 0.9, label=f.label,
                 yerr=[[b[1] for b in bars], [b[2] for b in bars]], capsize=4)
        for x, b in zip(xs, bars, strict=True):
            wins.annotate(f"{b[0]:.1f}%", (x, b[0] + b[2]), ha="center", va="bottom", fontsize=8,
                          xytext=(0, 2), textcoords="offset points")
    wins.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    wins.set_xticks(range(len(groups)), groups)
    wins.set_ylim(0, 105)
    wins.set_ylabel("share of matches (%), bars: 95% Wilson interval")
    wins.set_title("Win rate")
    wins.legend(fontsize=8, loc="upper right")

    for f in figures:
        turns = sorted(f.turns_histogram)
        shares = [100 * f.turns_histogram[t] / f.matches for t in turns]
        label = f"{f.label}: mean {f.turns.mean:.1f} {spec.length_unit}"
        line = lengths.step(turns, shares, where="mid", label=label)[0]
        lengths.axvline(f.turns.mean, color=line.get_color(), linewidth=0.8, linestyle="--")
    lengths.set_xlabel(f"match length (resolved {spec.length_unit})")
    lengths.set_ylabel("share of matches (%)")
    lengths.set_title("Match length")
    lengths.legend(fontsize=8)

    fig.suptitle(f"{plan.matches:,} matches per variant: {describe_bots(plan.bots)} (seed {plan.seed!r})")
    fig.savefig(path, dpi=100)
