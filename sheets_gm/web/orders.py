"""A resolution's moves and battles drawn on its map, from its public Log lines alone (what the board's Log says,
nothing else): a move as an arrow along the squares or hexes its line names in order (``moves from B2 to B5``,
``route drawn: 12D 12E 12F``, ``moves from P4: O5 N5 M6``), an order that is no move (a hold, a support, an
intercept, a raid), a bump, a deployment or a recruit as a small mark with its letter, and a battle as a red ring
on every place its line names (a line naming units only, ``Ann-7 attacks Bo-1``, rings the places those units stand
on now). A line names a plane by its title (``Dominaria 19E``), else by the army it is about; a place the map does
not have is left out. Every text is escaped (``markupsafe.escape``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from markupsafe import escape

from sheets_gm.web.latest import battle_kinds
from sheets_gm.web.page import LogLine
from sheets_gm.web.scene import Place, Plane, Scene, marked_places
from sheets_gm.web.svg import centre

#: The Log kinds drawn as an arrow along the places their line names.
ARROW_KINDS = frozenset({"moved", "route", "teleported", "portal"})
#: An order's word (``Urza's Vanguard: hold at Dominaria 7C``) and the letter its mark shows.
ORDER_LETTERS = {"hold": "H", "support": "S", "intercept": "I", "raid": "R", "moved": "", "attack": ""}
#: The letter of a mark of each kind that is neither an arrow nor a battle.
KIND_LETTERS = {"bump": "B", "deployed": "D", "recruited": "+", "revealed": "!", "called": "+", "mercenary": "$",
                "stayed": "H", "raid": "R", "intercept": "I", "transfer": "T"}
_COORD = re.compile(r"(?<![\w/-])(?:[A-Z]{1,2}\d{1,3}|\d{1,3}[A-Z]{1,2})(?![\w/])")
_ORDER = re.compile(r"^(.+?): ([a-z]+) at ")
_ROUTE = re.compile(r"^(.+?)'s route drawn: ")
_BUMP = re.compile(r"^(.+?) is bumped to ")
_UNIT = re.compile(r"\b[A-Z][\w]*-[A-Z]?\d+\b")  # a unit's name by its player: Ann-7, Bo-R1, Ann-L
_GAP = re.compile(r"\s{2,}")  # between two armies of a line
_SIGNS = re.compile(r"^[^\w]+")  # an army's sign before its name
_COUNTS = re.compile(r"\s*\(\d+ · \d+\)\s*$")  # an army's figures after its name
_NAME = attrgetter("name")
LIMIT = 3000  # marks a map draws at most (a war of thousands of armies: the Log lists the rest)


@dataclass(frozen=True, slots=True)
class _Where:
    """The places of a scene by name, each plane's, and the plane each one on the map stands on."""

    places: tuple[dict[str, Place], ...]
    planes: tuple[Plane, ...]
    who: dict[str, tuple[int, Place]]


def _where(scene: Scene) -> _Where:
    who: dict[str, tuple[int, Place]] = {}
    for k, plane in enumerate(scene.planes):
        for place in [p for _, p in marked_places(plane) if p.who]:  # (a map's thousand places, a few dozen stood on)
            for line in place.who:
                for part in _GAP.split(line):
                    name = _COUNTS.sub("", _SIGNS.sub("", part)).strip()
                    if name:
                        who.setdefault(name, (k, place))
                        first = name.split(" ")[0]
                        if _UNIT.fullmatch(first):
                            who.setdefault(first, (k, place))
    return _Where(tuple(dict(zip(map(_NAME, plane.places), plane.places, strict=True)) for plane in scene.planes),
                  scene.planes, who)


def _plane_of(line: str, where: _Where) -> int | None:
    """The plane a line is about: one its words name by title, else the one its army stands on, else the only."""
    for k, plane in enumerate(where.planes):
        title = plane.title.split(" (")[0].strip()
        if title and re.search(rf"\b{re.escape(title)} \S", line):
            return k
    subject = _ROUTE.match(line) or _ORDER.match(line)
    if subject is not None and subject.group(1) in where.who:
        return where.who[subject.group(1)][0]
    return 0 if len(where.planes) == 1 else None


