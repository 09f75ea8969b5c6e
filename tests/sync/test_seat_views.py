"""Each seat's View tab lists what happened to it (issue 20, finding 11): its private events, and the public
ones whose data name it or one of its rows' subjects; GvG's and Wesnoth's Views, whose events are all public,
had an empty table."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from enum import Enum

from sheets_gm.engine.events import Event, kind_words
from sheets_gm.engine.ruleset import GM
from sheets_gm.rulesets.registry import GAMES, create_ruleset, sheet_spec
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import WorkbookLayout
from sheets_gm.sheets.printed_sizes import lines_needed
from sheets_gm.sync.life.create import LOG_KIND_WIDTH, create_match
from sheets_gm.sync.life.own_lines import SyncEvent
from sheets_gm.sync.match_tabs import VIEW_LOG_HEADER_ROW, VIEW_PANEL_ROW
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.writes import seat_events
from tests.fakes.memory import MemoryBackend
from tests.matchfiles import SEED, roster, sync, type_orders


class Kind(Enum):
    """Event kinds of this test."""

    MOVE = "move"


def test_a_seat_reads_its_private_events_and_the_public_ones_naming_it_or_its_subjects() -> None:
    moved = Event(1, Kind.MOVE, "red0 moves", {"player": "red0"})
    hit = Event(1, Kind.MOVE, "blue1 hits red2", {"attackers": ["blue1"], "target": {"player": "red2"}})
    theirs = Event(1, Kind.MOVE, "blue0 moves", {"player": "blue0"})
    team = Event(1, Kind.MOVE, "red takes a coin", {"team": "red"})
    secret = Event(1, Kind.MOVE, "blue's secret", {}, audience=frozenset({"blue"}))
    mine = Event(1, Kind.MOVE, "red's secret", {}, audience=frozenset({"red"}))
    events = [moved, hit, theirs, team, secret, mine]
    names = frozenset({"red", "red0", "red1", "red2"})
    assert seat_events(events, "red", names) == [moved, hit, team, mine]
    assert seat_events(events, GM, frozenset()) == [secret, mine]  # the GM's tab: every private event


def _view_log(backend: MemoryBackend, seat: str, header: int = VIEW_LOG_HEADER_ROW) -> list[str]:
    lines = []
    for row in range(header + 1, header + 400):
        text = backend.value(f"View {seat}", f"C{row}")
        if text in (None, ""):
            break
        lines.append(str(text))
    return lines


def test_a_gvg_team_view_lists_what_happened_to_its_players() -> None:
    backends = {n: MemoryBackend(n) for n in ("board", "engine", "red", "blue")}
    sheets = MatchSheets(("red", "blue"), backends["board"], backends["engine"], (backends["red"], backends["blue"]))
    create_match(sheets, create_ruleset("gvg"), roster(3), seed=SEED)
    for _ in range(2):
        type_orders(sheets)
        assert sync(sheets).resolved
    header = VIEW_PANEL_ROW + sheet_spec("gvg").view_panel_rows + 1
    red, blue = _view_log(backends["red"], "red", header), _view_log(backends["blue"], "blue", header)
    assert red and blue and red != blue
    assert any(line.startswith("red0 moves") for line in red)
    assert not any(line.startswith(("blue0 moves", "blue1 moves", "blue2 moves")) for line in red)
    assert any(line.startswith("blue0 moves") for line in blue)


def test_a_gvg_team_view_shows_its_team_and_its_log_on_the_first_screen() -> None:
    """The View's first 45 rows were empty: GvG's panel had nothing and the log started on row 46."""
    backends = {n: MemoryBackend(n) for n in ("board", "engine", "red", "blue")}
    sheets = MatchSheets(("red", "blue"), backends["board"], backends["engine"], (backends["red"], backends["blue"]))
    create_match(sheets, create_ruleset("gvg"), roster(3), seed=SEED)
    type_orders(sheets)
    assert sync(sheets).resolved
    header = VIEW_PANEL_ROW + sheet_spec("gvg").view_panel_rows + 1
    assert header <= 30 and backends["red"].value("View red", f"A{header}") == "Turn"
    panel = [backends["red"].value("View red", f"A{row}") for row in range(VIEW_PANEL_ROW, header)]
    assert panel[0] == "Your team" and "Player Speed" in panel and "red0" in panel and "blue0" not in panel
    assert _view_log(backends["red"], "red", header)


def test_a_gvg_team_view_lists_the_battles_it_lost_and_the_hits_on_its_structures() -> None:
    """A battle's data names the winner only and a structure's hit its id: the losing team's View had neither;
    now each team's View lists every battle its players fought and every hit on its structures, as the Log does."""
    backends = {n: MemoryBackend(n) for n in ("board", "engine", "red", "blue")}
    sheets = MatchSheets(("red", "blue"), backends["board"], backends["engine"], (backends["red"], backends["blue"]))
    create_match(sheets, create_ruleset("gvg"), roster(3), seed=SEED)
    for _ in range(30):
        type_orders(sheets)
        if sync(sheets).finished:
            break
    log = [str(backends["board"].value("Log", f"C{row}")) for row in range(2, 2000)
           if backends["board"].value("Log", f"C{row}") not in (None, "")]
    header = VIEW_PANEL_ROW + sheet_spec("gvg").view_panel_rows + 1
    views = {team: _view_log(backends[team], team, header) for team in ("red", "blue")}
    battles = [line for line in log if line.startswith("Battle")]  # every battle is fought by both teams
    hits = {team: [line for line in log if line.startswith(f"{team}'s") and (" loses 1 HP" in line
                                                                            or " is destroyed" in line)]
            for team in ("red", "blue")}
    assert battles and (hits["red"] or hits["blue"]), "the bots' match must fight and hit a structure"
    for team in ("red", "blue"):
        for line in battles + hits[team]:
            assert line in views[team], f"{team}'s View misses {line!r}"
        other = "blue" if team == "red" else "red"
        assert not any(line in views[team] for line in hits[other] if line not in battles)


class _LayoutsSeen(MemoryBackend):
    """A memory spreadsheet that keeps the layouts it was given (their column widths)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.widths: dict[str, dict[int, int]] = {}

    def apply_layout(self, layout: WorkbookLayout, writes: Sequence[RangeWrite] = ()) -> None:
        super().apply_layout(layout, writes)
        self.widths.update({tab.name: dict(tab.column_widths) for tab in layout.tabs})


def _game_kinds(game: str) -> list[str]:
    """Every event kind of ``game`` and of the sync, in the Log's words."""
    enums = importlib.import_module(f"sheets_gm.rulesets.{game}.enums")
    kinds = [value for name, c in vars(enums).items() if name == "EventKind" for value in c]
    return [kind_words(k) for k in [*kinds, *SyncEvent]]


def test_the_logs_kind_column_holds_every_kind_whole_in_the_log_and_the_view() -> None:
    """GvG's 'structure destroyed' and Champions' 'loot empty' ran into the line beside them (issue 40)."""
    backends = {n: _LayoutsSeen(n) for n in ("board", "engine", "red", "blue")}
    sheets = MatchSheets(("red", "blue"), backends["board"], backends["engine"], (backends["red"], backends["blue"]))
    create_match(sheets, create_ruleset("gvg"), roster(3), seed=SEED)
    assert backends["board"].widths["Log"][1] == backends["red"].widths["View red"][1] == LOG_KIND_WIDTH
    for game in GAMES:
        view = sheet_spec(game).view_widths.get(1, LOG_KIND_WIDTH)
        for words in _game_kinds(game):
            assert lines_needed(words, min(view, LOG_KIND_WIDTH)) == 1, (game, words)
