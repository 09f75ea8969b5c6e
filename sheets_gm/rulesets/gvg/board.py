"""The GvG map: a grid of tokens, one per tile, read from text or sheet cells.

Tokens: ``.`` open, ``wall``, ``coin`` (jungle), ``boss`` (boss spawn candidate), and per
team slot 1 or 2: ``base1``, ``stair1``, ``bulwark1``, ``fish1`` (the team's tree stands
on its fish). An empty sheet cell reads as ``.``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheets_gm.engine.bitgrid import BitSearch
from sheets_gm.engine.grid import Coord, Grid, Neighbourhood, sorted_reading_order
from sheets_gm.rulesets.gvg.enums import Terrain

TEAM_TERRAINS = (Terrain.BASE, Terrain.STAIR, Terrain.BULWARK, Terrain.FISH)
TOKENS = (".", "wall", "coin", "boss", *(f"{t.value}{slot}" for t in TEAM_TERRAINS for slot in (1, 2)))


class MapError(ValueError):
    """A map that cannot be played, with the place that is wrong."""


def parse_token(token: str) -> tuple[Terrain, int | None]:
    """The terrain and team index (0 or 1, None for neutral) of a map token; ValueError if unknown."""
    text = token.strip().lower()
    if text in ("", "."):
        return Terrain.OPEN, None
    for terrain in (Terrain.WALL, Terrain.COIN, Terrain.BOSS):
        if text == terrain.value:
            return terrain, None
    for terrain in TEAM_TERRAINS:
        if text.startswith(terrain.value) and text[len(terrain.value):] in ("1", "2"):
            return terrain, int(text[-1]) - 1
    raise ValueError(token)


class GvgMap:
    """An immutable GvG board with the lookups the engine needs, and cached path distances."""

    def __init__(self, rows: Sequence[Sequence[str]], *, where: str = "map") -> None:
        if not rows or not rows[0]:
            raise MapError(f"{where}: the map is empty; write one row of tokens per line")
        width = len(rows[0])
        for r, row in enumerate(rows):
            if len(row) != width:
                raise MapError(
                    f"{where}: row {r + 1} has {len(row)} tiles but row 1 has {width}; "
                    "every row needs the same number of tokens"
                )
        self.grid = Grid(width, len(rows))
        self.rows = [list(row) for row in rows]
        self.terrain: dict[Coord, tuple[Terrain, int | None]] = {}
        for r, row in enumerate(rows):
            for c, token in enumerate(row):
                here = Coord(c, r)
                try:
                    self.terrain[here] = parse_token(token)
                except ValueError:
                    raise MapError(
                        f"{where}: tile {here.label} (row {r + 1}, column {c + 1}) is {token!r}; "
                        f"use one of: {' '.join(TOKENS)}"
                    ) from None
        self.bases: tuple[list[Coord], list[Coord]] = (self._tiles(Terrain.BASE, 0), self._tiles(Terrain.BASE, 1))
        self.stairs = (self._tiles(Terrain.STAIR, 0), self._tiles(Terrain.STAIR, 1))
        self.bulwarks = (self._tiles(Terrain.BULWARK, 0), self._tiles(Terrain.BULWARK, 1))
        fish = (self._tiles(Terrain.FISH, 0), self._tiles(Terrain.FISH, 1))
        for team in (0, 1):
            if len(fish[team]) > 1:
                tiles = ", ".join(c.label for c in fish[team])
                raise MapError(f"{where}: team {team + 1} has {len(fish[team])} fish ({tiles}); a team has one")
        self.fish: tuple[Coord | None, Coord | None] = (
            fish[0][0] if fish[0] else None,
            fish[1][0] if fish[1] else None,
        )
        self.coin_tiles = frozenset(self._tiles(Terrain.COIN, None))
        self.boss_tiles = sorted(self._tiles(Terrain.BOSS, None), key=lambda c: (c.col, c.row))
        self._blocked = tuple(
            frozenset(
                c for c, (t, owner) in self.terrain.items()
                if t is Terrain.WALL or (t is Terrain.BASE and owner == 1 - team)
            )
            for team in (0, 1)
        )
        self._base_owner = {c: owner for c, (t, owner) in self.terrain.items() if t is Terrain.BASE}
        self._distances: dict[tuple[int, Neighbourhood], dict[Coord, dict[Coord, int]]] = {}  # (team, mode): start
        self._reach: dict[tuple[Coord, Neighbourhood], frozenset[Coord]] = {}
        self._searches: dict[tuple[int, Neighbourhood], BitSearch] = {}  # (team, mode): its breadth-first search
        self._by_distance: dict[tuple[int, Neighbourhood, Coord], tuple[list[Coord], list[int]]] = {}

    @classmethod
    def from_text(cls, text: str, *, where: str = "map") -> GvgMap:
        """Read a map written one row per line, tokens separated by white space."""
        rows = [line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        return cls(rows, where=where)

    def to_text(self) -> str:
        """The map as text, columns aligned."""
        width = max(len(t) for row in self.rows for t in row)
        return "\n".join(" ".join(t.ljust(width) for t in row).rstrip() for row in self.rows) + "\n"

    def _tiles(self, terrain: Terrain, team: int | None) -> list[Coord]:
        return sorted_reading_order(c for c, (t, owner) in self.terrain.items() if t is terrain and owner == team)

    def contains(self, c: Coord) -> bool:
        """Whether the tile is on the board."""
        return self.grid.contains(c)

    def enterable(self, team: int, c: Coord) -> bool:
        """Whether a player of ``team`` may stand on or cross the tile (not a wall, not the enemy base)."""
        return c not in self._blocked[team]

    def base_owner(self, c: Coord) -> int | None:
        """The team whose base the tile is, or None."""
        return self._base_owner.get(c)

    def distances(self, team: int, mode: Neighbourhood, start: Coord) -> dict[Coord, int]:
        """Steps from ``start`` to every tile ``team`` can reach, nearest first, then in reading order (cached: the map
        never changes)."""
        table = self.distance_table(team, mode)
        found = table.get(start)
        if found is None:
            found = self._search(team, mode, start)[0]
        return found

    def distance_table(self, team: int, mode: Neighbourhood) -> dict[Coord, dict[Coord, int]]:
        """``distances``' cache for ``team`` and ``mode``: start tile → its distances, for every start asked so far.
        A caller asking for many starts a turn reads it directly, and asks ``distances`` for a start not in it yet
        (never writes it)."""
        key = (team, mode)
        table = self._distances.get(key)
        if table is None:
            table = self._distances[key] = {}
        return table

    def within(self, team: int, mode: Neighbourhood, start: Coord, steps: int) -> list[Coord]:
        """The tiles ``team`` can reach from ``start`` in at most ``steps`` steps, nearest first (cached)."""
        tiles, upto = self._nearest_first(team, mode, start)
        if steps < 0:
            return []
        return tiles[: upto[min(steps, len(upto) - 1)]]

    def ring(self, team: int, mode: Neighbourhood, start: Coord, steps: int) -> list[Coord]:
        """The tiles ``team`` reaches from ``start`` in exactly ``steps`` steps, in reading order: ``within``'s tiles
        at that distance, in its order."""
        tiles, upto = self._nearest_first(team, mode, start)
        if steps < 0 or steps >= len(upto):
            return []
        return tiles[upto[steps - 1] if steps else 0: upto[steps]]

    def fill_paths(self, mode: Neighbourhood) -> None:
        """The path tables of every start either team may stand on (``distances``, and the nearest-first order of
        ``within`` and ``ring``), made now rather than as each start is first asked: a simulation makes them once
        and its workers inherit them."""
        for team in (0, 1):
            blocked = self._blocked[team]
            table = self.distance_table(team, mode)
            for c in self.grid.tiles():
                if c not in blocked and c not in table:
                    self._search(team, mode, c)

    def _nearest_first(self, team: int, mode: Neighbourhood, start: Coord) -> tuple[list[Coord], list[int]]:
        """The tiles ``team`` can reach from ``start``, nearest first (then in reading order), and how many lie
        within each number of steps (cached)."""
        found = self._by_distance.get((team, mode, start))
        return found if found is not None else self._search(team, mode, start)[1]

    def _search(self, team: int, mode: Neighbourhood, start: Coord) -> tuple[dict[Coord, int],
                                                                             tuple[list[Coord], list[int]]]:
        """``distances`` and ``_nearest_first`` of a start not searched yet, made and kept together: one breadth-first
        search, a level at a time."""
        blocked = self._blocked[team]
        if not self.grid.contains(start):  # stepped from as from any tile, though no one stands there
            dist = self.grid.distances_from(start, mode, lambda c: c not in blocked)
            levels = [sorted_reading_order(c for c, d in dist.items() if d == k) for k in range(max(dist.values()) + 1)]
        else:
            search = self._searches.get((team, mode))
            if search is None:
                search = self._searches[(team, mode)] = BitSearch(self.grid, mode, lambda c: c not in blocked)
            levels = search.levels(start)
        found: dict[Coord, int] = {}
        tiles: list[Coord] = []
        upto: list[int] = []  # upto[k]: how many tiles lie within k steps
        for d, level in enumerate(levels):
            found.update(dict.fromkeys(level, d))
            tiles += level
            upto.append(len(tiles))
        self.distance_table(team, mode)[start] = found
        nearest = self._by_distance[(team, mode, start)] = (tiles, upto)
        return found, nearest

    def reach_of(self, tile: Coord, mode: Neighbourhood) -> frozenset[Coord]:
        """The tiles "within 1 square" of ``tile``, itself included (cached)."""
        key = (tile, mode)
        found = self._reach.get(key)
        if found is None:
            found = self._reach[key] = frozenset(self.grid.within_one(tile, mode))
        return found

    def respawn_tile(self, team: int) -> Coord | None:
        """Where a knocked-down player of ``team`` comes back: its first base tile in reading order."""
        return self.bases[team][0] if self.bases[team] else None

    def start_tile(self, team: int, index: int) -> Coord | None:
        """Where the ``index``-th player of a team starts: its base tiles in turn, in reading order."""
        tiles = self.bases[team]
        return tiles[index % len(tiles)] if tiles else None

    def describe(self, c: Coord) -> str:
        """A person's name for the tile's terrain, e.g. ``a wall`` or ``team 2's base``."""
        terrain, owner = self.terrain[c]
        names = {
            Terrain.OPEN: "an open tile", Terrain.WALL: "a wall", Terrain.COIN: "a jungle tile",
            Terrain.BOSS: "a boss tile", Terrain.BASE: "base", Terrain.STAIR: "stair",
            Terrain.BULWARK: "bulwark", Terrain.FISH: "fish",
        }
        if owner is None:
            return names[terrain]
        return f"team {owner + 1}'s {names[terrain]}"
