"""The figures for people and for programs: tables on the terminal, a JSON file, CSV files.

The JSON holds everything (including the match-length histogram the chart draws); the
summary CSV has one row per variant and team, for a spreadsheet; the matches CSV one row
per match, for a GM who wants to dig further. The figures in all of them depend only on
the plan, never on the worker count; the run's timing is kept apart, under ``run``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from sheets_gm.rulesets.parts.figures import FigureKind, FigureSpec, SimulationSpec
from sheets_gm.simulate.plan import TEAM_LABELS, Plan, describe_bots
from sheets_gm.simulate.runner import SimulationRun
from sheets_gm.simulate.stats import BotFigures, Proportion, Spread, VariantFigures, newcombe_difference


def bot_names(bots: Sequence[str]) -> list[str]:
    """Each bot by its kind, its letter after a kind named twice (``random (A)``, ``random (B)``).

    >>> bot_names(["affinity", "stack"]), bot_names(["random", "stack", "random"])
    (['affinity', 'stack'], ['random (A)', 'stack', 'random (C)'])
    """
    return [f"{bot} ({label})" if bots.count(bot) > 1 else bot for label, bot in zip(TEAM_LABELS, bots, strict=False)]


def sides_note(spec: SimulationSpec) -> str:
    """How the seats are dealt to the bots."""
    return spec.sides_note or ("the seats are dealt to the bots in turn, starting one seat further each match")


# -- formatting ---------------------------------------------------------------------------------


def percent(rate: float) -> str:
    """0.523 → ``52.3%``."""
    return f"{100 * rate:.1f}%"


def rate_with_interval(p: Proportion) -> str:
    """``52.3% (47.4–57.1%)``: the rate and its Wilson 95% interval."""
    low, high = p.interval
    return f"{percent(p.rate)} ({100 * low:.1f}–{percent(high)})"


def count_with_rate(p: Proportion) -> str:
    """``219 (54.8%)``."""
    return f"{p.count:,} ({percent(p.rate)})"


def spread_text(s: Spread) -> str:
    """``26.9 ± 3.8 (21–43)``: mean ± standard deviation (least–greatest)."""
    return f"{s.mean:.1f} ± {s.sd:.1f} ({s.low:g}–{s.high:g})"


def signed(value: float, digits: int = 2, unit: str = "") -> str:
    """``+0.12``, ``−3.0 pp``: a difference with its sign always shown."""
    sign = "+" if value >= 0 else "−"
    return f"{sign}{abs(value):.{digits}f}{unit}"


def rate_difference(first: Proportion, second: Proportion) -> str:
    """``−2.8 pp (−9.7 to +4.1)``: second's rate minus first's, with Newcombe's 95% interval."""
    low, high = newcombe_difference((first.count, first.total), (second.count, second.total))
    return (f"{signed(100 * (second.rate - first.rate), 1, ' pp')} "
            f"({signed(100 * low, 1)} to {signed(100 * high, 1)})")


@dataclass(frozen=True, slots=True)
class _Row:
    """One figure of a table: its label, how to show it, how to show a difference."""

    label: str
    show: Callable[[Any], str]
    diff: Callable[[Any, Any], str]
    get: Callable[[Any], Any]


def _mean_row(label: str, get: Callable[[Any], float]) -> _Row:
    return _Row(label, lambda v: f"{v:.2f}", lambda a, b: signed(b - a), get)


def _count_row(label: str, get: Callable[[Any], Proportion]) -> _Row:
    return _Row(label, count_with_rate, lambda a, b: signed(100 * (b.rate - a.rate), 1, " pp"), get)


def _match_rows(spec: SimulationSpec) -> list[_Row]:
    rows = [
        _Row("matches", lambda v: f"{v:,}", lambda a, b: "", lambda f: f.matches),
        _Row(f"match length, {spec.length_unit}: mean ± sd (range)", spread_text,
             lambda a, b: "{} ({} to {})".format(*(signed(x, 1) for x in a.difference(b))), lambda f: f.turns),
    ]
    rows.extend(_ending_row(i, label) for i, (_key, label) in enumerate(spec.endings))
    rows += [
        _Row("draws (95% CI)", rate_with_interval, rate_difference, lambda f: f.draws),
        _Row(f"{spec.first_seat} wins (95% CI)", rate_with_interval, rate_difference, lambda f: f.first_slot_wins),
    ]
    return rows


