"""The judge's View tab with the strategies received by mail: per battle awaiting results, how many strategies each
side sent and which sides sent none (the game's words: ``MailPart.sealed_summary``), above the game's own panel.
Drawn by the door from its record each time it draws the judge's tab of strategies (``sealed_tab``), into the
judge's spreadsheet alone: the strategies never enter the engine's state (a bot reads it), so the resolution's
drawing of the View (``sync.writes.view_writes``) knows nothing of them, and the door draws the View again with
them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.engine.words import counted
from sheets_gm.match.config import MatchConfig
from sheets_gm.rulesets.parts.mail import MailPart, Sealed
from sheets_gm.rulesets.registry import AnyRuleset, get_game, get_ruleset
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.running.mailroom.sealed_tab import draw_sealed
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import Grid
from sheets_gm.sync.deadline import deadline_moment
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.read import adapter_of, read_record
from sheets_gm.sync.sheets import MatchSheets, seat_backend
from sheets_gm.sync.writes import view_panel, with_config_named


def judge_view_rows(part: MailPart, state: Any, sealed: Sequence[Sealed], tab: str, closed: bool = False) -> Grid:
    """The View's rows of the strategies received, per battle awaiting results (none when none awaits;
    ``closed``: the players' deadline passed)."""
    lines = part.sealed_summary(state, sealed, closed)
    if not lines:
        return []
    rows: Grid = [[f"Strategies received by mail (each in the {tab} tab; no seat sees them)"]]
    rows += [[f"{line}."] for line in lines]
    return [*rows, []]


def draw_judge_view(sheets: MatchSheets, cls: type[AnyRuleset], found: MatchRecord, part: MailPart,
                    sealed: Sequence[Sealed], closed: bool = False) -> bool:
    """Write the judge's View panel of the match ``found`` (of the ruleset ``cls``) with the strategies received
    above the game's panel; whether the game has a judge's View to write."""
    adapter = adapter_of(found.ruleset)
    tabs = MatchTabs(adapter.spec, sheets.seats, cls.traits.judge)
    if JUDGE not in tabs.view_seats():
        return False
    tab = part.sealed_tab().tab
    rows = [*judge_view_rows(part, found.state, sealed, tab, closed),
            *with_config_named(adapter.panel(found.state, JUDGE), sheets.config_name)]
    panel = view_panel(rows, tabs.view_panel_rows,
                       f"the {tab} tab has every strategy, the {tabs.spec.tabs.judge} tab every battle")
    seat_backend(sheets, tabs, JUDGE).write([RangeWrite(tabs.view_panel_range(JUDGE), panel)])
    return True


def draw_for_judge(sheets: MatchSheets, cls: type[AnyRuleset], found: MatchRecord, part: MailPart,
                   sealed: Sequence[Sealed], title: str, deadline: datetime | None, now: datetime,
                   drawn_before: int) -> int:
    """The judge's tabs drawn from the mail record: the tab of strategies (``sealed_tab.draw_sealed``; returns how
    many rows it holds now) and the View with the strategies received per battle."""
    drawn = draw_sealed(sheets, found.state, part, sealed, title, deadline, now, drawn_before)
    draw_judge_view(sheets, cls, found, part, sealed, deadline is not None and now >= deadline)
    return drawn


def lay_out_for_judge(config: MatchConfig, sheets: MatchSheets, now: datetime) -> str:
    """``repair``'s part: the judge's tab of strategies laid out (after the judge's own tabs: a repair lays those out
    first) and drawn from the record with the View, for a match whose game reads mail and which has ``[mailbox]``;
    what was done in words ('' when nothing)."""
    part = get_game(config.ruleset).mail
    if part is None or config.mailbox is None:
        return ""
    record = MailRecord.of(config.path)
    cls = get_ruleset(config.ruleset)
    found = read_record(sheets, cls)
    window = found.ruleset.window(found.state)
    sealed = [s for _e, s in record.sealed(window.key if window is not None else "")]
    record.drawn = draw_for_judge(sheets, cls, found, part, sealed, config.title or "sheets-gm",
                                  deadline_moment(found.deadline), now, record.drawn)
    record.save()
    return (f"the judge's {part.sealed_tab().tab} tab is laid out after the judge's own tabs, with "
            f"{counted(len(sealed), 'strategy', 'strategies')} of the open window")
