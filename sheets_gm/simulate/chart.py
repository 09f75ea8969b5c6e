"""The PNG chart: win rates with their 95% intervals, how long matches last, and for a game that breaks win
rates down attribute against attribute (Wesnoth's faction against faction) that grid as a heat map.

Drawn with Pillow (the optional extra ``pip install 'sheets-gm[plot]'``, or Pillow itself), through ``drawing``:
a picture of a few rectangles, lines and labels, which matplotlib drew too at the cost of a second of imports in
a command that plays its matches in a few seconds. Pillow is imported only when a chart is drawn, and its absence
is a clear message, not a crash.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sheets_gm.rulesets.parts.figures import SimulationSpec
from sheets_gm.simulate.plan import Plan, describe_bots
from sheets_gm.simulate.stats import Proportion, VariantFigures

if TYPE_CHECKING:  # Pillow is imported when a chart is drawn
    from PIL.Image import Image

    from sheets_gm.simulate.drawing import Axes

INSTALL_HINT = "pip install 'sheets-gm[plot]' (or pip install pillow)"
WIDTH, TOP_ROW, GRID_ROW = 1200, 480, 560  # the picture's pixels: its width, the first row's and a grid's heights


class ChartUnavailableError(RuntimeError):
    """Pillow is not installed, so no PNG chart can be drawn."""


def _bar(p: Proportion) -> tuple[float, float, float]:
    """The rate in percent and its distances to the interval's ends (for error bars)."""
    low, high = p.interval
    return 100 * p.rate, 100 * (p.rate - low), 100 * (high - p.rate)


def write_chart(path: Path, plan: Plan, spec: SimulationSpec, figures: Sequence[VariantFigures]) -> None:
    """Draw the win rates (with Wilson 95% intervals) and the match lengths of every variant to ``path``, and a row
    of heat maps (one per variant) for each grid attribute of ``spec``."""
    try:
        from PIL import Image

        from sheets_gm.simulate import drawing
    except ImportError:
        raise ChartUnavailableError(f"the PNG chart needs Pillow, an optional extra: {INSTALL_HINT}") from None
    try:
        drawing.font(12)
    except (TypeError, ImportError, OSError):  # Pillow before 10.1 takes no size; one without FreeType, no font
        import PIL

        raise ChartUnavailableError(f"the PNG chart needs Pillow 10.1 or later with FreeType (its own scalable font); "
                                    f"this is Pillow {PIL.__version__}: {INSTALL_HINT}") from None

    grids = [a for a, attribute in enumerate(spec.attributes) if attribute in spec.grids]
    image = Image.new("RGB", (WIDTH, TOP_ROW + GRID_ROW * len(grids)), "white")
    drawing.text(image, (WIDTH / 2, 14), f"{plan.matches:,} matches per variant: {describe_bots(plan.bots)} "
                 f"(seed {plan.seed!r})", 16)
    _win_rates(drawing.Axes(image, (78, 62, 522, 432), (-0.6, len(figures[0].teams) + 0.6), (0, 105)), figures)
    _lengths(image, (605, 62, 1188, 432), spec, figures)
    for row, a in enumerate(grids):
        width = WIDTH / len(figures)
        for v, f in enumerate(figures):
            _heatmap(image, (v * width, TOP_ROW + row * GRID_ROW, (v + 1) * width, TOP_ROW + (row + 1) * GRID_ROW),
                     spec.attributes[a], f, a)
    image.save(path, format="PNG", dpi=(100, 100))


