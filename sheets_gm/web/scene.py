"""The public board as the page draws it: the game's public tabs (its sheet adapter's ``drawings``, nobody's view of
the state, exactly what the board spreadsheet shows) read into places with a name, a colour, the ground and who
stands there, for each geometry the engine knows (``BoardKind``): a square grid (a map named by the spreadsheet's
cells, or one with its own letters and numbers round it), planes of numbered columns and lettered rows, and hexes
drawn two cells to a hex. The page reads nothing else of the match: what the board does not show, it cannot."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple, cast

from sheets_gm.engine.grid import column_label
from sheets_gm.engine.ruleset import BoardKind
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.web.cells import Cells, texts


class Place(NamedTuple):
    """A square or hex: its name as the game writes it, where it stands in its plane's grid (0-based column and
    row), its colour, the ground (terrain, structures) in the board's words, who stands there (a line each), what a
    click on it opens ('' when nobody is there), the symbol drawn for its occupant and the occupant's colour. (A
    named tuple: a map makes a thousand, four times faster than a frozen dataclass.)"""

    name: str
    col: int
    row: int
    colour: str
    ground: str
    who: tuple[str, ...]
    makeup: str
    symbol: str = ""  # '' (none), 'unit', 'coalition', 'phyrexia', 'mercenary'
    tint: str = ""  # the occupant's colour: its owner's or its faction's
    frame: str = ""  # the colour of the rectangle round a structure's square ('' for none)


def standing(place: Place) -> int:
    """How many stand on ``place``: its lines of who, each army of a crowd's line run on (two spaces apart) counted,
    a battle's own line (``⚔ battle (attacks)``) not: it is what they do, nobody more."""
    return sum(len(_RUN_ON.split(line.strip())) for line in place.who if not line.startswith(BATTLE_SIGN))


#: The sign of a battle's line among who stands on a square.
BATTLE_SIGN = "⚔ "
_RUN_ON = re.compile(r"\s{2,}")


#: A ``Place`` of its ten fields, given as a tuple (tuple's own constructor, as ``Place._make`` without its check of
#: the count: no call of Python's for each of a map's thousand places).
_place_of = cast(Callable[[tuple[Any, ...]], Place], partial(tuple.__new__, Place))


@dataclass(frozen=True, slots=True)
class Plane:
    """One map: a title, its geometry (``square`` or ``hex``), its size and labels, and its places."""

    title: str
    shape: str
    cols: int
    rows: int
    col_labels: tuple[str, ...]
    row_labels: tuple[str, ...]
    places: tuple[Place, ...]
    #: the places (each by its index) whose colour is no fill's of the tab but a conditional fill's on the sign the
    #: cell starts with, which comes and goes (GvG's coin; not a tile shaded by its own name, as Champions' are),
    #: each with the colour the tab's fills give it: its ground draws that colour and no sign, and the page draws
    #: the place over it (the ground stays as the coins are taken)
    painted: tuple[tuple[int, str], ...] = ()
    #: the indices, in order, of every place that may be more than bare ground (someone, a ground, a sign, a frame,
    #: something a click opens): the places the page draws over the ground and lists are among them (GvG's map of
    #: 345 squares names 30-odd); None when the scene did not say (each place looked at: ``marked_places``)
    marked: tuple[int, ...] | None = None


def marked_places(plane: Plane, also: Set[int] = frozenset()) -> Iterable[tuple[int, Place]]:
    """Each place of ``plane`` (with its index, in order) that may be more than bare ground, those ``Plane.marked``
    names (every place when it names none), and those of indices ``also``."""
    places = plane.places
    if plane.marked is None:
        return enumerate(places)
    return [(i, places[i]) for i in (sorted({*plane.marked, *also}) if also else plane.marked)]


@dataclass(frozen=True, slots=True)
class Table:
    """A table of the public board (the players under GvG's map, Wesnoth's unit types): its title, its rows, the
    first the header."""

    title: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Scene:
    """What the page draws of one state: the maps, the tables under them, the other public tabs, the legend."""

    planes: tuple[Plane, ...]
    tables: tuple[Table, ...]
    references: tuple[Table, ...]
    legend: tuple[str, ...]


