"""Seats a bot plays in a real match, in every game: played to the end through the real sync, the leak scan over
what each bot is given, and a seat handed from a person to a bot and back in the middle of a match.

The other seats are played by the demo's bots typing into their cells (``type_bot_orders``), as people would;
the bot seat is left to the sync alone."""

from __future__ import annotations

import atexit
import datetime as dt
import json
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.registry import AnyRuleset, bots_of, create_ruleset, get_game, get_ruleset, ruleset_names
from sheets_gm.sheets.layout import Grid, TabLayout, WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend, create_workbook
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.bot_seats import bot_input
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, hand_seats, undo_window
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_tabs import ABOUT_TAB
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.rows.fates import given_back
from sheets_gm.sync.sheets import MatchSheets
from tests.conformance.leak_scan import find_in_data
from tests.made import made_into
from tests.quick import soak_but

NOW = dt.datetime(2026, 11, 25, 9, tzinfo=dt.UTC)
SEED = b"bot seats: the seed of the match!"
GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]


def _seats(name: str) -> tuple[str, ...]:
    """The seats of the tests' roster of ``name`` (as the game declares it: ``SharedTests.roster``)."""
    return get_game(name).tests.roster(create_ruleset(name).sample_roster()).seats


def _match(folder: Path, name: str, bots: dict[str, str], short: bool = False) -> tuple[MatchSheets, AnyRuleset]:
    """A match of ``name`` on local workbooks laid out privately (a file per seat, the engine under gm/), seated as the
    game declares for the shared tests (``SharedTests``: every seat of its sample roster unless it names fewer);
    ``short``: with the house rules the game declares to end it soon. A copy of the match made once a test run
    for these arguments (``tests.made``)."""
    tests = get_game(name).tests
    settings = get_ruleset(name).traits.settings_type(**tests.short) if short else None
    rules = create_ruleset(name, settings)
    roster = tests.roster(rules.sample_roster())

    def make(into: Path) -> None:
        paths = _paths(into, name, rules, roster.seats)
        for path, first in paths.values():
            path.parent.mkdir(parents=True, exist_ok=True)
            values: dict[str, Grid] = {"A1": [["engine"]]} if first == ABOUT_TAB else {}
            create_workbook(path, WorkbookLayout("t", (TabLayout(first, rows=1, cols=1, values=values),)))
        create_match(_sheets(into, name, rules, roster.seats), rules, roster, seed=SEED, bots=bots)

    made_into(folder, ("bot seats", name, tuple(sorted(bots.items())), short), make, shared=True)
    return _sheets(folder, name, rules, roster.seats), rules


def _paths(folder: Path, name: str, rules: AnyRuleset, seats: tuple[str, ...]) -> dict[str, tuple[Path, str]]:
    """Each role's workbook in ``folder`` and the first tab it is made with."""
    from sheets_gm.rulesets.registry import sheet_spec

    tabs = sheet_spec(name).tabs
    paths = {"board": (folder / "board.xlsx", tabs.board), "engine": (folder / "gm" / "engine.xlsx", ABOUT_TAB)}
    paths |= {s: (folder / f"orders-{s}.xlsx", tabs.orders.format(seat=s)) for s in seats}
    if rules.traits.judge:
        paths["judge"] = (folder / "gm" / "judge.xlsx", tabs.judge)
    return paths


def _sheets(folder: Path, name: str, rules: AnyRuleset, seats: tuple[str, ...]) -> MatchSheets:
    """The match's sheets on its workbooks in ``folder``."""
    backends = {role: LocalWorkbookBackend(path) for role, (path, _) in _paths(folder, name, rules, seats).items()}
    return MatchSheets(seats, backends["board"], backends["engine"], tuple(backends[s] for s in seats),
                       backends.get("judge"))


def _people(rules: AnyRuleset, seats: tuple[str, ...]) -> dict[str, Any]:
    """The demo's bots standing in for the people of ``seats`` (and the judge)."""
    kinds = bots_of(rules)
    make = next(iter(kinds.values())).make
    return {seat: make(f"person/{seat}") for seat in (*seats, JUDGE)}


