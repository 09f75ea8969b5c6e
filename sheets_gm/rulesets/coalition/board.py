"""The three planes as data: squares, terrain, structures and portals, read from YAML with errors naming the line.

A map file (``templates/coalition/map.yaml``, or a scenario's ``planes``) lists each plane:

    planes:
      Dominaria:
        size: 24x9          # columns x rows (rows A, B, ...)
        wrap: false         # Mirrodin: true (a step may cross an edge)
        terrain: plains     # the default terrain
        rows: [...]         # optional: a string per row, a letter per square (p i s m f o)
        squares:            # squares that differ, and every structure
          3A: {terrain: forest}
          5B: {structure: base, name: Wrath, colour: red}
          6D: {structure: portal, to: Phyrexia 1A}

A position is a *place*, written ``Dominaria 3A``: the plane's name, a space, the square.
The engine keeps places as those texts (they are the keys of the log, the dice and the sheet).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sheets_gm.engine.planes import Plane, Square
from sheets_gm.engine.topology import cheapest_routes
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import TERRAIN_BY_LETTER, Colour, Side, StructureKind, Terrain
from sheets_gm.yamlio import YamlError, load_yaml_text

_SIZE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")
#: The home plane of each player side; every other plane is neutral.
HOME_PLANES = {Side.COALITION: "Dominaria", Side.PHYREXIA: "Phyrexia"}


class PlaceError(ValueError):
    """A square that is not on the map, or a text that is not a square."""


@dataclass(frozen=True, slots=True)
class Structure:
    """A named square surrounded by a coloured rectangle on the forum's map."""

    name: str
    kind: StructureKind
    at: str  # the place, "Dominaria 5B"
    colour: Colour | None = None  # a base's faction
    to: str | None = None  # a portal's linked place

    def owner(self) -> Side | None:
        """The side whose structure it is (bases: the Coalition; strongholds: Phyrexia); None if neutral."""
        if self.kind is StructureKind.BASE:
            return Side.COALITION
        if self.kind is StructureKind.STRONGHOLD:
            return Side.PHYREXIA
        return None


