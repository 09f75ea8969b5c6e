"""Champions' sheets: what ``templates/champions/sheet.yaml`` cannot say.

Orders keep the words as typed (``orders.PlayerOrders``), so reading a row never fails: the
engine's checks then answer each part in the row's feedback, naming what would be accepted.
A champion's rows are named ``<player>.<class>`` (``Ann.rogue``), as the checks name them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import Coord, column_label
from sheets_gm.engine.ruleset import GM, Outcome, Window
from sheets_gm.rulesets.champions.enums import CLASSES, EventKind, Phase
from sheets_gm.rulesets.champions.orders import Orders, PlayerOrders
from sheets_gm.rulesets.champions.report import report_rows
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import ChampionsState, Player
from sheets_gm.rulesets.champions.views import bag_line, equipment_lines, health_line, tile_mates
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.adapter import BoardDrawing, SeatInput
from sheets_gm.sheets.layout import CellValue, Fill, Grid, cells
from sheets_gm.sheets.spec import SEAT_ROWS, InputTable, SheetSpec
from sheets_gm.sheets.tables import TypedRow

LOOT_COLUMNS = ("loot1", "loot2", "loot3")
ITEM_COLUMNS = ("item1", "item2", "item3")
ACTION_COLUMNS = ("action1", "action2", "action3", "action4")
NOTHING = "none"  # typed as Item 1: the champion carries nothing


def _champion(subject: str) -> str:
    """The class word of a champion row's subject (``Ann.rogue`` → ``rogue``)."""
    return subject.rpartition(".")[2]


