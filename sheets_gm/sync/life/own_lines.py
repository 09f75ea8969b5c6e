"""The Log lines the sync writes of itself, kept in the engine record so that ``verify -c`` checks their words.

An undo, a seat handed to a bot, a change of the match's deadlines: no replayed event says these lines, so the
replay cannot recompute them. Each one the sync writes to the public Log is also kept with its Log row in the
record's pending GM events (``MatchRecord.gm_events["own"]``), which a resolution files in its history row; the
replay document gathers them (``OWN_LINES``) and ``log_check`` compares each with the cell it was written to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from enum import Enum
from typing import Any

from sheets_gm.engine.events import Event, kind_words, visible_to
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.tables import text_of
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.writes import log_line, log_lines


class SyncEvent(Enum):
    """What the generic sync itself writes to a match's log."""

    UNDO = "undo"
    BOT = "bot"  # a seat handed to a bot, or back to a person
    ASIDE = "set_aside"  # rows a GM's change set aside (a line of the seat's View only)
    DEADLINES = "deadlines"  # the GM changed the match config's [deadlines] (sync.life.deadline_change)


#: The replay document's key for the sync's own lines: ``[Log row index, turn, kind, sentence]`` each.
OWN_LINES = "own_lines"
_OWN = "own"  # their key in the record's pending GM events


def with_own_lines(record: MatchRecord, first: int, events: Sequence[Event],
                   adapter: AnySheetAdapter | None) -> MatchRecord:
    """``record`` keeping the sync's own lines among ``events``'s public ones, written to the Log from row index
    ``first`` (as ``public_log_writes`` writes them: each at the index of its first row); the same record when
    there are none."""
    own = []
    row = first
    for event in visible_to(events, None):
        if isinstance(event.kind, SyncEvent):  # kept whole: log_check compares it with its rows joined
            own.append([row, *(text_of(v) for v in log_line(event, adapter))])
        row += len(log_lines([event], adapter))
    if not own:
        return record
    pending = record.gm_events or {"state_before": record.ruleset.state_codec.to_json(record.state), "events": []}
    return replace(record, gm_events={**pending, _OWN: [*pending.get(_OWN, []), *own]})


def own_lines(pendings: Iterable[Mapping[str, Any] | None]) -> list[list[Any]]:
    """The sync's own lines kept in each of ``pendings`` (history rows' and the record's GM events), in order."""
    return [list(line) for pending in pendings if pending for line in pending.get(_OWN, [])]


def own_by_row(doc: Mapping[str, Any]) -> dict[int, tuple[str, str, str]]:
    """The replay document's own lines by Log row index, as a reader sees them (turn, kind in words, sentence)."""
    out: dict[int, tuple[str, str, str]] = {}
    for line in doc.get(OWN_LINES, []):
        row, turn, kind, text = line
        out[int(row)] = (str(turn), kind_words(str(kind)), str(text))
    return out
