"""The turn's map as a picture (PNG), for a chat notice of a resolution: the page's own SVG of the public board,
every plane one under the other, turned into a PNG by cairosvg (the ``picture`` extra, over the system's cairo).
Without cairosvg there is no picture, and the notice carries the page's link alone."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Sequence
from functools import lru_cache

from markupsafe import escape

from sheets_gm.engine.ruleset import BoardKind
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.web.scene import scene_of
from sheets_gm.web.site import environment
from sheets_gm.web.svg import HEX_OFFSETS, plane_svg

_SIZE = re.compile(r'^<svg [^>]*?width="(\d+)" height="(\d+)"')
_STYLE = re.compile(r"<style>.*?</style>", re.DOTALL)
_HEX_USE = re.compile(r'<use class="g" href="#hex" x="([\d.]+)" y="([\d.]+)" (fill="[^"]*")/>')


def _polygon(found: re.Match[str]) -> str:
    """A hex drawn where the page's SVG moves its one polygon (cairosvg takes a second for each ``use``)."""
    x, y = float(found.group(1)), float(found.group(2))
    return f'<polygon points="{_corners(x, y)}" {found.group(3)}/>'


def _corners(x: float, y: float) -> str:
    return " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in HEX_OFFSETS)
GAP = 8  # pixels between two planes


def can_draw_pictures() -> bool:
    """Whether cairosvg is installed (``pip install 'sheets-gm[picture]'``)."""
    return importlib.util.find_spec("cairosvg") is not None


TITLE = 18  # pixels of a line of text above the maps (the turn) and above each named plane


def map_svg(kind: BoardKind, drawings: Sequence[BoardDrawing], caption: str = "") -> str:
    """The maps of ``drawings`` (nobody's view) as one SVG, each plane under the one before with its name above it,
    on white; ``caption`` (the turn) heads them. Every text is escaped."""
    planes = scene_of(kind, drawings).planes
    svgs = [plane_svg(environment(), plane, i) for i, plane in enumerate(planes)]  # each whole, its ground drawn
    sizes = [tuple(int(n) for n in found.groups()) if (found := _SIZE.match(svg)) else (0, 0) for svg in svgs]
    width = max((w for w, _ in sizes), default=1)
    parts, top = [], 0
    if caption:
        parts.append(f'<text x="4" y="{TITLE - 5}" font-size="13" font-weight="bold" stroke="none" '
                     f'fill="#111">{escape(caption)}</text>')
        top += TITLE
    for svg, plane, (_, h) in zip(svgs, planes, sizes, strict=True):
        if plane.title:
            parts.append(f'<text x="4" y="{top + TITLE - 5}" font-size="12" font-weight="bold" stroke="none" '
                         f'fill="#333">{escape(plane.title)}</text>')
            top += TITLE
        # the page's style sheet as attributes: cairosvg matches a selector against every element, and a map of a
        # thousand hexes then takes a minute
        plain = _HEX_USE.sub(_polygon, _STYLE.sub("", svg)).replace("<text ", '<text stroke="none" fill="#111" ')
        parts.append(plain.replace("<svg ", f'<svg y="{top}" ', 1))
        top += h + GAP
    height = max(top - GAP, 1)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="9"><rect width="100%" height="100%" '
            f'fill="#fff"/><g stroke="#9a9a9a" stroke-width=".6">{"".join(parts)}</g></svg>')


def map_png(kind: BoardKind, drawings: Sequence[BoardDrawing], caption: str = "") -> bytes | None:
    """The maps of ``drawings`` as a PNG (``caption`` above them); None when cairosvg is not installed (the notice
    then links the page)."""
    if not can_draw_pictures():
        return None
    return _png(map_svg(kind, drawings, caption))


@lru_cache(maxsize=16)
def _png(svg: str) -> bytes | None:
    """An SVG drawn as a PNG, once per process for each SVG: the same turn's map goes to every channel of a match,
    and again to a notice retried (a quarter of a second a picture)."""
    import cairosvg  # type: ignore[import-untyped]

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return png if isinstance(png, bytes) else None


def turn_picture(facts: PollFacts) -> bytes | None:
    """The map of the state a poll left, as a PNG for a chat notice of a resolution (nobody's view, as the page
    draws it); None without cairosvg (``pip install 'sheets-gm[picture]'``), or when it cannot be drawn."""
    record = facts.record
    drawings = facts.drawings if facts.drawings is not None else facts.adapter.drawings(record.state)
    try:
        label = facts.resolved.label if facts.resolved is not None else ""
        return map_png(record.ruleset.traits.board_kind, drawings, f"After {label}" if label else "")
    except (OSError, ValueError):  # cairo missing under cairosvg, an SVG it refuses
        return None
