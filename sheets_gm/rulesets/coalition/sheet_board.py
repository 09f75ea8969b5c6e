"""The Coalition's public Board tab: the three planes one under the other, then the forum's posts.

Each plane is drawn as a block: a row with its name and the column numbers, then a row per
row letter, a cell per square (its terrain as the cell's colour; in the cell the battle, the
structure and every army on it, one per line). Under the planes stand the turn's forum posts
(Battle Announcements, Movement Results, Battle Results), a line per row, ready to copy. The
drawing keeps the same size all match long (a sheet's tab cannot grow after it is laid out):
a post longer than the space left is cut with a line saying so (the Log tab has every event).
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.boardview import SquareView, plane_rows
from sheets_gm.rulesets.coalition.enums import Phase, StructureKind, Terrain
from sheets_gm.rulesets.coalition.forum import battle_announcements, battle_results, movement_results
from sheets_gm.rulesets.coalition.state import CoalitionState
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sheets.layout import CellValue, Fill, Grid, cells

#: Rows under the planes for the forum posts (the title row not counted).
POST_ROWS = 160
LABEL_WIDTH = 90
SQUARE_WIDTH = 112
SQUARE_HEIGHT = 64


def square_text(view: SquareView, symbols: Mapping[str, str], ranks: Mapping[str, int]) -> str:
    """What a square's cell says, a line each: the battle, the structure, then every army on it with its
    rank (1 to 6, by army name in ``ranks``) and units.

    >>> from sheets_gm.rulesets.coalition.boardview import ArmyMark
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
            lines.append(f"{symbols.get(kind, kind)} {view.structure}{extra}")
    for mark in view.armies:
        rank = ranks.get(mark.name, mark.rank)
        lines.append(f"{symbols.get(mark.side.value, mark.side.value)} {mark.name} ({rank} · {mark.units})")
    return "\n".join(lines)


def forum_posts(state: CoalitionState, board: Board) -> list[str]:
    """The turn's forum posts as lines: what the last deadline produced (nothing before the first)."""
    if not state.movement and state.phase is Phase.ORDERS and state.turn == 1:
        return ["No posts yet: the first ones come at the turn 1 orders deadline."]
    lines = [*battle_announcements(state, board).split("\n"), "", "-" * 40, ""]
    lines += movement_results(state).split("\n")
    if state.phase is not Phase.RESULTS:  # the turn has ended: its battles' results are in
        lines += ["", "-" * 40, "", *battle_results(state).split("\n")]
    return lines


def _cut(lines: list[str], room: int) -> list[str]:
    if len(lines) <= room:
        return lines
    kept = lines[:room - 1]
    return [*kept, f"… {len(lines) - len(kept)} more lines: the Log tab has every event of the turn."]


class BoardDrawer:
    """Draws a match's planes and posts; the layout (sizes, colours) depends on the map alone."""

    def __init__(self, board: Board, colours: Mapping[str, str], symbols: Mapping[str, str]) -> None:
        self.board = board
        self.colours = colours
        self.symbols = symbols
        self.width = 1 + max(p.width for p in board.planes.values())
        self.posts_row = sum(p.height + 2 for p in board.planes.values())  # 0-based row of the posts' title

    @property
    def height(self) -> int:
        """Rows the drawing uses, whatever the state."""
        return self.posts_row + 1 + POST_ROWS

    def values(self, state: CoalitionState) -> Grid:
        """Every cell of the drawing for ``state``."""
        grid: Grid = []
        ranks = {a.name: a.rank for a in state.armies}
        for plane in self.board.planes.values():
            wrap = " (wraps east–west)" if plane.wrap else ""
            head: list[CellValue] = [f"{plane.name}{wrap}", *(str(c) for c in range(1, plane.width + 1))]
            grid.append(head)
            for letter, row in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", plane_rows(self.board, state, plane.name),
                                   strict=False):
                grid.append([letter, *(square_text(v, self.symbols, ranks) for v in row)])
            grid.append([])
        grid.append(["Forum posts of the turn, ready to paste (select the lines of a post, copy, paste on the "
                     "forum)"])
        posts = _cut(forum_posts(state, self.board), POST_ROWS)
        grid += [[line] for line in posts]
        grid += [[] for _ in range(POST_ROWS - len(posts))]
        return [row + [""] * (self.width - len(row)) for row in grid]

    def fills(self) -> list[Fill]:
        """Terrain colours per square (runs of one terrain in a row share a fill), the labels, the posts' title."""
        label = self.colours.get("label", "#EFEFEF")
        out: list[Fill] = []
        top = 1  # 1-based sheet row of the plane's name row
        for plane in self.board.planes.values():
            out.append(Fill(cells(0, top, plane.width, top), label, bold=True))
            out.append(Fill(cells(0, top + 1, 0, top + plane.height), label, bold=True, wrap=True))  # letter on top
            for r in range(plane.height):
                row = top + 1 + r
                runs = _runs([self._terrain(plane.name, c, r) for c in range(plane.width)])
                for first, last, terrain in runs:
                    out.append(Fill(cells(first + 1, row, last + 1, row), self.colours.get(terrain.value, "#FFFFFF"),
                                    wrap=True))
            top += plane.height + 2
        out.append(Fill(cells(0, self.posts_row + 1, self.width - 1, self.posts_row + 1),
                        self.colours.get("posts", "#FFF2CC"), bold=True))
        return out

    def _terrain(self, plane: str, col: int, row: int) -> Terrain:
        return self.board.terrain_of(f"{plane} {col + 1}{chr(ord('A') + row)}")

    def legend(self) -> Grid:
        """The signs and terrain colours, for the column right of the board (laid out once)."""
        s = self.symbols
        lines: Grid = [
            ["How to read the map"],
            [f"{s.get('coalition', '')} Coalition army (rank 1–6 · units)"],
            [f"{s.get('phyrexia', '')} Phyrexian army (rank · units)"],
            [f"{s.get('mercenary', '')} mercenary band (rank · units)"],
            [f"{s.get('battle', '')} open battle on the square (its kind)"],
            [f"{s.get('base', '')} Coalition base (faction colour)"],
            [f"{s.get('stronghold', '')} Phyrexian stronghold"],
            [f"{s.get('feature', '')} terrain feature (· the side controlling it)"],
            [f"{s.get('portal', '')} portal"],
            [f"{s.get('destroyed', '')} destroyed structure"],
            ["Terrain:"],
        ]
        lines += [[t.value] for t in Terrain]
        lines += [["The forum posts of the turn are under the planes."]]
        return lines

    def legend_fills(self) -> list[Fill]:
        """The terrain lines of the legend in their colours (the legend starts on row 4, right of the board)."""
        col = self.width + 1
        first = 4 + [r[0] for r in self.legend()].index(Terrain.PLAINS.value)  # the first terrain's line
        return [Fill(cells(col, first + i, col, first + i), self.colours.get(t.value, "#FFFFFF"))
                for i, t in enumerate(Terrain)]

    def drawing(self, state: CoalitionState) -> BoardDrawing:
        """The whole board drawing for ``state``."""
        widths = {0: LABEL_WIDTH} | {c: SQUARE_WIDTH for c in range(1, self.width)}
        heights: dict[int, int] = {}
        top = 0
        for plane in self.board.planes.values():
            heights |= {top + 1 + r: SQUARE_HEIGHT for r in range(plane.height)}
            top += plane.height + 2
        return BoardDrawing(self.values(state), tuple(self.fills() + self.legend_fills()), widths, heights,
                            self.legend())


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
