"""The Win or Die map: a hex grid (Wesnoth's layout) of terrains with each player's baseline.

Tokens, one per hex, whitespace-separated, a row of hexes per line, ``A1`` top-left:
``.`` plain, ``mine`` (Titan-Crystal mine), ``forest``, ``mountain``, ``highland``, and
``base1`` / ``base2``: a plain on the baseline of the first / second player of the roster.

Line of sight uses the core's exact geometry (``HexGrid.sees``) with the game's exceptions:
a unit on highland ignores blindage and the forest rule when it attacks or targets, and a
unit in a forest can be attacked or targeted only by an adjacent enemy.

>>> board = WodMap.from_text("base1 . .\\n. forest .\\n. . base2")
>>> board.deploy_refusal(board.parse("B2"), 0), sorted(h.label for h in board.baseline(1))
('B2 is forest, not a plain', ['C3'])
"""

from __future__ import annotations

from collections.abc import Iterator

from sheets_gm.engine.hexgrid import Hex, HexGrid
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.enums import Terrain

TOKENS = (".", "mine", "forest", "mountain", "highland", "base1", "base2")


class MapError(ValueError):
    """A map that cannot be played, with the place that is wrong."""


class WodMap:
    """An immutable Win or Die board: terrain per hex and the two baselines."""

    def __init__(self, grid: HexGrid, terrain: dict[Hex, Terrain], bases: dict[Hex, int]) -> None:
        self.grid = grid
        self.terrain = terrain
        self.bases = bases  # hex -> 0 or 1, the roster slot whose baseline it is
        self._blocks = frozenset(h for h, t in terrain.items() if t.blindage)
        self.obstacles = frozenset(h for h, t in terrain.items() if t.obstacle)
        self.highlands = frozenset(h for h, t in terrain.items() if t is Terrain.HIGHLAND)
        self._sight: dict[tuple[Hex, Hex], bool] = {}
        # the board is small and asked the same questions all match long: answer each once
        self._neighbours = {h: grid.neighbours(h) for h in grid.cells()}
        self._distance: dict[tuple[Hex, Hex], int] = {}

    @classmethod
    def from_text(cls, text: str, *, where: str = "map") -> WodMap:
        """Read a map; MapError names the line and the hex of a bad token."""
        rows = [(n, line.split()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if not rows:
            raise MapError(f"{where}: the map is empty; write one row of hex tokens per line")
        width = len(rows[0][1])
        terrain: dict[Hex, Terrain] = {}
        bases: dict[Hex, int] = {}
        for r, (line, tokens) in enumerate(rows):
            if len(tokens) != width:
                raise MapError(f"{where}: line {line} has {len(tokens)} hexes but the first row has {width}; "
                               "every row needs the same number of tokens")
            for c, token in enumerate(tokens):
                here = Hex(c, r)
                word = token.strip().lower()
                if word in ("base1", "base2"):
                    terrain[here] = Terrain.PLAIN
                    bases[here] = int(word[-1]) - 1
                    continue
                try:
                    terrain[here] = Terrain(word)
                except ValueError:
                    raise MapError(f"{where}: line {line}, hex {here.label} is {token!r}; use one of "
                                   f"{', '.join(TOKENS)}") from None
        for slot in (0, 1):
            if slot not in bases.values():
                raise MapError(f"{where}: no hex is marked base{slot + 1}; mark each player's baseline")
        return cls(HexGrid(width, len(rows)), terrain, bases)

    def to_text(self) -> str:
        """The map as text, as ``from_text`` reads it."""
        lines = []
        for r in range(self.grid.height):
            tokens = []
            for c in range(self.grid.width):
                h = Hex(c, r)
                slot = self.bases.get(h)
                tokens.append(f"base{slot + 1}" if slot is not None else self.terrain[h].value)
            width = max(len(t) for t in tokens)
            lines.append(" ".join(t.ljust(width) for t in tokens).rstrip())
        return "\n".join(lines) + "\n"

    # -- lookups ---------------------------------------------------------------------------
    def contains(self, h: Hex) -> bool:
        """Whether the hex is on the board."""
        return self.grid.contains(h)

    def parse(self, text: str) -> Hex:
        """A hex of this board from its name; CoordError naming the text and the board."""
        return self.grid.parse(text)

    def is_hex(self, text: str) -> bool:
        """Whether ``text`` names a hex of this board."""
        try:
            self.grid.parse(text)
        except kit.CoordError:
            return False
        return True

    def cells(self) -> Iterator[Hex]:
        """Every hex in reading order."""
        return self.grid.cells()

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes, in the order N, NE, SE, S, SW, NW."""
        return self._neighbours[h]

    def distance(self, a: Hex, b: Hex) -> int:
        """Steps between two hexes."""
        found = self._distance.get((a, b))
        if found is None:
            found = self._distance[(a, b)] = self.grid.distance(a, b)
        return found

    def baseline(self, slot: int) -> list[Hex]:
        """The baseline hexes of roster slot ``slot`` (0 or 1), in reading order."""
        return [h for h in self.cells() if self.bases.get(h) == slot]

    def deploy_hexes(self, slot: int) -> list[Hex]:
        """The plains a player deploys on: in or next to her baseline, in reading order."""
        base = set(self.baseline(slot))
        return [h for h in self.cells() if self.terrain[h] is Terrain.PLAIN
                and (h in base or any(n in base for n in self.neighbours(h)))]

    def deploy_refusal(self, h: Hex, slot: int) -> str | None:
        """What is wrong with deploying on ``h`` for roster slot ``slot`` (the rulebook: a plain in or next to her
        baseline), in words; None if she may.

        >>> board = WodMap.from_text("base1 base1 base1\\n. forest .\\n. . .\\n. . .\\nbase2 base2 base2")
        >>> for t in ("A2", "B2", "B4", "C5"):
        ...     print(board.deploy_refusal(board.parse(t), 0))
        None
        B2 is forest, not a plain
        B4 is a plain 3 hexes from your baseline, not in or next to it
        C5 is the other player's baseline
        """
        if self.terrain[h] is not Terrain.PLAIN:
            return f"{h.label} is {self.terrain[h].value}, not a plain"
        if self.bases.get(h, slot) != slot:
            return f"{h.label} is the other player's baseline"
        away = min(self.distance(h, b) for b in self.baseline(slot))
        if away > 1:
            return f"{h.label} is a plain {away} hexes from your baseline, not in or next to it"
        return None

    def highland(self, h: Hex) -> bool:
        """Whether the hex is highland."""
        return h in self.highlands

    # -- sight -----------------------------------------------------------------------------
    def clear_line(self, a: Hex, b: Hex) -> bool:
        """Whether the line between the centres of ``a`` and ``b`` passes no blindage (forest, mountain)
        other than at its ends (the core's exact rule; cached per pair)."""
        key = (a, b) if (a.row, a.col) <= (b.row, b.col) else (b, a)
        found = self._sight.get(key)
        if found is None:
            found = self._sight[key] = self.grid.sees(a, b, self._blocks.__contains__)
        return found

    def targeting_problem(self, source: Hex, target: Hex, reach: int) -> str | None:
        """Why a unit on ``source`` with range ``reach`` cannot attack or target ``target`` (None if it can):
        out of range, a forest target not adjacent, or no line of sight beyond 1. From highland, blindage
        and the forest rule are ignored."""
        steps = self.distance(source, target)
        if steps > reach:
            return f"{target.label} is {steps} hexes away; the range is {reach}"
        if steps <= 1 or self.highland(source):
            return None
        if self.terrain[target] is Terrain.FOREST:
            return f"{target.label} is a forest: a unit there can be attacked or targeted only from next to it"
        if not self.clear_line(source, target):
            return f"no line of sight from {source.label} to {target.label} (forest or mountain in between)"
        return None