def _win_rates(axes: Axes, figures: Sequence[VariantFigures]) -> None:
    """Each team's win rate and the draws, a bar per variant with its interval and its rate written above."""
    from sheets_gm.simulate import drawing

    groups = [f"{t.label}: {t.bot}" for t in figures[0].teams] + ["draws"]
    width = 0.8 / len(figures)
    bars = [[_bar(t.wins) for t in f.teams] + [_bar(f.draws)] for f in figures]
    for v, variant in enumerate(bars):
        colour = drawing.CYCLE[v % len(drawing.CYCLE)]
        for g, (rate, _, _) in enumerate(variant):
            x = g + (v - (len(figures) - 1) / 2) * width
            if rate > 0:
                axes.draw.rectangle((axes.px(x - width * 0.45), axes.py(rate), axes.px(x + width * 0.45), axes.py(0)),
                                    fill=colour)
    drawing.dashed(axes.draw, (axes.box[0], axes.py(50)), (axes.box[2], axes.py(50)), drawing.GREY)
    for v, variant in enumerate(bars):  # the intervals and the rates over the bars and the line
        for g, (rate, down, up) in enumerate(variant):
            x = g + (v - (len(figures) - 1) / 2) * width
            middle, high, low = axes.px(x), axes.py(rate + up), axes.py(rate - down)
            axes.draw.line([(middle, high), (middle, low)], fill=drawing.INK, width=2)
            for end in (high, low):
                axes.draw.line([(middle - 5, end), (middle + 5, end)], fill=drawing.INK, width=2)
            drawing.text(axes.image, (middle, high - 3), f"{rate:.1f}%", 11, anchor="md")
    axes.frame([(g, name) for g, name in enumerate(groups)], [(y, drawing.tick_label(y)) for y in range(0, 101, 20)])
    axes.labels("Win rate", ylabel="share of matches (%), bars: 95% Wilson interval")
    axes.legend([(drawing.CYCLE[v % len(drawing.CYCLE)], "patch", f.label) for v, f in enumerate(figures)])


def _lengths(image: Image, box: tuple[float, float, float, float], spec: SimulationSpec,
             figures: Sequence[VariantFigures]) -> None:
    """The share of matches of each length, a step line per variant, its mean a dashed line of the same colour."""
    from sheets_gm.simulate import drawing

    series = []
    for f in figures:
        turns = sorted(f.turns_histogram)
        series.append((turns, [100 * f.turns_histogram[t] / f.matches for t in turns]))
    xs = [x for turns, _ in series for x in turns] + [f.turns.mean for f in figures]
    ys = [y for _, shares in series for y in shares]
    x_low, x_high, y_low, y_high = min(xs) - 0.5, max(xs) + 0.5, min(ys), max(ys)  # a length's step is 1 wide
    x_pad, y_pad = (x_high - x_low or 1) * 0.05, (y_high - y_low or 1) * 0.05
    legend = drawing.legend_height(len(figures)) + 12  # the lines stay under the legend in the upper right corner
    headroom = (y_high - y_low + 2 * y_pad) * legend / (box[3] - box[1] - legend)
    axes = drawing.Axes(image, box, (x_low - x_pad, x_high + x_pad), (y_low - y_pad, y_high + y_pad + headroom))
    for v, ((turns, shares), f) in enumerate(zip(series, figures, strict=True)):
        colour = drawing.CYCLE[v % len(drawing.CYCLE)]
        drawing.dashed(axes.draw, (axes.px(f.turns.mean), box[1]), (axes.px(f.turns.mean), box[3]), colour)
        # each length's share a step centred on it, joined to the next halfway; the first and last half a length wide
        points = [(axes.px(turns[0] - 0.5), axes.py(shares[0]))]
        for i in range(1, len(turns)):
            middle = axes.px((turns[i - 1] + turns[i]) / 2)
            points += [(middle, axes.py(shares[i - 1])), (middle, axes.py(shares[i]))]
        points.append((axes.px(turns[-1] + 0.5), axes.py(shares[-1])))
        axes.draw.line(points, fill=colour, width=2, joint="curve")
    axes.frame([(x, drawing.tick_label(x)) for x in drawing.nice_ticks(*axes.xs)],
               [(y, drawing.tick_label(y)) for y in drawing.nice_ticks(*axes.ys)])
    axes.labels("Match length", xlabel=f"match length (resolved {spec.length_unit})", ylabel="share of matches (%)")
    axes.legend([(drawing.CYCLE[v % len(drawing.CYCLE)], "line", f"{f.label}: mean {f.turns.mean:.1f} "
                  f"{spec.length_unit}") for v, f in enumerate(figures)])


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


