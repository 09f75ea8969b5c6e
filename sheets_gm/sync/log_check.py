"""The public Log checked against the match: every line the replay recomputes, each in its cell.

The Log tab is written for people and never read back by a poll (a poll reads one row of the board
spreadsheet, and the Log grows with the match). ``verify -c`` reads it whole and compares it with
the events the replay recomputes from the seed, the orders and the GM's events, by turn, kind and
the numbers each sentence holds (so that a later version's wording is no forgery): a line whose die,
total or tile was typed over is named by its cell, with what it should say. Lines the sync writes of itself (an undo)
and the lines logged from a window later undone on (before the undo's line, of its turn or a later
one) are not recomputed by the replay, and are left as they are.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from sheets_gm.engine.events import Event, visible_to
from sheets_gm.rulesets.registry import AnyRuleset, get_ruleset, sheet_spec
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import Grid, cell_at
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.between import SyncEvent
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.sheets import MatchSheets

#: The Log's first line is on this row of the tab (its header row above it), as ``MatchTabs.log_range`` puts it.
FIRST_LOG_ROW = 2
Line = tuple[str, str, str]  # turn, kind, sentence: as the Log's columns A to C show them


def _line(event: Event) -> Line:
    return str(event.turn), event.kind.value, event.text


def _figures(line: Line) -> tuple[str, str, tuple[str, ...]]:
    """What a Log line is compared by: its turn, its kind and every number in its sentence, in order (the dice,
    the bonuses, the totals, the tiles, the HP and coins). A sentence a later version words otherwise ('1 coin'
    for '1 coins', 'red's bulwark on C7' for 'bulwark@C7') is the same line; a die or total typed over is not."""
    return line[0], line[1], tuple(re.findall(r"\d+", line[2]))


def replayed_log(doc: dict[str, Any]) -> Counter[Line]:
    """Every public log line the replay ``doc`` recomputes: each GM event's and each resolution's events."""
    cls = get_ruleset(str(doc["ruleset"]))
    rules: AnyRuleset = cls.create(_settings(cls, doc), str(doc["board"]))
    seed = bytes.fromhex(str(doc["seed"]))
    state = rules.state_codec.from_json(doc["initial_state"])
    events: list[Event] = []

    def apply(gm_events: list[Any]) -> Any:
        nonlocal state
        for data in gm_events:
            done = rules.apply_gm_event(state, rules.gm_event_codec.from_json(data))
            state = done.state
            events.extend(done.events)

    for entry in doc["resolutions"]:
        apply(entry.get("gm_events", []))
        state = rules.state_codec.from_json(entry["state_before"])  # as the replay check does: the recorded one
        dice = rules.dice(seed, state).dealt(int(entry.get("deal", 0)))  # dealt afresh after an undo
        resolved = rules.resolve(state, rules.orders_codec.from_json(entry["orders"]), dice)
        state = resolved.state
        events.extend(resolved.events)
    apply(doc.get("gm_events_after", []))
    return Counter(_line(e) for e in visible_to(events, None))


def _settings(cls: Any, doc: dict[str, Any]) -> Any:
    from sheets_gm.engine.settings import parse_settings

    return parse_settings(cls.traits.settings_type, doc["settings"], where="replay settings")


def forged_log_lines(sheets: MatchSheets, doc: dict[str, Any], log_rows: int) -> list[str]:
    """A sentence per Log line that no event of the match says: its cell, what it says, and what the match
    logged for that turn and kind instead (one read of the board spreadsheet's Log tab)."""
    name = str(doc["ruleset"])
    tabs = MatchTabs(sheet_spec(name), sheets.seats, get_ruleset(name).traits.judge)
    if log_rows < 1:
        return []
    try:
        (grid,) = sheets.board.read([tabs.log_range(0, log_rows)])
    except SheetError as exc:
        return [f"the Log tab cannot be read ({exc})"]
    return _compare(grid, replayed_log(doc), tabs.spec.tabs.log, log_rows)


def _turn(text: str) -> float:
    """A Log row's turn as a number (a row without one sorts after every turn)."""
    try:
        return float(text)
    except ValueError:
        return float("inf")


#: The kinds of the lines the sync logs of itself (an undo, a seat handed to a bot): no replayed event says them.
_OWN_KINDS = frozenset(kind.value for kind in SyncEvent)


def _compare(grid: Grid, expected: Counter[Line], tab: str, log_rows: int) -> list[str]:
    rows = [tuple(text_of(row[c]) if c < len(row) else "" for c in range(3)) for row in grid]
    rows += [("", "", "")] * (log_rows - len(rows))
    undo = SyncEvent.UNDO.value
    undos = [(i, _turn(turn)) for i, (turn, kind, _) in enumerate(rows) if kind == undo]
    undone = {i for i, (turn, kind, _) in enumerate(rows)
              if kind != undo and any(j > i and back <= _turn(turn) for j, back in undos)}
    left = Counter(_figures(line) for line in expected.elements())
    texts = {_figures(line): line[2] for line in expected}
    unmatched: list[int] = []
    for i, line in enumerate(rows):
        if line[1] in _OWN_KINDS or i in undone:
            continue
        key = _figures((line[0], line[1], line[2]))
        if left[key] > 0:
            left[key] -= 1
        else:
            unmatched.append(i)
    problems = []
    for i in unmatched:
        turn, kind, text = rows[i]
        instead = next((k for k, n in left.items() if n > 0 and k[0] == turn and k[1] == kind), None)
        cell = f"tab {tab!r} cell {cell_at(2, FIRST_LOG_ROW + i)}"
        if instead is not None:
            left[instead] -= 1
            problems.append(f"{cell} says {text!r} but the match logged {texts[instead]!r}")
        else:
            problems.append(f"{cell} says {text!r} (turn {turn or '?'}, {kind or 'no kind'}), which no event of the "
                            "match says")
    return problems