def _step(sheets: MatchSheets, name: str, people: dict[str, Any]) -> WindowReport:
    """The people type and tick Ready, then one poll: it must resolve (no window waits for a bot)."""
    type_bot_orders(sheets, get_ruleset(name), people)
    report = poll(sheets, get_ruleset(name), now=NOW)
    assert report.resolved, f"{report.window}: waiting for {report.waiting_for}"
    return report


class _Played:
    """The match of ``name`` with no bot seat (``_match``) played by the demo's bots for every seat (``_step``), window
    after window, once a test process: after each window a copy of its files and the match as read, for the tests
    that start there. Playing the first windows again for each test was most of what the leak scan, the hand-over
    and the list tests cost."""

    _ALL: ClassVar[dict[str, _Played]] = {}

    def __init__(self, name: str) -> None:
        self.name = name
        self.root = Path(tempfile.mkdtemp(prefix="sheets-gm-bot-seats-"))
        atexit.register(shutil.rmtree, self.root, ignore_errors=True)
        self.sheets, self.rules = _match(self.root / "live", name, {})
        self.people = _people(self.rules, _seats(name))
        self.kept: list[tuple[Path, MatchRead]] = []
        self._keep()

    @classmethod
    def of(cls, name: str) -> _Played:
        """The one of ``name`` in this test process."""
        if name not in cls._ALL:
            cls._ALL[name] = cls(name)
        return cls._ALL[name]

    def _keep(self) -> None:
        folder = self.root / str(len(self.kept))
        shutil.copytree(self.root / "live", folder, symlinks=True)
        self.kept.append((folder, read_match(self.sheets, get_ruleset(self.name))))

    def read(self, windows: int) -> MatchRead | None:
        """The match as read after ``windows`` windows; None when it ended before."""
        while len(self.kept) <= windows:
            record = self.kept[-1][1].record
            if record.ruleset.window(record.state) is None:
                return None
            _step(self.sheets, self.name, self.people)
            self._keep()
        return self.kept[windows][1]

    def into(self, folder: Path, windows: int) -> tuple[MatchSheets, dict[str, Any]]:
        """A copy in ``folder`` of the match after ``windows`` windows, and the people's bots as they stood then."""
        assert self.read(windows) is not None, f"{self.name} ended before {windows} windows"
        shutil.copytree(self.kept[windows][0], folder, symlinks=True, dirs_exist_ok=True)
        return _sheets(folder, self.name, self.rules, _seats(self.name)), self.people_after(windows)

    def people_after(self, windows: int) -> dict[str, Any]:
        """New people's bots asked for the orders of the first ``windows`` windows as ``type_bot_orders`` asked the
        ones that played them: a bot that draws from a generator of its own (GvG's) stands where theirs did."""
        people = _people(self.rules, _seats(self.name))
        for _, read in self.kept[:windows]:
            record = read.record
            window = record.ruleset.window(record.state)
            assert window is not None
            dice = record.dice()
            for seat in window.seats:
                if seat in people:
                    people[seat].orders(record.state, seat, dice)
        return people


def _history_orders(sheets: MatchSheets, name: str) -> list[dict[str, Any]]:
    """Every resolution's orders as the engine's history keeps them."""
    from sheets_gm.sync.match_record import history_rows, joined_cells

    record = read_match(sheets, get_ruleset(name)).record
    (grid,) = sheets.engine.read([history_rows("Engine", record.resolved)])
    return [json.loads(joined_cells(row, 1))["orders"] for row in grid[:record.resolved]]