#: The signs a plane's square starts an army's line with, and the symbol the page draws for each.
ARMY_SIGNS = {"◆": "coalition", "●": "phyrexia", "○": "mercenary"}
#: The colours of the two sides' signs where the board gives a unit no colour of its own (GvG's teams, Win or Die's
#: legions: ▼ the first side, ▲ the second).
SIGN_TINTS = {"▼": "#E06666", "▲": "#6FA8DC"}
_FACTIONS = re.compile(r"factions ([a-z]+)")
#: The rectangle round a structure's square, as the rulebook colours it (2.1, 5): a base in its faction's colour, a
#: stronghold orange, a terrain feature yellow, a portal pink; a destroyed structure grey.
FRAMES = {"▲": "#E69138", "★": "#F1C232", "◎": "#E377C2", "✕": "#777777"}
FACTION_COLOURS = {"white": "#FFFFFF", "blue": "#3D85C6", "black": "#222222", "red": "#CC0000", "green": "#38761D"}
_BASE = re.compile(r"\((white|blue|black|red|green)")
_COORD = re.compile(r"^[A-Z]+\d+$")
#: A hex's name at the start of its upper cell (``AA12⌂■``: a long name takes its signs without a space).
_HEX_PARTS = re.compile(r"([A-Z]+\d+)(.*)", re.DOTALL)


def scene_of(kind: BoardKind, drawings: Sequence[BoardDrawing]) -> Scene:
    """The scene of a state drawn as ``drawings`` (nobody's view) on a board of ``kind``."""
    if kind is BoardKind.PLANES:
        return _planes(drawings)
    if kind is BoardKind.HEX:
        return _hexes(drawings)
    return _squares(drawings)


def _legend(drawings: Sequence[BoardDrawing]) -> tuple[str, ...]:
    lines: list[str] = []
    for drawing in drawings:
        lines += [str(row[0]) for row in drawing.legend if row and row[0] not in (None, "")]
    return tuple(dict.fromkeys(lines))


def _table(title: str, rows: Sequence[Sequence[str]]) -> Table:
    width = max((len(r) for r in rows), default=0)
    while width and all(len(r) < width or not r[width - 1] for r in rows):
        width -= 1
    return Table(title, tuple(tuple(r) if len(r) == width else (*r[:width], *[""] * (width - len(r))) for r in rows))


def _blocks(cells: Cells, first: int) -> list[list[list[str]]]:
    """The rows from ``first`` on, in blocks between empty rows."""
    blocks: list[list[list[str]]] = [[]]
    for row in cells.rows[first:]:
        if any(row):
            blocks[-1].append(row)
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _references(drawings: Sequence[BoardDrawing]) -> tuple[Table, ...]:
    """The public tabs that are no map (Wesnoth's unit types, Win or Die's cards, the Coalition's turn report)."""
    out = []
    for drawing in drawings:
        rows = [r for r in texts(drawing) if any(r)]
        if rows:
            out.append(_table(drawing.tab, rows))  # no tab of its own (the Coalition's turn report): the page names it
    return tuple(out)


def _tint(cells: Cells, value: str, who: Sequence[str]) -> str:
    """An occupant's colour: its owner's, as the board's conditional fills give it, else its side's sign's."""
    return cells.owner_colour(value) or next((SIGN_TINTS[ch] for line in who for ch in line if ch in SIGN_TINTS), "")


def _header(table: Table) -> tuple[str, ...]:
    """A table's header: its first row of three cells or more (a first row of one cell is its caption)."""
    return next((row for row in table.rows if _filled(row) >= 3), table.rows[0] if table.rows else ())


def _filled(row: Sequence[str]) -> int:
    """How many cells of a table's row hold something (a table's cells are text, '' when empty)."""
    return len(row) - row.count("")


def _names(cell: str, line: str) -> bool:
    return bool(re.search(rf"(?<!\w){re.escape(cell)}(?!\w)", line))


class _Rows:
    """The rows of some tables of the board, found by their first cell: each as the line a click shows, its cells
    named by the table's header (``Type: Bowman · HP: 33 · …``), written only for the rows a place asks for (a
    Wesnoth board's unit types are a hundred rows, and a map's few units ask for a few)."""

    def __init__(self, tables: Sequence[Table]) -> None:
        self.by_first: dict[str, list[int]] = {}
        self.rows: list[tuple[tuple[str, ...], tuple[str, ...]]] = []  # each row and its table's header
        for table in tables:
            header = _header(table)
            for row in table.rows:
                if row is header or _filled(row) < 2:
                    continue
                self.by_first.setdefault(row[0], []).append(len(self.rows))
                self.rows.append((row, header))

    def _line(self, k: int) -> str:
        row, header = self.rows[k]
        return " · ".join(f"{h}: {v}" if h else v for h, v in zip(header, row, strict=False) if v)

    def about(self, name: str, who: Sequence[str]) -> list[str]:
        """The rows about a place: a cell holding its name, or a first cell that is a line of ``who`` (a unit's
        type), else one that a line names as a word (GvG's player red1 in ``⚔red1▼``)."""
        found = [k for k, (row, _) in enumerate(self.rows) if name in row] if name else []
        found += [k for w in who for k in self.by_first.get(w, ())]
        if not found:
            found = [k for k, (row, _) in enumerate(self.rows) if row[0] and any(_names(row[0], w) for w in who)]
        return [self._line(k) for k in found]


