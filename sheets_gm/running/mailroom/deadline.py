"""At the players' deadline of a window the game's sealed submissions decide something in (Coalition's battle
results: a side with no strategy is stratless), the judge's empty cells the game names are typed
(``MailPart.deadline_cells``), never over a cell the judge typed, once a window; the judge's tab of submissions is
drawn again as closed. Both sides stratless: nothing is typed, the tab says the judge decides. They are proposals:
the window stays open for the judge, who confirms or changes each before she marks it done (``sync.judge_part``);
nothing is applied before."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import MatchConfig
from sheets_gm.poll_gate.idle import deadline_due
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.rulesets.parts.mail import MailPart
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.judge_view import draw_for_judge
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.running.run import gm_change
from sheets_gm.sync.deadline import deadline_moment
from sheets_gm.sync.read import read_match, read_record
from sheets_gm.sync.sheets import WriteBatch, seat_backend

if TYPE_CHECKING:
    import gspread


def deadline_may_be_due(config: MatchConfig, now: datetime) -> bool:
    """Whether the open window's deadline may have passed, as the last poll saw it (unknown: it may)."""
    state = load_state(state_path(config.path))
    return state is None or deadline_due(state, now)


def close_sealed(config: MatchConfig, part: MailPart, now: datetime, *, client: gspread.Client | None = None) -> int:
    """Type the game's deadline cells into the judge's empty cells, once for the window whose deadline passed;
    returns how many cells were typed (0 when nothing was due)."""
    record = MailRecord.of(config.path)
    cls = get_ruleset(config.ruleset)
    sheets = open_match_sheets(config, client=client)
    found = read_record(sheets, cls)
    window = found.ruleset.window(found.state)
    deadline = deadline_moment(found.deadline)
    if window is None or deadline is None or now < deadline or window.key in record.closed:
        return 0
    sealed = [s for _e, s in record.sealed(window.key)]
    wanted = part.deadline_cells(found.state, sealed)
    typed = 0
    with gm_change(config, sheets):
        read = read_match(sheets, cls)
        judge = read.seats.get(JUDGE)
        batch = WriteBatch()
        for table, by_subject in wanted.items():
            rows = {r.subject: r for r in judge.rows if r.table == table} if judge is not None else {}
            for subject, values in by_subject.items():
                row = rows.get(subject)
                if row is None or judge is None:
                    continue
                placed = judge.tab.table(table)
                for column, value in values.items():
                    if row.text(column):
                        continue  # the judge's own word stands
                    at = placed.at(placed.cell(row.row - placed.first_row, column))
                    batch.guard(seat_backend(sheets, read.tabs, JUDGE), at, [[""]])
                    batch.put(seat_backend(sheets, read.tabs, JUDGE), at, [[value]])
                    typed += 1
        batch.run(sheets.write_order())
        record.drawn = draw_for_judge(sheets, cls, found, part, sealed, config.title or "sheets-gm", deadline, now,
                                      record.drawn)
        record.closed.append(window.key)
        record.save()
    return typed
