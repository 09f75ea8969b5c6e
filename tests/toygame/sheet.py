"""Noughts and crosses' sheet, the sheet half: a row per player to type a square in, and the grid drawn on the board.

Its layout is ``template/layout.yaml``: one row per player (her square and her Ready box)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets_gm.rulesets import kit
from tests.toygame.engine import ToyOrders, ToyState


class ToySheet(kit.GameSheet[ToyState, ToyOrders]):
    """The sheet half: a row per player to type a square in, and the grid drawn on the board."""

    def rows(self, state: ToyState, seat: str, table: kit.InputTable) -> list[str]:
        """Her own row."""
        return [seat]

    def read_orders(self, state: ToyState, window: kit.Window, seat: str,
                    rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[ToyOrders]:
        """Her square, in capitals, and her Ready box."""
        row = next(iter(rows.get("move", [])), None)
        square = row.text("square").strip().upper() if row is not None else ""
        ready = row is not None and row.ticked("ready")
        return kit.SeatInput(ToyOrders({seat: square} if square else {}), ready=ready)

    def typed_cells(self, state: ToyState, window: kit.Window, seat: str,
                    orders: ToyOrders) -> Mapping[str, Mapping[str, Mapping[str, kit.CellValue]]]:
        """What a player types for ``orders``: her square."""
        return {"move": {seat: {"square": orders.square[seat]}}} if seat in orders.square else {}

    def drawings(self, state: ToyState) -> Sequence[kit.BoardDrawing]:
        """The grid, with the columns' letters and the rows' numbers."""
        grid: kit.Grid = [["", "A", "B", "C"]]
        grid += [[row, *(state.marks[f"{c}{row}"] for c in "ABC")] for row in "123"]
        return (kit.BoardDrawing(grid, (), {i: 40 for i in range(4)}),)

    def status(self, state: ToyState, window: kit.Window | None, outcome: kit.Outcome | None) -> str:
        """Whose turn it is, or how the game ended."""
        return f"Over: {outcome.text}." if outcome else f"Turn {state.turn}: {state.acting()} to mark."

    def panel(self, state: ToyState, seat: str) -> kit.Grid:
        """Her mark."""
        return [["Your mark", "XO"[state.players.index(seat)] if seat in state.players else ""]]


