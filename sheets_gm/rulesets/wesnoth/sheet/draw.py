"""The Wesnoth public tabs: the board drawn as hexes, and the Units tab (every unit type in play).

The board draws each hex as two cells of one column, in Wesnoth's layout: even columns (B, D…)
one row lower than their neighbours. A hex's upper cell holds its name and terrain sign (and the sign of a
village's owner); its lower cell a short mark of its unit: the owner's sign, its id without
the owner's name (♛ for a leader; its first ``SHORT_ID`` characters) and its hit points left. Each cell holds one
short line (``SHORT_ID``), so that the map prints at 8 pt on two landscape pages across and two
down (issue 64: six pages, hexes of 118 pixels holding a unit's id and type). The key beside the map names every
unit in full by its hex (owner, id, type, hit points of its total) and every terrain sign the map uses. Both
cells are filled with the hex's terrain colour, a castle with its player's seat colour. Formats are laid out once,
when the match is created (the generic sync rewrites only the values): a unit's owner is its sign, which the
legend names, and a conditional fill per owner colours every cell that starts with her sign in her
seat colour, wherever her units move.

The Units tab lists every unit type a player of the match may field, read from the match's own
tables (an imported era with the ``units`` setting): her faction's recruits and leaders, the
mercenaries, and everything they advance to, with the numbers of its pawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sheets_gm.engine.grid import column_label
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.settings import AlignmentRule
from sheets_gm.rulesets.wesnoth.state import Unit, WesnothState
from sheets_gm.rulesets.wesnoth.tables import DAMAGE_TYPES, UnitType
from sheets_gm.rulesets.wesnoth.terrain import BOARD_TERRAINS, Feature, Terrain
from sheets_gm.sheets.adapter import LEGEND_PIXELS
from sheets_gm.sheets.layout import ConditionalFill
from sheets_gm.sheets.printed_sizes import LINE_POINTS, cell_lines, printed_points

MAP_TOP = 2  # board rows above the map: a free row, then the column letters (beside the status line)
STATUS_HEIGHT = 60  # the column letters' row, beside the title and status line
#: A hex's width and its cells' height: one short line each (``SHORT_ID``). The map of 27 hexes and the key
#: beside it (``LEGEND_PIXELS``) then print at 8 pt or more on two landscape pages across (17 hexes on the first,
#: 10 and the key on the second), its 57 rows on two down.
HEX_WIDTH = 56
ROW_HEIGHT = 24
#: The characters of a unit's id a hex shows (the key names it whole): with its owner's sign and its hit points
#: (``■R12 38``) the widest line a hex of ``HEX_WIDTH`` holds in DejaVu Sans, the font LibreOffice prints in where
#: Calibri and Carlito are missing, whose characters are the widest.
SHORT_ID = 3
#: Between a unit's short id and its hit points: a thin space (a space is 1.3 points wider, and ``■R12 38`` wraps).
THIN_SPACE = "\u2009"
#: The map's width a printed landscape page holds at 8 pt (the board prints as many pages wide as it needs, the
#: column letters repeated on each, rather than shrunk to one).
PAGE_PIXELS = 1254
#: The rows above the legend in the info column (title, status line, a free row) and one to spare: the key has the
#: map's rows less these, so that it never needs a row the tab does not have.
INFO_ROWS = 4
UNITS_TAB = "Units"
#: What the Units tab shows of a terrain in its header.
TERRAIN_HEADERS = {"plain": "plain", "forest": "forest", "harsh": "harsh (hills)", "mountain": "mountain",
                   "water": "water", "city": "city (village, castle, keep)"}


def hex_rows(h: Hex) -> tuple[int, int]:
    """The 0-based board rows of a hex's upper and lower cells (even columns, B, D…, one row lower)."""
    top = MAP_TOP + 2 * h.row + (h.col & 1)
    return top, top + 1


def seat_colour(spec: kit.SheetSpec, seat: int) -> str:
    """The colour of the ``seat``-th roster seat's units (1-based): ``unit<seat>`` where the layout gives a colour
    stronger than the castle's (pale castles of seats 3 and 4 would hide a unit on a plain), else its castle's
    (``slot<seat>``), else the layout's seat colours, round again past the last."""
    seats = spec.colours.seats
    extra = spec.colours.extra
    return (extra.get(f"unit{seat}") or extra.get(f"slot{seat}")
            or (seats[(seat - 1) % len(seats)] if seats else "#FFFFFF"))


def seat_sign(spec: kit.SheetSpec, state: WesnothState, owner: str) -> str:
    """The sign before a unit of ``owner`` (her place in the roster)."""
    names = [p.name for p in state.players]
    return spec.symbols.get(f"seat{names.index(owner) + 1}", "") if owner in names else ""


