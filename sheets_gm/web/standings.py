"""The standings over the turns: each side's figures as the board's status line gives them after each resolution
(victory points, gold, villages, morale, coins: ``Coalition 10 VP``, ``Ann: 0 gold, 2 villages``, ``red: 1 coin``;
the match's own, ``16 players in``, under no side), drawn as a small SVG chart per figure, and the Log lines that say
who is out or who won. Read from public text only: the status line and the public Log."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from sheets_gm.web.page import LogLine
from sheets_gm.web.scene import Scene, marked_places

#: Figures of one state: side ('' for the match's own) → figure → value.
Figures = dict[str, dict[str, float]]
#: The Log kinds that say a side or a player is out, or who won.
END_KINDS = frozenset({"player out", "winner", "victory", "game won", "match won", "match drawn", "game over",
                       "surrender", "round limit", "disbanded"})
CHARTS = 6  # figures charted at most
COLOURS = ("#CC3333", "#3366CC", "#2E8B3A", "#AA7700", "#8844AA", "#118899", "#555555")
_COUNT_FIRST = re.compile(r"^(\d+)(?:/\d+)? ([A-Za-z][A-Za-z ]*)$")
_WORD_FIRST = re.compile(r"^([a-z][a-z ]*) (\d+)(?:/\d+)?$")
_PIECES = re.compile(r" \| | · |, ")


def _measure(words: str) -> str:
    """A figure's name, singular (``3 crystals`` and ``1 crystal`` are one figure)."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in words.strip().split())


def figures_of(status: str, seats: Sequence[str]) -> Figures:
    """Each side's figures in a status line (``seats``: the sides' names, as the line writes them, any case)."""
    out: Figures = {}
    side = ""
    named = [re.compile(rf"(?:^|\. )(?P<seat>{re.escape(seat)}):? (?P<rest>.*)$", re.IGNORECASE).search
             for seat in seats]  # (each seat's once: a line of sixteen players' pieces asks each of them)
    for piece in _PIECES.split(status):
        for search in named:
            found = search(piece)
            if found is not None:
                side, piece = found.group("seat"), found.group("rest")
                break
        count, word = _COUNT_FIRST.match(piece.strip()), _WORD_FIRST.match(piece.strip())
        if count is not None:
            out.setdefault(side, {})[_measure(count.group(2))] = float(count.group(1))
        elif word is not None:
            out.setdefault(side, {})[_measure(word.group(1))] = float(word.group(2))
    return out


#: A Coalition army's first line in its square's note: ``Yavimaya Rangers: Coalition, Lieutenant Commander (2)``.
_ARMY_LINE = re.compile(r"(?m)^\S.*?: ([A-Za-z]+)\b")
#: A structure's line on a Coalition square, and the side it counts for: a base the Coalition's, a stronghold
#: Phyrexia's (each while it stands: a destroyed one is drawn ``✕``), a terrain feature its controller's.
_HELD = re.compile(r"(?:^|· )(?:(⌂)[^·]*|(▲)[^·]*|★ [^·]*?· ([a-z]+))(?= ·|$)")


def war_figures(scene: Scene, seats: Sequence[str]) -> Figures:
    """Each side's armies alive and structures held on a Coalition war's public map (what its status line does not
    give): its armies as its squares' notes name them (a crowded square's note names every one), the bases, the
    strongholds and the features it controls."""
    sides = {seat.lower(): seat for seat in seats}
    out: Figures = {seat: {"armies alive": 0.0, "structures held": 0.0} for seat in seats}
    for plane in scene.planes:
        for _, place in marked_places(plane):
            for side in _ARMY_LINE.findall(place.makeup):
                if side.lower() in sides:
                    out[sides[side.lower()]]["armies alive"] += 1
            for base, stronghold, holder in _HELD.findall(place.ground):
                side = "coalition" if base else "phyrexia" if stronghold else holder
                if side in sides:
                    out[sides[side]]["structures held"] += 1
    return out


def end_lines(log: Sequence[LogLine]) -> list[LogLine]:
    """The lines of ``log`` that say who is out or who won."""
    return [line for line in log if line[1] in END_KINDS]


@dataclass(frozen=True, slots=True)
class Chart:
    """One figure over the windows: its name and its SVG (escaped)."""

    title: str
    svg: Markup


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def charts(series: Sequence[tuple[str, Mapping[str, Mapping[str, float]]]]) -> list[Chart]:
    """A chart per figure of ``series`` (each window's label and figures, in order), a line per side; a figure no
    side has twice is left out (no line to draw)."""
    names: dict[str, None] = {}
    for _, figures in series:
        for values in figures.values():
            names.update(dict.fromkeys(values))
    out = []
    for name in names:
        lines = {side: [(i, figures[side][name]) for i, (_, figures) in enumerate(series)
                        if name in figures.get(side, {})] for side in dict.fromkeys(s for _, f in series for s in f)}
        lines = {side: points for side, points in lines.items() if len(points) > 1}
        if lines:
            out.append(Chart(name, _svg(lines, len(series))))
        if len(out) >= CHARTS:
            break
    return out


#: The least room between two labels at the lines' ends, in pixels (a 10 px font's line).
LABEL_GAP = 11.0


def label_heights(wanted: Sequence[float], gap: float, top: float, bottom: float) -> list[float]:
    """Where labels wanted at heights ``wanted`` stand so that no two are closer than ``gap``, each as near its own
    line as that leaves it, in their order down the chart, within ``top`` and ``bottom`` (as far as they fit).

    >>> label_heights([50.0, 50.0, 20.0], 11.0, 11.0, 94.0)
    [50.0, 61.0, 20.0]
    >>> label_heights([94.0, 94.0], 11.0, 11.0, 94.0)
    [83.0, 94.0]
    """
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed: dict[int, float] = {}
    previous = top - gap
    for i in order:  # down the chart: each below the one above it
        placed[i] = previous = max(wanted[i], previous + gap)
    following = bottom + gap
    for i in reversed(order):  # up from the bottom: none below it
        placed[i] = following = max(min(placed[i], following - gap), top)
    return [placed[i] for i in range(len(wanted))]


def _svg(lines: Mapping[str, Sequence[tuple[int, float]]], count: int) -> Markup:
    width, height, left, top, bottom = 300, 96, 30, 8, 16
    values = [v for points in lines.values() for _, v in points]
    low, high = min(0.0, min(values)), max(values)
    span = (high - low) or 1.0

    def x(i: int) -> float:
        return left + (width - left - 70) * i / max(count - 1, 1)

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - (v - low) / span)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img">',
             f'<line x1="{left}" y1="{y(low):.1f}" x2="{width - 70}" y2="{y(low):.1f}" stroke="#999"/>',
             f'<text x="{left - 3}" y="{y(low) + 3:.1f}" text-anchor="end">{_number(low)}</text>']
    if high != low:  # one value alone: its one label
        parts.append(f'<text x="{left - 3}" y="{y(high) + 4:.1f}" text-anchor="end">{_number(high)}</text>')
    ends = label_heights([y(points[-1][1]) + 3 for points in lines.values()], LABEL_GAP, LABEL_GAP, height - 2)
    for k, ((side, points), end) in enumerate(zip(lines.items(), ends, strict=True)):
        colour = COLOURS[k % len(COLOURS)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
        last_x, last_v = points[-1]
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{x(last_x) + 4:.1f}" y="{end:.1f}" fill="{colour}">'
                     f'{escape(side or "all")} {_number(last_v)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))  # every text escaped above