def _bare(names: Sequence[str], cols: Iterable[int], rows: Iterable[int], colours: Sequence[str],
          tint: str) -> list[Place]:
    """A place of bare ground for each of ``names``, in its column, row and colour (a map's places made at once:
    ``map`` over ``zip``, no loop of Python's)."""
    repeat = itertools.repeat
    return list(map(_place_of, zip(names, cols, rows, colours, repeat(""), repeat(()), repeat(""), repeat(""),
                                   repeat(tint), repeat(""), strict=False)))


def _squares(drawings: Sequence[BoardDrawing]) -> Scene:
    """A square grid: the spreadsheet's cells (GvG: tile G9 is cell G9) or a grid with its own letters across and
    numbers down (Champions); the blocks under the map are tables (GvG's players)."""
    cells = Cells(drawings[0])
    headed = cells.value(0, 1) == "A" and cells.value(1, 0) == "1"
    height = _map_height(cells, drawings[0], headed)
    tables = tuple(_table("", block) for block in _blocks(cells, height))
    players = {row[0] for t in tables for row in t.rows[1:] if row and row[0]}
    linked = _Rows(tables)
    first = 1 if headed else 0
    width = max((len(r) for r in cells.rows[:height]), default=0)
    if headed:
        width = max(c for c in range(width) if cells.value(0, c)) + 1
    columns = [cells.value(0, c) if headed else column_label(c) for c in range(width)]
    bare = cells.owner_colour("")  # an empty cell's tint, as any other's: a conditional fill's prefix may be ''
    owner, among = cells.owner_colour, re.compile("|".join(map(re.escape, players))).search if players else None
    across, down = width - first, range(first, height)  # (the map's places made at once, row after row)
    names = [f"{column}{row_name}" for row_name in (cells.value(r, 0) if headed else str(r + 1) for r in down)
             for column in columns[first:width]]
    values = [value for r in down for value in (cells.rows[r][first:width] + [""] * across)[:across]]
    written = [i for i, value in enumerate(values) if value]  # (the others are bare ground)
    colours, painted = _colours(cells, values, written, down, first, width)
    places = _bare(names, itertools.cycle(range(across)), (r for r in range(len(down)) for _ in range(across)),
                   colours, bare)  # each one bare ground, then those the board writes something in
    for i in written:
        value, name, (r, c) = values[i], names[i], divmod(i, across)
        if value.isspace():
            places[i] = places[i]._replace(tint=owner(value))
            continue
        lines = [x for x in value.split("\n") if x.strip()]
        if headed and lines and lines[0] == name:
            lines = lines[1:]
        who = [x for x in lines if among(x)] if among is not None else lines
        ground = " · ".join(x for x in lines if x not in who)
        makeup = "\n".join([*who, *linked.about(name, who)]) if who else ""
        places[i] = Place(name, c, r, colours[i], ground, tuple(who), makeup, "unit" if who else "",
                          _tint(cells, value, who))
    return Scene((Plane("", "square", width - first, height - first,
                        tuple(cells.value(0, c) for c in range(first, width)) if headed else
                        tuple(column_label(c) for c in range(width)),
                        tuple(cells.value(r, 0) for r in range(first, height)) if headed else
                        tuple(str(r + 1) for r in range(height)), tuple(places), tuple(painted), tuple(written)),),
                 tables, _references(drawings[1:]), _legend(drawings[:1]))


