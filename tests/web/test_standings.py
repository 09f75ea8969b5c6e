"""The standings over the turns: each side's figures read from the board's status line as every game writes it, a
chart per figure with a line per side on the page of the match now, and the Log lines saying who is out or won."""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import ruleset_names
from sheets_gm.web.standings import LABEL_GAP, charts, end_lines, figures_of
from tests.web.pages import bot_match, build_pages

STATUS = {
    "Turn 2 · battle results: the judge enters the results · 3 battles to judge · Coalition 10 VP, Phyrexia 5 VP · "
    "results close Fri 27 Nov, 20:00 (Europe/Paris)": (("coalition", "phyrexia"), {
        "": {"battle to judge": 3}, "Coalition": {"VP": 10}, "Phyrexia": {"VP": 5}}),
    "Turn 4 of 60 · orders open · red: 1 coin, 0 ballista charges · blue: 2 coins, 0 ballista charges": (
        ("red", "blue"), {"red": {"coin": 1, "ballista charge": 0}, "blue": {"coin": 2, "ballista charge": 0}}),
    "Round 2 · morning (day) · Bo's turn, Ann next · Ann: 0 gold, 2 villages | Bo: 0 gold, 0 villages": (
        ("Ann", "Bo"), {"Ann": {"gold": 0, "village": 2}, "Bo": {"gold": 0, "village": 0}}),
    "Turn 1: Ann's turn. Ann: morale 19 · fatigue 0/8 · 1 crystal | Bo: morale 17 · fatigue 1/8 · 3 crystals · 1 card "
    "effect waits for the GM: apply each with sheets-gm adjust, then --done N": (
        ("Ann", "Bo"), {"Ann": {"morale": 19, "fatigue": 0, "crystal": 1}, "Bo": {"morale": 17, "fatigue": 1,
                                                                              "crystal": 3}}),
    "Round 2 · equip and fight · 16 players in · grid 4×4": (("Ann", "Bo"), {"": {"player in": 16}}),
}


@pytest.mark.parametrize("status", list(STATUS))
def test_each_sides_figures_are_read_from_the_status_line(status: str) -> None:
    seats, expected = STATUS[status]
    assert figures_of(status, seats) == expected


def test_a_chart_draws_a_line_per_side_a_figure_none_has_twice_none() -> None:
    drawn = charts([("1", {"Ann": {"gold": 3, "once": 1}, "Bo": {"gold": 5}}), ("2", {"Ann": {"gold": 4},
                                                                                     "Bo": {"gold": 0}})])
    assert [c.title for c in drawn] == ["gold"]
    assert drawn[0].svg.count("<polyline") == 2 and "Ann 4" in drawn[0].svg and "Bo 0" in drawn[0].svg
    hostile = charts([("1", {"<b>x</b>": {"gold": 1}}), ("2", {"<b>x</b>": {"gold": 2}})])
    assert "<b>" not in hostile[0].svg and "&lt;b&gt;" in hostile[0].svg


def test_the_lines_saying_who_is_out_or_won() -> None:
    log = [("3", "moved", "Bo moves."), ("3", "player out", "Bo is out: no champion left."),
           ("4", "winner", "Ann wins.")]
    assert end_lines(log) == log[1:]


@pytest.mark.parametrize("name", ruleset_names())
def test_the_page_of_the_match_now_charts_the_standings(tmp_path: Path, name: str) -> None:
    folder = build_pages(tmp_path, *bot_match(name, 3))
    page = html.unescape((folder / "index.html").read_text(encoding="utf-8"))
    assert "Standings over the turns" in page and '<svg class="chart"' in page
    assert '<svg class="chart"' not in (folder / "w3.html").read_text(encoding="utf-8")  # the page of now alone
    for chart in re.findall(r'<svg class="chart".*?</svg>', page):
        _labels_apart(chart)


def _labels_apart(chart: str) -> None:
    """No two labels of a chart's axis, nor two of its lines' ends, stand closer than a line of text."""
    for anchor in (' text-anchor="end"', ' fill="#'):
        heights = sorted(float(y) for y in re.findall(rf'<text x="[\d.]+" y="([\d.-]+)"{anchor}', chart))
        assert all(b - a >= LABEL_GAP - 0.05 for a, b in itertools.pairwise(heights)), (anchor, chart)


def test_the_ends_of_lines_of_equal_figures_are_labelled_apart() -> None:
    """Two sides of equal figures (0 gold each), and a figure that stays 0 throughout: each label readable."""
    for series in ([("1", {"Ann": {"gold": 3}, "Bo": {"gold": 5}}), ("2", {"Ann": {"gold": 0}, "Bo": {"gold": 0}})],
                   [("1", {s: {"charge": 0} for s in "abcdefg"}), ("2", {s: {"charge": 0} for s in "abcdefg"})]):
        (chart,) = charts(series)
        _labels_apart(chart.svg)


def test_a_wars_standings_chart_its_armies_alive_and_structures_held(tmp_path: Path) -> None:
    """The war's status line gives victory points alone: its standings also count each side's armies alive (every
    one its map's notes name, as the engine holds them) and the structures it holds (bases, strongholds standing,
    the features it controls), after each resolution."""
    from sheets_gm.web.site import record_of

    rules, start, steps = bot_match("coalition", 2)
    folder = build_pages(tmp_path, rules, start, steps)
    for window, step in zip([w for w in record_of(folder)["windows"] if "figures" in w], steps, strict=True):
        assert set(window["figures"]) - {""} == {"Coalition", "Phyrexia"}  # each side once, as its status names it
        for side in ("Coalition", "Phyrexia"):
            alive = sum(1 for army in step.after.armies if army.side.value == side.lower())
            assert window["figures"][side]["armies alive"] == alive and window["figures"][side]["VP"] >= 0
            assert window["figures"][side]["structures held"] > 0
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<figcaption>armies alive</figcaption>" in page and "<figcaption>structures held</figcaption>" in page