# The sync plays a bot seat the same way in every game: GvG's to its end in the test command (Wesnoth's, Coalition's
# and Win or Die's bot seats play in the hand-over tests below), every game's under -m soak.
@pytest.mark.parametrize("name", soak_but(GAMES, "gvg"))
def test_a_bot_seat_plays_the_match_to_its_end(tmp_path: Path, name: str) -> None:
    seats = _seats(name)
    best = next(iter(bots_of(create_ruleset(name))))
    sheets, rules = _match(tmp_path, name, {seats[1]: best}, short=True)
    people = _people(rules, tuple(s for s in seats if s != seats[1]))
    typed_by_bot = 0
    for _ in range(rules.traits.max_windows + 1):
        report = _step(sheets, name, people)
        typed_by_bot += seats[1] in report.bots_typed
        if report.finished:
            break
    assert report.finished, "the match did not end"
    assert f"bots play {seats[1]} ({best})" in report.result
    assert typed_by_bot > 0
    # Its orders were read from its sheet like anyone's: the history holds them, and the match replays.
    assert any(seats[1] in json.dumps(orders) for orders in _history_orders(sheets, name))
    from sheets_gm.sync.life.replay import match_history, replay_document, replay_states

    record = read_match(sheets, get_ruleset(name)).record
    check = replay_states(replay_document(record, match_history(sheets, record, "Engine")))
    assert check.difference is None and check.resolutions == record.resolved


PLAYED = pytest.mark.xdist_group("bot-seats-played")  # one worker plays each game's _Played once a run, not each


#: The leak scan's matches and how many windows it scans of each: the quick run the first four of two games' (each
#: seat given its input at least twice), the soak run eight of every game's.
LEAK_SCANS = [(name, 8) for name in GAMES] + [("gvg", 4), ("winordie", 4)]


@PLAYED
@pytest.mark.parametrize(("name", "scanned_windows"), soak_but(LEAK_SCANS, ("gvg", 4), ("winordie", 4)))
def test_leak_scan_over_what_a_bot_seat_is_given(name: str, scanned_windows: int) -> None:
    seats = _seats(name)
    played = _Played.of(name)
    scanned = hidden = 0
    for windows in range(scanned_windows):
        read = played.read(windows)
        assert read is not None
        record = read.record
        window = record.ruleset.window(record.state)
        if window is None:
            break
        for seat in window.seats:
            if seat not in seats:
                continue
            given = bot_input(record, record.state, seat)
            assert given.dice.seed != record.seed
            data = json.dumps({"state": record.ruleset.state_codec.to_json(given.state), "pins": given.dice.pins,
                               "dice": given.dice.seed.hex()}, ensure_ascii=False)
            wanted = {text: f"what only {other} may see" for other in seats if other != seat
                      for text in record.ruleset.secrets(record.state, other)}
            atoms = _hidden_atoms(name, record.state, seat)
            wanted |= atoms
            hits = find_in_data(f"{seat}'s bot input", data, record.seed, wanted)
            assert not hits, "\n".join(map(str, hits))
            scanned += 1
            hidden += len(atoms)
        played.read(windows + 1)  # the people play the window (``_step``: it must resolve)
    assert scanned >= 4
    assert hidden > 0 or name not in ("champions", "winordie")  # the games that hide state had something to find


def _hidden_atoms(name: str, state: Any, seat: str) -> dict[str, str]:
    """What the state holds that ``seat`` may not see, as the JSON strings it would be in a bot's input: another
    player's items and the loot pools' (Champions), the ids and cards of another player's face-down units (Win or
    Die), none of which the seat holds or sees herself."""
    found: dict[str, str] = {}
    if name == "champions":
        me = state.player(seat)
        mine = {*me.bag, *(i for items in me.equipment for i in items)}
        for p in state.players:
            if p.name != seat:
                found |= {f'"{i}"': f"{p.name}'s item" for i in {*p.bag, *(i for e in p.equipment for i in e)} - mine}
        found |= {f'"{i}"': "an item of a loot pool" for pool in state.pools.values() for i in set(pool) - mine}
    elif name == "winordie":
        seen = {u.card for u in [*state.units, *state.dead] if not u.hidden or u.owner == seat}
        seen |= set(state.legions[seat].barrack)
        for u in state.units:
            if u.owner != seat and u.hidden:
                found[f'"{u.id}"'] = f"the id of {u.owner}'s face-down unit"
                if u.card not in seen:
                    found[f'"{u.card}"'] = f"the card of {u.owner}'s face-down unit"
    return found


