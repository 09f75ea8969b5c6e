"""Champions' sheets: what ``templates/champions/layout.yaml`` cannot say.

Orders keep the words as typed (``orders.PlayerOrders``), so reading a row never fails: the
engine's checks then answer each part in the row's feedback, naming what would be accepted.
A champion's rows are named ``<player>.<class>`` (``Ann.rogue``), as the checks name them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sheets_gm.engine.grid import Coord, column_label
from sheets_gm.engine.vocab import VocabularyError, parse_choice
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import size_for
from sheets_gm.rulesets.champions.combat_report import report_rows
from sheets_gm.rulesets.champions.enums import CLASSES, EventKind, LootChoice, Phase
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders, cell_words
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import ChampionsState, Player
from sheets_gm.rulesets.champions.views import bag_line, equipment_lines, health_line, tile_mates
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.layout import ConditionalFill
from sheets_gm.sheets.printed_sizes import DRAWN_LINE_PIXELS, line_room, lines_needed, printed_points
from sheets_gm.sheets.spec import SEAT_ROWS, VIEW_COLS

LOOT_COLUMNS = ("loot1", "loot2", "loot3")
ITEM_COLUMNS = ("item1", "item2", "item3")
ACTION_COLUMNS = ("action1", "action2", "action3", "action4")
NOTHING = "none"  # typed as Item 1: the champion carries nothing
TILE_SHADES = ("#E6E6E6", "#F7F7F7")  # a board's tiles in turn, as a chessboard's squares
TILE_PIXELS = 145  # a tile's width: four and the legend on one landscape page at 8 pt (150: two pages, issue 64)
TILE_LINE_PIXELS = DRAWN_LINE_PIXELS  # a line of a tile's text
TILE_NAME_LINES = 4  # names a tile lists one to a line; more run on, comma-separated


def with_list(rows: kit.Grid, heading: str, entries: Sequence[str]) -> kit.Grid:
    """A View panel's ``rows`` with ``entries`` down its last column (the list an equip cell's dropdown offers:
    ``values_from: view``) and ``heading`` beside the first, in the column before."""
    width = VIEW_COLS
    out: kit.Grid = [[*row, *[""] * (width - len(row))] for row in rows]
    out += [[""] * width for _ in range(len(entries) - len(out))]
    out[0][width - 2] = heading
    for i, entry in enumerate(entries):
        out[i][width - 1] = entry
    return out


def tile_text(label: str, names: Sequence[str]) -> str:
    """A board tile's cell: its name, then who stands on it, one to a line while they fit the tile (four), else
    run on, comma-separated, for the cell to wrap: every name readable at any crowd."""
    if len(names) <= TILE_NAME_LINES:
        return "\n".join([label, *names])
    return f"{label}\n{', '.join(names)}"


def tile_height(state: ChampionsState) -> int:
    """The tile rows' height in pixels: enough for the most crowded tile the match can see, every player of the
    roster on one tile (the drawing keeps its size all match long: a row cannot grow when the crowd does)."""
    crowd = tile_text("A1", [p.name for p in state.players])
    return max(TILE_LINE_PIXELS * (1 + TILE_NAME_LINES), TILE_LINE_PIXELS * lines_needed(crowd, TILE_PIXELS) + 6)


def board_span(state: ChampionsState) -> int:
    """The tiles a side of the board drawing spans: the grid the match started on (it only shrinks)."""
    return max(state.size, size_for(len(state.players)))


def _champion(subject: str) -> str:
    """The class word of a champion row's subject (``Ann.rogue`` → ``rogue``)."""
    return subject.rpartition(".")[2]


