"""The Wesnoth board: hexes in Wesnoth's layout with a terrain each, villages, castles and keeps.

A board is written as the project's token grid, a row of hexes per line, ``A1`` top-left:
``.`` (or ``plain``) plain, ``forest``, ``harsh``, ``mountain``, ``water``, ``x`` (or
``impassable``), ``village``, ``castle1``/``keep1``… (the castle and keep hexes of player
slot 1…), ``castle``/``keep`` for a castle nobody starts in. A Wesnoth ``.map`` file is read
too: each code becomes a token through the code table ``templates/wesnoth/terrain_codes.csv``
(kept as data), the one-hex border is dropped, and each castle hex joins the slot of the keep
it is joined to through castle hexes.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from sheets_gm.engine.hexgrid import Hex, HexGrid
from sheets_gm.rulesets.wesnoth.routes import BoardRoutes
from sheets_gm.rulesets.wesnoth.tables import TEMPLATE_DIR
from sheets_gm.rulesets.wesnoth.terrain import Feature, Terrain

CODE_TABLE = TEMPLATE_DIR / "terrain_codes.csv"

_PLAIN_TOKENS = {".": Terrain.PLAIN, "plain": Terrain.PLAIN, "forest": Terrain.FOREST, "harsh": Terrain.HARSH,
                 "mountain": Terrain.MOUNTAIN, "water": Terrain.WATER, "x": Terrain.IMPASSABLE,
                 "impassable": Terrain.IMPASSABLE}
_SLOTTED = re.compile(r"^(castle|keep)(\d*)$")
ACCEPTED_TOKENS = ". forest harsh mountain water x village castle1 keep1 (castleN/keepN for slot N, castle/keep " \
                  "for nobody's)"


class MapError(ValueError):
    """A board or Wesnoth map that does not parse: the message names the line and what is accepted."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One hex: its terrain, what city it is, and the player slot of a castle or keep (0: nobody's)."""

    terrain: Terrain
    feature: Feature = Feature.NONE
    slot: int = 0

    @property
    def token(self) -> str:
        """The hex as a token of the board text."""
        if self.feature is Feature.VILLAGE:
            return "village"
        if self.feature in (Feature.CASTLE, Feature.KEEP):
            return f"{self.feature.value}{self.slot or ''}"
        return "." if self.terrain is Terrain.PLAIN else ("x" if self.terrain is Terrain.IMPASSABLE
                                                          else self.terrain.value)


def parse_token(token: str) -> Cell | None:
    """A hex from its token, or None if the token is not one."""
    word = token.strip().lower()
    if word in _PLAIN_TOKENS:
        return Cell(_PLAIN_TOKENS[word])
    if word == "village":
        return Cell(Terrain.CITY, Feature.VILLAGE)
    m = _SLOTTED.match(word)
    if m:
        return Cell(Terrain.CITY, Feature.CASTLE if m.group(1) == "castle" else Feature.KEEP,
                    int(m.group(2)) if m.group(2) else 0)
    return None