def _ending_row(i: int, label: str) -> _Row:
    return _count_row(label, lambda f: f.endings[i])


def _figure_row(i: int, figure: FigureSpec) -> _Row:
    if figure.kind is FigureKind.SHARE:
        return _count_row(figure.label, lambda t: t.values[i])
    return _mean_row(figure.label, lambda t: t.values[i])


def _team_rows(spec: SimulationSpec) -> list[_Row]:
    rows = [_Row("win rate (95% CI)", rate_with_interval, rate_difference, lambda t: t.wins)]
    rows.extend(_figure_row(i, figure) for i, figure in enumerate(spec.figures))
    return rows


def _table(title: str, columns: Sequence[str], rows: list[_Row], values: Sequence[Any],
           difference: bool = False) -> Table:
    """A table with one column per value, and with ``difference`` a last column: second minus first."""
    table = Table(title=title, title_justify="left")
    table.add_column("figure")
    for column in columns:
        table.add_column(column, justify="right")
    for row in rows:
        got = [row.get(v) for v in values]
        cells = [row.show(g) for g in got]
        if difference:
            cells.append(row.diff(got[0], got[1]))
        table.add_row(row.label, *cells)
    return table


def print_tables(run: SimulationRun, figures: Sequence[VariantFigures], console: Console) -> None:
    """The figures as tables: the matches, then the bots (beside each other, or default vs house rule),
    then the win rates by seat attribute where the ruleset names some."""
    plan, spec = run.plan, run.spec
    kinds = bot_names(plan.bots) if spec.bots_by_kind else []
    console.print(f"[bold]{plan.matches:,} matches per variant[/], "
                  f"{'bots ' + ', '.join(kinds) if kinds else describe_bots(plan.bots)}, "
                  f"seed {plan.seed!r}, {plan.map_name}")
    console.print(f"Sides: {sides_note(spec)}.")
    names = [f.label for f in figures]
    paired = len(figures) == 2
    if paired:
        names.append("Δ house − default")
    console.print(_table("Matches", names, _match_rows(spec), figures, paired))
    if len(figures) == 1:
        only = figures[0]
        columns = kinds or [f"{t.label}: {t.bot}" for t in only.teams]
        console.print(_table("Bots" if kinds else "Teams", columns, _team_rows(spec), only.teams))
    else:
        for team in range(len(plan.bots)):
            values = [f.teams[team] for f in figures]
            title = f"Bot {kinds[team]}" if kinds else f"Team {TEAM_LABELS[team]}: {plan.bots[team]}"
            console.print(_table(title, names, _team_rows(spec), values, paired))
    for a, attribute in enumerate(spec.attributes):
        if attribute in spec.grids:
            for f in figures:
                console.print(_grid(attribute, f.label, f.attributes[a], _matches_of(f, a)))
            continue
        table = Table(title=f"Win rate by {attribute} (95% CI over its seats; n: the matches it played)",
                      title_justify="left")
        table.add_column(attribute)
        for f in figures:
            table.add_column(f.label, justify="right")
        for value in sorted({v for f in figures for v in f.attributes[a]}):
            table.add_row(value, *(f"{rate_with_interval(f.attributes[a][value])} "
                                   f"{count_label(_matches_of(f, a).get(value, 0), f.attributes[a][value].total)}"
                                   if value in f.attributes[a] else "" for f in figures))
        console.print(table)


def _matches_of(f: VariantFigures, a: int) -> Mapping[str, int]:
    """The matches per value of attribute ``a`` (empty for figures made before they were counted)."""
    return f.attribute_matches[a] if a < len(f.attribute_matches) else {}


def count_label(matches: int, seats: int) -> str:
    """How many matches a win rate stands on, and the seats when they are more (a mirror, many seats a match).

    >>> count_label(12, 12), count_label(4, 8), count_label(0, 5)
    ('n=12 matches', 'n=4 matches (8 seats)', 'n=5 seats')
    """
    if not matches:
        return f"n={seats:,} seats"
    word = "match" if matches == 1 else "matches"
    return f"n={matches:,} {word}" + (f" ({seats:,} seats)" if seats != matches else "")