@dataclass(frozen=True)
class ChampionsSheet:
    """The Champions sheet adapter."""

    rules: ChampionsRules

    @property
    def spec(self) -> SheetSpec:
        """``templates/champions/sheet.yaml``."""
        return sheet_spec("champions")

    def rows(self, state: ChampionsState, seat: str, table: InputTable) -> list[str]:
        """The seat itself, or her four champions (a dead one's row says so when something is typed in it)."""
        if table.rows == SEAT_ROWS:
            return [seat]
        p = state.player(seat)
        if p is None or p.out:
            return []
        return [f"{seat}.{c.value}" for c in CLASSES]

    def shown(self, state: ChampionsState, seat: str, table: InputTable, subject: str,
              dice: TurnDice) -> Mapping[str, CellValue]:
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

    def read_orders(self, state: ChampionsState, window: Window, seat: str,
                    rows: Mapping[str, Sequence[TypedRow]]) -> SeatInput[Orders]:
        """The words typed, as the engine's orders; the checks say what each part will do."""
        move, loot, equip, sets, field = "", [], [], [], []
        ready = False
        consumed: set[str] = set()
        for row in rows.get("move_loot", []):
            move = row.text("move")
            loot = [row.text(k) for k in LOOT_COLUMNS if row.text(k)]
            ready = ready or row.ticked("ready")
            consumed.add(row.subject)
        for row in rows.get("equip", []):
            items = tuple(row.text(k) for k in ITEM_COLUMNS if row.text(k))
            if items:  # "none" takes everything off the champion, back into the bag
                equip.append((_champion(row.subject), () if [i.lower() for i in items] == [NOTHING] else items))
                consumed.add(row.subject)
        for row in rows.get("sets", []):
            actions = [row.text(k) for k in ACTION_COLUMNS]  # by position: an empty cell is an action not typed
            while actions and not actions[-1]:
                actions.pop()
            if actions:
                sets.append((_champion(row.subject), tuple(actions)))
                consumed.add(row.subject)
        for row in rows.get("fight", []):
            field = [tuple(row.text(k).replace(",", " ").split()) for k in ("battle1", "battle2") if row.text(k)]
            ready = ready or row.ticked("ready")
            consumed.add(row.subject)
        orders = PlayerOrders(move, tuple(loot), tuple(equip), tuple(field), tuple(sets))
        part = Orders({seat: orders} if not orders.is_empty() else {})
        return SeatInput(part, {}, frozenset(consumed), ready=ready)

    def typed_cells(self, state: ChampionsState, window: Window, seat: str,
                    orders: Orders) -> Mapping[str, Mapping[str, Mapping[str, CellValue]]]:
        """What a player types for ``orders``: her own part of them."""
        mine = orders.players.get(seat)
        if mine is None:
            return {}
        out: dict[str, dict[str, dict[str, CellValue]]] = {}
        if window.phase == Phase.MOVE.value:
            row: dict[str, CellValue] = {"move": mine.move}
            row.update({k: w for k, w in zip(LOOT_COLUMNS, mine.loot, strict=False)})
            out["move_loot"] = {seat: row}
            return out
        out["equip"] = {f"{seat}.{c}": dict(zip(ITEM_COLUMNS, items or (NOTHING,), strict=False))
                        for c, items in mine.equip}
        out["sets"] = {f"{seat}.{c}": dict(zip(ACTION_COLUMNS, acts, strict=False)) for c, acts in mine.sets}
        out["fight"] = {seat: {k: " ".join(pair) for k, pair in zip(("battle1", "battle2"), mine.field,
                                                                    strict=False)}}
        return out

    def drawings(self, state: ChampionsState) -> Sequence[BoardDrawing]:
        """The board, the one public tab."""
        return (self.board(state),)

    def board(self, state: ChampionsState) -> BoardDrawing:
        """The grid at its size with the players on their tiles (no health: that is for tile-mates)."""
        size = state.size
        values: Grid = [[""] * (size + 1) for _ in range(size + 1)]
        for col in range(size):
            values[0][col + 1] = column_label(col)
        for row in range(size):
            values[row + 1][0] = row + 1
            for col in range(size):
                names = [p.name for p in state.on_tile(Coord(col, row)) if not p.out]
                values[row + 1][col + 1] = "\n".join(names)
        out = [f"{p.name} (round {p.out_round})" for p in state.players if p.out]
        legend: Grid = [["A tile is named by its letter above and its number on the left (A1 top left)."],
                        ["Out: " + (", ".join(out) or "nobody")]]
        # every tile outlined, its names from the top; the row numbers at the top of their rows too
        fills = (Fill(cells(0, 2, 0, size + 1), "#FFFFFF", bold=True, wrap=True),
                 *(Fill(cells(col + 1, row + 2, col + 1, row + 2), "#F3F3F3", wrap=True, border=True)
                   for row in range(size) for col in range(size)))
        return BoardDrawing(values, fills, {0: 40, **dict.fromkeys(range(1, size + 1), 150)},
                            dict.fromkeys(range(1, size + 1), 90), legend)

    def _bag_items(self, p: Player) -> list[str]:
        """Each kind of item in her bag with its type, tier and dice (what she weighs when she equips)."""
        counts = Counter(p.bag)
        found = ((self.rules.table.get(name), n) for name, n in counts.items())
        return [f"  {n}× {item.describe()}" if n > 1 else f"  {item.describe()}" for item, n in found if item]

    def log_entry_rows(self, event: Event) -> list[list[CellValue]] | None:
        """A battle report over rows in the View logs: a row per action, each step in a cell (``report_rows``)."""
        if event.kind is not EventKind.BATTLE:
            return None
        return [list(row) for row in report_rows(event.text)]

    def turn_label(self, turn: int) -> CellValue:
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

    def status(self, state: ChampionsState, window: Window | None, outcome: Outcome | None) -> str:
        """Round, window and who is still in, or the winners."""
        if outcome is not None:
            return f"The match is over: {outcome.text}"
        alive = len(state.alive())
        label = window.label if window is not None else f"round {state.round}"
        return f"{label[:1].upper()}{label[1:]} · {alive} players in · grid {state.size}×{state.size}"

    def panel(self, state: ChampionsState, seat: str) -> Grid:
        """Her champions, bag and equipment, and her tile-mates' living champions; every player's for the GM."""
        if seat == GM:
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
        return [[line] for line in lines]