@dataclass(frozen=True)
class WesnothBoard:
    """A hex board: its grid and a cell per hex (row by row)."""

    grid: HexGrid
    cells: tuple[tuple[Cell, ...], ...]

    @classmethod
    def from_text(cls, text: str, where: str = "board") -> WesnothBoard:
        """The board from its token grid, or from a Wesnoth ``.map`` text (recognised by its commas)."""
        if "," in text:
            return cls.from_wesnoth_map(text, where)
        rows: list[tuple[Cell, ...]] = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            row = []
            for col, token in enumerate(line.split()):
                cell = parse_token(token)
                if cell is None:
                    raise MapError(f"{where} line {number}, hex {col + 1}: unknown token {token!r}; "
                                   f"use {ACCEPTED_TOKENS}")
                row.append(cell)
            rows.append(tuple(row))
        return cls._checked(rows, where)

    @classmethod
    def from_wesnoth_map(cls, text: str, where: str = "map", table: Path = CODE_TABLE) -> WesnothBoard:
        """A Wesnoth ``.map`` text converted through the code table (the border dropped, castles joined to keeps)."""
        codes = load_code_table(table)
        raw: list[list[tuple[str, int]]] = []  # (token, player number of a starting keep)
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        for number, line in lines:
            if "=" in line and "," not in line:  # an old-style header line such as border_size=1
                continue
            row = []
            for col, code in enumerate(line.split(",")):
                word = code.strip()
                start = 0
                parts = word.split()
                if len(parts) == 2 and parts[0].isdecimal():
                    start, word = int(parts[0]), parts[1]
                elif len(parts) != 1:
                    raise MapError(f"{where} line {number}, column {col + 1}: {code.strip()!r} is not a terrain "
                                   f"code (a code such as Gg, Gs^Fp or 1 Kh)")
                token = convert_code(word, codes)
                if token is None:
                    raise MapError(f"{where} line {number}, column {col + 1}: no row of {table.name} matches the "
                                   f"code {word!r}; add one (code,becomes,note) with becomes one of {_BECOMES}")
                row.append((token, start))
            raw.append(row)
        if len(raw) < 3 or any(len(r) < 3 for r in raw):
            raise MapError(f"{where}: a Wesnoth map has at least 3 rows and columns (its border included)")
        inner = [r[1:-1] for r in raw[1:-1]]
        height, width = len(inner), len(inner[0])
        grid = HexGrid(width, height)
        slot: dict[Hex, int] = {}
        off_keep: list[tuple[int, Hex]] = []
        for r, row in enumerate(inner):
            for c, (token, start) in enumerate(row):
                if start and token == "keep":
                    slot[Hex(c, r)] = start
                elif start:
                    off_keep.append((start, Hex(c, r)))
        for start, h in off_keep:  # a start off any keep (Sablestone Delta's): the nearest free keep is hers
            free = [k for k in grid.cells() if inner[k.row][k.col][0] == "keep" and k not in slot]
            if not free:
                raise MapError(f"{where}: player {start} starts on {h.label}, which is not a keep, and no keep "
                               "is free to be hers")
            slot[min(free, key=lambda k: grid.distance(h, k))] = start
        castle = {Hex(c, r) for r, row in enumerate(inner) for c, (token, _) in enumerate(row) if token == "castle"}
        slot.update(_shared_castles(grid, castle, slot))
        rows = []
        for r, row in enumerate(inner):
            cells = []
            for c, (token, _) in enumerate(row):
                cell = parse_token(token)
                assert cell is not None  # the code table's targets are checked when it is read
                if cell.feature in (Feature.CASTLE, Feature.KEEP):
                    cell = Cell(cell.terrain, cell.feature, slot.get(Hex(c, r), 0))
                cells.append(cell)
            rows.append(tuple(cells))
        return cls._checked(rows, where)

    @classmethod
    def _checked(cls, rows: list[tuple[Cell, ...]], where: str) -> WesnothBoard:
        if not rows:
            raise MapError(f"{where}: the board is empty; write a row of hex tokens per line")
        width = len(rows[0])
        for i, row in enumerate(rows):
            if len(row) != width:
                raise MapError(f"{where}: row {i + 1} has {len(row)} hexes, the first row {width}; every row "
                               "needs the same number")
        board = cls(HexGrid(width, len(rows)), tuple(rows))
        keeps = board.keeps
        for number in range(1, len(keeps) + 1):
            if number not in keeps:
                raise MapError(f"{where}: there are keeps for players {sorted(keeps)} but none for player {number}; "
                               "number the keeps keep1, keep2… without gaps")
        return board

    def to_text(self) -> str:
        """The board as its token grid, columns aligned."""
        width = max(len(c.token) for row in self.cells for c in row)
        return "\n".join(" ".join(c.token.ljust(width) for c in row).rstrip() for row in self.cells) + "\n"

    def cell(self, h: Hex) -> Cell:
        """The hex's cell."""
        return self.cells[h.row][h.col]

    def terrain(self, h: Hex) -> Terrain:
        """The hex's terrain."""
        return self.cells[h.row][h.col].terrain

    @cached_property
    def keeps(self) -> dict[int, Hex]:
        """Each player slot's keep (its starting hex)."""
        out: dict[int, Hex] = {}
        for h in self.grid.cells():
            c = self.cell(h)
            if c.feature is Feature.KEEP and c.slot and c.slot not in out:
                out[c.slot] = h
        return out

    @cached_property
    def villages(self) -> tuple[Hex, ...]:
        """Every village, in reading order."""
        return tuple(h for h in self.grid.cells() if self.cell(h).feature is Feature.VILLAGE)

    def hex_named(self, text: str) -> Hex:
        """The hex a player wrote (``C3``, ``c 3``), or CoordError saying what is accepted (``grid.parse``)."""
        found = self._labels.get(text)
        return found if found is not None else self.grid.parse(text)

    @cached_property
    def _labels(self) -> dict[str, Hex]:
        return {h.label: h for h in self.grid.cells()}

    @cached_property
    def village_set(self) -> frozenset[Hex]:
        """Every village, as a set."""
        return frozenset(self.villages)

    def castle_of(self, slot: int) -> tuple[Hex, ...]:
        """The castle hexes of a slot other than its keep, in reading order."""
        return self._castles.get(slot, ())

    @cached_property
    def _castles(self) -> dict[int, tuple[Hex, ...]]:
        out: dict[int, list[Hex]] = {}
        for h in self.grid.cells():
            if self.cell(h).feature is Feature.CASTLE:
                out.setdefault(self.cell(h).slot, []).append(h)
        return {slot: tuple(hexes) for slot, hexes in out.items()}

    @cached_property
    def routes(self) -> BoardRoutes:
        """The board's route-finding tables (neighbours, entry costs), made once and kept with it."""
        return BoardRoutes(self)

    @property
    def players(self) -> int:
        """How many player slots the board has (its numbered keeps)."""
        return len(self.keeps)

    @cached_property
    def castle_groups(self) -> tuple[frozenset[int], ...]:
        """The player slots whose keeps are joined through castle hexes, each group once, in slot order: a slot
        alone in its group recruits apart; the slots of one group (4p_Hamlets' keeps, in pairs) share a castle,
        as allies do in Wesnoth."""
        groups: list[frozenset[int]] = []
        for slot in sorted(self.keeps):
            if any(slot in g for g in groups):
                continue
            network, frontier = {self.keeps[slot]}, [self.keeps[slot]]
            while frontier:
                reached = {n for h in frontier for n in self.grid.neighbours(h)
                           if self.cell(n).feature in (Feature.CASTLE, Feature.KEEP)} - network
                network |= reached
                frontier = list(reached)
            groups.append(frozenset(s for s, h in self.keeps.items() if h in network))
        return tuple(groups)

    def seat_counts(self) -> str:
        """Which seat counts the map suits, in words: every player in a castle of her own, or with allies sharing
        one (4p_Hamlets: "2 players in castles of their own, or up to 4 with the players of one castle allies")."""
        groups = self.castle_groups
        alone = f"2 to {len(groups)} players" if len(groups) > 2 else "2 players"
        if all(len(g) == 1 for g in groups):
            return alone
        return (f"{alone} in castles of their own, or up to {self.players} with the players of one castle allies "
                f"(its {self.players} keeps share {len(groups)} castles)")


