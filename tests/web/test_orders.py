"""A resolution's moves and battles drawn on its map from its public Log lines: an arrow along the places a move's
line names, in order, through each (a unit's name like ``Ann-R1`` is no hex); a battle's ring on the place its line
names, or where the units it names stand; an order that is no move as a mark; in every game, a window with moves
has its arrows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import ruleset_names
from sheets_gm.web.orders import overlays
from sheets_gm.web.page import page_input
from sheets_gm.web.scene import Place, Plane, Scene
from sheets_gm.web.site import drawn
from sheets_gm.web.svg import centre
from tests.web.pages import SHEET, bot_match, build_pages, facts_of

_POINTS = re.compile(r'<polyline class="mv" points="([^"]+)"')


def _scene(name: str) -> Scene:
    rules, _, steps = bot_match(name, 1)
    page = page_input(facts_of(rules, steps[0].after, 1, steps[0]), "t", SHEET)
    return drawn(page.kind, page.drawings).scene


def _at(scene: Scene, k: int, *names: str) -> str:
    places = {p.name: p for p in scene.planes[k].places}
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (centre(scene.planes[k], places[n]) for n in names))


def test_a_move_is_an_arrow_through_the_places_its_line_names() -> None:
    gvg = _scene("gvg")
    (drawing,) = overlays(gvg, [("2", "moved", "red1 moves from C5 to D6 (rolled 1 [2/move/red1]).")])
    assert _POINTS.findall(drawing) == [_at(gvg, 0, "C5", "D6")]
    wesnoth = _scene("wesnoth")
    (drawing,) = overlays(wesnoth, [("2", "moved", "Ann-R1 (Skeleton) moves from P4: O5 N5 M6 (3 moves)")])
    assert _POINTS.findall(drawing) == [_at(wesnoth, 0, "P4", "O5", "N5", "M6")]  # R1 of Ann-R1 is no hex


def test_a_line_names_its_plane_by_its_title_or_by_its_army() -> None:
    coalition = _scene("coalition")
    k, place = next((k, p) for k, plane in enumerate(coalition.planes) for p in plane.places if p.who)
    army = re.sub(r"^[^\w]+", "", place.who[0]).rsplit(" (", 1)[0]
    drawings = overlays(coalition, [("1", "route", f"{army}'s route drawn: 12F 11F"),
                                    ("1", "battle", f"A attacks B, {coalition.planes[-1].title.split(' (')[0]} 11F, "
                                                    "plains (Clear)"),
                                    ("1", "order", f"{army}: hold at Somewhere {place.name}")])
    assert _POINTS.findall(drawings[k]) == [_at(coalition, k, "12F", "11F")]
    assert '<circle class="bt"' in drawings[-1] and '<g class="mk">' in drawings[k] and ">H</text>" in drawings[k]


def test_a_battle_of_units_named_alone_rings_where_they_stand() -> None:
    scene = Scene((Plane("", "hex", 3, 3, ("A", "B", "C"), ("1", "2", "3"),
                         (Place("B2", 1, 1, "#fff", "", ("● Ann-7 (Lancer)",), ""),
                          Place("C2", 2, 1, "#fff", "", ("■ Bo-1 (Orc)",), ""))),), (), (), ())
    (drawing,) = overlays(scene, [("3", "attack", "Ann-7 attacks Bo-1: 2 hits")])
    assert drawing.count('<circle class="bt"') == 2


@pytest.mark.parametrize("name", ruleset_names())
def test_a_window_with_moves_has_its_arrows_on_its_map(tmp_path: Path, name: str) -> None:
    folder = build_pages(tmp_path, *bot_match(name, 3))
    arrows = {page.name: len(_POINTS.findall(page.read_text(encoding="utf-8"))) for page in folder.glob("w*.html")}
    assert any(arrows.values()), arrows
    assert arrows["w0.html"] == 0  # the start: nothing moved yet


def test_every_move_is_drawn_from_its_armys_own_square_to_where_it_ended(tmp_path: Path) -> None:
    """The property, over a war's windows: every army whose square changed on its plane has an arrow from the square
    it stood on before (the board before, public) to the one it ended on, along its route — whether its Log line
    names its end alone (``moved at``), its route drawn (which leaves the start out), or a bump after its battle."""
    from sheets_gm.rulesets.registry import sheet_of
    from sheets_gm.web.orders import positions
    from sheets_gm.web.scene import scene_of

    rules, start, steps = bot_match("coalition", 3)
    folder = build_pages(tmp_path, rules, start, steps)
    adapter = sheet_of(rules)
    moved = 0
    for number, step in enumerate(steps, 1):
        before, after = (scene_of(rules.traits.board_kind, adapter.drawings(s)) for s in (step.before, step.after))
        was, now = positions(before), positions(after)
        arrows = {(points.split()[0], points.split()[-1]) for points in
                  _POINTS.findall((folder / f"w{number}.html").read_text(encoding="utf-8"))}
        for army, (k, place) in now.items():
            if army in was and was[army][0] == k and was[army][1] != place:
                moved += 1
                ends = _at(after, k, was[army][1]), _at(after, k, place)
                assert ends in arrows, f"resolution {number}: {army} from {was[army][1]} to {place} is not drawn"
    assert moved > 20
    index = _POINTS.findall((folder / "index.html").read_text(encoding="utf-8"))  # the latest, from its sidecar
    assert sorted(index) == sorted(_POINTS.findall((folder / f"w{len(steps)}.html").read_text(encoding="utf-8")))
