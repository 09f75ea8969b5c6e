"""The places' data every page carries (what hovering and clicking show) is written by hand for speed: it must be the
templates' ``tojson`` of the same lists to the byte, for every game's board and whatever a player typed. The
property: ``site.places_json`` of a scene equals jinja2's ``htmlsafe_json_dumps`` of its places' lists, built here
the plain way (each plane's ground key, then each place that is not bare ground alone: index, ground, who, makeup)."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2.utils import htmlsafe_json_dumps

from sheets_gm.engine.ruleset import BoardKind
from sheets_gm.rulesets.registry import ruleset_names, sheet_of
from sheets_gm.web.ground import ground_file, ground_key
from sheets_gm.web.scene import Place, Plane, Scene, marked_places, scene_of
from sheets_gm.web.site import places_json
from tests.web.pages import bot_match
from tests.web.test_escaping import HOSTILE, _page

#: Texts JSON writes with escapes of its own: quotes, a backslash, control characters, past the Basic Multilingual
#: Plane, the line separators a script once could not hold.
AWKWARD = ('"quoted" \\ back', "tab\there\nline\r\x00\x1f", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🐉", "\u2028\u2029", "é ♣ ⌂●")


def _plain(scene: Scene, grounds: tuple[str, ...]) -> str:
    data: list[Any] = [[ground_key(ground), [[i, p.ground, "\n".join(p.who), p.makeup] for i, p in
                                             enumerate(plane.places) if p.ground or p.who or p.makeup]]
                       for plane, ground in zip(scene.planes, grounds, strict=True)]
    return str(htmlsafe_json_dumps(data, sort_keys=True))


def _same(scene: Scene) -> None:
    grounds = tuple(ground_file(plane) for plane in scene.planes)
    assert str(places_json(scene, grounds)) == _plain(scene, grounds)


@pytest.mark.parametrize("name", ruleset_names())
def test_every_games_places_are_the_templates_json(name: str) -> None:
    rules, start, steps = bot_match(name, 3)
    adapter = sheet_of(rules)
    for state in (start, *(step.after for step in steps)):
        _same(scene_of(rules.traits.board_kind, adapter.drawings(state)))


@pytest.mark.parametrize("kind", list(BoardKind))
def test_what_a_player_typed_is_the_templates_json(kind: BoardKind) -> None:
    for text in (*HOSTILE, *AWKWARD):
        _same(scene_of(kind, _page(text, "board.xlsx", kind).drawings))
    places = tuple(Place(f"A{k}", k, 0, "#FFFFFF", text, (text, text), text) for k, text in enumerate(AWKWARD))
    _same(Scene((Plane("", "square", len(places), 1, tuple("A" * len(places)), ("1",), places),), (), (), ()))


def _bare_outside_marked(scene: Scene) -> None:
    for plane in scene.planes:
        looked = {i for i, _ in marked_places(plane)}
        assert looked == set(range(len(plane.places))) or plane.marked is not None
        assert [i for i, p in enumerate(plane.places) if i not in looked and
                (p.ground or p.who or p.makeup or p.symbol or p.frame)] == []


@pytest.mark.parametrize("name", ruleset_names())
def test_every_place_more_than_bare_ground_is_among_the_marked(name: str) -> None:
    """The places the page draws over the ground and lists are looked for among those the scene marks as more than
    bare ground (``Plane.marked``): none left outside is, for every game's board over a bot match, and for what a
    player typed. A square map says which (GvG's 345 squares: 40-odd looked at, not 345)."""
    rules, start, steps = bot_match(name, 3)
    adapter = sheet_of(rules)
    for state in (start, *(step.after for step in steps)):
        scene = scene_of(rules.traits.board_kind, adapter.drawings(state))
        _bare_outside_marked(scene)
        if name == "gvg":
            (plane,) = scene.planes
            assert plane.marked is not None and len(list(marked_places(plane))) < len(plane.places) / 4
    for text in (*HOSTILE, *AWKWARD):
        _bare_outside_marked(scene_of(rules.traits.board_kind, _page(text, "board.xlsx", rules.traits.board_kind)
                                      .drawings))
