"""What a poll saw and did, left on its report for what is built after it: the notices (``notify/notices.py``),
the match page and the chat's picture of the board (``web/``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import Window
from sheets_gm.sheets.adapter import AnySheetAdapter, BoardDrawing
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs


@dataclass(frozen=True, slots=True)
class PollFacts:
    """What a poll saw and did, for its notices: the match as the poll leaves it, its tabs and sheet adapter
    and, when it resolved a window, that window, the state it started from and the resolution's events (and the
    public board as it drew it: the match page and the chat's picture draw no second one)."""

    record: MatchRecord
    tabs: MatchTabs
    adapter: AnySheetAdapter
    resolved: Window | None = None
    before: Any = None
    events: Sequence[Event] = ()
    deadline_changed: bool = False  # the GM changed [deadlines]: the open window's notice is sent again
    filed: Mapping[str, Any] | None = None  # the GM's adjustments the resolution filed (its pending GM events)
    drawings: Sequence[BoardDrawing] | None = None  # the public board the resolution wrote, drawn once for the page
    # the judge's window the same poll closed first, when it then resolved the window whose orders closed at her
    # players' deadline (``sync.poll.early_due``): its own resolution told too
    earlier: PollFacts | None = None