def _places_named(line: str, where: _Where, k: int) -> list[Place]:
    """The places of plane ``k`` the line names, in its order (a name said twice in a row once)."""
    named: list[Place] = []
    for token in _COORD.findall(line):
        place = where.places[k].get(token)
        if place is not None and (not named or named[-1] is not place):
            named.append(place)
    return named


def _arrow(plane: Plane, places: Sequence[Place]) -> str:
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (centre(plane, p) for p in places))
    return f'<polyline class="mv" points="{points}" marker-end="url(#arrow)"/>'


def _ring(plane: Plane, place: Place) -> str:
    x, y = centre(plane, place)
    return f'<circle class="bt" cx="{x:.1f}" cy="{y:.1f}" r="13"/>'


def _mark(plane: Plane, place: Place, letter: str) -> str:
    x, y = centre(plane, place)
    return (f'<g class="mk"><rect x="{x - 14:.1f}" y="{y + 4:.1f}" width="11" height="11" rx="2"/>'
            f'<text x="{x - 8.5:.1f}" y="{y + 13:.1f}" text-anchor="middle">{escape(letter)}</text></g>')


def _drawn(line: LogLine, where: _Where, battle: bool) -> tuple[int, str] | None:
    """What one Log line draws (``battle``: a battle's line), and on which plane; None for a line that names nowhere
    on the map."""
    _, kind, text = line
    arrow = kind in ARROW_KINDS
    order = _ORDER.match(text) if kind == "order" else None
    letter = ORDER_LETTERS.get(order.group(2), "") if order else KIND_LETTERS.get(kind, "")
    if not (battle or arrow or letter):
        return None
    k = _plane_of(text, where)
    if k is None:
        return None
    plane = where.planes[k]
    named = _places_named(text, where, k)
    if battle and not named:  # units named alone: the places they stand on now
        named = [p for unit in dict.fromkeys(_UNIT.findall(text)) if (found := where.who.get(unit)) and
                 found[0] == k for p in (found[1],)]
    if not named:
        return None
    if arrow:
        return (k, _arrow(plane, named)) if len(named) > 1 else None
    if battle:
        return k, "".join(_ring(plane, p) for p in named)
    return k, "".join(_mark(plane, p, letter) for p in named)


def drawn_kinds(game: str) -> frozenset[str]:
    """The Log kinds the page draws on a map of the game of registry name ``game`` (a line of these kinds naming its
    places): a move's arrow, a mark's letter, an order's letter, a battle's rings."""
    return ARROW_KINDS | KIND_LETTERS.keys() | {"order"} | battle_kinds(game)


#: Where each one on a map stands: its name, then its plane's index and its place's name (the board before a
#: resolution, public: where its moves start).
Positions = Mapping[str, Sequence[Any]]


def positions(scene: Scene) -> dict[str, list[Any]]:
    """Where each army or unit on ``scene``'s map stands, by name (``Positions``)."""
    return {name: [k, place.name] for name, (k, place) in _where(scene).who.items()}


def moving(log: Sequence[LogLine], starts: Positions) -> dict[str, list[Any]]:
    """Of ``starts``, those of the armies ``log`` moves (its route and move lines name them): what a resolution's
    moves are drawn from, kept with its Log."""
    named = (_subject(text) for _, kind, text in log if kind in _MOVING)
    return {name: list(starts[name]) for name in dict.fromkeys(named) if name in starts}


def _subject(text: str) -> str:
    """The army a route's or an order's line is about ('' for none)."""
    found = _ROUTE.match(text) or _ORDER.match(text) or _BUMP.match(text)
    return found.group(1) if found is not None else ""


