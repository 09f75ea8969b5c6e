"""At the players' deadline of a window the game's sealed submissions decide something in (Coalition's battle
results: a side with no strategy is stratless), the judge's empty cells the game names are typed
(``MailPart.deadline_cells``), never over a cell the judge typed; the judge's tab of submissions is drawn again as
closed. Both sides stratless: nothing is typed, the tab says the judge decides. They are proposals: the window stays
open for the judge, who confirms or changes each before she marks it done (``sync.judge_part``); nothing is applied
before.

A submission counts at its arrival (ruling "Mail to the judge"): one that reached the mailbox before the deadline but
was filed after the cells were typed (the mailbox read late) has them typed again from every submission, each where
the cell still holds what was typed there (the judge's own word stands), cleared where nothing is due any more. The
record keeps what was typed, by table, subject and column (``MailRecord.proposed``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import MatchConfig
from sheets_gm.poll_gate.idle import deadline_due
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.rulesets.parts.mail import MailPart
from sheets_gm.rulesets.registry import AnyRuleset, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.judge_view import draw_for_judge
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.running.mailroom.window_ends import deadline_passed
from sheets_gm.running.run import gm_change
from sheets_gm.sync.deadline import deadline_moment
from sheets_gm.sync.read import read_match, read_record
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend

if TYPE_CHECKING:
    import gspread


def deadline_may_be_due(config: MatchConfig, now: datetime) -> bool:
    """Whether the open window's deadline may have passed, as the last poll saw it (unknown: it may)."""
    state = load_state(state_path(config.path))
    return state is None or deadline_due(state, now)


#: A cell of the judge's rows: its table, its row's subject, its column.
Cell = tuple[str, str, str]


def close_sealed(config: MatchConfig, part: MailPart, now: datetime, *,
                 client: gspread.Client | None = None) -> tuple[int, bool]:
    """Type the game's deadline cells into the judge's cells, once the window's deadline passed, and again when what
    its submissions call for changed since (see the module notes); returns how many cells were typed, and whether it
    was again ((0, False) when nothing was due)."""
    record = MailRecord.of(config.path)
    cls = get_ruleset(config.ruleset)
    sheets = open_match_sheets(config, client=client)
    found = read_record(sheets, cls)
    window = found.ruleset.window(found.state)
    deadline = deadline_moment(found.deadline)
    if window is None or deadline is None or now < deadline:
        return 0, False
    again = window.key in record.closed
    last = record.proposed if record.proposed.get("window") == window.key else None
    sealed = [s for _e, s in record.sealed(window.key)]
    wanted = {(table, subject, column): value
              for table, by_subject in part.deadline_cells(found.state, sealed).items()
              for subject, values in by_subject.items() for column, value in values.items()}
    if again and (last is None or _cells(last["wanted"]) == wanted):  # (no ``last``: a record from before it)
        return 0, False
    with gm_change(config, sheets):
        typed, mine = _typed_cells(sheets, cls, wanted, _cells(last["typed"]) if last else {})
        record.drawn = draw_for_judge(sheets, cls, found, part, sealed, config.title or "sheets-gm", deadline, now,
                                      record.drawn)
        record.closed = record.closed if again else [*record.closed, window.key]
        deadline_passed(record.deadlines, window.key, found.deadline, window.label)
        record.proposed = {"window": window.key, "wanted": _listed(wanted), "typed": _listed(mine)}
        record.save()
    return typed, again


def _cells(listed: Sequence[Sequence[str]]) -> dict[Cell, str]:
    """The record's list of cells (``[table, subject, column, value]`` each) as a value by cell."""
    return {(str(t), str(s), str(c)): str(v) for t, s, c, v in listed}


def _listed(cells: Mapping[Cell, str]) -> list[list[str]]:
    """``cells`` as the record lists them."""
    return [[*cell, value] for cell, value in cells.items()]


def _typed_cells(sheets: MatchSheets, cls: type[AnyRuleset], wanted: Mapping[Cell, str],
                 before: Mapping[Cell, str]) -> tuple[int, dict[Cell, str]]:
    """Write ``wanted`` into the judge's cells where each holds what was typed there ``before`` (empty when nothing
    was), clearing those typed before that nothing is wanted in now; returns how many cells were written, and what
    the cells typed hold now (the judge's own words left out)."""
    read = read_match(sheets, cls)
    judge = read.seats.get(JUDGE)
    if judge is None:
        return 0, {}
    rows = {(r.table, r.subject): r for r in judge.rows}
    backend = seat_backend(sheets, read.tabs, JUDGE)
    batch = WriteBatch()
    typed = 0
    mine = dict(before)
    for cell in dict.fromkeys([*before, *wanted]):
        table, subject, column = cell
        row = rows.get((table, subject))
        value = wanted.get(cell, "")
        if row is None or row.text(column) != before.get(cell, ""):
            mine.pop(cell, None)  # no such row now, or the judge's own word: hers
            continue
        mine[cell] = value
        if row.text(column) == value:
            continue
        placed = judge.tab.table(table)
        at = placed.at(placed.cell(row.row - placed.first_row, column))
        batch.guard(backend, at, [[row.values.get(column)]])
        batch.put(backend, at, [[value]])
        typed += 1
    batch.run(sheets.write_order())
    return typed, {cell: value for cell, value in mine.items() if value}