def _heatmap(image: Image, panel: tuple[float, float, float, float], attribute: str, f: VariantFigures,
             a: int) -> None:
    """One variant's grid attribute (Wesnoth's faction against faction) in ``panel``, as coloured cells: the row's
    win rate against the column, red under 50% and blue over it, each cell with its rate and its matches; mirrors
    and pairings never played grey; a colour bar beside it."""
    from sheets_gm.simulate import drawing

    matches = f.attribute_matches[a] if a < len(f.attribute_matches) else {}
    rows, columns, cells = grid_cells(f.attributes[a], matches)
    if not rows:
        return
    left, top, right, bottom = panel
    title = drawing.wrapped(f"{f.label}: win rate by {attribute} (row against column; n: matches)", 14,
                            right - left - 20)
    drawing.text(image, ((left + right) / 2, top + 10), title, 14, anchor="ma")
    top += 16 + 18 * max(2, title.count("\n") + 1)  # two lines kept for the title: the maps of a row level
    row_width = max(drawing.text_width(r, 12) for r in rows) + 12
    column_height = max(drawing.text_width(f"vs {c}", 12) for c in columns) * 0.5 + 24
    cell = min((right - left - row_width - 110) / len(columns), (bottom - top - column_height - 10) / len(rows))
    x0 = left + row_width + (right - left - row_width - 110 - cell * len(columns)) / 2
    axes = drawing.Axes(image, (x0, top, x0 + cell * len(columns), top + cell * len(rows)),
                        (-0.5, len(columns) - 0.5), (len(rows) - 0.5, -0.5))
    for i, r in enumerate(rows):
        for j, c in enumerate(columns):
            found = cells.get((r, c))
            colour = drawing.scale_colour(found[0]) if found and r != c else (221, 221, 221)
            axes.draw.rectangle((axes.px(j - 0.5), axes.py(i - 0.5), axes.px(j + 0.5), axes.py(i + 0.5)), fill=colour)
            if found is not None:
                rate, n = found
                dark = r != c and abs(rate - 0.5) > 0.3  # the deep ends of the colour scale: white reads there
                drawing.text(image, (axes.px(j), axes.py(i)), f"mirror\nn={n}" if r == c else
                             f"{100 * rate:.0f}%\nn={n}", 11, fill="white" if dark else drawing.INK)
    axes.frame([(j, f"vs {c}") for j, c in enumerate(columns)], [(i, r) for i, r in enumerate(rows)], size=12,
               xangle=30)
    _colour_bar(image, (axes.box[2] + 22, top + cell * len(rows) * 0.1, axes.box[2] + 40,
                        top + cell * len(rows) * 0.9))


def _colour_bar(image: Image, box: tuple[float, float, float, float]) -> None:
    """The heat maps' scale in ``box``: 0% red at the bottom to 100% blue at the top, ticked every 20%."""
    from sheets_gm.simulate import drawing

    axes = drawing.Axes(image, box, (0, 1), (0, 100))
    left, top, right, bottom = box
    for y in range(int(top), int(bottom) + 1):
        axes.draw.line([(left, y), (right, y)], fill=drawing.scale_colour((bottom - y) / (bottom - top)))
    axes.draw.rectangle(box, outline=drawing.INK)
    for value in range(0, 101, 20):
        at = axes.py(value)
        axes.draw.line([(right, at), (right + 4, at)], fill=drawing.INK)
        drawing.text(image, (right + 7, at), str(value), 12, anchor="lm")
    drawing.text(image, (right + 40, (top + bottom) / 2), "row's win rate (%)", 13, anchor="lm", angle=90)
