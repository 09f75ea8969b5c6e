"""The PNG chart: win rates with their 95% intervals, how long matches last, and for a game that breaks win
rates down attribute against attribute (Wesnoth's faction against faction) that grid as a heat map.

matplotlib is an optional extra (``pip install 'sheets-gm[plot]'``): it is imported only
when a chart is drawn, and its absence is a clear message, not a crash. The chart is
drawn on a ``Figure`` of its own (no pyplot, no global backend), so it works without a
display and leaves the rest of the process alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sheets_gm.rulesets.parts.figures import SimulationSpec
from sheets_gm.simulate.plan import Plan, describe_bots
from sheets_gm.simulate.stats import Proportion, VariantFigures

INSTALL_HINT = "pip install 'sheets-gm[plot]' (or pip install matplotlib)"


class ChartUnavailableError(RuntimeError):
    """matplotlib is not installed, so no PNG chart can be drawn."""


def warm_up() -> None:
    """Import what drawing a chart needs (matplotlib's figure, its raster backend and its fonts), so that the chart
    drawn later does not wait for it: called while the workers play, it costs the command nothing it would not pay
    afterwards. Nothing when matplotlib is not installed (drawing says so)."""
    try:
        from matplotlib import font_manager
        from matplotlib.backends import backend_agg  # noqa: F401  # what ``savefig`` of a PNG draws with
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        return
    font_manager.findfont("DejaVu Sans")  # the font list loaded and the default font found


def _bar(p: Proportion) -> tuple[float, float, float]:
    """The rate in percent and its distances to the interval's ends (for error bars)."""
    low, high = p.interval
    return 100 * p.rate, 100 * (p.rate - low), 100 * (high - p.rate)


def write_chart(path: Path, plan: Plan, spec: SimulationSpec, figures: Sequence[VariantFigures]) -> None:
    """Draw the win rates (with Wilson 95% intervals) and the match lengths of every variant to ``path``."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.image import imsave
    except ImportError:
        raise ChartUnavailableError(f"the PNG chart needs matplotlib, an optional extra: {INSTALL_HINT}") from None

    grids = [a for a, attribute in enumerate(spec.attributes) if attribute in spec.grids]
    fig = Figure(figsize=(12, 4.8 + 5.6 * len(grids)), dpi=100, layout="constrained")
    # the win rates and lengths on top, then a row per grid attribute (one heat map per variant)
    rows: Any = fig.subfigures(1 + len(grids), 1, height_ratios=(4.8, *[5.6] * len(grids))) if grids else [fig]
    parts: list[Any] = list(rows)
    wins, lengths = parts[0].subplots(1, 2, width_ratios=(1, 1.3))
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

    for part, a in zip(parts[1:], grids, strict=True):
        axes = part.subplots(1, len(figures), squeeze=False)[0]
        for ax, f in zip(axes, figures, strict=True):
            _heatmap(ax, spec.attributes[a], f, a)

    fig.suptitle(f"{plan.matches:,} matches per variant: {describe_bots(plan.bots)} (seed {plan.seed!r})")
    # drawn once and its pixels written: ``savefig`` draws twice (a dry draw for the layout first), the same PNG
    canvas: Any = FigureCanvasAgg(fig)  # matplotlib types neither draw nor buffer_rgba
    canvas.draw()
    imsave(path, canvas.buffer_rgba(), format="png", origin="upper", dpi=fig.dpi)


def grid_cells(rates: Mapping[str, Proportion], matches: Mapping[str, int]
               ) -> tuple[list[str], list[str], dict[tuple[str, str], tuple[float, int]]]:
    """The rows, the columns and each ``ROW vs COLUMN`` cell's win rate and matches of a grid attribute.

    >>> grid_cells({"A vs B": Proportion(3, 4), "B vs A": Proportion(1, 4)}, {"A vs B": 4, "B vs A": 4})
    (['A', 'B'], ['A', 'B'], {('A', 'B'): (0.75, 4), ('B', 'A'): (0.25, 4)})
    """
    cells: dict[tuple[str, str], tuple[float, int]] = {}
    for value, p in rates.items():
        if " vs " in value:
            row, column = value.split(" vs ", 1)
            cells[(row, column)] = (p.rate, matches.get(value, p.total))
    rows = sorted({r for r, _ in cells})
    columns = sorted({c for _, c in cells})
    return rows, columns, cells


def _heatmap(ax: Any, attribute: str, f: VariantFigures, a: int) -> None:
    """One variant's grid attribute (Wesnoth's faction against faction) as coloured cells: the row's win rate
    against the column, red under 50% and blue over it, each cell with its rate and its matches; mirrors grey."""
    matches = f.attribute_matches[a] if a < len(f.attribute_matches) else {}
    rows, columns, cells = grid_cells(f.attributes[a], matches)
    shown = [[100 * cells[(r, c)][0] if (r, c) in cells and r != c else float("nan") for c in columns]
             for r in rows]
    from matplotlib import colormaps

    image = ax.imshow(shown, cmap=colormaps["RdBu"].with_extremes(bad="#DDDDDD"), vmin=0, vmax=100)
    for i, r in enumerate(rows):
        for j, c in enumerate(columns):
            if (r, c) not in cells:
                continue
            rate, n = cells[(r, c)]
            text = f"mirror\nn={n}" if r == c else f"{100 * rate:.0f}%\nn={n}"
            dark = r != c and abs(rate - 0.5) > 0.3  # the deep ends of the colour scale: white reads there
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
    ax.set_xticks(range(len(columns)), [f"vs {c}" for c in columns], rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    ax.set_title(f"{f.label}: win rate by {attribute} (row against column; n: matches)", fontsize=10)
    ax.figure.colorbar(image, ax=ax, shrink=0.8, label="row's win rate (%)")
