"""A map's ground picture is drawn apart from the places a page draws over it: each square or hex of it must stand
where the page's own drawing puts that place (``svg.hex_centre``, ``svg.square_side``), and its lasting sign where a
page writes a place's sign. The property, for every map of every game over three windows: the picture's squares or
hexes, in the order of the plane's places, stand where each place does, and each sign where its place's is written."""

from __future__ import annotations

import re

import pytest

from sheets_gm.rulesets.registry import create_ruleset, ruleset_names, sheet_of
from sheets_gm.web.ground import ground_places, ground_svg
from sheets_gm.web.scene import Plane, scene_of
from sheets_gm.web.svg import HEX, MARGIN, hex_centre, lasting_mark, square_side
from tests.web.pages import bot_match

_HEX = re.compile(r'<use class="g" href="#hex" x="([^"]+)" y="([^"]+)"')
_SQUARE = re.compile(r'<rect class="g" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"')
_SIGN = re.compile(r'<text class="m" x="([^"]+)" y="([^"]+)"')


def _drawn_where_the_page_draws(plane: Plane) -> None:
    picture = ground_svg(plane)
    marked = [bool(lasting_mark(p.ground)) for p in ground_places(plane)]  # (a coin's square: no sign)
    if plane.shape == "hex":
        centres = [hex_centre(p.col, p.row) for p in plane.places]
        assert _HEX.findall(picture) == [(f"{x:.1f}", f"{y:.1f}") for x, y in centres]
        signs = [(f"{x:.1f}", f"{y - HEX * 0.45 + 2:.1f}") for (x, y), m in zip(centres, marked, strict=True) if m]
    else:
        side = square_side(plane)
        corners = [(MARGIN + p.col * side, MARGIN + p.row * side) for p in plane.places]
        assert _SQUARE.findall(picture) == [(str(x), str(y), str(side), str(side)) for x, y in corners]
        signs = [(f"{x + side / 2:.1f}", f"{y + 12:.1f}") for (x, y), m in zip(corners, marked, strict=True) if m]
    assert _SIGN.findall(picture) == signs


@pytest.mark.parametrize("name", ruleset_names())
def test_every_place_of_the_ground_stands_where_the_page_draws_it(name: str) -> None:
    rules, start, steps = bot_match(name, 3)
    adapter = sheet_of(rules)
    for state in (start, *(step.after for step in steps)):
        for plane in scene_of(create_ruleset(name).traits.board_kind, adapter.drawings(state)).planes:
            _drawn_where_the_page_draws(plane)