class Board:
    """The planes of a match with their terrain and structures; every lookup by place text."""

    def __init__(self, planes: dict[str, Plane], terrain: dict[str, Terrain],
                 structures: list[Structure], text: str) -> None:
        self.planes = planes
        self.text = text
        self.structures = tuple(structures)
        self.structure_at: dict[str, Structure] = {s.at: s for s in structures}
        self.by_name: dict[str, Structure] = {s.name.lower(): s for s in structures}
        self._square: dict[str, tuple[Plane, Square]] = {}
        self.order: dict[str, int] = {}  # reading order over the whole map: planes in file order
        for plane in planes.values():
            for sq in plane.cells():
                place = f"{plane.name} {sq.label}"
                self._square[place] = (plane, sq)
                self.order[place] = len(self.order)
        self.terrain = terrain
        self._neighbours: dict[str, tuple[str, ...]] = {}
        self._rings: dict[tuple[str, int], list[str]] = {}
        self._routes: dict[tuple[str, str], list[tuple[str, ...]]] = {}  # the board never changes: routes keep
        self._gaps: dict[tuple[str, ...], dict[str, int]] = {}

    # -- reading places --------------------------------------------------------------------
    def places(self) -> Iterator[str]:
        """Every place, in reading order (plane by plane)."""
        return iter(self.order)

    def plane_of(self, place: str) -> Plane:
        """The plane a place is on."""
        return self._square[place][0]

    def square_of(self, place: str) -> Square:
        """The square of a place on its plane."""
        return self._square[place][1]

    def short(self, place: str) -> str:
        """The square without its plane: ``3A``."""
        return self._square[place][1].label

    def terrain_of(self, place: str) -> Terrain:
        """The place's terrain."""
        return self.terrain[place]

    def parse(self, text: str, plane: str | None = None) -> str:
        """A place from ``Mirrodin 3A`` or, on ``plane``, ``3A``; PlaceError saying what would be accepted."""
        raw = str(text).strip()
        name, _, rest = raw.rpartition(" ")
        if name:
            found = self._plane(name)
            if found is None:
                raise PlaceError(f"{raw!r}: there is no plane {name.strip()!r}; the planes are "
                                 f"{', '.join(self.planes)}")
        elif plane is not None:
            found = self.planes[plane]
            rest = raw
        else:
            raise PlaceError(f"{raw!r}: name the plane and the square, like {next(iter(self.planes))} 3A")
        try:
            square = found.parse(rest)
        except kit.CoordError as exc:
            raise PlaceError(str(exc)) from None
        return f"{found.name} {square.label}"

    def _plane(self, name: str) -> Plane | None:
        for plane in self.planes.values():
            if plane.name.lower() == name.strip().lower():
                return plane
        return None

    def plane_named(self, name: str) -> Plane | None:
        """The plane called ``name`` (case does not matter), or None."""
        return self._plane(name)

    # -- geometry ----------------------------------------------------------------------------
    def neighbours(self, place: str) -> tuple[str, ...]:
        """The places one orthogonal step away (across the edges of a wrapping plane)."""
        found = self._neighbours.get(place)
        if found is None:
            plane, sq = self._square[place]
            found = self._neighbours[place] = tuple(f"{plane.name} {n.label}" for n in plane.neighbours(sq))
        return found

    def distance(self, a: str, b: str) -> int | None:
        """Orthogonal steps between two places on one plane (None across planes)."""
        pa, sa = self._square[a]
        pb, sb = self._square[b]
        if pa is not pb:
            return None
        return pa.distance(sa, sb)

    def routes(self, start: str, end: str) -> list[tuple[str, ...]]:
        """Every shortest route from ``start`` to ``end`` (places entered, end included), in the
        canonical order of a draw (by their squares in reading order)."""
        found = self._routes.get((start, end))
        if found is not None:
            return found
        plane, a = self._square[start]
        pb, b = self._square[end]
        found = [] if plane is not pb else [tuple(f"{plane.name} {s.label}" for s in route)
                                            for route in cheapest_routes(plane, a, b, lambda _s: 1)]
        self._routes[(start, end)] = found
        return found

    def goal_gap(self, place: str, goals: tuple[str, ...]) -> int:
        """Steps from ``place`` to the nearest of ``goals`` (a goal on another plane counts 0). Kept per goal
        set: the bots ask it for every square an army may reach, every turn, and a match has few goal sets."""
        table = self._gaps.get(goals)
        if table is None:
            if len(self._gaps) >= 4096:  # a long simulation meets new goal sets without end
                self._gaps.clear()
            table = self._gaps[goals] = {}
        found = table.get(place)
        if found is None:
            found = table[place] = min(self.distance(place, g) or 0 for g in goals)
        return found

    def ring(self, place: str, radius: int) -> list[str]:
        """The places exactly ``radius`` king steps away (diagonals count as one), in reading order."""
        key = (place, radius)
        found = self._rings.get(key)
        if found is not None:
            return found
        plane, sq = self._square[place]
        out: set[str] = set()
        for dc in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                if max(abs(dc), abs(dr)) != radius:
                    continue
                col, row = sq.col + dc, sq.row + dr
                if plane.wrap:
                    col, row = col % plane.width, row % plane.height
                other = Square(col, row)
                if plane.contains(other) and other != sq:
                    out.add(f"{plane.name} {other.label}")
        found = self._rings[key] = sorted(out, key=self.order.__getitem__)
        return found

    @cached_property
    def max_radius(self) -> int:
        """The widest ring any plane has."""
        return max(max(p.width, p.height) for p in self.planes.values())

    # -- structures --------------------------------------------------------------------------
    def features(self, plane: str) -> list[Structure]:
        """The terrain features of a plane, in reading order."""
        return [s for s in self.structures if s.kind is StructureKind.FEATURE and s.at.startswith(plane + " ")]

    def to_text(self) -> str:
        """The map as its YAML text."""
        return self.text


def load_board(text: str, where: str) -> Board:
    """A board from a map file's text; ValueError naming ``where`` and the line of what is wrong."""
    try:
        doc = load_yaml_text(text, where)
    except YamlError as exc:
        raise ValueError(str(exc)) from None
    f = kit.Fields(where)
    top = f.mapping(doc, 1, "the map", ("planes",))
    return board_from_planes(top.get("planes"), top.line_of("planes"), f, text)


def board_from_planes(value: Any, line: int, f: kit.Fields, text: str) -> Board:
    """A board from a ``planes`` mapping (a map file's or a scenario's); errors name the line."""
    planes_doc = f.mapping(value, line, "planes")
    if not planes_doc:
        raise f.fail(line, "planes: list at least one plane, like Dominaria: {size: 24x9}")
    planes: dict[str, Plane] = {}
    terrain: dict[str, Terrain] = {}
    pending: list[tuple[Structure, int]] = []
    for name, spec_value in planes_doc.items():
        planes[name] = _read_plane(name, spec_value, planes_doc.line_of(name), f, terrain, pending)
    board = Board(planes, terrain, [], text)
    return Board(planes, terrain, _placed_structures(board, pending, f), text)


