"""The Coalition–Phyrexia game's sheet adapter for the generic sync.

Its layout is ``templates/coalition/layout.yaml``: each side's orders tab has a row per army
(its orders window) and a Ready box, and its Forum tab a row per line of a pasted forum post; the
judge's tab has a row per battle announced, a row per army in those battles (losses) and a Ready
box (the results window). The rows are read by
``sheet_rows``; a public tab per plane is drawn by ``sheet_board`` and the Turn report tab (the
forum's posts) by ``sheet_report``; the View tabs are filled by ``sheet_panels``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import EventKind, Phase
from sheets_gm.rulesets.coalition.forum import battle_announcements, battle_results, battle_title, movement_results
from sheets_gm.rulesets.coalition.sheet.draw import PlaneDrawer
from sheets_gm.rulesets.coalition.sheet.mailed import as_mailed
from sheets_gm.rulesets.coalition.sheet.panels import makeup_text, panel, slots_text
from sheets_gm.rulesets.coalition.sheet.read import (
    army_cells,
    judge_cells,
    post_line_name,
    post_lines,
    post_lines_of,
    read_judge_rows,
    read_side_rows,
)
from sheets_gm.rulesets.coalition.sheet.report import report_drawing
from sheets_gm.rulesets.coalition.state import CoalitionOrders, CoalitionState, rank_text
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.sheets.spec import SEAT_ROWS
from sheets_gm.sheets.tables import PlacedTable

_PHASE_WORDS = {Phase.ORDERS: "orders", Phase.RESULTS: "battle results"}


#: Where a kind of public event stands in the channel's short notice of a resolution (``news_first``): what a reader
#: wants first (0), every other kind (1), each army's own line (2), the drawn routes and the dice (3).
_NEWS_ORDER = {**{str(k): 0 for k in (EventKind.BATTLE, EventKind.RESULT, EventKind.KILL, EventKind.SIEGE,
                                      EventKind.DESTROYED, EventKind.CONTROL, EventKind.DOMINATION,
                                      EventKind.VICTORY, EventKind.DISBANDED, EventKind.CHANGED)},
               str(EventKind.ORDER): 2, str(EventKind.ROUTE): 3, str(EventKind.DICE): 3}


@dataclass(frozen=True)
class CoalitionSheet(kit.SheetAdapter[CoalitionState, CoalitionOrders]):
    """The Coalition's sheet: armies' orders rows per side, the judge's result rows, a tab per plane, the
    turn report."""

    plane_map: Board  # the match's planes, terrain and structures
    strategies_to: str = ""  # the setting: where the sides send battle strategies, for the announcements post

    @property
    def spec(self) -> kit.SheetSpec:
        """The layout of ``templates/coalition/layout.yaml``."""
        return sheet_spec("coalition")

    @cached_property
    def drawer(self) -> PlaneDrawer:
        """Draws the planes with the layout's colours and signs."""
        return PlaneDrawer(self.plane_map, self.spec.colours.extra, self.spec.symbols, self.spec.tabs.board)

    # -- rows --------------------------------------------------------------------------------
    def rows(self, state: CoalitionState, seat: str, table: kit.InputTable) -> list[str]:
        """A side's armies (highest rank first), the battles announced, the armies in them, or the seat."""
        if table.rows == SEAT_ROWS:
            return [seat]
        if table.rows == "armies":
            mine = [a for a in state.armies if a.side.value == seat]
            return [a.name for a in sorted(mine, key=lambda a: (-a.rank, a.name))]
        if table.rows == "post_lines":  # the Forum tab: two lines per army of the side, room for a title and more
            count = post_lines(sum(1 for a in state.armies if a.side.value == seat))
            return [post_line_name(seat, n) for n in range(1, count + 1)]
        announced = [b for b in state.battles if b.announced]
        if table.rows == "battles":
            return [b.at for b in announced]
        if table.rows == "fighters":
            return [n for b in announced for n in b.armies if state.army(n) is not None]
        return []

    def idle_row_reason(self, state: CoalitionState, seat: str, table: kit.InputTable, subject: str) -> str:
        """An army in an open battle (kept open as a siege, or waiting for its result) moves not: its orders row
        says so, and ``status`` does not chase it as having nothing typed."""
        if table.rows != "armies" or state.phase is not Phase.ORDERS:
            return ""
        battle = next((b for b in state.battles if subject in b.armies), None)
        if battle is None:
            return ""
        return f"{subject} is in the battle at {battle.at}: an army in battle takes no order until it ends"

    def row_out(self, state: CoalitionState, seat: str, table: kit.InputTable, row: kit.TypedRow,
                subjects: Collection[str]) -> kit.RowOut | None:
        """An army's row orders that army (its forum line too), unless its line holds a whole post pasted in it (several
        lines, read as a post); a Forum row (a line of the post, or the whole post in its cell) orders each army a
        line of it names: those lines are out, the others stand."""
        line = row.values.get("line")
        pasted = table.rows == "post_lines" or (table.rows == "armies" and "\n" in str(line).strip())
        if not isinstance(line, str) or not pasted:
            return super().row_out(state, seat, table, row, subjects)
        left, lines = post_lines_of(state, line, subjects)
        if not lines:
            return None
        kept = replace(row, values={**row.values, "line": left})
        return kit.RowOut(lines, replace(row, values={**row.values, "line": "\n".join(lines.values())}),
                          kept if left.strip() else None)

    def laid_out_rows(self, state: CoalitionState, seat: str, placed: PlacedTable) -> list[str]:
        """Every row of the Forum table is a line of the post, however many the tab has (its 60 at least, or more
        than the side's armies need now): a line pasted in any of them is read."""
        if placed.spec.rows == "post_lines":
            return [post_line_name(seat, n) for n in range(1, placed.rows + 1)]
        return super().laid_out_rows(state, seat, placed)

    def shown(self, state: CoalitionState, seat: str, table: kit.InputTable, subject: str,
              dice: kit.TurnDice) -> Mapping[str, kit.CellValue]:
        """An army's square, rank and slots; a battle's announcement; an army's battle, slots, legend and
        creatures (what the judge weighs where she enters its losses)."""
        if table.rows == "armies":
            army = state.army(subject)
            if army is None:
                return {}
            battle = next((b for b in state.battles if subject in b.armies), None)
            at = f"{army.at} (in battle)" if battle else army.at
            return {"at": at, "strength": f"{rank_text(army.side, army.rank)} · {army.total} "
                                          f"({slots_text(army)})"}
        if table.rows == "battles":
            b = state.battle_at(subject)
            if b is None:
                return {}
            return {"fight": f"{battle_title(b)} · {self.plane_map.terrain_of(b.at).value} · {b.weather}"}
        if table.rows == "fighters":
            army = state.army(subject)
            b = next((b for b in state.battles if subject in b.armies), None)
            if army is None or b is None:
                return {}
            return {"battle": f"{b.at} ({army.side.value}) · {slots_text(army)} · {makeup_text(army)}"}
        return {}

    def stray_reason(self, state: CoalitionState, seat: str, table: kit.InputTable, subject: str) -> str:
        """Why a row names what its table has no row for: no battle to judge there, an army in no battle, no army
        of that name ('' for a row of the other side's army, which the sync names)."""
        announced = [b for b in state.battles if b.announced]
        if table.rows == "battles":
            where = ", ".join(b.at for b in announced) or "none"
            return f"there is no battle to judge at {subject} this turn (the battles are at {where})"
        army = state.army(subject)
        if table.rows in ("fighters", "armies") and army is None:
            return f"there is no army called {subject}"
        if table.rows == "fighters":
            return f"{subject} fights in no battle this turn (a losses row is for an army in one of " \
                   f"{len(announced)} battle{'s' if len(announced) != 1 else ''} to judge)"
        return ""

    def row_group(self, state: CoalitionState, table: str, subject: str) -> str:
        """A losses row is read into its battle's result: the battle square, whose verdict is the row's too."""
        if table != "losses":
            return ""
        return next((b.at for b in state.battles if subject in b.armies), "")

    # -- reading -----------------------------------------------------------------------------
    def read_orders(self, state: CoalitionState, window: kit.Window, seat: str,
                    rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[CoalitionOrders]:
        """A side's army rows as its orders, or the judge's rows as results; the Ready box."""
        if seat == kit.JUDGE:
            read = read_judge_rows(state, rows.get("results", ()), rows.get("losses", ()))
            orders = CoalitionOrders(results=read.results)
            ready = any(r.ticked("ready") for r in rows.get("judge", ()))
        else:
            post = rows.get("post", ())
            read = as_mailed(read_side_rows(self.plane_map, state, rows.get("armies", ()), post, seat), post)
            orders = CoalitionOrders(orders={seat: read.orders} if read.orders else {})
            ready = any(r.ticked("ready") for r in rows.get("side", ()))
        problems = {k: tuple(v) for k, v in read.problems.items()}
        return kit.SeatInput(orders, problems, ready=ready,
                             read_as={k: tuple(v) for k, v in read.read_as.items()},
                             notes={k: tuple(v) for k, v in read.notes.items()})

    def typed_cells(self, state: CoalitionState, window: kit.Window, seat: str,
                    orders: CoalitionOrders) -> Mapping[str, Mapping[str, Mapping[str, kit.CellValue]]]:
        """The cells a side or the judge would type for ``orders``."""
        if seat == kit.JUDGE:
            return judge_cells(orders.results)
        return {"armies": {army: army_cells(o) for army, o in orders.orders.get(seat, {}).items()}}

    # -- drawing -----------------------------------------------------------------------------
    def drawings(self, state: CoalitionState) -> Sequence[kit.BoardDrawing]:
        """A tab per plane, named after it (``sheet_board``), then the Turn report tab with the forum's posts
        (``sheet_report``; the layout's board tab)."""
        return self.drawings_before(state, "")

    def drawings_before(self, state: CoalitionState, deadline: str) -> Sequence[kit.BoardDrawing]:
        """``drawings``, the Battle Announcements post saying by when the strategies are due (``deadline``: the
        open results window's, as people read it)."""
        return (*self.drawer.drawings(state), report_drawing(state, self.plane_map, self.spec.colours.extra,
                                                             self.strategies_to, deadline))

    def board_tab_before(self, state: CoalitionState, deadline: str) -> Sequence[kit.BoardDrawing]:
        """The Turn report alone (the layout's board tab), as ``drawings_before`` draws it: not the planes."""
        return (report_drawing(state, self.plane_map, self.spec.colours.extra, self.strategies_to, deadline),)

    def drawings_undated(self, state: CoalitionState,
                         dated: Sequence[kit.BoardDrawing]) -> Sequence[kit.BoardDrawing]:
        """``drawings(state)`` given ``drawings_before``'s of the same state: its planes' tabs as they are, the Turn
        report drawn again without the deadline (the planes are most of the drawing)."""
        return (*dated[:-1], report_drawing(state, self.plane_map, self.spec.colours.extra, self.strategies_to, ""))

    def status(self, state: CoalitionState, window: kit.Window | None, outcome: kit.Outcome | None) -> str:
        """The turn and window, the victory points, the open battles; or the result."""
        score = f"Coalition {state.vp.get('coalition', 0)} VP, Phyrexia {state.vp.get('phyrexia', 0)} VP"
        if outcome is not None:
            return f"Round over after turn {state.turn}: {outcome.text} · {score}"
        open_ = sum(1 for b in state.battles if b.announced)
        battles = f" · {open_} battle{'s' if open_ != 1 else ''} to judge" if state.phase is Phase.RESULTS else ""
        who = "the judge enters the results" if state.phase is Phase.RESULTS else "both sides write orders"
        return f"Turn {state.turn} · {_PHASE_WORDS.get(state.phase, state.phase.value)}: {who}{battles} · {score}"

    def panel(self, state: CoalitionState, seat: str) -> kit.Grid:
        """A side's armies, or the battles to judge and the announcements (judge and GM)."""
        return panel(state, self.plane_map, seat, self.spec.tabs, self.strategies_to)

    def news_first(self, events: Sequence[kit.Event]) -> list[kit.Event]:
        """The battles, results, kills, sieges and structures first, each army's movement after them, the drawn
        routes and the dice last (the Log's order kept within each)."""
        return sorted(events, key=lambda e: _NEWS_ORDER.get(str(e.kind), 1))

    def posts(self, before: CoalitionState, state: CoalitionState) -> Sequence[kit.Post]:
        """The forum's posts a resolution makes, all public (the forum is): after the orders deadline the
        Movement Results and the Battle Announcements (and the Battle Results when no battle waits for the
        judge), after the judge's results the Battle Results."""
        texts: list[str] = []
        if before.phase is Phase.ORDERS:
            texts += [movement_results(state), battle_announcements(state, self.plane_map, self.strategies_to)]
        if state.phase is not Phase.RESULTS:
            texts.append(battle_results(state))
        return [kit.Post(text.split("\n", 1)[0], text) for text in texts]  # each post's first line is its title

