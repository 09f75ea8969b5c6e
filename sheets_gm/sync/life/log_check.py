"""The public Log checked against the match: every line the replay recomputes, each in its cell.

The Log tab is written for people and never read back by a poll (a poll reads one row of the board
spreadsheet, and the Log grows with the match). ``verify -c`` reads it whole and compares it with
the lines the replay recomputes from the seed, the orders and the GM's events, rendered as the sync
writes them (the set-up's draws first, a turn as the game names it: Champions' "round 2, fight"), word
for word: a line whose die, total, tile or any word was typed over is named by its cell, with what the
match logged. A match moved from a ruleset's old layout keeps the Log rows that layout wrote, in its own
words: those are compared by turn, kind and every number they hold (the replay's ``old_log_rows``). Lines
the sync writes of itself (an undo, a seat handed to a bot, a deadline change) are not recomputed by the
replay: the record keeps each with its row (``own_lines``), and it is compared word for word with that row (a
Log written before the record kept them leaves them as they are). The lines an undo took back are left as
they are: the rows the undo's line names ("rows 13 to 20"), or, in a Log written before undo lines named
them, the lines above it of its turn or a later one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.events import Event, kind_words, visible_to
from sheets_gm.engine.gm_events import apply_gm, gm_event_from_json
from sheets_gm.rulesets.registry import AnyRuleset, get_ruleset, sheet_spec
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.layout import Grid, cell_at
from sheets_gm.sheets.looks import TabSeen, seen_grid
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.life.own_lines import SyncEvent, own_by_row
from sheets_gm.sync.life.replay import OLD_LOG_ROWS, doc_seeds, entry_dice
from sheets_gm.sync.match_tabs import LOG_FIRST_ROW, MatchTabs
from sheets_gm.sync.read import adapter_of
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.writes import CONTINUED, joined_sentence, log_line, log_sentence

Line = tuple[str, str, str]  # turn, kind, sentence: as the Log's columns A to C show them


def _lines(grid: Grid) -> list[Line]:
    """Log rows as text, as a reader sees them (a turn written as a number reads as that number; a kind in words,
    so a Log written with the kinds' ids, ``order_rejected``, reads as the same lines)."""
    return [(text_of(row[0]), kind_words(text_of(row[1])), log_sentence(text_of(row[2]))) for row in grid]


@dataclass(frozen=True)
class ReplayedSteps:
    """What a replay logs, step by step: the rules, the set-up's events (``opening``, from ``first``), then each
    GM event's and each resolution's events with the state they started from and the one they led to."""

    rules: AnyRuleset
    first: Any
    opening: list[Event]
    steps: list[tuple[Any, Any, list[Event]]]

    @property
    def events(self) -> list[Event]:
        """Every event after the set-up's, in order."""
        return [e for _, _, events in self.steps for e in events]


def replay_steps(doc: dict[str, Any]) -> ReplayedSteps:
    """The events the replay ``doc`` recomputes, step by step (``ReplayedSteps``)."""
    cls = get_ruleset(str(doc["ruleset"]))
    rules: AnyRuleset = cls.create(_settings(cls, doc), str(doc["board"]))
    seeds = doc_seeds(doc)
    state = rules.state_codec.from_json(doc["initial_state"])
    out = ReplayedSteps(rules, state, rules.opening_events(state, seeds[0]), [])

    def apply(gm_events: list[Any]) -> None:
        nonlocal state
        for data in gm_events:
            done = apply_gm(rules, state, gm_event_from_json(rules, data))
            out.steps.append((state, done.state, list(done.events)))
            state = done.state

    for entry in doc["resolutions"]:
        apply(entry.get("gm_events", []))
        state = rules.state_codec.from_json(entry["state_before"])  # as the replay check does: the recorded one
        dice = entry_dice(rules, seeds, state, entry)  # dealt afresh after an undo, from the seed in force then
        resolved = rules.resolve(state, rules.orders_codec.from_json(entry["orders"]), dice)
        out.steps.append((state, resolved.state, list(resolved.events)))
        state = resolved.state
    apply(doc.get("gm_events_after", []))
    return out


def replayed_lines(doc: dict[str, Any]) -> list[Line]:
    """Every public log line the replay ``doc`` recomputes, in order, as the sync writes it: the set-up's draws
    (written plain, as ``create_match`` writes them), then each GM event's and each resolution's events (their
    turn as the game's adapter names it). Each line whole: the Log's rows of a long one are joined to compare."""
    found = replay_steps(doc)
    adapter = adapter_of(found.rules)
    opening = [log_line(e) for e in visible_to(found.opening, None)]
    played = [log_line(e, adapter) for e in visible_to(found.events, None)]
    return _lines([*opening, *played])


def replayed_log(doc: dict[str, Any]) -> Counter[Line]:
    """``replayed_lines`` counted, with the lines of each resolution an undo of the match's end took back
    (``ended_lines``): what ``verify -c`` compares the Log with."""
    return Counter([*replayed_lines(doc), *ended_lines(doc)[0]])


def ended_lines(doc: dict[str, Any]) -> tuple[list[Line], set[int]]:
    """The public Log lines of each resolution that ended the match before an undo reopened it (``Reseed.ended``),
    replayed with the seed in force then (now public), and the indexes of the Log rows they were written to: an
    undo's line names those rows as no longer holding, but their words are still checked, so a die of the ended
    window typed over is named. None for a match whose end no undo took back, or one its GM's adjustment ended."""
    links = [link.get("ended") or {} for link in doc.get("reseeds") or [] if isinstance(link, dict)]
    ended = [e for e in links if isinstance(e, dict) and "orders" in e]
    if not ended:
        return [], set()
    cls = get_ruleset(str(doc["ruleset"]))
    rules: AnyRuleset = cls.create(_settings(cls, doc), str(doc["board"]))
    adapter, seeds = adapter_of(rules), doc_seeds(doc)
    lines: list[Event] = []
    rows: set[int] = set()
    for entry in ended:
        state = rules.state_codec.from_json(entry["state_before"])
        resolved = rules.resolve(state, rules.orders_codec.from_json(entry["orders"]), entry_dice(rules, seeds, state,
                                                                                                  entry))
        state = resolved.state
        lines += resolved.events
        for data in entry.get("gm_events_after") or []:
            done = apply_gm(rules, state, gm_event_from_json(rules, data))
            state, lines = done.state, lines + list(done.events)
        if isinstance(entry.get("log_from"), int) and isinstance(entry.get("log_end"), int):
            rows.update(range(entry["log_from"], entry["log_end"]))
    return _lines([log_line(e, adapter) for e in visible_to(lines, None)]), rows


def _settings(cls: Any, doc: dict[str, Any]) -> Any:
    from sheets_gm.engine.settings import parse_settings

    return parse_settings(cls.traits.settings_type, doc["settings"], where="replay settings")


def forged_log_lines(sheets: MatchSheets, doc: dict[str, Any], log_rows: int, *,
                     cut_under_way: bool = False, seen: Sequence[TabSeen] | None = None) -> list[str]:
    """A sentence per Log line that no event of the match says: its cell, what it says, and what the match
    logged for that turn and kind instead (one read of the board spreadsheet's Log tab, or none when ``seen``
    holds the spreadsheet as read). With ``cut_under_way`` (``MatchRead.cut_under_way``: a resolution cut before
    its commit) the lines below the match's count are that resolution's, which the next poll completes: they are
    not taken for lines typed there."""
    name = str(doc["ruleset"])
    tabs = MatchTabs(sheet_spec(name), sheets.seats, get_ruleset(name).traits.judge)
    try:  # the tab whole, not the match's count of lines: a line typed below them is read too
        (grid,) = [seen_grid(seen, tabs.log_to_end(0))] if seen is not None else \
            sheets.board.read([tabs.log_to_end(0)])
    except SheetError as exc:
        return [f"the Log tab cannot be read ({exc})"]
    return [*_compare(grid[:log_rows], replayed_log(doc), tabs.spec.tabs.log, log_rows,
                      int(doc.get(OLD_LOG_ROWS) or 0), own_by_row(doc), ended_lines(doc)[1]),
            *([] if cut_under_way else below_log_words(grid, log_rows, tabs.spec.tabs.log))]


def below_log(grid: Grid, log_rows: int, start: int = 0) -> list[tuple[int, Line]]:
    """The Log rows below the match's ``log_rows`` lines that hold something (``grid``: the Log from its line
    ``start`` down, 0 its first), each with its row index from 0: no event of the match wrote them."""
    return [(i, line) for i, line in enumerate(_lines([[*row[:3], *[""] * (3 - len(row[:3]))] for row in grid]),
                                               start=start)
            if i >= log_rows and any(line)]


def below_log_words(grid: Grid, log_rows: int, tab: str, start: int = 0) -> list[str]:
    """A sentence per Log row below the match's lines that holds something (``verify -c``, ``doctor``)."""
    last = (f"below the match's last line (row {LOG_FIRST_ROW + log_rows - 1})" if log_rows else
            "in a Log where the match logged nothing yet")
    return [f"tab {tab!r} row {LOG_FIRST_ROW + i} says {' | '.join(t for t in line if t)!r}, {last}: no event of "
            "the match says it" for i, line in below_log(grid, log_rows, start)]


#: How an undo's Log line names the rows it takes back (``between.undo_window``).
_UNDONE_ROWS = re.compile(r"Log rows (\d+) to (\d+)")
_UNDONE_RUN = re.compile(r"(\d+) to (\d+)")


def _turn(text: str) -> float:
    """A Log row's turn as a number (a row without one sorts after every turn)."""
    try:
        return float(text)
    except ValueError:
        return float("inf")


def _figures(line: Line) -> Line:
    """A line as a row the old layout wrote is compared: its turn, its kind and every number of its sentence."""
    return line[0], line[1], " ".join(re.findall(r"\d+", line[2]))


_BRACKETED_KEY = re.compile(r" \[[^\]]*/[^\]]*\]")  # a die's key in brackets: ' [12/combat/Ann]'
_KEY_MESSAGE = re.compile(r"(?<![\w./])\d+(?:\.\d+)?/[A-Za-z]")  # a die's whole message: '12/combat/Ann'
_KEY_PREFIX = re.compile(r"(?<![\w./])\d+(?:\.\d+)?/(?=[A-Za-z])")  # a message's '<turn>.<deal>/' before its key


def without_dice_keys(line: Line) -> Line:
    """A line as one written before the Log printed each die's whole message is compared: its sentence without
    the dice's bracketed keys and without the '<turn>/' or '<turn>.<deal>/' of a key written in the text.

    >>> without_dice_keys(("5", "battle", "Ann (DPS) rolls 2 [5/combat/Ann] + 2 (DPS) = 4"))
    ('5', 'battle', 'Ann (DPS) rolls 2 + 2 (DPS) = 4')
    >>> without_dice_keys(("2", "attack", "hitting on 4+: 17.1/swing/Ann-L/1=5 hit; 0/5 HP"))
    ('2', 'attack', 'hitting on 4+: swing/Ann-L/1=5 hit; 0/5 HP')
    """
    return line[0], line[1], _KEY_PREFIX.sub("", _BRACKETED_KEY.sub("", line[2]))


#: The kinds of the lines the sync logs of itself (an undo, a seat handed to a bot): no replayed event says them.
_OWN_KINDS = frozenset(kind.value for kind in SyncEvent)


def joined_rows(rows: Sequence[Line]) -> dict[int, Line]:
    """The Log's ``rows`` as whole lines by the index of each one's first row: a row that goes on with the sentence
    of the row above (it starts with ``CONTINUED``, beside the same turn and kind) joined to it (``sentence_parts``).
    A Log written before long lines were split holds each whole in one row: the same lines."""
    out: dict[int, Line] = {}
    last = -1
    for i, (turn, kind, text) in enumerate(rows):
        if last >= 0 and text.startswith(CONTINUED) and out[last][:2] == (turn, kind):
            out[last] = (turn, kind, joined_sentence(out[last][2], text))
            continue
        out[i] = (turn, kind, text)
        last = i
    return out


def undone_rows(rows: Sequence[Line]) -> set[int]:
    """The indexes of the Log's ``rows`` (from its first line, 0) that an undo took back: the rows each undo's line
    names ("Log rows 13 to 19 and 21 to 24"), or, in a Log written before undo lines named them, the lines above it
    of its turn or a later one."""
    undone: set[int] = set()
    for j, (back, kind, text) in enumerate(rows):
        if kind != SyncEvent.UNDO.value:
            continue
        named = _UNDONE_ROWS.search(text)
        if named is not None:  # "Log rows 13 to 19 and 21 to 24": every run it names (a line it keeps between)
            runs = text[named.start():].partition(")")[0]
            for first, last in _UNDONE_RUN.findall(runs):
                undone.update(range(int(first) - LOG_FIRST_ROW, int(last) - LOG_FIRST_ROW + 1))
        else:
            undone.update(i for i, (turn, _, _) in enumerate(rows[:j]) if _turn(back) <= _turn(turn))
    return undone


def holding_lines(grid: Grid) -> list[Line]:
    """The Log's lines that still hold, in order, each whole (its rows joined): what a reader of the match takes
    for its story, the lines an undo took back left out (``undone_rows``)."""
    rows = _lines([[*row[:3], *[""] * (3 - len(row[:3]))] for row in grid])
    undone = undone_rows(rows)
    return [line for i, line in joined_rows(rows).items() if i not in undone and any(line)]


def _compare(grid: Grid, expected: Counter[Line], tab: str, log_rows: int, old_rows: int = 0,
             own: Mapping[int, Line] | None = None, ended: set[int] | None = None) -> list[str]:
    """A sentence per Log row that differs from what the match logged: the replay's lines (``expected``), and the
    sync's own lines the record keeps by row (``own``: an undo's, a seat handed to a bot, a deadline change),
    each compared with the row it was written to. The rows of a resolution an undo of the match's end took back
    (``ended``) are compared too, though the undo's line says they no longer hold (``ended_lines``)."""
    own = own or {}
    rows = _lines([[*row[:3], *[""] * (3 - len(row[:3]))] for row in grid])
    rows += [("", "", "")] * (log_rows - len(rows))
    whole = joined_rows(rows)
    undone = undone_rows(rows) - (ended or set())
    left = Counter(expected)
    by_figures = Counter(_figures(without_dice_keys(line)) for line in expected.elements())
    # a line logged before each die's whole message was printed (a match that began earlier) says its dice so
    by_keys = Counter(without_dice_keys(line) for line in expected.elements())
    unmatched: list[int] = []
    problems: list[str] = []
    for i, line in whole.items():
        if i in own and i not in undone:
            if line != own[i]:
                problems.append(f"tab {tab!r} cell {cell_at(2, LOG_FIRST_ROW + i)} says {line[2]!r} "
                                f"({line[1] or 'no kind'}) but the sync logged {own[i][2]!r} ({own[i][1]})")
            continue
        if line[1] in _OWN_KINDS or i in undone:  # a line the record does not keep (logged before it kept them)
            continue
        if i < old_rows and by_figures[_figures(without_dice_keys(line))] > 0:  # the old layout's: its numbers hold
            by_figures[_figures(without_dice_keys(line))] -= 1
        elif i >= old_rows and left[line] > 0:
            left[line] -= 1
            by_keys[without_dice_keys(line)] -= 1
        elif i >= old_rows and not _KEY_MESSAGE.search(line[2]) and by_keys[without_dice_keys(line)] > 0:
            by_keys[without_dice_keys(line)] -= 1
        else:
            unmatched.append(i)
    for i in unmatched:
        turn, kind, text = whole[i]
        instead = next((k for k, n in left.items() if n > 0 and k[0] == turn and k[1] == kind), None)
        cell = f"tab {tab!r} cell {cell_at(2, LOG_FIRST_ROW + i)}"
        if instead is not None:
            left[instead] -= 1
            problems.append(f"{cell} says {text!r} but the match logged {instead[2]!r}")
        else:
            problems.append(f"{cell} says {text!r} (turn {turn or '?'}, {kind or 'no kind'}), which no event of the "
                            "match says")
    return problems