def _read_plane(name: str, spec_value: Any, pline: int, f: kit.Fields, terrain: dict[str, Terrain],
                pending: list[tuple[Structure, int]]) -> Plane:
    """One plane of ``planes``: its size, its squares' terrain (into ``terrain``) and the structures its squares
    hold (into ``pending``, placed once every plane is known)."""
    if " " in name.strip() or not name.strip():
        raise f.fail(pline, f"plane name {name!r}: one word, like Dominaria")
    spec = f.mapping(spec_value, pline, f"plane {name}", ("size", "wrap", "terrain", "rows", "squares"))
    size = _SIZE.match(str(spec.get("size", "")))
    if size is None:
        raise f.fail(spec.line_of("size"), f"plane {name}: size is columns x rows, like 24x9")
    try:
        plane = Plane(name, int(size.group(1)), int(size.group(2)), wrap=bool(spec.get("wrap", False)))
    except ValueError as exc:
        raise f.fail(spec.line_of("size"), str(exc)) from None
    default = f.choice(Terrain, spec.get("terrain", "plains"), spec.line_of("terrain"), "terrain")
    rows = f.sequence(spec.get("rows"), spec.line_of("rows"), f"plane {name} rows")
    if rows and len(rows) != plane.height:
        raise f.fail(spec.line_of("rows"), f"plane {name}: rows lists {len(rows)} rows; it has {plane.height}")
    for sq in plane.cells():
        letter = str(rows[sq.row]).replace(" ", "")[sq.col:sq.col + 1] if rows else ""
        if rows and (len(str(rows[sq.row]).replace(" ", "")) != plane.width or letter not in TERRAIN_BY_LETTER):
            raise f.fail(spec.line_of("rows"), f"plane {name}, row {chr(65 + sq.row)}: write {plane.width} "
                                               f"letters among {' '.join(TERRAIN_BY_LETTER)} "
                                               "(plains islands swamp mountains forest ocean)")
        terrain[f"{name} {sq.label}"] = TERRAIN_BY_LETTER[letter] if letter else default
    squares = f.mapping(spec.get("squares"), spec.line_of("squares"), f"plane {name} squares")
    for label, entry_value in squares.items():
        sline = squares.line_of(label)
        try:
            place = f"{name} {plane.parse(label).label}"
        except kit.CoordError as exc:
            raise f.fail(sline, str(exc)) from None
        _read_square(place, label, entry_value, sline, f, terrain, pending)
    return plane


def _read_square(place: str, label: str, entry_value: Any, sline: int, f: kit.Fields, terrain: dict[str, Terrain],
                 pending: list[tuple[Structure, int]]) -> None:
    """One entry of a plane's ``squares``: its terrain, and the structure it holds."""
    entry = f.mapping(entry_value, sline, f"square {label}", ("terrain", "structure", "name", "colour", "to"))
    if "terrain" in entry:
        terrain[place] = f.choice(Terrain, entry["terrain"], sline, "terrain")
    if "structure" in entry:
        kind = f.choice(StructureKind, entry["structure"], sline, "structure")
        colour = f.choice(Colour, entry["colour"], sline, "colour") if "colour" in entry else None
        if kind is StructureKind.BASE and colour is None:
            raise f.fail(sline, f"base at {place}: give its colour (white, blue, black, red or green)")
        if kind is StructureKind.PORTAL and "to" not in entry:
            raise f.fail(sline, f"portal at {place}: give the square it leads to, like to: Phyrexia 1A")
        fallback = f"Portal {place}" if kind is StructureKind.PORTAL else ""
        struct_name = str(entry.get("name") or fallback)
        if not struct_name.strip():
            raise f.fail(sline, f"{kind.value} at {place}: give its name")
        to = str(entry["to"]) if kind is StructureKind.PORTAL else None
        pending.append((Structure(struct_name.strip(), kind, place, colour, to), sline))
    elif set(entry) & {"name", "colour", "to"}:
        raise f.fail(sline, f"square {label}: name, colour and to belong to a structure; add structure: "
                            "base, stronghold, feature or portal")


def _placed_structures(board: Board, pending: list[tuple[Structure, int]], f: kit.Fields) -> list[Structure]:
    """The structures read from the squares, names unique and each portal's target checked on ``board``."""
    structures: list[Structure] = []
    names: set[str] = set()
    for structure, sline in pending:
        if structure.name.lower() in names:
            raise f.fail(sline, f"structure name {structure.name!r} is used twice")
        names.add(structure.name.lower())
        if structure.to is not None:
            plane_name = structure.to.strip().rpartition(" ")[0]
            if plane_name and board.plane_named(plane_name) is None:
                # a scenario may draw one plane only: its portals lead nowhere on this map (armies stay on them)
                structures.append(Structure(structure.name, structure.kind, structure.at, None, None))
                continue
            try:
                to = board.parse(structure.to)
            except PlaceError as exc:
                raise f.fail(sline, f"portal {structure.name}: {exc}") from None
            if to.split(" ")[0] == structure.at.split(" ")[0]:
                raise f.fail(sline, f"portal {structure.name}: it leads to {to}, on its own plane; a portal leads "
                                    "to another plane")
            structure = Structure(structure.name, structure.kind, structure.at, None, to)
        structures.append(structure)
    return structures