def _colours(cells: Cells, values: Sequence[str], written: Sequence[int], down: range, first: int,
             width: int) -> tuple[list[str], list[tuple[int, str]]]:
    """The colours of a square map's places, rows ``down`` from column ``first`` to ``width`` (excluded), whose
    texts are ``values`` (row after row, each padded to the map's width; ``written``: the indices of those not
    empty), each as ``Cells.row_colours`` gives it, and the places whose colour is a conditional fill's on the sign
    their text starts with, each with the colour the tab's fills give it (``Plane.painted``; not a name's shade, as
    Champions' tiles are). The map's paint at once, ``Cells.colour`` asked only for a text that starts with a
    conditional fill's prefix."""
    paint, prefixes = cells.block_paint(down, first, width), cells.prefixes
    if not prefixes:
        return paint, []
    across, colours, painted = width - first, list(paint), []
    for i in [i for i in written if values[i].startswith(prefixes)]:  # (no prefix is '': ``ConditionalFill``)
        r, c = divmod(i, across)
        colours[i] = colour = cells.colour(down[r], first + c)
        if colour != paint[i] and not values[i][:1].isalnum():  # a sign's colour, not a name's shade
            painted.append((i, paint[i]))
    return colours, painted


def _map_height(cells: Cells, drawing: BoardDrawing, headed: bool) -> int:
    """The rows of a square map: down to its first empty row when it has its own labels, else as far as the
    drawing's first fill (the map's ground) reaches (a GvG map has empty rows of its own)."""
    if headed or not drawing.fills:
        return next((r for r, row in enumerate(cells.rows) if not any(row)), len(cells.rows))
    last = drawing.fills[0].range.rpartition(":")[2]
    digits = "".join(ch for ch in last if ch.isdecimal())
    return min(int(digits), len(cells.rows)) if digits else len(cells.rows)


def _is_plane(drawing: BoardDrawing) -> bool:
    """Whether ``drawing`` is a plane: numbered columns along its first row, a lettered row under it."""
    values = drawing.values
    return (len(values) > 1 and len(values[0]) > 1 and str(values[0][1]) == "1" and bool(values[1])
            and values[1][0] not in (None, ""))


def _planes(drawings: Sequence[BoardDrawing]) -> Scene:
    """Planes of numbered columns and lettered rows (the Coalition's Dominaria, Phyrexia, Mirrodin): square 4C is
    column 4, row C; the row titled Terrain under a plane names the terrain of each colour."""
    maps = [d for d in drawings if _is_plane(d)]
    return Scene(tuple(_plane(Cells(d)) for d in maps), (), _references([d for d in drawings if not _is_plane(d)]),
                 _legend(maps))


def _plane(cells: Cells) -> Plane:
    width = max(c for c in range(len(cells.rows[0])) if cells.value(0, c)) + 1
    height = next((r for r in range(1, len(cells.rows)) if not cells.value(r, 0) or len(cells.value(r, 0)) > 2),
                  len(cells.rows))
    terrain_row = next((r for r in range(height, len(cells.rows)) if cells.value(r, 0) == "Terrain"), None)
    terrains = {} if terrain_row is None else {cells.colour(terrain_row, c): cells.value(terrain_row, c)
                                              for c in range(1, width) if cells.value(terrain_row, c)}
    places = []
    for r in range(1, height):
        for c in range(1, width):
            name = f"{cells.value(0, c)}{cells.value(r, 0)}"
            lines = [x for x in cells.value(r, c).split("\n") if x.strip()]
            who = [x for x in lines if x[:1] in ARMY_SIGNS or x.startswith("⚔")]
            structures = [x for x in lines if x not in who]
            colour = cells.colour(r, c)
            ground = " · ".join([terrains.get(colour, ""), *structures]).strip(" ·")
            note = cells.note(r, c)
            symbol = next((ARMY_SIGNS[x[:1]] for x in who if x[:1] in ARMY_SIGNS), "")
            faction = _FACTIONS.search(note)
            places.append(Place(name, c - 1, r - 1, colour, ground, tuple(who), note or "\n".join(who), symbol,
                                faction.group(1) if faction else "", _frame(structures)))
    return Plane(cells.value(0, 0), "square", width - 1, height - 1,
                 tuple(cells.value(0, c) for c in range(1, width)),
                 tuple(cells.value(r, 0) for r in range(1, height)), tuple(places))


def _frame(structures: Sequence[str]) -> str:
    """The colour of the rectangle round a square holding ``structures`` (its lines on the board), '' for none."""
    for line in structures:
        if line.startswith("⌂"):
            base = _BASE.search(line)
            return FACTION_COLOURS[base.group(1)] if base else "#999999"
        if line[:1] in FRAMES:
            return FRAMES[line[:1]]
    return ""


_SIGN_WORD = re.compile(r"(?:^|· )([^\w\s·]+) ([a-z][a-z ]*)")