def _grid(attribute: str, label: str, rates: Mapping[str, Proportion], matches: Mapping[str, int]) -> Table:
    """Values ``ROW vs COLUMN`` as a grid: each row's win rate against each column, with its count of matches."""
    pairs = {tuple(value.split(" vs ", 1)): (value, p) for value, p in rates.items() if " vs " in value}
    rows = sorted({r for r, _ in pairs})
    columns = sorted({c for _, c in pairs})
    table = Table(title=f"Win rate by {attribute}, {label}: the row against the column (n: matches)",
                  title_justify="left")
    table.add_column("")
    for column in columns:
        table.add_column(f"vs {column}", justify="right")
    for row in rows:
        cells = []
        for c in columns:
            if (row, c) not in pairs:
                cells.append("")
                continue
            value, p = pairs[(row, c)]
            n = matches.get(value, p.total)
            cells.append(f"{'mirror' if row == c else percent(p.rate)} n={n:,}")
        table.add_row(row, *cells)
    return table


# -- JSON ---------------------------------------------------------------------------------------


def _proportion(p: Proportion) -> dict[str, Any]:
    low, high = p.interval
    return {"count": p.count, "total": p.total, "rate": p.rate, "low95": low, "high95": high}


def _figure_json(value: float | Proportion) -> Any:
    return _proportion(value) if isinstance(value, Proportion) else value


def _json_key(figure: FigureSpec) -> str:
    return figure.key if figure.kind is FigureKind.SHARE else f"{figure.key}_per_match"


def _team_json(spec: SimulationSpec, t: BotFigures) -> dict[str, Any]:
    out: dict[str, Any] = {"team": t.label, "bot": t.bot, "wins": _proportion(t.wins)}
    for figure, value in zip(spec.figures, t.values, strict=True):
        out[_json_key(figure)] = _figure_json(value)
    return out


def _variant_json(spec: SimulationSpec, f: VariantFigures) -> dict[str, Any]:
    return {
        "name": f.name,
        "label": f.label,
        "set": dict(f.changes),
        "matches": f.matches,
        "draws": _proportion(f.draws),
        "length_unit": spec.length_unit,
        "turns": {"mean": f.turns.mean, "sd": f.turns.sd, "min": f.turns.low, "max": f.turns.high,
                  "histogram": {str(k): v for k, v in f.turns_histogram.items()}},
        "endings": {key: dict(_proportion(p), draws=d)
                    for (key, _label), p, d in zip(spec.endings, f.endings, f.ending_draws, strict=True)},
        "slot1_wins": _proportion(f.first_slot_wins),
        "teams": [_team_json(spec, t) for t in f.teams],
        "win_rate_by": {attribute: {value: {**_proportion(p), "matches": _matches_of(f, a).get(value, 0)}
                                    for value, p in f.attributes[a].items()}
                        for a, attribute in enumerate(spec.attributes)},
    }


def _difference(first: Proportion, second: Proportion) -> dict[str, float]:
    low, high = newcombe_difference((first.count, first.total), (second.count, second.total))
    return {"difference": second.rate - first.rate, "low95": low, "high95": high}


def _value_difference(first: float | Proportion, second: float | Proportion) -> float:
    if isinstance(first, Proportion) and isinstance(second, Proportion):
        return second.rate - first.rate
    assert not isinstance(first, Proportion) and not isinstance(second, Proportion)
    return second - first


def _difference_json(spec: SimulationSpec, base: VariantFigures, house: VariantFigures) -> dict[str, Any]:
    d, low, high = base.turns.difference(house.turns)
    teams = []
    for a, b in zip(base.teams, house.teams, strict=True):
        team: dict[str, Any] = {"team": a.label, "win_rate": _difference(a.wins, b.wins)}
        for figure, x, y in zip(spec.figures, a.values, b.values, strict=True):
            key = f"{figure.key}_rate" if figure.kind is FigureKind.SHARE else _json_key(figure)
            team[key] = _value_difference(x, y)
        teams.append(team)
    return {
        "of": f"{house.label} minus {base.label}",
        "turns_mean": {"difference": d, "low95": low, "high95": high},
        "draw_rate": _difference(base.draws, house.draws),
        "ending_rates": {key: h.rate - b.rate
                         for (key, _label), b, h in zip(spec.endings, base.endings, house.endings, strict=True)},
        "teams": teams,
    }


