"""What a window says of the rows kept for it from the moment it is opened.

A resolution that opens a new window (an equip window after a move window), and an undo that reopens one, draw the
rows that stay in their cells. Each of those rows is read in the window now open, and its feedback must say what
that window makes of it at once (kept for the seat's next turn, refused because …, or read and checked), not what
the window before said of it: the next poll would only say it a poll later. ``check_opened`` reads the kept rows of
every seat for the window as a poll would, and runs the game's check on them where the game shows its verdicts
before resolving; ``OpenedCheck.answer`` is the sentence the next poll writes in the row (``fates.row_feedback``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import Ruleset, Verdict, Window
from sheets_gm.sheets.adapter import AnySheetAdapter, SeatInput
from sheets_gm.sheets.spec import InputTable, SheetSpec
from sheets_gm.sheets.tables import InputTab, TypedRow, too_long
from sheets_gm.sync.rows.fate_words import MARK
from sheets_gm.sync.rows.fates import (
    SeatSettled,
    game_notes,
    routed,
    row_feedback,
    row_verdicts,
    table_ahead_refusals,
    told_verdicts,
)

#: By seat, table and the subject of the row each is drawn in: the rows that stay in their cells.
KeptRows = Mapping[str, Mapping[str, Mapping[str, TypedRow]]]


@dataclass(frozen=True)
class OpenedCheck:
    """What ``window`` makes of the rows kept for it: each acting seat's reading of them (``inputs``) and the
    engine's verdicts on the orders they make (none in a game that shows its verdicts only once resolved)."""

    window: Window
    state: Any
    inputs: Mapping[str, SeatInput[Any]]
    verdicts: tuple[Verdict, ...] = ()

    def answer(self, adapter: AnySheetAdapter, seat: str, table: InputTable, row: TypedRow, note: str = "",
               ready: bool | None = None) -> str | None:
        """What ``row`` (as drawn: its subject the row it stands in) says in the window: ``note`` (why it was kept,
        what was said of it), unless the window's own check of it replaces it, then the refusals of its cells, the
        engine's verdicts, or that it is held for the seat's next turn (``fates.row_feedback``). None when the seat
        does not write in ``table`` in the window (the row is kept for another one, and says so elsewhere)."""
        found = self.inputs.get(seat)
        if found is None or not table.open_in(self.window.phase):
            return None
        row = replace(row, window=self.window.key)
        mine = row_verdicts(adapter, self.state, seat, row,
                            routed(adapter.placed_verdicts([v for v in self.verdicts if v.seat == seat], found), seat,
                                   found))
        if row.subject in found.held and not note.startswith(MARK):  # what its own turn will refuse, said now
            note = table_ahead_refusals(adapter, self.state, self.window, seat, table, [row],
                                        found.held).get(row.subject, note)
        return row_feedback(row, seat, self.window, table, found.problems, mine,
                            found.ready if ready is None else ready, note, row.subject in found.held,
                            game_notes(found, row.subject), found.held_why.get(row.subject, ""))


def check_opened(ruleset: Ruleset[Any, Any, Any], adapter: AnySheetAdapter, state: Any, window: Window,
                 dice: TurnDice, tabs: Mapping[str, InputTab], kept: KeptRows, sheet: SheetSpec) -> OpenedCheck:
    """Read every acting seat's ``kept`` rows in the tables it writes in during ``window`` (``state`` its state), as
    the next poll reads them: a cell too long to read refused by name, the rest read as orders; and the engine's
    check of the orders they make where the game shows its verdicts before resolving, as the poll decides it
    (``sheet.shows_verdicts``: a game whose only secret is the dice shows them when the check rolled none), else
    those its rules say hide nothing (``fates.told_verdicts``)."""
    inputs: dict[str, SeatInput[Any]] = {}
    any_rows = False
    for seat in window.seats:
        tab = tabs.get(seat)
        rows: dict[str, list[TypedRow]] = {}
        refused: dict[str, list[str]] = {}
        for table, by_subject in kept.get(seat, {}).items():
            spec = tab.table(table).spec if tab is not None else None
            if spec is None or not spec.open_in(window.phase):
                continue
            headers = {c.key: c.header for c in spec.columns}
            for subject, row in by_subject.items():
                drawn = replace(row, subject=subject, window=window.key)
                why = too_long(drawn, headers)
                if why:
                    refused[subject] = why
                else:
                    rows.setdefault(table, []).append(drawn)
        any_rows = any_rows or bool(rows or refused)
        found = adapter.read_orders(state, window, seat, rows)
        inputs[seat] = replace(found, problems={**found.problems, **refused}) if refused else found
    if not any_rows:
        return OpenedCheck(window, state, inputs)
    orders = ruleset.merge_orders({s: i.orders for s, i in inputs.items()})
    verdicts = tuple(told_verdicts(sheet, bool(dice.rolled or dice.drawn), ruleset.check(state, orders, dice)))
    return OpenedCheck(window, state, inputs, verdicts)


def answer_settled(opened: OpenedCheck, adapter: AnySheetAdapter, seat: str, tab: InputTab, settled: SeatSettled, *,
                   notes: Mapping[tuple[str, str], str] | None = None,
                   told: Mapping[str, Mapping[str, str]] | None = None) -> None:
    """Replace what ``settled`` shows in each row it keeps for the window ``opened`` by what that window says of it
    (``OpenedCheck.answer``, with the note kept for the row: ``notes`` by table and subject, else the resolution's):
    the sentence the next poll writes, after what a row was ``told`` (a seat handed back: its boxes unticked)."""
    if notes is None:
        notes = {(n["table"], n["subject"]): str(n.get("note", "")) for n in settled.notes}
    for table, rows in settled.kept.items():
        spec = tab.table(table).spec
        for subject, row in rows.items():
            if not row.typed:  # nothing typed: the drawing says what an empty row says
                continue
            said = opened.answer(adapter, seat, spec, replace(row, subject=subject), notes.get((table, subject), ""))
            if said is not None:
                first = (told or {}).get(table, {}).get(subject, "")
                settled.shown.setdefault(table, {})[subject] = f"{first} · {said}" if first else said