def _two(rules: AnyRuleset) -> Any:
    roster = rules.sample_roster()
    seats = roster.seats[:2]
    return rules.new_match(type(roster)(seats, tuple(m for m in roster.members if m.seat in seats)), SEED)


def test_a_champions_bot_never_reads_another_bag_nor_a_pool() -> None:
    """The scan above is no formality: the state holds another player's bag and the pools, her bot's input not."""
    rules = create_ruleset("champions")
    state = _two(rules)
    bo = state.player("Bo")
    state = state.with_players([p if p.name != "Bo" else type(bo)(bo.name, bo.at, bag=("Secret Blade",))
                                for p in state.players])
    known = rules.seat_state(state, "Ann")
    assert known.player("Bo").bag == () and known.player("Ann") == state.player("Ann")
    items = {i for pool in state.pools.values() for i in pool}
    assert items and not items & {i for pool in known.pools.values() for i in pool}
    assert "Secret Blade" not in json.dumps(rules.state_codec.to_json(known))


def test_a_win_or_die_bot_never_reads_a_face_down_token() -> None:
    """Another player's hidden units are in the state (their ids and cards); her bot's input has stand-ins."""
    rules = create_ruleset("winordie")
    state = _two(rules)
    theirs = [u for u in state.units if u.owner == "Bo" and u.hidden]
    known = json.dumps(rules.state_codec.to_json(rules.seat_state(state, "Ann")), ensure_ascii=False)
    assert theirs and not any(f'"{u.id}"' in known for u in theirs)
    own_cards = {u.card for u in state.units if u.owner == "Ann"}
    assert not any(f'"{u.card}"' in known for u in theirs if u.card not in own_cards)


# Wesnoth in the test command: a Coalition side's hand-over and hand-back are the quick run's in the tests below
# (its rows unticked, its bot's orders by its post, its bot's rows in its archive), every game's under -m soak.
@PLAYED
@pytest.mark.parametrize("name", soak_but(GAMES, "wesnoth"))
def test_a_seat_handed_to_a_bot_and_back(tmp_path: Path, name: str) -> None:
    seats = _seats(name)
    best = next(iter(bots_of(create_ruleset(name))))
    sheets, everyone = _Played.of(name).into(tmp_path, 2)  # two windows played by the people (``_step``)
    cls = get_ruleset(name)
    with pytest.raises(BetweenWindowsError, match="no bot called 'nobody'; its bots are"):
        hand_seats(sheets, cls, {seats[1]: "nobody"}, "no opponent")
    done = hand_seats(sheets, cls, {seats[1]: best}, "no opponent this week")
    assert done.events[0].text == f"GM hands {seats[1]} to the {best} bot: no opponent this week."
    record = read_match(sheets, cls).record
    assert record.bots == {seats[1]: best}
    log = sheets.board.read(["Log!A:C"])[0]
    assert any(f"GM hands {seats[1]} to the {best} bot" in str(row) for row in log)
    one = {s: b for s, b in everyone.items() if s != seats[1]}
    typed = []
    for _ in range(4):
        report = _step(sheets, name, one)
        typed += report.bots_typed
        if report.finished or seats[1] in typed:  # handed back as soon as the bot played: a short game may end
            break
    assert seats[1] in typed
    hand_seats(sheets, cls, {seats[1]: "none"}, "Bo is back")
    assert read_match(sheets, cls).record.bots == {}
    for _ in range(2):
        report = _step(sheets, name, everyone)
        assert not report.bots_typed
        if report.finished:
            break