class BoardDrawer:
    """Draws one match's public tabs (its board and tables are fixed; only the state changes)."""

    def __init__(self, rules: WesnothRules, spec: kit.SheetSpec) -> None:
        self.rules = rules
        self.spec = spec

    # -- the board ---------------------------------------------------------------------------
    def _colour_key(self, h: Hex) -> str:
        cell = self.rules.board.cell(h)
        if cell.feature in (Feature.CASTLE, Feature.KEEP):
            key = f"slot{cell.slot}"
            return key if key in self.spec.colours.extra else "castle"
        if cell.feature is Feature.VILLAGE:
            return "village"
        return cell.terrain.value

    def _hex_text(self, state: WesnothState, h: Hex) -> str:
        cell = self.rules.board.cell(h)
        signs = self.spec.symbols
        if cell.feature is Feature.VILLAGE:
            owner = state.village_owner(h)
            mark = signs.get("village", "") + (seat_sign(self.spec, state, owner) if owner else "")
        elif cell.feature is Feature.KEEP:
            mark = signs.get("keep", "")  # its player's: the key says whose keep it is, the castle's colour too
        elif cell.feature is Feature.CASTLE:
            mark = signs.get("castle", "")
        else:
            mark = signs.get(cell.terrain.value, "")
        # a name of four characters (AA12) takes its mark without a space: AA12⌂■ fits a hex, AA12 ⌂■ wraps
        return f"{h.label}{' ' if len(h.label) < 4 else ''}{mark}".strip()

    def _unit_text(self, state: WesnothState, unit: Unit) -> str:
        """A unit's mark in its hex: its owner's sign (which the owner's conditional fill matches), its short id
        and its hit points left (``●R1 29``; the key gives its type and its hit points of its total)."""
        hp = self.rules.utype(unit).hitpoints
        return f"{seat_sign(self.spec, state, unit.owner)}{self._short_id(unit)}{THIN_SPACE}{hp - unit.wounds}"

    def _short_id(self, unit: Unit) -> str:
        """A unit's id as its hex shows it: ♛ for a leader; else without its owner's name before it (``Ann-R1``:
        R1), its first ``SHORT_ID`` characters (the key names it whole)."""
        if unit.leader:
            return self.spec.symbols.get("leader", "") or unit.id[:SHORT_ID]
        own = f"{unit.owner}-"
        short = unit.id[len(own):] if unit.id.startswith(own) and len(unit.id) > len(own) else unit.id
        return short[:SHORT_ID]

    def key_entry(self, state: WesnothState, unit: Unit) -> str:
        """A unit in full as the key names it, by its hex: ``E3 ● Ann-R1 · Spearman · 29/36 HP``."""
        hp = self.rules.utype(unit).hitpoints
        leader = f" {self.spec.symbols.get('leader', '')}" if unit.leader else ""
        return (f"{unit.at.label} {seat_sign(self.spec, state, unit.owner)} {unit.id}{leader} · {unit.type} · "
                f"{hp - unit.wounds}/{hp} HP")

    def board(self, state: WesnothState) -> kit.BoardDrawing:
        """The map with its villages' owners and its units, a free row and the column letters above it."""
        grid = self.rules.board.grid
        width, height = grid.width, grid.height
        map_rows = MAP_TOP + 2 * height + 1
        values: kit.Grid = [[""] * width for _ in range(map_rows)]
        values[MAP_TOP - 1] = [column_label(c) for c in range(width)]
        for h in grid.cells():
            values[hex_rows(h)[0]][h.col] = self._hex_text(state, h)
        for unit in state.units:
            values[hex_rows(unit.at)[1]][unit.at.col] = self._unit_text(state, unit)
        return kit.BoardDrawing(values, self._board_fills(), column_widths=dict.fromkeys(range(width), HEX_WIDTH),
                                row_heights={MAP_TOP - 1: STATUS_HEIGHT,
                                             **dict.fromkeys(range(MAP_TOP, map_rows), ROW_HEIGHT)},
                                legend=self._legend(state, map_rows - INFO_ROWS),
                                print_pages_wide=math.ceil((width * HEX_WIDTH + LEGEND_PIXELS) / PAGE_PIXELS),
                                print_title_rows=MAP_TOP, print_fewest=True,
                                conditional_fills=self._owner_fills(state,
                                                                    kit.cells(0, MAP_TOP + 1, width - 1, map_rows)))

    def _owner_fills(self, state: WesnothState, board: str) -> tuple[ConditionalFill, ...]:
        """Over the map, each cell starting with a player's sign (her units' cells) in her seat colour, in bold.
        A hex's upper cell starts with its name, so only unit cells match. Not bold: a bold ``■R12 38`` is wider
        than its hex."""
        fills = []
        for seat, player in enumerate(state.players, 1):
            sign = seat_sign(self.spec, state, player.name)
            if sign:
                fills.append(ConditionalFill(board, sign, seat_colour(self.spec, seat)))
        return tuple(fills)

    def _board_fills(self) -> tuple[kit.Fill, ...]:
        """A fill per run of hexes of one colour down a column (both cells of each hex)."""
        colours = self.spec.colours.extra
        grid = self.rules.board.grid
        fills: list[kit.Fill] = []
        for col in range(grid.width):
            run_start, run_key = 0, ""
            for row in range(grid.height + 1):
                key = self._colour_key(Hex(col, row)) if row < grid.height else ""
                if key != run_key or row == grid.height:
                    if run_key:
                        top = hex_rows(Hex(col, run_start))[0]
                        bottom = hex_rows(Hex(col, row - 1))[1]
                        fills.append(kit.Fill(kit.cells(col, top + 1, col, bottom + 1), colours.get(run_key, "#FFFFFF"),
                                              wrap=True))
                    run_start, run_key = row, key
        return tuple(fills)

    def _legend(self, state: WesnothState, rows: int) -> kit.Grid:
        """The key beside the map, in at most ``rows`` rows: how a hex reads, the players and their signs, each
        terrain sign the map uses, then every unit on the board by its hex (``key_entry``, the hexes column by
        column), one a row; then empty rows to the last, which clear the units of a longer key written before (a
        unit killed). A board with more units than the key has rows (46 on a 28-row map; a two-player match has
        some 13) ends its key with a row saying how many more there are and where each is in full."""
        last = Hex(self.rules.board.grid.width - 1, self.rules.board.grid.height - 1)
        players = " · ".join(f"{seat_sign(self.spec, state, p.name)} {p.name} ({state.team_label(p.team)}, {p.faction})"
                             for p in state.players)
        head: kit.Grid = [
            [f"Hexes A1 to {last.label}: each is two cells of a column, even columns (B, D…) half a hex lower; "
             "the hex's name and terrain above, its unit below: its owner's sign, its id (♛ the leader) and its "
             "hit points left, in its owner's colour."],
            [f"Players: {players}."],
            [f"Terrain: {self._terrain_key(state)}."],
            ["Each unit type's moves, attacks, defence and move cost per terrain and resistances: the Units tab."],
            [f"Units on the board ({len(state.units)}), by hex: hex, owner, id, type, hit points of its total:"],
        ]
        entries = [self.key_entry(state, u) for u in sorted(state.units, key=lambda u: (u.at.col, u.at.row))]
        room = rows - len(kit.BoardDrawing([], legend=head).legend_rows)
        if len(entries) > room:
            entries = [*entries[:room - 1], f"… and {len(entries) - room + 1} more: each in full in its owner's "
                                            "View"]
        key: kit.Grid = [[line] for line in entries]
        lines = head + key
        return lines + [[""]] * (rows - len(kit.BoardDrawing([], legend=lines).legend_rows))

    def _terrain_key(self, state: WesnothState) -> str:
        """Each terrain sign the map uses, with its words (plain unmarked; a village's sign followed by its
        owner's), and whose each keep is (its castle filled in her castle's colour)."""
        board = self.rules.board
        used = {cell.feature.value if cell.feature is not Feature.NONE else cell.terrain.value
                for cell in (board.cell(h) for h in board.grid.cells())}
        signs = self.spec.symbols
        words = {"plain": "plain unmarked", "forest": f"{signs.get('forest', '')} forest",
                 "harsh": f"{signs.get('harsh', '')} hills (harsh)",
                 "mountain": f"{signs.get('mountain', '')} mountain", "water": f"{signs.get('water', '')} water",
                 "impassable": f"{signs.get('impassable', '')} impassable",
                 "village": f"{signs.get('village', '')} village, followed by its owner's sign",
                 "castle": f"{signs.get('castle', '')} castle", "keep": f"{signs.get('keep', '')} keep"}
        keeps = ", ".join(f"{board.keeps[p.slot].label} {p.name}'s" for p in state.players if p.slot in board.keeps)
        return " · ".join(text for name, text in words.items() if name in used) + (
            f" · keeps and their castles: {keeps}" if keeps else "")

    # -- the Units tab -----------------------------------------------------------------------
    def types_in_play(self, state: WesnothState) -> list[tuple[str, list[str]]]:
        """The unit types a player of the match may field, in sections: each faction in play (its recruits and
        leaders), the mercenaries, then everything they advance to."""
        tables = self.rules.tables
        seen: set[str] = set()
        sections: list[tuple[str, list[str]]] = []
        settings = self.rules.settings

        def fresh(names: Sequence[str]) -> list[str]:
            out = [n for n in dict.fromkeys(names) if n in tables.units and n not in seen]
            seen.update(out)
            return out

        factions = list(dict.fromkeys(p.faction for p in state.players))
        for name in factions:
            faction = tables.factions.get(name)
            if faction is None:
                continue
            players = ", ".join(p.name for p in state.players if p.faction == name)
            sections.append((f"{name} ({players}): recruits for {settings.faction_cost} gold, then leaders",
                             fresh([*faction.recruits, *faction.leaders])))
        mercenaries = [r for f in factions if f in tables.factions for r in tables.mercenaries(f)]
        sections.append((f"Mercenaries: another faction's level-0 and -1 recruits, for {settings.mercenary_cost} gold",
                         fresh(mercenaries)))
        frontier = [n for _, names in sections for n in names]
        advanced: list[str] = []
        while frontier:
            nxt = fresh([a for n in frontier for a in tables.units[n].advances_to])
            advanced += nxt
            frontier = nxt
        least = f", at least {settings.advance_min_cost} gold" if settings.advance_min_cost else ""
        sections.append((f"Advancements (for {settings.advance_cost} gold per level of the unit advancing{least})",
                         advanced))
        return [(title, names) for title, names in sections if names]

    def units_tab(self, state: WesnothState) -> kit.BoardDrawing:
        """Every unit type in play, a row each, as its pawn shows it."""
        header: list[kit.CellValue] = ["Type", "Level", "HP", "Moves", "Alignment", "Advances to", "Attacks",
                                       *(TERRAIN_HEADERS[t] for t in BOARD_TERRAINS),
                                       *(f"{d} %" for d in DAMAGE_TYPES)]
        width = len(header)
        values: kit.Grid = [
            _line("Every unit type in play, as its pawn shows it. Each terrain: the d6 score an attacker needs to hit "
                  "it there (a magical attack hits on 3+ anywhere) · the moves it pays to enter (— it cannot). "
                  "Resistances: the percent of each damage type it takes. Attacks: name damage-swings kind type.",
                  width),
            header,
        ]
        colours = self.spec.colours.extra
        fills = [kit.Fill(kit.cells(0, 2, width - 1, 2), colours.get("units_header", "#D9D9D9"), bold=True, wrap=True)]
        for title, names in self.types_in_play(state):
            values.append(_line(title, width))
            row = len(values)
            fills.append(kit.Fill(kit.cells(0, row, width - 1, row), colours.get("units_section", "#FCE5CD"),
                                  bold=True))
            values += [self._pawn(self.rules.tables.units[n]) for n in names]
        widths = {0: 150, 1: 45, 2: 40, 3: 50, 4: 75, 5: 200, 6: 400}
        widths.update(dict.fromkeys(range(7, 7 + len(BOARD_TERRAINS)), 80))
        widths.update(dict.fromkeys(range(7 + len(BOARD_TERRAINS), width), 55))
        # its line and header on every printed page, its types' names in A on each page across; no column letters or
        # row numbers, which it does not need (their column took a page's width: 18 pages at 10 pt, not 13 at 9.3)
        # the header row as tall as its longest heading's lines in bold ("city (village, castle, keep)" 4 lines in
        # 80 pixels, printed cut at 3); a point is 4/3 of a pixel
        lines = max(cell_lines(str(text), printed_points(widths[i]), bold=True) for i, text in enumerate(header))
        return kit.BoardDrawing(values, tuple(fills), column_widths=widths, tab=UNITS_TAB, print_title_rows=2,
                                row_heights={1: math.ceil(lines * LINE_POINTS * 4 / 3)})

    def _pawn(self, utype: UnitType) -> list[kit.CellValue]:
        rules = self.rules
        alignment = rules.tables.board_alignment(utype, rules.settings.alignment is AlignmentRule.FACTION)
        terrain_cells: list[kit.CellValue] = []
        for name in BOARD_TERRAINS:
            terrain = Terrain(name)
            cost = utype.move_cost(terrain)
            terrain_cells.append(f"{utype.defence(terrain)}+ · {'—' if cost is None else cost}")
        return [utype.name, utype.level, utype.hitpoints, utype.moves, alignment.value,
                ", ".join(utype.advances_to) or "—", "; ".join(a.label for a in utype.attacks) or "—",
                *terrain_cells, *(utype.resistance.get(d, 100) for d in DAMAGE_TYPES)]


def _line(text: str, width: int) -> list[kit.CellValue]:
    """A row holding one text in its first cell (it runs on over the empty cells to its right)."""
    return [text, *[""] * (width - 1)]
