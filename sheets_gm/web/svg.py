"""A plane of the scene as an SVG drawing: squares or hexes in the board's colours, the grid's labels round it, a
mark for what stands on the ground, and a symbol for who stands there (the Coalition's faction symbols, Phyrexia's
mask, a mercenary's helm; an owner's sign in its colour elsewhere). Every text is the template engine's to escape."""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from jinja2 import Environment
from markupsafe import Markup, escape

from sheets_gm.web.scene import Place, Plane, marked_places, standing

SQUARE = 34  # a square's side, in pixels (a small grid's squares grow, up to BIG, to fill about FILL pixels)
BIG = 96
FILL = 480
HEX = 21  # a hex's radius (centre to corner), in pixels
MARGIN = 26  # room for the labels, left and top
#: A hex's corners round its centre (each hex is this polygon, moved to its place).
HEX_OFFSETS = tuple((HEX * math.cos(math.pi / 3 * k), HEX * math.sin(math.pi / 3 * k)) for k in range(6))
HEX_CORNERS = " ".join(f"{x:.1f},{y:.1f}" for x, y in HEX_OFFSETS)
_FACTIONS = ("white", "blue", "black", "red", "green")
#: The signs of ground a player owns, whose owner's sign the board writes right after them (a village: ``⌂●``).
OWNED = "⌂"


@lru_cache(maxsize=4096)
def escaped(text: str) -> str:
    """``text`` escaped (``markupsafe.escape``), once per text: a map's thousand places share a few colours."""
    return str(escape(text))


def _mark(place: Place) -> str:
    """The sign of what stands on the ground ('' for plain ground): the first sign of its words, not a letter, with
    the owner's sign written right after it (Wesnoth's village ``⌂●``: whose it is, seen without hovering)."""
    return _ground_mark(place.ground)


@lru_cache(maxsize=4096)
def _ground_mark(ground: str) -> str:
    """``_mark`` of a place whose ground is ``ground`` (once per ground: a map's thousand places share a few)."""
    at = next((i for i, ch in enumerate(ground) if not ch.isalnum() and not ch.isspace() and ch not in "·()-/"),
              None)
    if at is None:
        return ""
    owner = ground[at + 1:at + 2]
    owned = ground[at] in OWNED and owner and not owner.isalnum() and not owner.isspace()
    return ground[at:at + 2] if owned else ground[at]


def _symbol(place: Place) -> str:
    if place.symbol == "coalition":
        return f"coalition-{place.tint}" if place.tint in _FACTIONS else "coalition"
    return place.symbol if place.symbol in ("phyrexia", "mercenary") else ""


def _badge(place: Place) -> str:
    """An occupant's sign (its owner's, its role's), or how many stand there when their lines start with a name."""
    first = place.who[0][:1] if place.who else ""
    return "" if not place.who else first if not first.isalnum() else str(sum(len(w.split()) for w in place.who))


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """The centre of the hex in column ``col`` and row ``row``, in pixels (even columns stand half a hex lower)."""
    height = math.sqrt(3) * HEX
    return MARGIN + HEX + col * 1.5 * HEX, MARGIN + height / 2 + row * height + (col % 2) * height / 2


def centre(plane: Plane, place: Place) -> tuple[float, float]:
    """The centre of ``place`` on the drawing of ``plane``, in pixels."""
    if plane.shape == "hex":
        return hex_centre(place.col, place.row)
    side = square_side(plane)
    return MARGIN + place.col * side + side / 2, MARGIN + place.row * side + side / 2


