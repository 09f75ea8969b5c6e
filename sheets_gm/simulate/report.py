"""The figures for people and for programs: tables on the terminal, a JSON file, CSV files.

The JSON holds everything (including the match-length histogram the chart draws); the
summary CSV has one row per variant and team, for a spreadsheet; the matches CSV one row
per match, for a GM who wants to dig further. The figures in all of them depend only on
the plan, never on the worker count; the run's timing is kept apart, under ``run``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from sheets_gm.engine.gvg.enums import Skill
from sheets_gm.simulate.plan import TEAM_LABELS, Plan, describe_bots
from sheets_gm.simulate.runner import SimulationRun
from sheets_gm.simulate.stats import Proportion, Spread, TeamFigures, VariantFigures, newcombe_difference
from sheets_gm.simulate.worker import SKILLS, Ending

SIDES_NOTE = "team A plays slot 1 (red) in even-numbered matches and slot 2 (blue) in odd-numbered ones"


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


def _match_rows(figures: Sequence[VariantFigures]) -> list[_Row]:
    limits = sorted({f.max_turns for f in figures})
    limit = f"turn-{limits[0]}" if len(limits) == 1 else "turn-limit"
    return [
        _Row("matches", lambda v: f"{v:,}", lambda a, b: "", lambda f: f.matches),
        _Row("match length, turns: mean ± sd (range)", spread_text,
             lambda a, b: "{} ({} to {})".format(*(signed(x, 1) for x in a.difference(b))), lambda f: f.turns),
        _count_row("decided by a tree capture", lambda f: f.decided_by_capture),
        _count_row(f"{limit} decisions", lambda f: f.decided_at_turn_limit),
        _Row("draws (95% CI)", rate_with_interval, rate_difference, lambda f: f.draws),
        _Row("slot 1 (red) wins (95% CI)", rate_with_interval, rate_difference, lambda f: f.first_slot_wins),
    ]


def _team_rows(figures: Sequence[VariantFigures]) -> list[_Row]:
    limits = sorted({f.max_turns for f in figures})
    limit = f"turn-{limits[0]}" if len(limits) == 1 else "turn-limit"
    rows = [
        _Row("win rate (95% CI)", rate_with_interval, rate_difference, lambda t: t.wins),
        _count_row("tree captures (enemy tree carried home)", lambda t: t.captures),
        _count_row(f"{limit} wins", lambda t: t.turn_limit_wins),
        _mean_row("enemy tree picked up, per match", lambda t: t.pickups),
        _mean_row("own players knocked down, per match", lambda t: t.knocked_down),
        _mean_row("coins earned, per match", lambda t: t.coins_earned),
        _mean_row("coins spent, per match", lambda t: t.coins_spent_total),
    ]
    rows.extend(_spent_row(skill) for skill in SKILLS)
    return rows


def _spent_row(skill: Skill) -> _Row:
    def spent(t: TeamFigures) -> float:
        return t.coins_spent[skill.value]

    return _mean_row(f"  on {skill.display}", spent)


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
    """The figures as tables: the matches, then the teams (beside each other, or default vs house rule)."""
    plan = run.plan
    console.print(f"[bold]{plan.matches:,} matches per variant[/], {describe_bots(plan.bots)}, "
                  f"seed {plan.seed!r}, {plan.map_name}")
    console.print(f"Sides: {SIDES_NOTE}.")
    names = [f.label for f in figures]
    paired = len(figures) == 2
    if paired:
        names.append("Δ house − default")
    console.print(_table("Matches", names, _match_rows(figures), figures, paired))
    if len(figures) == 1:
        only = figures[0]
        columns = [f"{t.label}: {t.bot}" for t in only.teams]
        console.print(_table("Teams", columns, _team_rows(figures), only.teams))
        return
    for team in range(2):
        values = [f.teams[team] for f in figures]
        title = f"Team {TEAM_LABELS[team]}: {plan.bots[team]}"
        console.print(_table(title, names, _team_rows(figures), values, paired))


# -- JSON ---------------------------------------------------------------------------------------


def _proportion(p: Proportion) -> dict[str, Any]:
    low, high = p.interval
    return {"count": p.count, "total": p.total, "rate": p.rate, "low95": low, "high95": high}


def _team_json(t: TeamFigures) -> dict[str, Any]:
    return {
        "team": t.label,
        "bot": t.bot,
        "wins": _proportion(t.wins),
        "captures": _proportion(t.captures),
        "turn_limit_wins": _proportion(t.turn_limit_wins),
        "pickups_per_match": t.pickups,
        "knocked_down_per_match": t.knocked_down,
        "coins_earned_per_match": t.coins_earned,
        "coins_spent_per_match": dict(t.coins_spent),
        "coins_spent_total_per_match": t.coins_spent_total,
    }


def _variant_json(f: VariantFigures) -> dict[str, Any]:
    return {
        "name": f.name,
        "label": f.label,
        "set": dict(f.changes),
        "max_turns": f.max_turns,
        "matches": f.matches,
        "draws": _proportion(f.draws),
        "turns": {"mean": f.turns.mean, "sd": f.turns.sd, "min": f.turns.low, "max": f.turns.high,
                  "histogram": {str(k): v for k, v in f.turns_histogram.items()}},
        "decided_by_capture": _proportion(f.decided_by_capture),
        "decided_at_turn_limit": _proportion(f.decided_at_turn_limit),
        "turn_limit_draws": f.turn_limit_draws,
        "slot1_wins": _proportion(f.first_slot_wins),
        "teams": [_team_json(t) for t in f.teams],
    }


def _difference(first: Proportion, second: Proportion) -> dict[str, float]:
    low, high = newcombe_difference((first.count, first.total), (second.count, second.total))
    return {"difference": second.rate - first.rate, "low95": low, "high95": high}


def _difference_json(base: VariantFigures, house: VariantFigures) -> dict[str, Any]:
    d, low, high = base.turns.difference(house.turns)
    teams = []
    for a, b in zip(base.teams, house.teams, strict=True):
        teams.append({
            "team": a.label,
            "win_rate": _difference(a.wins, b.wins),
            "captures_rate": b.captures.rate - a.captures.rate,
            "pickups_per_match": b.pickups - a.pickups,
            "knocked_down_per_match": b.knocked_down - a.knocked_down,
            "coins_earned_per_match": b.coins_earned - a.coins_earned,
            "coins_spent_total_per_match": b.coins_spent_total - a.coins_spent_total,
        })
    return {
        "of": f"{house.label} minus {base.label}",
        "turns_mean": {"difference": d, "low95": low, "high95": high},
        "draw_rate": _difference(base.draws, house.draws),
        "decided_at_turn_limit_rate": house.decided_at_turn_limit.rate - base.decided_at_turn_limit.rate,
        "teams": teams,
    }


def figures_json(plan: Plan, figures: Sequence[VariantFigures]) -> dict[str, Any]:
    """Everything the figures say, as JSON-ready data (the same for any worker count)."""
    return {
        "simulation": {
            "ruleset": "gvg",
            "seed": plan.seed,
            "matches_per_variant": plan.matches,
            "bots": dict(zip(TEAM_LABELS, plan.bots, strict=True)),
            "map": plan.map_name,
            "sides": SIDES_NOTE,
            "interval": "Wilson score 95% (differences: Newcombe hybrid score 95%; match length: normal 95%)",
        },
        "variants": [_variant_json(f) for f in figures],
        "difference": _difference_json(figures[0], figures[1]) if len(figures) == 2 else None,
    }


def run_json(run: SimulationRun, figures: Sequence[VariantFigures]) -> dict[str, Any]:
    """The figures plus how the run went (workers, seconds, matches per second)."""
    out = figures_json(run.plan, figures)
    out["run"] = {"workers": run.workers, "seconds": round(run.seconds, 3),
                  "matches_played": run.matches_played, "matches_per_second": round(run.matches_per_second, 1)}
    return out


def write_json(path: Path, run: SimulationRun, figures: Sequence[VariantFigures]) -> None:
    """Write ``run_json`` to ``path``."""
    path.write_text(json.dumps(run_json(run, figures), indent=2) + "\n", encoding="utf-8")


# -- CSV ----------------------------------------------------------------------------------------


def summary_rows(figures: Sequence[VariantFigures]) -> list[dict[str, Any]]:
    """One row per variant and team: every figure in its own column."""
    rows = []
    for f in figures:
        for t in f.teams:
            low, high = t.wins.interval
            row: dict[str, Any] = {
                "variant": f.name, "set": " ".join(f"{k}={v}" for k, v in f.changes), "team": t.label,
                "bot": t.bot, "matches": f.matches, "wins": t.wins.count, "win_rate": t.wins.rate,
                "win_rate_low95": low, "win_rate_high95": high, "draws": f.draws.count,
                "turns_mean": f.turns.mean, "turns_sd": f.turns.sd, "turns_min": f.turns.low,
                "turns_max": f.turns.high, "decided_by_capture": f.decided_by_capture.count,
                "decided_at_turn_limit": f.decided_at_turn_limit.count, "captures": t.captures.count,
                "turn_limit_wins": t.turn_limit_wins.count, "pickups_per_match": t.pickups,
                "knocked_down_per_match": t.knocked_down, "coins_earned_per_match": t.coins_earned,
                "coins_spent_per_match": t.coins_spent_total,
            }
            for skill in SKILLS:
                row[f"spent_{skill.value}_per_match"] = t.coins_spent[skill.value]
            rows.append(row)
    return rows


def match_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """One row per match played, in variant then match order."""
    rows = []
    for variant, records in zip(run.plan.variants, run.records, strict=True):
        for r in records:
            row: dict[str, Any] = {
                "variant": variant.name, "match": r.index, "team_a_slot": r.slot_of_a + 1,
                "winner": "draw" if r.winner is None else TEAM_LABELS[r.winner], "turns": r.turns,
                "ending": "capture" if r.ending is Ending.CAPTURE else "turn_limit",
            }
            for label, t in zip(TEAM_LABELS, r.teams, strict=True):
                row[f"{label}_coins_earned"] = t.coins_earned
                row[f"{label}_coins_spent"] = sum(t.spent)
                row[f"{label}_pickups"] = t.pickups
                row[f"{label}_knocked_down"] = t.knocked_down
                row[f"{label}_captured"] = int(t.captured)
            rows.append(row)
    return rows


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` (dicts with the same keys) as CSV with a header."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)

