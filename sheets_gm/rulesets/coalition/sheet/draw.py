"""The Coalition's plane tabs: a public tab per plane, named after it.

A plane's tab has a row with its name and the column numbers, then a row per row letter, a cell
per square (its terrain as the cell's colour; in the cell the battle, the structure and every army
on it by side with its rank and units, one per line). A square with armies carries a note, shown when
the pointer rests on it, as the seed's map showed an army on a click: each army's slots and makeup.
The forum's posts are in the Turn report tab (``sheet_report``). A drawing keeps the same size all
match long (a tab cannot grow after it is laid out).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from sheets_gm.engine.planes import Plane
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import Side, StructureKind, Terrain
from sheets_gm.rulesets.coalition.sheet.panels import creature_text, full_strength_label, slots_text
from sheets_gm.rulesets.coalition.sheet.squares import SquareView, plane_rows
from sheets_gm.rulesets.coalition.state import Army, CoalitionState, rank_text
from sheets_gm.sheets.printed_sizes import DRAWN_LINE_PIXELS, lines_needed

LABEL_WIDTH = 110
NAME_HEIGHT = 36  # the name row: "Mirrodin (wraps east–west)" on two lines
SQUARE_WIDTH = 140
#: Squares across a printed page of a plane (shrunk to fit, its coordinates repeated on every page): a plane of
#: 25 squares prints three pages wide and its rows as tall as they need.
SQUARES_PER_PAGE = 10
#: The lines a square shows, each as LibreOffice draws a line (``DRAWN_LINE_PIXELS``): at 16 pixels a line, six
#: lines drew five and a half, the last army of a full square cut in half (seen printed).
SQUARE_LINES = 6
SQUARE_HEIGHT = SQUARE_LINES * DRAWN_LINE_PIXELS + 4
#: The legend's lines before it came in two cells: the rows a plane tab laid out then has blanked.
OLD_LEGEND_LINES = 18
def square_text(view: SquareView, symbols: Mapping[str, str], ranks: Mapping[str, int]) -> str:
    """What a square's cell says, a line each: the battle, the structure (a base's colour, a feature's
    controlling side, where a portal leads), then every army on it with its rank (1 to 6, by army name
    in ``ranks``) and units.

    >>> from sheets_gm.rulesets.coalition.sheet.squares import ArmyMark
    >>> from sheets_gm.rulesets.coalition.enums import BattleType, Side
    >>> v = SquareView("3C", Terrain.FOREST, "Wrath", StructureKind.BASE, None, False, "",
    ...                (ArmyMark("Frank", Side.COALITION, "Captain", 9000),), BattleType.ATTACKS)
    >>> square_text(v, {"battle": "!", "base": "B", "coalition": "C"}, {"Frank": 4})
    '! battle (attacks)\\nB Wrath\\nC Frank (4 · 9000)'
    """
    lines: list[str] = []
    if view.battle is not None:
        lines.append(f"{symbols.get('battle', '!')} battle ({view.battle.value})")
    if view.structure:
        if view.destroyed:
            lines.append(f"{symbols.get('destroyed', 'x')} {view.structure} (destroyed)")
        else:
            kind = view.kind.value if view.kind is not None else "structure"
            extra = ""
            if view.kind is StructureKind.BASE and view.colour is not None:
                extra = f" ({view.colour.value})"
            elif view.kind is StructureKind.FEATURE and view.controlled_by:
                extra = f" · {view.controlled_by}"
            elif view.kind is StructureKind.PORTAL and view.leads_to:
                extra = f" → {view.leads_to}"
            lines.append(f"{symbols.get(kind, kind)} {view.structure}{extra}")
    armies = [f"{symbols.get(m.side.value, m.side.value)} {m.name} ({ranks.get(m.name, m.rank)} · {m.units})"
              for m in view.armies]
    return _fitted(lines, armies)


def _fitted(heading: list[str], armies: list[str]) -> str:
    """A square's lines as its cell shows them whole (``SQUARE_LINES`` lines of ``SQUARE_WIDTH``): an army a line
    while they fit; a crowd run on, armies side by side, for the cell to wrap; a crowd even that cuts, as many
    as fit (a line each or run on, whichever shows more) and a short last line saying how many more (the
    square's note lists them all): never an army cut off unsaid, never fewer shown than the square holds."""
    def fits(text: str) -> bool:
        return lines_needed(text, SQUARE_WIDTH) <= SQUARE_LINES

    text = "\n".join([*heading, *armies])
    if fits(text):
        return text
    run_on = "\n".join([*heading, "  ".join(armies)]) if armies else text
    if fits(run_on):
        return run_on
    for shown in range(len(armies) - 1, 0, -1):
        tail = more_armies(len(armies) - shown)
        for listed in (armies[:shown], ["  ".join(armies[:shown])]):
            cut = "\n".join([*heading, *listed, tail])
            if fits(cut):
                return cut
    return "\n".join([*heading, more_armies(len(armies))])


def more_armies(more: int) -> str:
    """A crowded square's last line, one line at the square's width: ``+3 more (see note)`` (the legend says to
    rest the pointer on a square for its armies)."""
    return f"+{more} more (see note)"


def square_note(place: str, terrain: Terrain, armies: list[Army]) -> str:
    """The note of a square with armies on it: the square, then each army's side, rank, slots and makeup.

    >>> from sheets_gm.rulesets.coalition.enums import Colour, Side
    >>> from sheets_gm.rulesets.coalition.state import Creature
    >>> ann = Army("Ann", Side.COALITION, 2, "Dominaria 3C", (5000, 0, 0, 0), legend="Freyalise",
    ...            creatures=(Creature("Elves", (Colour.GREEN,), 2, 5000),), factions=(Colour.GREEN,))
    >>> print(square_note("Dominaria 3C", Terrain.FOREST, [ann]))
    Dominaria 3C · forest
    Ann: Coalition, Lieutenant Commander (2)
      units 5000/0/0/0 (5000) · colour bonus +1
      legend Freyalise · factions green
      5000 Elves (green, size 2)
    """
    lines = [f"{place} · {terrain.value}"]
    for a in armies:
        side = "" if a.side is Side.MERCENARY else f"{a.side.display}, "
        who = " · ".join(p for p in (f"player {a.player}" if a.player else "", f"legend {a.legend}" if a.legend else "",
                                     f"factions {'/'.join(c.value for c in a.factions)}" if a.factions else "") if p)
        lines += [f"{a.name}: {side}{rank_text(a.side, a.rank)}",
                  f"  units {slots_text(a)} ({a.total}) · {'colour bonus +1' if a.colour_bonus else 'no colour bonus'}",
                  *([f"  {who}"] if who else []),
                  *([f"  {full_strength_label(a)}"] if full_strength_label(a) else []),
                  *(f"  {creature_text(c)}" for c in a.creatures)]
    return "\n".join(lines)


class PlaneDrawer:
    """Draws each plane of a match in its own tab; the layout (sizes, colours) depends on the map alone."""

    def __init__(self, board: Board, colours: Mapping[str, str], symbols: Mapping[str, str], report_tab: str) -> None:
        self.board = board
        self.colours = colours
        self.symbols = symbols
        self.report_tab = report_tab  # named in the legend: where the forum posts are

    def values(self, state: CoalitionState, plane: Plane) -> kit.Grid:
        """Every cell of ``plane``'s tab for ``state``: the name and column numbers, then a row per letter."""
        ranks = {a.name: a.rank for a in state.armies}
        wrap = " (wraps east–west)" if plane.wrap else ""
        grid: kit.Grid = [[f"{plane.name}{wrap}", *(str(c) for c in range(1, plane.width + 1))]]
        for letter, row in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", plane_rows(self.board, state, plane.name), strict=False):
            line: list[kit.CellValue] = [letter, *(square_text(v, self.symbols, ranks) for v in row)]
            grid.append(line)
        return grid

    def notes(self, state: CoalitionState, plane: Plane) -> dict[tuple[int, int], str]:
        """The notes of ``plane``'s squares with armies, by (row, column) of its tab (see :func:`square_note`)."""
        here: dict[str, list[Army]] = {}
        for a in state.armies:
            here.setdefault(a.at, []).append(a)
        out: dict[tuple[int, int], str] = {}
        for square in plane.cells():
            place = f"{plane.name} {square.label}"
            if place in here:
                armies = sorted(here[place], key=lambda a: (a.side.value, -a.rank, a.name))
                out[(1 + square.row, 1 + square.col)] = square_note(place, self.board.terrain_of(place), armies)
        return out

    def fills(self, plane: Plane) -> list[kit.Fill]:
        """Terrain colours per square (runs of one terrain in a row share a fill) and the labels."""
        label = self.colours.get("label", "#EFEFEF")
        out = [kit.Fill(kit.cells(0, 1, plane.width, 1), label, bold=True, wrap=True),
               kit.Fill(kit.cells(0, 2, 0, 1 + plane.height), label, bold=True, wrap=True)]
        for r in range(plane.height):
            for first, last, terrain in _runs([self._terrain(plane.name, c, r) for c in range(plane.width)]):
                out.append(kit.Fill(kit.cells(first + 1, 2 + r, last + 1, 2 + r),
                                    self.colours.get(terrain.value, "#FFFFFF"), wrap=True))
        return out

    def _terrain(self, plane: str, col: int, row: int) -> Terrain:
        return self.board.terrain_of(f"{plane} {col + 1}{chr(ord('A') + row)}")

    def legend(self) -> kit.Grid:
        """The signs, for the column right of the plane, in three cells of several lines each (their rows are a
        square's height), so that the legend ends above the plane's last row and a printed plane has no row
        the map does not use; the rest of the rows an earlier layout's longer legend took are blanked."""
        s = self.symbols
        signs = "\n".join([
            "How to read the map (rest the pointer on a square: its armies' makeup; a crowded square's last line "
            f"'{more_armies(2)}' counts the armies it has no room for, its note names them)",
            f"{s.get('coalition', '')} Coalition army · {s.get('phyrexia', '')} Phyrexian army · "
            f"{s.get('mercenary', '')} mercenary band: name (rank · units)",
            f"{s.get('battle', '')} open battle on the square (its kind)",
        ])
        structures = "\n".join([
            f"{s.get('base', '')} Coalition base (faction colour) · {s.get('stronghold', '')} Phyrexian stronghold",
            f"{s.get('feature', '')} terrain feature (· the side controlling it) · {s.get('portal', '')} portal "
            f"(where it leads) · {s.get('destroyed', '')} destroyed",
        ])
        where = (f"Terrain: the row under the map. The other planes have a tab each; the forum posts are in the "
                 f"{self.report_tab} tab.")
        blank: kit.Grid = [[""] for _ in range(OLD_LEGEND_LINES - 3)]
        return [[signs], [structures], [where], *blank]

    def key(self, plane: Plane) -> kit.Grid:
        """The terrain key, under the map: each terrain's name in its colour (:meth:`key_fills`), as many to a
        row as the plane is wide."""
        names = [t.value for t in Terrain]
        per_row = max(1, plane.width)
        return [["Terrain" if i == 0 else "", *names[i:i + per_row]] for i in range(0, len(names), per_row)]

    def key_fills(self, plane: Plane) -> list[kit.Fill]:
        """The key's terrain names in their colours; the legend's three cells wrap (white)."""
        per_row = max(1, plane.width)
        first = 2 + plane.height  # the key's first row, 1-based, under the map's last
        out = [kit.Fill(kit.cells(0, first, 0, first), self.colours.get("label", "#EFEFEF"), bold=True)]
        for i, t in enumerate(Terrain):
            col, row = 1 + i % per_row, first + i // per_row
            out.append(kit.Fill(kit.cells(col, row, col, row), self.colours.get(t.value, "#FFFFFF")))
        col = plane.width + 2
        return [*out, kit.Fill(kit.cells(col, 4, col, 6), "#FFFFFF", wrap=True)]

    def drawing(self, state: CoalitionState, plane: Plane) -> kit.BoardDrawing:
        """``plane``'s tab for ``state``, named after the plane."""
        widths = {0: LABEL_WIDTH} | {c: SQUARE_WIDTH for c in range(1, plane.width + 1)}
        heights = {0: NAME_HEIGHT} | {1 + r: SQUARE_HEIGHT for r in range(plane.height)}
        values = [*self.values(state, plane), *self.key(plane)]
        return kit.BoardDrawing(values, tuple(self.fills(plane) + self.key_fills(plane)), widths,
                                heights, self.legend(), tab=plane.name,
                                print_pages_wide=math.ceil(plane.width / SQUARES_PER_PAGE),
                                print_title_rows=1, print_title_cols=1, legend_wraps=True, print_fewest=True,
                                notes=self.notes(state, plane))

    def drawings(self, state: CoalitionState) -> list[kit.BoardDrawing]:
        """Every plane's tab, in the map's order."""
        return [self.drawing(state, plane) for plane in self.board.planes.values()]


def _runs(terrains: list[Terrain]) -> list[tuple[int, int, Terrain]]:
    """(first, last, terrain) of each run of one terrain.

    >>> _runs([Terrain.FOREST, Terrain.FOREST, Terrain.OCEAN])
    [(0, 1, <Terrain.FOREST: 'forest'>), (2, 2, <Terrain.OCEAN: 'ocean'>)]
    """
    out: list[tuple[int, int, Terrain]] = []
    for i, t in enumerate(terrains):
        if out and out[-1][2] is t and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i, t)
        else:
            out.append((i, i, t))
    return out
