"""What one page shows, made from what a poll already holds (``PollFacts``): the public board's drawings of the
state now (and, after a resolution, of the state it started from), the resolution's public events as the Log writes
them, the status line and the open window's deadline. Nothing here is secret: the drawings are nobody's view, the
events are the public ones (``visible_to(events, None)``), and the page keeps nothing else of the facts."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from functools import partial
from typing import Any

from sheets_gm.engine.events import Event, visible_to
from sheets_gm.engine.gm_events import apply_gm, gm_event_from_json
from sheets_gm.engine.ruleset import BoardKind, Ruleset
from sheets_gm.engine.settings import settings_to_mapping
from sheets_gm.sheets.adapter import AnySheetAdapter, BoardDrawing
from sheets_gm.sync.deadline import deadline_moment, describe_deadline
from sheets_gm.sync.life.adjust_undo import logged_changes
from sheets_gm.sync.life.own_lines import own_lines
from sheets_gm.sync.match_record import MatchRecord, compact_json
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.sync.writes import closing_word, log_line, split_line, status_line

#: A public Log line as the page shows it: turn, kind, sentence.
LogLine = tuple[str, str, str]
#: A public Log line with the index of the Log row it was written to (0: the Log's first line).
RowLine = tuple[int, LogLine]


@dataclass(frozen=True, slots=True)
class Resolved:
    """A resolution as its page shows it: its number, the window's label, its public Log lines (turn, kind,
    sentence), the public board before it (drawn when asked: only when the page lacks the window before), the
    public Log lines of the GM's adjustments it filed, each with its Log row (made since the resolution before it,
    and the stand-in GM's that one logged with it: the page shows those already), the Log rows its own lines
    take (from ``start`` to ``end``, excluded), and what the board before it is drawn from (``state_key``: the
    page of the start drawn before it, of the same, is that board's)."""

    number: int
    label: str
    log: tuple[LogLine, ...]
    before: Callable[[], Sequence[BoardDrawing]] | None = None
    adjusted: tuple[RowLine, ...] = ()
    start: int = 0
    end: int = 0
    before_key: str = ""  # ``state_key`` of the state before it ('' when it is not known)


@dataclass(frozen=True, slots=True)
class PageInput:
    """Everything the match page is built from: the match's title, the game's, its board's geometry, the public
    board now, the status line, the open window's label and deadline (ISO, UTC; '' for none), the resolutions the
    match counts, where the public spreadsheet is, what this build is of (``marker``: a build of the same marker
    writes nothing), and the resolution this poll made (None when it made none). Before the first resolution, the
    public board now as the page of the start draws it (``start``, drawn when asked: the page of the match now may
    show more, Coalition's deadline) and what it is drawn from (``start_key``): the start's page is written before
    the first resolution, which then draws only its own."""

    title: str
    game: str
    kind: BoardKind
    drawings: Sequence[BoardDrawing]
    status: str
    window: str
    deadline: str
    deadline_words: str
    closing: str
    resolved: int
    sheet: str
    marker: str
    resolution: Resolved | None = None
    adjusted: tuple[RowLine, ...] = ()  # the GM's adjustments pending: their public Log lines, each with its row
    opening: tuple[LogLine, ...] = ()  # the set-up's public Log lines (who plays first), for the page of the start
    seats: tuple[str, ...] = ()  # the sides, as the status line names them (its figures are read by them)
    rules: str = ""  # the game's registry name (what its Log's kinds mean: ``latest.OWN_KINDS``)
    start: Callable[[], Sequence[BoardDrawing]] | None = None  # before the first resolution: the start's board
    start_key: str = ""  # ``state_key`` of the state now, with ``start``


def marker_of(record: MatchRecord) -> str:
    """What a build of the page is of: the match, its count of committed changes and their chain, the deadline (a
    GM's change of ``[deadlines]`` moves it alone)."""
    return f"{record.match_id}/{record.generation}/{record.history}/{record.deadline}"


def state_key(record: MatchRecord, state: Any) -> str:
    """What the public board of ``state`` is drawn from, as a hash: the match, its game, settings and map, and the
    state (the engine's JSON of it, as its record keeps it). Two states of one key draw one board; a GM's
    adjustment changes it."""
    rules = record.ruleset
    text = compact_json([record.match_id, rules.traits.name, settings_to_mapping(rules.settings), rules.board_text,
                         rules.state_codec.to_json(state)])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def page_input(facts: PollFacts, title: str, sheet: str) -> PageInput:
    """The page's input from a poll's facts (``sheet``: the board's URL or workbook name)."""
    record, adapter = facts.record, facts.adapter
    ruleset, state = record.ruleset, record.state
    window = ruleset.window(state)
    moment = deadline_moment(record.deadline) if window is not None else None
    drawings = facts.drawings if facts.drawings is not None else \
        adapter.drawings_before(state, describe_deadline(record.deadline) if record.deadline else "")
    resolution, first = None, record.resolved == 0  # first: before the first resolution
    if facts.resolved is not None:
        log = public_lines(facts.events, adapter)
        rows = sum(len(split_line(list(line))) for line in log)
        resolution = Resolved(record.resolved, facts.resolved.label, log,
                              None if facts.before is None else partial(adapter.drawings, facts.before),
                              adjustment_lines(record.ruleset, adapter, facts.filed), record.log_rows - rows,
                              record.log_rows, state_key(record, facts.before) if facts.before is not None and
                              record.resolved == 1 else "")
    return PageInput(title=title, game=ruleset.traits.title, kind=ruleset.traits.board_kind, drawings=drawings,
                     status=status_line(adapter, record), window=window.label if window is not None else "",
                     deadline=moment.astimezone(UTC).isoformat() if moment is not None else "",
                     deadline_words=describe_deadline(record.deadline) if moment is not None else "",
                     closing=closing_word(window) if window is not None else "", resolved=record.resolved,
                     sheet=sheet, marker=marker_of(record),
                     resolution=resolution, adjusted=adjustment_lines(ruleset, adapter, record.gm_events),
                     opening=opening_lines(record) if record.resolved <= 1 else (), seats=tuple(record.seats),
                     rules=ruleset.traits.name,
                     start=partial(adapter.drawings_undated, state, drawings) if first else None,
                     start_key=state_key(record, state) if first else "")


def public_lines(events: Sequence[Event], adapter: AnySheetAdapter) -> tuple[LogLine, ...]:
    """The public Log lines of ``events``, as the board's Log writes them (a long one whole: a page wraps it)."""
    lines = (log_line(e, adapter) for e in visible_to(events, None))
    return tuple((str(t), str(k), str(s)) for t, k, s in lines)


def opening_lines(record: MatchRecord) -> tuple[LogLine, ...]:
    """The set-up's public Log lines (Win or Die's first-player roll), as ``create_match`` wrote them: plain, their
    turn as a number (the roll is made again from the seed, as the Log's check makes it; a die tells nothing of
    another)."""
    lines = (log_line(e) for e in visible_to(record.ruleset.opening_events(record.state, record.seed), None))
    return tuple((str(t), str(k), str(s)) for t, k, s in lines)


def adjustment_lines(ruleset: Ruleset[Any, Any, Any], adapter: AnySheetAdapter,
                     pending: Mapping[str, Any] | None) -> tuple[RowLine, ...]:
    """The public Log lines of the GM's adjustments ``pending`` holds (a match record's pending GM events: the
    state they started from, each event, the Log row each adjustment's lines start at), each with its Log row, in
    the Log's order: made again from them as ``adjust`` made them (a GM event rolls no die), and the lines the sync
    wrote of itself (a seat handed to a bot, an undo, a change of deadlines), which the record keeps with their rows.
    Without the rows (kept by an earlier version) the events' lines come first, in order; none of the events' when
    they cannot be read (the board's Log still has them)."""
    if not pending:
        return ()
    own = [(int(row), (str(t), str(k), str(s))) for row, t, k, s in own_lines([pending])]
    return tuple(sorted([*own, *_event_lines(ruleset, adapter, pending)], key=lambda line: line[0]))


def _event_lines(ruleset: Ruleset[Any, Any, Any], adapter: AnySheetAdapter,
                 pending: Mapping[str, Any]) -> list[RowLine]:
    """The public Log lines of ``pending``'s GM events, each with its Log row (-1 when it is not kept)."""
    events = list(pending.get("events") or [])
    changes = logged_changes(pending) or [(-1, len(events))]
    out: list[RowLine] = []
    try:
        state = ruleset.state_codec.from_json(pending["state_before"]) if events else None
        for first, count in changes:
            done_events: list[Event] = []
            for data in events[:count]:
                done = apply_gm(ruleset, state, gm_event_from_json(ruleset, data))
                state, done_events = done.state, done_events + list(done.events)
            events = events[count:]
            row = first
            for line in public_lines(done_events, adapter):
                out.append((row, line))
                row += len(split_line(list(line))) if first >= 0 else 0
    except (LookupError, ValueError, TypeError, AttributeError):
        return []
    return out