def test_undo_takes_a_hand_over_back_with_the_resolution(tmp_path: Path) -> None:
    sheets, rules = _match(tmp_path, "wesnoth", {})
    cls = get_ruleset("wesnoth")
    people = _people(rules, ("Ann", "Bo"))
    _step(sheets, "wesnoth", people)
    hand_seats(sheets, cls, {"Bo": "skirmisher"}, "Bo left")
    report = _step(sheets, "wesnoth", {"Ann": people["Ann"]})  # Bo's turn: its bot typed, Ready ticked
    assert report.resolved
    undo_window(sheets, cls, "resolved too early")
    assert read_match(sheets, cls).record.bots == {"Bo": "skirmisher"}  # it played the undone window
    undo_window(sheets, cls, "back to the start")
    assert read_match(sheets, cls).record.bots == {}


def test_undo_of_a_window_only_a_bot_acts_in_waits_for_the_gm() -> None:
    """Issue 64, item 6: the undo of a window only a bot acts in reopens it with the bot's rows put back and its
    Ready unticked, as the undo says; the bot does not tick it again at once (the next poll resolved the window anew
    with fresh dice). The GM moves it on: ``resolve --force`` resolves it with the bot's rows."""
    from tests.sync.test_typed_row_lifecycle import Match

    match = Match("wesnoth")
    match.bots_play()  # the first player's turn
    bo = match.window().awaited[0]
    hand_seats(match.sheets, match.cls, {bo: "skirmisher"}, "Bo left")  # its bot types and ticks End turn
    assert match.poll().resolved  # Bo's turn, its bot alone
    undo_window(match.sheets, match.cls, "resolved too early")
    assert match.window().awaited == (bo,)
    for _ in range(2):
        report = match.poll()
        assert not report.resolved, report.reason
    seat_row = match.row(bo, "seat", 0)
    assert not seat_row.ticked("ready"), seat_row.feedback
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the GM moves it on


@pytest.mark.parametrize("name", soak_but(GAMES, "coalition", "winordie"))
def test_a_seat_handed_back_keeps_its_bots_rows_unticked_so_nothing_resolves_before_its_player_looks(
        tmp_path: Path, name: str) -> None:
    """A seat handed back keeps what its bot typed, for its player to change; with the bot's Ready or Go still
    ticked, the next poll resolved them as hers before she saw them (found by the audit of issue 38). They come
    back unticked, and the seat's row says so."""
    rules = create_ruleset(name)
    sheets, rules = _match(tmp_path, name, {})
    cls = get_ruleset(name)
    read = read_match(sheets, cls)
    window = read.record.ruleset.window(read.record.state)
    assert window is not None
    seat = window.seats[0]
    hand_seats(sheets, cls, {seat: next(iter(bots_of(rules)))}, "away for the day")  # its bot types at once
    read = read_match(sheets, cls)
    ticked = [r for r in read.seats[seat].rows if r.typed and any(
        r.ticked(c.key) for c in read.seats[seat].tab.table(r.table).spec.columns if c.kind.name in ("READY", "TICK"))]
    assert ticked, "the bot ticked its seat's box"
    hand_seats(sheets, cls, {seat: "none"}, "back early")
    rows = read_match(sheets, cls).seats[seat].rows
    aside = {r.subject for r in given_back(read.seats[seat].tab, read.seats[seat].rows, None)}  # a post's seat
    said = f"the {len(aside)} rows the bot typed went to tab " if aside else \
        "what the bot typed stays for you to change."
    assert any(r.feedback.startswith(f"Handed back to you by the GM (back early): {said}") for r in rows), \
        [r.feedback for r in rows]
    def texts(found: Sequence[Any]) -> list[tuple[str, str, str]]:  # what the bot typed, boxes aside
        return sorted((r.table, r.subject, k) for r in found for k, v in r.values.items()
                      if isinstance(v, str) and v.strip())

    archived = _archive_text(sheets, name, seat)
    assert all(s in archived for s in aside)  # nothing of what the bot typed is lost: kept, or in her Archive
    assert texts(rows) == texts([r for r in read.seats[seat].rows if r.subject not in aside])
    report = poll(sheets, cls, now=NOW)
    assert not report.resolved, report.reason
    read = read_match(sheets, cls)
    assert not any(r.ticked(c.key) for r in read.seats[seat].rows
                   for c in read.seats[seat].tab.table(r.table).spec.columns if c.kind.name in ("READY", "TICK"))