@dataclass(frozen=True)
class ChampionsSheet(kit.SheetAdapter[ChampionsState, Orders]):
    """The Champions sheet adapter."""

    rules: ChampionsRules

    @property
    def spec(self) -> kit.SheetSpec:
        """``templates/champions/layout.yaml``."""
        return sheet_spec("champions")

    def rows(self, state: ChampionsState, seat: str, table: kit.InputTable) -> list[str]:
        """The seat itself, or her four champions (a dead one's row says so when something is typed in it)."""
        if table.rows == SEAT_ROWS:
            return [seat]
        p = state.player(seat)
        if p is None or p.out:
            return []
        return [f"{seat}.{c.value}" for c in CLASSES]

    def shown(self, state: ChampionsState, seat: str, table: kit.InputTable, subject: str,
              dice: kit.TurnDice) -> Mapping[str, kit.CellValue]:
        """A champion's health and what it carries now."""
        p = state.player(seat)
        if p is None:
            return {}
        cls = next((c for c in CLASSES if c.value == _champion(subject)), None)
        if cls is None:
            return {}
        if p.hp(cls) <= 0:  # a dead champion can still be stripped: say what it carries
            items = p.items_of(cls)
            return {"health": f"dead · carries {', '.join(items)}" if items else "dead"}
        carries = ", ".join(p.items_of(cls)) or "nothing"
        return {"health": f"{p.hp(cls)} · carries {carries}"}

    def read_orders(self, state: ChampionsState, window: kit.Window, seat: str,
                    rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[Orders]:
        """The words typed, as the engine's orders; the checks say what each part will do."""
        move, loot, equip, sets, field = "", [], [], [], []
        ready = False
        problems: dict[str, list[str]] = {}
        for row in rows.get("move_loot", []):
            move = row.text("move")
            loot = [row.text(k) for k in LOOT_COLUMNS if row.text(k)]
            for n, word in enumerate(loot, start=1):  # a word no loot means is known now, whatever the window
                try:
                    parse_choice(LootChoice, word, f"looting action {n}")
                except VocabularyError as exc:  # the check says the same of it: said once (fates.row_feedback)
                    problems.setdefault(row.subject, []).append(f"{exc}; this action was not used")
            ready = ready or row.ticked("ready")
        for row in rows.get("equip", []):
            items = tuple(row.text(k) for k in ITEM_COLUMNS if row.text(k))
            if items:  # "none" takes everything off the champion, back into the bag
                equip.append((_champion(row.subject), () if [i.lower() for i in items] == [NOTHING] else items))
        for row in rows.get("sets", []):
            actions = [row.text(k) for k in ACTION_COLUMNS]  # by position: an empty cell is an action not typed
            while actions and not actions[-1]:
                actions.pop()
            if actions:
                sets.append((_champion(row.subject), tuple(actions)))
        for row in rows.get("fight", []):
            field = [tuple(cell_words(row.text(k))) for k in ("battle1", "battle2") if row.text(k)]
            ready = ready or row.ticked("ready")
        orders = PlayerOrders(move, tuple(loot), tuple(equip), tuple(field), tuple(sets))
        part = Orders({seat: orders} if not orders.is_empty() else {})
        return kit.SeatInput(part, problems, ready=ready)

    def typed_cells(self, state: ChampionsState, window: kit.Window, seat: str,
                    orders: Orders) -> Mapping[str, Mapping[str, Mapping[str, kit.CellValue]]]:
        """What a player types for ``orders``: her own part of them."""
        mine = orders.players.get(seat)
        if mine is None:
            return {}
        out: dict[str, dict[str, dict[str, kit.CellValue]]] = {}
        if window.phase == Phase.MOVE.value:
            row: dict[str, kit.CellValue] = {"move": mine.move}
            row.update({k: w for k, w in zip(LOOT_COLUMNS, mine.loot, strict=False)})
            out["move_loot"] = {seat: row}
            return out
        out["equip"] = {f"{seat}.{c}": dict(zip(ITEM_COLUMNS, items or (NOTHING,), strict=False))
                        for c, items in mine.equip}
        out["sets"] = {f"{seat}.{c}": dict(zip(ACTION_COLUMNS, acts, strict=False)) for c, acts in mine.sets}
        out["fight"] = {seat: {k: " ".join(pair) for k, pair in zip(("battle1", "battle2"), mine.field,
                                                                    strict=False)}}
        return out

    def drawings(self, state: ChampionsState) -> Sequence[kit.BoardDrawing]:
        """The board, the one public tab."""
        return (self.board(state),)

    def board(self, state: ChampionsState) -> kit.BoardDrawing:
        """The grid at its size with the players on their tiles (no health: that is for tile-mates).

        The drawing always spans the grid the match started on and a blank column, so that when the grid
        shrinks every cell the larger grid used is written again (blank past the new grid) and the title and
        status stay in their column; ``repair`` blanks a board an earlier sync drew over. A tile's cell starts
        with its name, and its shading is a conditional fill keyed to that name: a tile cut off by a shrink,
        blank now, loses its shading with its name, with no layout call."""
        size = state.size
        span = board_span(state)
        # one blank column more: where a sync before this layout wrote the status once the grid had shrunk
        values: kit.Grid = [[""] * (span + 2) for _ in range(span + 1)]
        for col in range(size):
            values[0][col + 1] = column_label(col)
        for row in range(size):
            values[row + 1][0] = row + 1
            for col in range(size):
                tile = Coord(col, row)
                names = [p.name for p in state.on_tile(tile) if not p.out]
                values[row + 1][col + 1] = tile_text(tile.label, names)
        out = [f"{p.name} (round {p.out_round})" for p in state.players if p.out]
        legend: kit.Grid = [["Each tile shows its name (A1 top left, by its letter above and its number on the left) "
                             "and who stands on it."],
                            ["Out: " + (", ".join(out) or "nobody")]]
        # every cell of the largest grid wraps from the top (white: a tile of an earlier layout loses its grey)
        # the legend (under the title and status, right of the gap: rows 4 and 5) wraps in its column too
        legend_col = span + 3
        fills = (kit.Fill(kit.cells(0, 2, 0, span + 1), "#FFFFFF", bold=True, wrap=True),
                 kit.Fill(kit.cells(1, 2, span, span + 1), "#FFFFFF", wrap=True),
                 kit.Fill(kit.cells(legend_col, 4, legend_col, 3 + len(legend)), "#FFFFFF", wrap=True))
        shading = tuple(ConditionalFill(kit.cells(col + 1, row + 2, col + 1, row + 2), Coord(col, row).label,
                                        TILE_SHADES[(col + row) % 2])
                        for row in range(span) for col in range(span))
        return kit.BoardDrawing(values, fills, {0: 40, **dict.fromkeys(range(1, span + 1), TILE_PIXELS), span + 1: 20},
                                dict.fromkeys(range(1, span + 1), tile_height(state)), legend,
                                conditional_fills=shading, legend_wraps=True, print_fewest=True)

    def _bag_items(self, p: Player) -> list[str]:
        """Each kind of item in her bag with its type, tier and dice (what she weighs when she equips)."""
        counts = Counter(p.bag)
        found = ((self.rules.table.get(name), n) for name, n in counts.items())
        return [f"  {n}× {item.describe()}" if n > 1 else f"  {item.describe()}" for item, n in found if item]

    def log_entry_rows(self, event: kit.Event) -> list[list[kit.CellValue]] | None:
        """A battle report over rows in the View logs: a row per action, each step in a cell, its dice rows each one
        printed line of the log's sentence column, the View's third (``report_rows``)."""
        if event.kind is not EventKind.BATTLE:
            return None
        return [list(row) for row in report_rows(event.text, line_room(printed_points(self.spec.view_widths[2])))]

    def turn_label(self, turn: int) -> kit.CellValue:
        """Round r's move window is turn 2r − 1 and its fight 2r (``resolve.window_turn``): the Log says the round."""
        return f"round {(turn + 1) // 2}, {'move' if turn % 2 else 'fight'}"

    def verdict_table(self, part: str) -> str:
        """An equip verdict in the champion's equip row, a set's in its action set row (both are its rows)."""
        return {"equip": "equip", "set": "sets"}.get(part, "")

    def idle_reason(self, state: ChampionsState, seat: str) -> str:
        """An out player's rows say she is out, and since when (the sync's words for anyone else)."""
        p = state.player(seat)
        if p is None or not p.out:
            return ""
        when = f" in round {p.out_round}" if p.out_round else ""
        return (f"{seat} is out: all four champions died{when}. Nothing more to write; "
                "the board and the Log follow the match to its end.")

    def status(self, state: ChampionsState, window: kit.Window | None, outcome: kit.Outcome | None) -> str:
        """Round, window and who is still in, or the winners."""
        if outcome is not None:
            return f"The match is over: {outcome.text}"
        alive = len(state.alive())
        label = window.label if window is not None else f"round {state.round}"
        return f"{label[:1].upper()}{label[1:]} · {alive} players in · grid {state.size}×{state.size}"

    def panel(self, state: ChampionsState, seat: str) -> kit.Grid:
        """Her champions, bag and equipment, and her tile-mates' living champions; every player's for the GM."""
        if seat == kit.GM:
            return [[line] for p in state.players for line in (health_line(p), bag_line(p))]
        p = state.player(seat)
        if p is None:
            return []
        lines = ["Your champions", health_line(p), bag_line(p), *self._bag_items(p), *equipment_lines(p)]
        if p.out:
            return [[line] for line in [self.idle_reason(state, seat), "", *lines]]
        if p.at is not None:
            lines.append(f"You stand on {p.at.label}; {len(state.pools.get(p.at.label, ()))} items lie there.")
        mates = tile_mates(state, p)
        if mates:
            lines += ["", "On your tile", *(health_line(q) for q in mates)]
        return with_list([[line] for line in lines], "For the Item lists:", [NOTHING, *self._bag_choices(p)])

    def _bag_choices(self, p: Player) -> list[str]:
        """What the equip cells' lists offer: each kind of item in her bag and on her champions, described (its
        type, tier and dice, as she weighs them), once each; ``items.LootTable.find`` reads a choice back."""
        names = [*p.bag, *(name for c in CLASSES for name in p.items_of(c))]
        found = (self.rules.table.get(name) for name in dict.fromkeys(names))
        return [item.describe() for item in found if item is not None]
