"""A plane's ground as its own picture, drawn once for a match's page folder: the grid's labels and every square or
hex in its colour with the sign of what stays on it (terrain, a stronghold; not an owner's sign, which changes hands,
nor a coin, whose square a conditional fill colours: ``Plane.painted``, drawn in the colour the tab's fills give it).
A page's map shows the picture and draws over it only the places the ground does not draw whole (``svg.over_ground``:
who stands there, what a click opens, a structure's frame, an owner's sign, a coin), so a window's page writes a few
dozen places instead of a map's thousand, and a reader's browser fetches the ground once for every page of the
match. The file is named by a hash of what it draws (``ground-<hash>.svg``): a ground that changes (a structure
fallen) is another file, and a page keeps the one it was drawn on. What it draws is public: the board's colours
and signs, nobody's view. Beside it, named by the same hash, what never changes of its places while it does: each
place's name, column and row (``ground-<hash>.js``, ``ground_names_js``), which a page's script reads for hover and
click, so that a window's page carries only what stands on its places."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence

from markupsafe import escape

from sheets_gm.web.scene import Place, Plane
from sheets_gm.web.svg import (
    HEX,
    HEX_CORNERS,
    MARGIN,
    escaped,
    hex_centre,
    labels,
    lasting_mark,
    plane_size,
    square_side,
)

#: The version of what a ground file draws: part of its name, so a page built by another version draws its own.
FORMAT = "2"
PREFIX = "ground-"


def ground_file(plane: Plane) -> str:
    """The name of the file of ``plane``'s ground: a hash of everything it draws, and of its places' names (the
    names file beside it: ``names_file``)."""
    places = ground_places(plane)  # (each one's name, column, row, colour and ground as p[0]…p[4]: indexed)
    marks = {ground: lasting_mark(ground) for ground in {p.ground for p in places}}  # (a map's few grounds)
    numbers = [str(n) for n in range(max(plane.cols, plane.rows))]  # (each column and row as text once)
    try:
        lines = [f"{p[0]},{numbers[p[1]]},{numbers[p[2]]},{p[3]},{marks[p[4]]}" for p in places]
    except IndexError:  # a place past its plane's size (none is made so): each one's numbers written out
        lines = [f"{p[0]},{p[1]},{p[2]},{p[3]},{marks[p[4]]}" for p in places]
    text = "\x1f".join([FORMAT, plane.shape, str(plane.cols), str(plane.rows), *plane.col_labels, "\x1e",
                        *plane.row_labels, "\x1e", *lines])
    return f"{PREFIX}{hashlib.sha256(text.encode()).hexdigest()[:20]}.svg"


def ground_places(plane: Plane) -> Sequence[Place]:
    """``plane``'s places as its ground draws them: a place a conditional fill colours (``Plane.painted``: a coin's
    square) in the colour the tab's fills give it and without its sign (the page draws it over the ground)."""
    if not plane.painted:
        return plane.places
    places = list(plane.places)
    for i, paint in plane.painted:
        places[i] = places[i]._replace(colour=paint, ground="")
    return places


def names_file(ground: str) -> str:
    """The file beside the ground file ``ground`` of its places' names, columns and rows (``ground-<hash>.js``)."""
    return ground.removesuffix(".svg") + ".js"


def ground_key(ground: str) -> str:
    """What a page's places data names the ground file ``ground`` by (its hash's name, no suffix)."""
    return ground.removesuffix(".svg")


def ground_names_js(plane: Plane, ground: str) -> str:
    """The names file of ``plane`` drawn on the ground file ``ground``: a script that files each place's name,
    column and row under the ground's key (``window.SHEETS_GM_GROUNDS``), as JSON whose '<', '>' and '&' are
    escapes (no name can close the script)."""
    text = json.dumps([p[:3] for p in plane.places], ensure_ascii=False, check_circular=False)  # (name, col, row)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return (f"(window.SHEETS_GM_GROUNDS = window.SHEETS_GM_GROUNDS || {{}})[{json.dumps(ground_key(ground))}] = "
            f"{text};\n")


def ground_svg(plane: Plane) -> str:
    """The SVG file of ``plane``'s ground (a picture of its own: no script, no link out), every text escaped."""
    width, height = plane_size(plane)
    cols, rows = labels(plane)
    side = square_side(plane)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}"><style>.l{{font:bold 10px sans-serif;fill:#444}}.m{{font:12px sans-serif;fill:#111}}'
             '.g{stroke:#9a9a9a;stroke-width:.6}</style>',
             f'<defs><polygon id="hex" points="{HEX_CORNERS}"/></defs>' if plane.shape == "hex" else ""]
    parts += [f'<text class="l" x="{c["x"]}" y="12" text-anchor="middle">{escape(c["text"])}</text>' for c in cols]
    parts += [f'<text class="l" x="{MARGIN - 4}" y="{r["y"]}" text-anchor="end" dominant-baseline="middle">'
              f'{escape(r["text"])}</text>' for r in rows]
    places = ground_places(plane)
    fills = {colour: escaped(colour) for colour in {p.colour for p in places}}  # (a map's few colours and signs,
    marks = {ground: escaped(lasting_mark(ground)) for ground in {p.ground for p in places}}  # each escaped once)
    if plane.shape == "hex":  # each column's centre, and each row's in an even and an odd column, written once
        across, down = _extent(places)
        xs = [f"{hex_centre(c, 0)[0]:.1f}" for c in range(across)]
        ys = [[(f"{cy:.1f}", f"{cy - HEX * 0.45 + 2:.1f}") for cy in (hex_centre(odd, r)[1] for r in range(down))]
              for odd in (0, 1)]
        for p in places:  # (a place's column, row, colour and ground as p[1]…p[4]: a thousand, indexed)
            x, (y, mark_y) = xs[p[1]], ys[p[1] % 2][p[2]]
            parts.append(f'<use class="g" href="#hex" x="{x}" y="{y}" fill="{fills[p[3]]}"/>')
            if marks[p[4]]:
                parts.append(f'<text class="m" x="{x}" y="{mark_y}" text-anchor="middle">{marks[p[4]]}</text>')
    else:  # each column's and each row's part of a square's drawing and its sign's, written once
        across, down = _extent(places)
        lefts = [(f'<rect class="g" x="{x}" y="', f'<text class="m" x="{x + side / 2:.1f}" y="')
                 for x in (MARGIN + c * side for c in range(across))]
        tops = [(f'{y}" width="{side}" height="{side}" fill="', f'{y + 12:.1f}" text-anchor="middle">')
                for y in (MARGIN + r * side for r in range(down))]
        for p in places:
            (square, sign), (top, sign_top) = lefts[p[1]], tops[p[2]]
            parts.append(f'{square}{top}{fills[p[3]]}"/>')
            if marks[p[4]]:
                parts.append(f"{sign}{sign_top}{marks[p[4]]}</text>")
    parts.append("</svg>\n")
    return "".join(parts)


def _extent(places: Sequence[Place]) -> tuple[int, int]:
    """How many columns and rows ``places`` reach (each one's column and row, from 0)."""
    return max((p.col for p in places), default=-1) + 1, max((p.row for p in places), default=-1) + 1


def grounds_in(names: Iterable[str]) -> list[str]:
    """The names of the ground files among ``names`` (a folder's listing), and of their names files."""
    return [name for name in names if name.startswith(PREFIX) and name.endswith((".svg", ".js"))]