def figures_json(plan: Plan, spec: SimulationSpec, figures: Sequence[VariantFigures]) -> dict[str, Any]:
    """Everything the figures say, as JSON-ready data (the same for any worker count)."""
    return {
        "simulation": {
            "ruleset": plan.ruleset,
            "seed": plan.seed,
            "matches_per_variant": plan.matches,
            "bots": dict(zip(TEAM_LABELS, plan.bots, strict=False)),
            "map": plan.map_name,
            "sides": sides_note(spec),
            "interval": "Wilson score 95% (differences: Newcombe hybrid score 95%; match length: normal 95%)",
        },
        "variants": [_variant_json(spec, f) for f in figures],
        "difference": _difference_json(spec, figures[0], figures[1]) if len(figures) == 2 else None,
    }


def run_json(run: SimulationRun, figures: Sequence[VariantFigures]) -> dict[str, Any]:
    """The figures plus how the run went (workers, seconds, matches per second)."""
    out = figures_json(run.plan, run.spec, figures)
    out["run"] = {"workers": run.workers, "seconds": round(run.seconds, 3),
                  "matches_played": run.matches_played, "matches_per_second": round(run.matches_per_second, 1)}
    return out


def write_json(path: Path, run: SimulationRun, figures: Sequence[VariantFigures]) -> None:
    """Write ``run_json`` to ``path``."""
    path.write_text(json.dumps(run_json(run, figures), indent=2) + "\n", encoding="utf-8")


# -- CSV ----------------------------------------------------------------------------------------


def summary_rows(spec: SimulationSpec, figures: Sequence[VariantFigures]) -> list[dict[str, Any]]:
    """One row per variant and bot: every figure in its own column."""
    rows = []
    for f in figures:
        for t in f.teams:
            low, high = t.wins.interval
            row: dict[str, Any] = {
                "variant": f.name, "set": " ".join(f"{k}={v}" for k, v in f.changes), "team": t.label,
                "bot": t.bot, "matches": f.matches, "wins": t.wins.count, "win_rate": t.wins.rate,
                "win_rate_low95": low, "win_rate_high95": high, "draws": f.draws.count,
                "turns_mean": f.turns.mean, "turns_sd": f.turns.sd, "turns_min": f.turns.low,
                "turns_max": f.turns.high,
            }
            for (key, _label), p in zip(spec.endings, f.endings, strict=True):
                row[f"ended_{key}"] = p.count
            for figure, value in zip(spec.figures, t.values, strict=True):
                row[_json_key(figure)] = value.count if isinstance(value, Proportion) else value
            rows.append(row)
    return rows


def match_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """One row per match played, in variant then match order; a bot's figures summed over its seats."""
    spec = run.spec
    columns = [[f"{label}_{figure.key}" for figure in spec.figures] for label in TEAM_LABELS[:len(run.plan.bots)]]
    rows = []
    for variant, records in zip(run.plan.variants, run.records, strict=True):
        for r in records:
            winners = sorted({TEAM_LABELS[r.bots[seat]] for seat in r.winners})
            row: dict[str, Any] = {
                "variant": variant.name, "match": r.index, "team_a_slot": r.bots.index(0) + 1,
                "winner": "draw" if not winners else "+".join(winners), "turns": r.windows, "ending": r.ending,
            }
            totals: list[list[float]] = [[0] * len(spec.figures) for _ in columns]
            for seat, values in enumerate(r.figures):  # each seat's figures added to its bot's, seat by seat
                summed = totals[r.bots[seat]]
                for i, value in enumerate(values):
                    summed[i] += value
            for names, summed in zip(columns, totals, strict=True):
                for name, total in zip(names, summed, strict=True):
                    row[name] = int(total) if float(total).is_integer() else total
            rows.append(row)
    return rows


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` (dicts with the same keys) as CSV with a header."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)