def sign_words(legend: Sequence[str]) -> dict[str, str]:
    """What each sign of the map means, as its legend says it (``♣ forest · ∩ hills (harsh) · ▲▲ mountain``); a
    legend that says plain ground is unmarked gives '' the word plain.

    >>> sign_words(["♣ forest · ∩ hills (harsh) · ▲▲ mountain · plain unmarked"])
    {'♣': 'forest', '∩': 'hills', '▲▲': 'mountain', '': 'plain'}
    """
    words: dict[str, str] = {}
    for line in legend:
        words.update((sign, _first_words(word)) for sign, word in _SIGN_WORD.findall(line) if sign not in words)
        if "plain unmarked" in line:
            words[""] = "plain"
    return words


def _first_words(text: str) -> str:
    """A legend's words for a sign, without its article and what follows (``a village and its owner``: village)."""
    head = re.split(r"\s+(?:and|its|with)\b|,", text.strip(), maxsplit=1)[0]
    return re.sub(r"^(a|an|the) ", "", head).strip()


def _terrain(ground: str, words: Mapping[str, str]) -> str:
    """A hex's ground with the words of its signs the board leaves out (``♣`` → ``♣ forest``; '' → ``plain``)."""
    if not ground:
        return words.get("", "")
    sign = ground.split(" ", 1)[0]
    word = words.get(sign, words.get(sign[:1], "") if len(sign) == 2 else "")  # ⌂●: a village and its owner
    return f"{sign} {word}{ground[len(sign):]}" if word and word not in ground else ground


class _Grounds(dict[str, str]):
    """A hex map's grounds in the board's words (``_terrain``), by what a hex's upper cell holds after its name: each
    found once (a map's hexes share a few)."""

    def __init__(self, words: Mapping[str, str]) -> None:
        super().__init__()
        self.words = words

    def __missing__(self, rest: str) -> str:
        self[rest] = found = _terrain(rest.strip(), self.words)
        return found


def _hexes(drawings: Sequence[BoardDrawing]) -> Scene:
    """Hexes two cells to a hex (Wesnoth, Win or Die): row 2 holds the column letters, each hex's name and terrain
    stand in its upper cell, its unit in the lower; even columns (B, D…) stand half a hex lower. A unit the legend
    names in full by its hex (Wesnoth's key: ``E3 ● Ann-R1 · Spearman · 29/36 HP``) is shown as the key says."""
    cells = Cells(drawings[0])
    width = max((len(r) for r in cells.rows), default=0)
    references = _references(drawings[1:])
    linked = _Rows(references)
    legend = _legend(drawings[:1])
    words = sign_words(legend)
    keyed = {entry.split(" ", 1)[0]: entry.split(" ", 1)[1].split(" · ")
             for line in legend for entry in line.split("; ") if " · " in entry and _COORD.match(entry.split(" ")[0])}
    places: list[Place] = []
    grounds = _Grounds(words)
    match, owner, rows = _HEX_PARTS.match, cells.owner_colour, 0
    bare = owner("")  # an empty cell's tint (a conditional fill's prefix may be '')
    for c, column in enumerate(itertools.zip_longest(*cells.rows, fillvalue="")):  # (a column's hexes at once)
        first = 2 + c % 2
        tops, lower, colours = column[first::2], column[first + 1::2], cells.column_colours(c, first, 2)
        # each one nobody stands on (most of a map: its name and ground after it in its upper cell, its row the
        # upper cell's place down the column), then those whose lower cell holds something
        line = [_place_of((found[1], c, k, colours[k], grounds[found[2]], (), "", "", bare, ""))
                for k, found in enumerate(map(match, tops)) if found is not None]
        for i in [i for i, p in enumerate(line) if p[2] < len(lower) and lower[p[2]]]:
            name, k = line[i][0], line[i][2]
            below = lower[k]
            if below.isspace():
                line[i] = line[i]._replace(tint=owner(below))
                continue
            unit = [x for x in below.split("\n") if x.strip()]
            unit = keyed.get(name, unit)
            makeup = "\n".join([*unit, *linked.about("", unit[1:])])
            line[i] = Place(name, c, k, colours[k], line[i].ground, (" ".join(unit),), makeup, "unit",
                            _tint(cells, below, unit))
        places += line
        rows = max(rows, line[-1][2] + 1) if line else rows
    return Scene((Plane("", "hex", width, rows, tuple(column_label(c) for c in range(width)),
                        tuple(str(r + 1) for r in range(rows)), tuple(places)),),
                 (), references, legend)
