"""Bots that type their orders into a match's sheets as players would (demos, the conformance test, and the
seats a bot plays in a real match: ``sync.bot_seats``).

The bot decides from the state, as a player reads it off the board; the sheet adapter says
which cells a player would type for those orders; they are typed into the seat's rows and the
Ready box is ticked. Then the real sync reads them like anything a person typed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from sheets_gm.engine.ruleset import Bot, Window
from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import ColumnKind, InputTable
from sheets_gm.sheets.tables import InputTab
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend


class UntypableOrdersError(ValueError):
    """A bot's orders name a row or column the seat's sheet does not have."""


def emptied(spec: InputTable) -> dict[str, CellValue]:
    """A row of ``spec`` with nothing typed: each column a player types empty, each box unticked."""
    return {c.key: False if c.kind in (ColumnKind.TICK, ColumnKind.READY) else "" for c in spec.columns
            if c.kind.typed}


def typed_values(adapter: AnySheetAdapter, state: Any, window: Window, seat: str, orders: Any, tab: InputTab, *,
                 ready: bool, subjects: Collection[str] | None = None,
                 over: bool = False) -> dict[str, dict[str, dict[str, CellValue]]]:
    """What a player of ``seat`` types for ``orders``: by table and row subject, the typed columns' values, and
    with ``ready`` the Ready box of every table open in the window that has one (on its first row, the seat's
    row) ticked, where the window waits for the seat (a bot typing its reactions in the opponent's window leaves
    its Ready alone: a person would not tick it then, and its row would tell her to tick it later). ``subjects``
    keeps only those rows (a bot that plays one member of a team); KeyError naming the
    table for a column it does not have.

    A list table (``ordered``: read from its first row down; or ``standing``: kept from window to window) that
    ``typed_cells`` names holds the seat's whole list: its rows the orders do not fill are emptied, and so are the
    columns the orders leave out of a row they fill, whatever the adapter says of them, so that nothing typed
    before (by the person a seat was handed from, or in a longer list of the bot's own) is read with the bot's.
    With ``over`` (a player who types new orders over those she saved earlier in the window), the columns the
    orders leave out of a row they fill are emptied in every table: a target typed before is not read with the
    new order."""
    out: dict[str, dict[str, dict[str, CellValue]]] = {}
    for table_name, by_subject in adapter.typed_cells(state, window, seat, orders).items():
        placed = tab.table(table_name)
        listed = placed.spec.ordered or placed.spec.standing
        rows = adapter.laid_out_rows(state, seat, placed) if listed else []
        for subject in [*by_subject, *(r for r in rows if r not in by_subject)]:
            if subjects is not None and subject not in subjects:
                continue
            values = {**emptied(placed.spec), **by_subject.get(subject, {})} if listed or over else by_subject[subject]
            for key in values:
                placed.spec.column(key)  # KeyError naming the table for an unknown column
            out.setdefault(table_name, {})[subject] = dict(values)
    if ready and seat in window.awaited:
        for placed in tab.tables:
            box = placed.spec.of_kind(ColumnKind.READY)
            rows = adapter.rows(state, seat, placed.spec) if box and placed.spec.open_in(window.phase) else []
            if rows:
                out.setdefault(placed.spec.name, {}).setdefault(rows[0], {})[box[0].key] = True
    return out


def type_bot_orders(sheets: MatchSheets, ruleset_class: type[AnyRuleset], bots: Mapping[str, Bot[Any, Any]],
                    *, ready: bool = True, over: bool = False) -> dict[str, Any]:
    """Read the match once, let the bot of each seat acting now decide, and type its orders into its rows
    (and tick its Ready box unless ``ready`` is False; with ``over``, over orders typed before in the window:
    ``typed_values``). Returns the orders typed, by seat.

    One read per spreadsheet and one write per spreadsheet that receives orders."""
    read = read_match(sheets, ruleset_class)
    record = read.record
    ruleset = record.ruleset
    window = ruleset.window(record.state)
    if window is None:
        return {}
    dice = record.dice()
    batch = WriteBatch()
    typed: dict[str, Any] = {}
    for seat in window.seats:
        bot = bots.get(seat)
        seat_read = read.seats.get(seat)
        if bot is None or seat_read is None:
            continue
        orders = bot.orders(record.state, seat, dice)
        typed[seat] = orders
        backend = seat_backend(sheets, read.tabs, seat)
        tab = seat_read.tab
        for table_name, by_subject in typed_values(read.adapter, record.state, window, seat, orders, tab,
                                                   ready=ready, over=over).items():
            placed = tab.table(table_name)
            rows = {r.subject: r.row for r in seat_read.rows if r.table == table_name}
            for subject, values in by_subject.items():
                if subject not in rows:
                    raise UntypableOrdersError(f"{seat}'s table {table_name!r} has no row {subject!r}; its rows are "
                                               f"{', '.join(rows) or '(none)'}")
                for key, value in values.items():
                    batch.put(backend, placed.at(placed.cell(rows[subject] - placed.first_row, key)), [[value]])
    batch.run(sheets.write_order())
    return typed