def square_side(plane: Plane) -> int:
    """The side of ``plane``'s squares: ``SQUARE``, or more for a small grid (Champions' 4×4 and its shrinks)."""
    return max(SQUARE, min(BIG, FILL // max(plane.cols, plane.rows, 1)))


def _place(place: Place, i: int, shape: str, side: int) -> str:
    """One place's SVG, every text and colour escaped (``markupsafe.escape``, the templates' own escaper): a map's
    thousand places are written here rather than by a template's loop, several times faster."""
    if shape != "hex" and not (place.who or place.ground or place.frame or place.makeup or place.symbol):
        # bare ground, most of a map: its square alone (what the rest would write for it, written at once)
        left, top = MARGIN + place.col * side, MARGIN + place.row * side
        return (f'<g class="p" data-i="{i}"><rect class="g" x="{left}" y="{top}" width="{side}" height="{side}" '
                f'fill="{escaped(place.colour)}"/></g>')
    if shape == "hex":
        cx, cy = hex_centre(place.col, place.row)
        x, y, ty = cx - HEX, cy - HEX, cy - HEX * 0.45
        ground = f'<use class="g" href="#hex" x="{cx:.1f}" y="{cy:.1f}" fill="{escaped(place.colour)}"/>'
        if not (place.makeup or place.who or place.symbol):  # a hex nobody stands on: its ground and its sign
            mark = _ground_mark(place.ground)
            sign = f'<text class="m" x="{cx:.1f}" y="{ty + 2:.1f}" text-anchor="middle">{escaped(mark)}</text>' \
                if mark else ""
            return f'<g class="p" data-i="{i}">{ground}{sign}</g>'
        names: list[str] = []
    else:
        x, y = MARGIN + place.col * side, MARGIN + place.row * side
        cx, cy, ty = x + side / 2, y + side / 2, y + 10
        ground = f'<rect class="g" x="{x}" y="{y}" width="{side}" height="{side}" fill="{escaped(place.colour)}"/>'
        names = [w[:12] for w in place.who[:(side - 18) // 14]] if side >= 60 else []
        if place.frame:  # a structure's square: its coloured rectangle inside a thin dark one
            ground += (f'<rect x="{x + 2.5}" y="{y + 2.5}" width="{side - 5}" height="{side - 5}" fill="none" '
                       f'stroke="{escaped(place.frame)}" stroke-width="3"/><rect x="{x + 1}" y="{y + 1}" '
                       f'width="{side - 2}" height="{side - 2}" fill="none" stroke="#333" stroke-width=".7"/>')
    click = f' tabindex="0" role="button" aria-label="{escape(place.name)}"' if place.makeup else ""
    parts = [f'<g class="p{" u" if place.makeup else ""}" data-i="{i}"{click}>', ground]
    mark, symbol, badge = _mark(place), _symbol(place), "" if names else _badge(place)
    if mark:
        parts.append(f'<text class="m" x="{cx:.1f}" y="{ty + 2:.1f}" text-anchor="middle">{escaped(mark)}</text>')
    parts += [f'<text class="n" x="{x + 5}" y="{y + 26 + k * 14}">{escape(name)}</text>'
              for k, name in enumerate(names)]
    if symbol:
        parts.append(f'<use href="#{escaped(symbol)}" x="{cx - 9:.1f}" y="{cy - 7:.1f}" width="18" height="18"/>')
    elif badge:
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy + 3:.1f}" r="8" fill="{escaped(place.tint or "#FFFFFF")}" '
                     'stroke="#222" stroke-width=".8"/>')
        parts.append(f'<text x="{cx:.1f}" y="{cy + 6:.1f}" text-anchor="middle">{escaped(badge)}</text>')
    counted = badge.isdecimal() or len(names) >= len(place.who)  # the badge counts them, or every name is written
    parts.append("" if counted else _shared(place, (cx + HEX * 0.5, cy - HEX * 0.55) if shape == "hex" else
                                            (x + side - 7, y + 8)))
    parts.append("</g>")
    return "".join(parts)


def _shared(place: Place, corner: tuple[float, float]) -> str:
    """The mark of a square or hex several stand on: their count in a dark disc at its corner ('' for one)."""
    count = standing(place)
    if count < 2:
        return ""
    x, y = corner
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="#222"/><text class="c" style="fill:#fff" '
            f'x="{x:.1f}" y="{y + 3:.1f}" text-anchor="middle">{count}</text>')


def plane_svg(env: Environment, plane: Plane, index: int, ground: str = "") -> str:
    """The SVG of ``plane`` (the ``index``-th of its scene), its places in the order of ``plane.places``; with
    ``ground`` (the file of the plane's ground, ``ground.ground_file``) the ground is that file's picture, and only the
    places it does not draw whole (``over_ground``) are drawn over it: the page finds the others under the
    pointer by their coordinates."""
    side = square_side(plane)
    shown = over_ground(plane) if ground else enumerate(plane.places)
    places = Markup("\n".join(_place(p, i, plane.shape, side) for i, p in shown))  # escaped
    width, height = plane_size(plane)
    if ground:
        cols: list[dict[str, Any]] = []
        rows: list[dict[str, Any]] = []
    else:
        cols, rows = labels(plane)
    values: dict[str, Any] = {"width": width, "height": height, "title": plane.title, "index": index,
                              "col_labels": cols, "row_labels": rows, "places": places, "margin": MARGIN,
                              "hex": HEX_CORNERS if plane.shape == "hex" else "", "ground": ground,
                              "shape": plane.shape, "side": HEX if plane.shape == "hex" else side}
    return env.get_template("map.svg.j2").render(values)


def plane_size(plane: Plane) -> tuple[int, int]:
    """The width and height of ``plane``'s drawing, in pixels."""
    if plane.shape == "hex":
        return (round(MARGIN + HEX * 2 + max(plane.cols - 1, 0) * 1.5 * HEX + 4),
                round(MARGIN + math.sqrt(3) * HEX * (plane.rows + 0.5) + 4))
    side = square_side(plane)
    return MARGIN + plane.cols * side + 4, MARGIN + plane.rows * side + 4


def labels(plane: Plane) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Where ``plane``'s column and row labels stand, and their text."""
    if plane.shape == "hex":
        return ([{"x": round(hex_centre(c, 0)[0], 1), "text": t} for c, t in enumerate(plane.col_labels)],
                [{"y": round(hex_centre(0, r)[1], 1), "text": t} for r, t in enumerate(plane.row_labels)])
    side = square_side(plane)
    return ([{"x": MARGIN + c * side + side / 2, "text": t} for c, t in enumerate(plane.col_labels)],
            [{"y": MARGIN + r * side + side / 2, "text": t} for r, t in enumerate(plane.row_labels)])


@lru_cache(maxsize=4096)
def lasting_mark(ground: str) -> str:
    """The sign of a ground that stays as long as the ground does: its mark (``_ground_mark``), unless it names an
    owner (a village changes hands: ``⌂●``), which is ''. Once per ground: a map's thousand places share a few."""
    mark = _ground_mark(ground)
    return "" if mark[:1] == OWNED else mark


def over_ground(plane: Plane) -> Iterator[tuple[int, Place]]:
    """The places of ``plane`` (each with its index, in order) the drawing of its ground does not draw whole:
    someone stands there, it opens something, it has a structure's frame, its mark names an owner (more than its
    lasting sign), or its colour is no fill's of the tab (``Plane.painted``: a coin's square). Only the places that
    may be more than bare ground are looked at (``scene.marked_places``), the test written out."""
    painted = {i for i, _ in plane.painted}
    return iter([(i, p) for i, p in marked_places(plane, painted) if p.who or p.makeup or p.symbol or p.frame or
                 (OWNED in p.ground and _ground_mark(p.ground)[:1] == OWNED) or i in painted])