def _archive_text(sheets: MatchSheets, name: str, seat: str) -> str:
    """``seat``'s Archive tab as text."""
    from sheets_gm.sheets.layout import a1
    from sheets_gm.sync.sheets import seat_backend

    read = read_match(sheets, get_ruleset(name))
    grid = seat_backend(sheets, read.tabs, seat).read([a1(read.tabs.archive(seat), "A1:B200")])[0]
    return "\n".join(str(v) for line in grid for v in line)


def test_a_coalition_side_handed_back_mid_window_gives_its_orders_by_its_post() -> None:
    """Issue 64, item 6: a side handed back from its bot mid-window pasted its forum post, and every line was refused
    because the bot's army rows win over a post's lines (she would have cleared 120 rows by hand). The hand-back sets
    the bot's army rows aside to her Archive (her View says so), Ready unticked; her post's lines are read."""
    from tests.sync.test_typed_row_lifecycle import Match

    match = Match("coalition")
    hand_seats(match.sheets, match.cls, {"coalition": "commander"}, "away")
    typed = [r for r in match.read().seats["coalition"].rows if r.typed and r.table == "armies"]
    assert typed, "the bot typed its army rows"
    done = hand_seats(match.sheets, match.cls, {"coalition": "none"}, "Ann is back")
    army = match.read().record.state.armies[0]
    assert army.side.value == "coalition"
    match.type("coalition", "post", 0, "line", "Hi all, our moves:")
    match.type("coalition", "post", 1, "line", f"{army.name}: {army.at} - none")
    match.poll()
    line = match.row("coalition", "post", 1)
    assert line.feedback.startswith("✔"), line.feedback  # was: "… is not read: …'s own row … holds an order"
    assert not [r for r in match.read().seats["coalition"].rows if r.typed and r.table == "armies"]
    archive = match.archive("coalition")
    assert "Set aside when the GM handed these rows back to you from the bot" in archive
    assert all(r.subject in archive for r in typed)
    assert any(e.audience == frozenset({"coalition"}) and e.text.startswith(
        f"{len(typed)} rows the bot typed were set aside when the GM handed them back to you (Ann is back)")
        for e in done.events), [e.text for e in done.events]


def test_a_coalition_side_handed_back_is_told_its_bot_s_rows_went_to_its_archive() -> None:
    """Issue 64, item 6, played in LibreOffice: a side handed back mid-window found its army rows empty (set aside to
    its Archive, its post giving the orders) and its seat row saying "what the bot typed stays for you to change".
    The seat row says where the rows went and that her own rows or her post give the orders."""
    from tests.sync.test_typed_row_lifecycle import Match

    match = Match("coalition")
    hand_seats(match.sheets, match.cls, {"coalition": "commander"}, "away")
    typed = [r for r in match.read().seats["coalition"].rows if r.typed and r.table == "armies"]
    hand_seats(match.sheets, match.cls, {"coalition": "none"}, "Ann is back")
    seat_row = match.row("coalition", "side", 0)
    archive = match.read().tabs.archive("coalition")
    assert seat_row.feedback.startswith(f"Handed back to you by the GM (Ann is back): the {len(typed)} rows the bot "
                                        f"typed went to tab {archive!r}; your own rows or your pasted post give the "
                                        "orders now. Ready unticked"), seat_row.feedback
    assert "stays for you to change" not in seat_row.feedback and not seat_row.ticked("ready")