def overlays(scene: Scene, log: Sequence[LogLine], game: str = "", starts: Positions | None = None) -> tuple[str, ...]:
    """Each plane's drawing of ``log``'s moves, marks and battles (the kinds of a battle in ``game``, its registry
    name), over the map of ``scene`` ('' where none). A move the Log names by its end alone (``X: moved at
    Dominaria 7C``), or by the route drawn for it (which leaves its start out), is an arrow from the square it
    started on (``starts``: the board before, public) along that route to its end."""
    if not log:
        return tuple("" for _ in scene.planes)
    where = _where(scene)
    battles = battle_kinds(game)
    parts: list[list[str]] = [[] for _ in scene.planes]
    routes: dict[str, tuple[int, list[Place]]] = {}  # each army's move: its plane, its places in order
    for line in log[:LIMIT]:
        if _route_part(line, where, routes):
            continue
        drawn = _drawn(line, where, line[1] in battles)
        if drawn is not None:
            parts[drawn[0]].append(drawn[1])
    for army, (k, places) in routes.items():
        start = (starts or {}).get(army)
        first = where.places[k].get(str(start[1])) if start is not None and start[0] == k else None
        path = [first, *places] if first is not None and first is not places[0] else places
        if len(path) > 1:
            parts[k].append(_arrow(where.planes[k], path))
    return tuple(f'<g class="orders" aria-hidden="true">{"".join(p)}</g>' if p else "" for p in parts)


#: The Log kinds of the lines that make up an army's move: its route drawn, its order (``moved at`` its end), the
#: bump that sends it on after its battle.
_MOVING = frozenset({"route", "order", "bump"})


def _route_part(line: LogLine, where: _Where, routes: dict[str, tuple[int, list[Place]]]) -> bool:
    """Whether ``line`` is drawn as part of an army's move alone (its route drawn, or its move's end), kept in
    ``routes``: the army's places in order on the plane its move ends on (a bump goes on from there, and keeps its
    mark: False)."""
    _, kind, text = line
    order = _ORDER.match(text) if kind == "order" else None
    bump = kind == "bump" and _BUMP.match(text) is not None
    if kind != "route" and not bump and (order is None or order.group(2) != "moved"):
        return False
    army = _subject(text)
    k = _plane_of(text, where)
    named = _places_named(text, where, k) if k is not None else []
    if k is not None and named:
        was = routes.get(army)
        if was is None or was[0] != k:
            routes[army] = (k, named)
        else:
            was[1].extend(p for p in named if p is not was[1][-1])
    return not bump


_MOVER = re.compile(r"^(.+?)(?: \([^)]*\))? (?:moves|passes|teleports)\b")  # a move's line: who moves


def routes(scene: Scene, log: Sequence[LogLine]) -> dict[str, list[tuple[int, str]]]:
    """Each army's or unit's way in ``log``: the places its move's lines name in order (its route drawn, its move's
    end, a bump, a portal to another plane), each as its plane's index and its name, by the name the lines give it
    (``scene``: the map after them, which tells a line's plane)."""
    where = _where(scene)
    ways: dict[str, list[tuple[int, str]]] = {}
    for _, kind, text in log[:LIMIT]:
        order = _ORDER.match(text) if kind == "order" else None
        if (kind not in _MOVING and kind not in ARROW_KINDS) or (order is not None and order.group(2) != "moved"):
            continue
        mover = _MOVER.match(text)
        army = _subject(text) or (mover.group(1) if mover is not None else "")
        plane = _plane_of(text, where) if army else None
        if plane is None:
            continue
        way = ways.setdefault(army, [])
        for place in _places_named(text, where, plane):
            if not way or way[-1] != (plane, place.name):
                way.append((plane, place.name))
    return ways


def squares_of(scene: Scene, lines: Sequence[LogLine]) -> list[str]:
    """Where each of ``lines`` happened on ``scene``'s map, as the page's script finds a place (``k:i``: the plane's
    index, the place's in it): the last place the line names (a move's end, a battle's square), or where the
    units it names stand; '' for a line that names nowhere on the map."""
    where = _where(scene)
    index = [{place.name: i for i, place in enumerate(plane.places)} for plane in scene.planes]
    out = []
    for _, _, text in lines:
        k = _plane_of(text, where)
        named = _places_named(text, where, k) if k is not None else []
        if k is None or not named:
            found = next((where.who[u] for u in _UNIT.findall(text) if u in where.who), None) or \
                where.who.get(_subject(text))
            k, named = (found[0], [found[1]]) if found is not None else (None, [])
        out.append(f"{k}:{index[k][named[-1].name]}" if k is not None and named else "")
    return out


def with_overlay(svg: str, overlay: str) -> str:
    """A plane's SVG with ``overlay`` drawn over its places (under its definitions)."""
    return svg.replace("\n<defs>", f"\n{overlay}\n<defs>", 1) if overlay else svg