def _shared_castles(grid: HexGrid, castle: set[Hex], keeps: dict[Hex, int]) -> dict[Hex, int]:
    """The slot of each castle hex joined to a starting keep through castle hexes (``keeps``: the starting keeps'
    slots). A castle joined to one keep is its own; one joined to several (4p_Hamlets': allies share a castle in
    Wesnoth) is dealt out in turns, in slot order, each keep taking the free hex nearest it (the farthest from the
    other keeps, then the first in reading order), so that every seat recruits into as many hexes."""
    out: dict[Hex, int] = {}
    seen: set[Hex] = set()
    for keep in sorted(keeps, key=lambda k: keeps[k]):
        if keep in seen:
            continue
        network, frontier = {keep}, [keep]
        while frontier:
            reached = {n for h in frontier for n in grid.neighbours(h) if n in castle or n in keeps} - network
            network |= reached
            frontier = list(reached)
        seen |= network
        starts = sorted((k for k in network if k in keeps), key=lambda k: keeps[k])
        free = sorted((h for h in network if h in castle), key=lambda h: (h.row, h.col))
        while free:
            for start in starts:
                if not free:
                    break
                others = [k for k in starts if k != start]
                pick = min(free, key=lambda h: (grid.distance(h, start),
                                                -min((grid.distance(h, k) for k in others), default=0)))
                out[pick] = keeps[start]
                free.remove(pick)
    return out


_BECOMES = "plain, forest, harsh, mountain, water, impassable, village, castle, keep"


def load_code_table(path: Path = CODE_TABLE) -> list[tuple[str, str]]:
    """The code table's (code pattern, token) rows in order; MapError naming the line of a bad row."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MapError(f"{path}: cannot be read ({exc.strerror})") from None
    rows: list[tuple[str, str]] = []
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header is None or [h.strip() for h in header[:2]] != ["code", "becomes"]:
        raise MapError(f"{path} line 1: the header is code,becomes,note")
    for number, row in enumerate(reader, 2):
        if not row or not row[0].strip():
            continue
        if len(row) < 2 or row[1].strip() not in _BECOMES.split(", "):
            raise MapError(f"{path} line {number}: becomes is one of {_BECOMES}, got "
                           f"{(row[1].strip() if len(row) > 1 else '')!r}")
        token = {"plain": ".", "impassable": "x"}.get(row[1].strip(), row[1].strip())
        rows.append((row[0].strip(), token))
    return rows


def _matches(pattern: str, code: str) -> bool:
    return code.startswith(pattern[:-1]) if pattern.endswith("*") else code == pattern


def convert_code(code: str, table: list[tuple[str, str]]) -> str | None:
    """The token of a Wesnoth terrain code: the first overlay row (``^…``) matching its overlay, else the
    first base row matching its base; None if no row matches.

    >>> table = load_code_table()
    >>> [convert_code(c, table) for c in ("Gs^Fp", "Hh", "Wwf", "Ww", "Gg^Vh", "Mm^Xm", "Kh", "Gg^Efm")]
    ['forest', 'harsh', '.', 'water', 'village', 'x', 'keep', '.']
    """
    base, _, overlay = code.partition("^")
    if overlay:
        for pattern, token in table:
            if pattern.startswith("^") and _matches(pattern[1:], overlay):
                return token
    for pattern, token in table:
        if not pattern.startswith("^") and _matches(pattern, base):
            return token
    return None