def _stale_rows(sheets: MatchSheets, name: str, seat: str, tables: Sequence[str]) -> None:
    """A person's rows left in ``seat``'s list tables ``tables``: every row laid out, every text and choice column
    typed."""
    from sheets_gm.sheets.spec import ColumnKind
    from sheets_gm.sync.sheets import WriteBatch, seat_backend

    read = read_match(sheets, get_ruleset(name))
    seat_read = read.seats[seat]
    batch = WriteBatch()
    backend = seat_backend(sheets, read.tabs, seat)
    for table in tables:
        placed = seat_read.tab.table(table)
        text = [c.key for c in placed.spec.columns if c.kind in (ColumnKind.TEXT, ColumnKind.CHOICE)]
        for row in (r for r in seat_read.rows if r.table == table):
            for key in text:
                batch.put(backend, placed.at(placed.cell(row.row - placed.first_row, key)), [["stale"]])
    batch.run(sheets.write_order())


@PLAYED
@pytest.mark.parametrize("name", GAMES)
def test_a_bots_list_empties_the_rows_below_it_whatever_the_adapter_types(tmp_path: Path, name: str) -> None:
    """Issue 65: a list table (``ordered`` or ``standing``) that a bot's typed cells name is the seat's whole list.
    Rows typed before (a seat handed back from a person, a longer list of the bot's own) are emptied by the core,
    not by each adapter: no row of such a table keeps a cell the bot did not type."""
    from sheets_gm.sync.autoplay import typed_values

    seats = _seats(name)
    played = _Played.of(name)
    rules = played.rules
    for windows in range(4):  # the first window in which a bot's cells name a list table one can type text in
        read = played.read(windows)
        assert read is not None
        record = read.record
        window = record.ruleset.window(record.state)
        if window is None:
            break
        seat = window.seats[0]
        tab = read.seats[seat].tab
        orders = _people(rules, seats)[seat].orders(record.state, seat, record.dice())
        typed = typed_values(read.adapter, record.state, window, seat, orders, tab, ready=False)
        lists = [t for t in typed if (tab.table(t).spec.ordered or tab.table(t).spec.standing)
                 and any(c.kind.value in ("text", "choice") for c in tab.table(t).spec.columns)]
        if lists:
            sheets, _ = played.into(tmp_path, windows)
            _stale_rows(sheets, name, seat, lists)
            type_bot_orders(sheets, get_ruleset(name), {seat: _people(rules, seats)[seat]}, ready=False)
            after = read_match(sheets, get_ruleset(name)).seats[seat].rows
            kept = [(r.table, r.subject) for r in after if r.table in lists and "stale" in r.values.values()]
            assert not kept, f"{name}: rows typed before kept beside the bot's list: {kept}"
            return
        played.read(windows + 1)  # the people play the window (``_step``: it must resolve)
    pytest.skip(f"{name}: no bot's cells name a list table in its first windows")


def test_a_post_s_title_line_is_said_read_not_carried_out() -> None:
    """Issue 64, item 7, played in LibreOffice: after the resolution, a post's title line ("Turn 2 orders:"),
    passed over, said "✔ Carried out in turn 1 · orders (the Log says what it did)." as the army's order did. It says
    it was read and passed over; the order's line says it was carried out."""
    from sheets_gm.sync.autoplay import type_bot_orders
    from tests.sync.test_typed_row_lifecycle import Match

    match = Match("coalition")
    army = next(a for a in match.read().record.state.armies if a.side.value == "coalition")
    match.type("coalition", "post", 0, "line", "Turn 1 orders:")
    match.type("coalition", "post", 1, "line", f"{army.name}: {army.at} - none")
    match.type("coalition", "side", 0, "ready", True)
    type_bot_orders(match.sheets, match.cls, {s: b for s, b in match.bots.items() if s != "coalition"})
    assert match.poll().resolved
    title, order = match.row("coalition", "post", 0), match.row("coalition", "post", 1)
    assert title.feedback.startswith("Read in turn 1 · orders: passed over: no army's order"), title.feedback
    assert order.feedback.startswith("✔ Carried out in turn 1 · orders"), order.feedback
