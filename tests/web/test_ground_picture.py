"""A map's ground picture is drawn apart from the places a page draws over it: each hex of it must stand where the
page's own drawing puts that hex (``svg.hex_centre``), and its lasting sign where a page writes a hex's sign. The
property, for every hex map of every game over three windows: the picture's hexes, in the order of the plane's
places, stand at each place's centre, and each sign at its hex's centre, a little up."""

from __future__ import annotations

import re

import pytest

from sheets_gm.engine.ruleset import BoardKind
from sheets_gm.rulesets.registry import create_ruleset, ruleset_names, sheet_of
from sheets_gm.web.ground import ground_svg
from sheets_gm.web.scene import scene_of
from sheets_gm.web.svg import HEX, hex_centre, lasting_mark
from tests.web.pages import bot_match

_HEX = re.compile(r'<use class="g" href="#hex" x="([^"]+)" y="([^"]+)"')
_SIGN = re.compile(r'<text class="m" x="([^"]+)" y="([^"]+)"')


@pytest.mark.parametrize("name", [n for n in ruleset_names()
                                  if create_ruleset(n).traits.board_kind is BoardKind.HEX])
def test_every_hex_of_the_ground_stands_where_the_page_draws_it(name: str) -> None:
    rules, start, steps = bot_match(name, 3)
    adapter = sheet_of(rules)
    for state in (start, *(step.after for step in steps)):
        for plane in scene_of(BoardKind.HEX, adapter.drawings(state)).planes:
            picture = ground_svg(plane)
            centres = [hex_centre(p.col, p.row) for p in plane.places]
            assert _HEX.findall(picture) == [(f"{x:.1f}", f"{y:.1f}") for x, y in centres]
            assert _SIGN.findall(picture) == [(f"{x:.1f}", f"{y - HEX * 0.45 + 2:.1f}") for (x, y), p in
                                              zip(centres, plane.places, strict=True) if lasting_mark(p.ground)]
