"""A plane of the scene as an SVG drawing: squares or hexes in the board's colours, the grid's labels round it, a
mark for what stands on the ground, and a symbol for who stands there (the Coalition's faction symbols, Phyrexia's
mask, a mercenary's helm; an owner's sign in its colour elsewhere). Every text is the template engine's to escape."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment

from sheets_gm.web.scene import Place, Plane

SQUARE = 34  # a square's side, in pixels (a small grid's squares grow, up to BIG, to fill about FILL pixels)
BIG = 96
FILL = 480
HEX = 21  # a hex's radius (centre to corner), in pixels
MARGIN = 26  # room for the labels, left and top
_FACTIONS = ("white", "blue", "black", "red", "green")


@dataclass(frozen=True, slots=True)
class _Drawn:
    """What the template draws of one place."""

    name: str
    colour: str
    x: float
    y: float
    cx: float
    cy: float
    ty: float
    hex: bool
    points: str
    mark: str
    symbol: str
    badge: str
    tint: str
    click: bool
    names: tuple[str, ...]  # who stands there, written in a square big enough for it


def _mark(place: Place) -> str:
    """The sign of what stands on the ground ('' for plain ground): the first sign of its words, not a letter."""
    return next((ch for ch in place.ground if not ch.isalnum() and not ch.isspace() and ch not in "·()-/"), "")


def _symbol(place: Place) -> str:
    if place.symbol == "coalition":
        return f"coalition-{place.tint}" if place.tint in _FACTIONS else "coalition"
    return place.symbol if place.symbol in ("phyrexia", "mercenary") else ""


def _badge(place: Place) -> str:
    """An occupant's sign (its owner's, its role's), or how many stand there when their lines start with a name."""
    first = place.who[0][:1] if place.who else ""
    return "" if not place.who else first if not first.isalnum() else str(sum(len(w.split()) for w in place.who))


def _hex_centre(col: int, row: int) -> tuple[float, float]:
    height = math.sqrt(3) * HEX
    return MARGIN + HEX + col * 1.5 * HEX, MARGIN + height / 2 + row * height + (col % 2) * height / 2


def square_side(plane: Plane) -> int:
    """The side of ``plane``'s squares: ``SQUARE``, or more for a small grid (Champions' 4×4 and its shrinks)."""
    return max(SQUARE, min(BIG, FILL // max(plane.cols, plane.rows, 1)))


def _drawn(place: Place, shape: str, side: int) -> _Drawn:
    if shape == "hex":
        cx, cy = _hex_centre(place.col, place.row)
        corners = " ".join(f"{cx + HEX * math.cos(math.pi / 3 * k):.1f},{cy + HEX * math.sin(math.pi / 3 * k):.1f}"
                           for k in range(6))
        x, y, ty = cx - HEX, cy - HEX, cy - HEX * 0.45
    else:
        x, y = MARGIN + place.col * side, MARGIN + place.row * side
        cx, cy, ty, corners = x + side / 2, y + side / 2, y + 10, ""
    names = tuple(w[:12] for w in place.who[:(side - 18) // 14]) if shape != "hex" and side >= 60 else ()
    return _Drawn(place.name, place.colour, x, y, round(cx, 1), round(cy, 1), round(ty, 1), shape == "hex", corners,
                  _mark(place), _symbol(place), "" if names else _badge(place), place.tint or "#FFFFFF",
                  bool(place.makeup), names)


def plane_svg(env: Environment, plane: Plane, index: int) -> str:
    """The SVG of ``plane`` (the ``index``-th of its scene), its places in the order of ``plane.places``."""
    side = square_side(plane)
    drawn = [_drawn(p, plane.shape, side) for p in plane.places]
    if plane.shape == "hex":
        width = MARGIN + HEX * 2 + max(plane.cols - 1, 0) * 1.5 * HEX + 4
        height = MARGIN + math.sqrt(3) * HEX * (plane.rows + 0.5) + 4
        cols = [{"x": round(_hex_centre(c, 0)[0], 1), "text": t} for c, t in enumerate(plane.col_labels)]
        rows = [{"y": round(_hex_centre(0, r)[1], 1), "text": t} for r, t in enumerate(plane.row_labels)]
    else:
        width, height = MARGIN + plane.cols * side + 4, MARGIN + plane.rows * side + 4
        cols = [{"x": MARGIN + c * side + side / 2, "text": t} for c, t in enumerate(plane.col_labels)]
        rows = [{"y": MARGIN + r * side + side / 2, "text": t} for r, t in enumerate(plane.row_labels)]
    values: dict[str, Any] = {"width": round(width), "height": round(height), "title": plane.title, "index": index,
                              "col_labels": cols, "row_labels": rows, "places": drawn, "size": side,
                              "margin": MARGIN}
    return env.get_template("map.svg.j2").render(values)
