"""What happens to a typed row, as players met it (issue 20): a reason is not overwritten by what else resolved,
a row typed before its seat's turn waits for it, a refusal at a resolution stays in its row, and an emptied row
does not stop a list. Played with the real sync on memory spreadsheets, Wesnoth and Win or Die."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable
from typing import Any

from sheets_gm.engine.ruleset import JUDGE, Window
from sheets_gm.rulesets.registry import AnyRuleset, bots_of, create_ruleset, get_ruleset
from sheets_gm.rulesets.wesnoth.settings import WesnothSettings
from sheets_gm.sheets.backend import WorkbookOpenError
from sheets_gm.sheets.layout import CellValue, a1
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import MatchSheets, seat_backend
from tests.fakes.memory import MemoryBackend

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
_MADE: dict[tuple[str, str], MatchSheets] = {}  # each sample match as created, once a test process
#: Each sample match after each window its bots played (``Match.played``), once a test process.
_PLAYED: dict[tuple[str, str], list[MatchSheets]] = {}


class Match:
    """A sample match of one game on memory spreadsheets, with a bot per seat to move it on."""

    def __init__(self, name: str, settings: Any = None) -> None:
        rules: AnyRuleset = create_ruleset(name, settings)
        self.cls = get_ruleset(name)
        roster = rules.sample_roster()
        seats = roster.seats
        key = (name, repr(settings))
        if key not in _MADE:  # created once a process, each match a copy of it (a copy costs a thousandth)
            made = MatchSheets(seats, MemoryBackend("board"), MemoryBackend("engine"),
                               tuple(MemoryBackend(s) for s in seats),
                               MemoryBackend("judge") if rules.traits.judge else None)
            create_match(made, rules, roster, seed=b"lifecycle")
            _MADE[key] = made
        self.sheets = copy.deepcopy(_MADE[key])
        make = next(iter(bots_of(rules).values())).make
        self.bots = {s: make(f"lifecycle/{s}") for s in (*seats, JUDGE)}

    @classmethod
    def played(cls, name: str, windows: int, settings: Any = None) -> Match:
        """A copy of the sample match of ``name`` after its bots played its first ``windows`` windows (``bots_play``),
        each window played once a test process: the tests that start at the same window play it once. Its bots'
        orders must depend on the state alone (every game's but GvG's, whose bots draw from generators of their own:
        a copy of the spreadsheets would not hold where those stood)."""
        assert name != "gvg", "GvG's bots keep state of their own: play its windows in the test"
        match = cls(name, settings)
        kept = _PLAYED.setdefault((name, repr(settings)), [copy.deepcopy(match.sheets)])
        while len(kept) <= windows:
            match.sheets = copy.deepcopy(kept[-1])
            match.bots_play()
            kept.append(copy.deepcopy(match.sheets))
        match.sheets = copy.deepcopy(kept[windows])
        return match

    @classmethod
    def played_until(cls, name: str, done: Callable[[Match], bool], settings: Any = None) -> Match:
        """``played`` for the fewest windows after which ``done`` says yes to the match."""
        windows = 0
        while not done(match := cls.played(name, windows, settings)):
            windows += 1
        return match

    def read(self) -> MatchRead:
        return read_match(self.sheets, self.cls)

    def window(self) -> Window:
        read = self.read()
        window = read.record.ruleset.window(read.record.state)
        assert window is not None
        return window

    def poll(self) -> WindowReport:
        return poll(self.sheets, self.cls, now=NOW)

    def bots_play(self) -> WindowReport:
        type_bot_orders(self.sheets, self.cls, self.bots)
        report = self.poll()
        assert report.resolved
        return report

    def type(self, seat: str, table: str, index: int, key: str, value: CellValue) -> None:
        read = self.read()
        seat_read = read.seats[seat]
        placed = seat_read.tab.table(table)
        backend = seat_backend(self.sheets, read.tabs, seat)
        assert isinstance(backend, MemoryBackend)
        backend.type(placed.tab or seat_read.tab.name, placed.cell(index, key), value)

    def row(self, seat: str, table: str, index: int) -> TypedRow:
        return [r for r in self.read().seats[seat].rows if r.table == table][index]

    def archive(self, seat: str) -> str:
        read = self.read()
        backend = seat_backend(self.sheets, read.tabs, seat)
        # One value a line: the Archive holds its two columns of sentences only (the copies are in the hidden tab).
        return "".join(f"{v}\n" for line in backend.read([a1(read.tabs.archive(seat), "A1:B60")])[0] for v in line)

    def copies(self, seat: str) -> str:
        """The seat's hidden Copies tab as text: the copies of its Archive lines' rows and its pending row."""
        read = self.read()
        backend = seat_backend(self.sheets, read.tabs, seat)
        return "\n".join(str(v) for line in backend.read([a1(read.tabs.copies(seat), "A1:D60")])[0] for v in line)


def _winordie_turn() -> tuple[Match, str, str]:
    match = Match.played_until("winordie", lambda m: m.window().phase == "actions")
    window = match.window()
    return match, window.seats[0], next(s for s in window.seats if s != window.seats[0])


# -- finding 1: reasons are not overwritten ----------------------------------------------------------------
def test_a_go_on_unreadable_rows_resolves_nothing_and_the_reason_stays() -> None:
    match, ann, bo = _winordie_turn()
    enemy = next(u.id for u in match.read().record.state.units if u.owner == bo)
    for key, value in (("unit", enemy), ("action", "move"), ("target", "B5")):
        match.type(ann, "actions", 0, key, value)
    for _ in range(3):
        match.type(ann, "seat", 0, "go", True)
        report = match.poll()
        assert not report.resolved  # nothing to resolve: no empty resolution archived
        assert match.row(ann, "actions", 0).feedback.startswith(f"✘ Unit '{enemy}' is not one of your units")
        assert "Go did nothing: no row can be read yet" in match.row(ann, "seat", 0).feedback
    assert match.read().record.resolved == 2  # the two deployments and nothing since


class _HeldOpen(MemoryBackend):
    """A seat's spreadsheet an office program holds open, as LibreOffice holds a local workbook (its lock file is
    there): it is never written."""

    def refuse_if_open(self) -> None:
        """Always open."""
        raise WorkbookOpenError(f"{self.name} is open in LibreOffice by Bo: save your changes and close the file "
                                "there", path=self.name, holder="LibreOffice by Bo")

    def write(self, *args: Any, **kwargs: Any) -> Any:
        """Refused, as a local workbook open in an office program is."""
        self.refuse_if_open()


def test_a_go_while_the_opponents_workbook_is_open_says_the_turn_waits_for_it_not_a_cell_to_mend() -> None:
    """Issue 78, item 3: with the opponent's file open in LibreOffice, Ann's Go read "Go did nothing: no row can be
    read yet (mend the cells marked ✘ …)" with no ✘ anywhere. Her seat row says the real reason; nothing resolves,
    nothing of the open file is written, and the next poll after it is closed resolves her rows."""
    match, ann, bo = _winordie_turn()
    type_bot_orders(match.sheets, match.cls, {ann: match.bots[ann]}, ready=False)
    match.type(ann, "seat", 0, "go", True)
    read = match.read()
    held = seat_backend(match.sheets, read.tabs, bo)
    closed = held.__class__
    held.__class__ = _HeldOpen
    try:
        report = poll(match.sheets, match.cls, now=NOW)
    except WorkbookOpenError:
        report = None
    assert report is None  # the poll says the file is open, to the GM
    seat = match.row(ann, "seat", 0).feedback
    assert "Go did nothing" not in seat and "Go waits: a workbook of the match is open in an office program" in seat, \
        seat
    assert "LibreOffice" not in seat  # who holds which file open is the GM's to read
    assert match.read().record.resolved == 2
    held.__class__ = closed
    assert match.poll().resolved


def _wesnoth_second_round() -> tuple[Match, str]:
    """A Wesnoth match the bots played three windows of: the match, and the player whose turn is open."""
    match = Match.played("wesnoth", 3)
    return match, match.window().seats[0]


def test_an_unreadable_row_keeps_its_reason_when_a_go_resolves_another() -> None:
    match, bo = _wesnoth_second_round()
    for key, value in (("reroll", "two"), ("action", "rest"), ("go", True)):
        match.type(bo, "units", 0, key, value)
    for key, value in (("order", "abc"), ("action", "rest"), ("go", True)):
        match.type(bo, "units", 1, key, value)
    for key, value in (("action", "rest"), ("go", True)):
        match.type(bo, "units", 2, key, value)
    assert match.poll().resolved  # the third row rests
    assert match.row(bo, "units", 0).feedback.startswith("✘ Reroll below 'two' is not a whole number")
    assert match.row(bo, "units", 1).feedback.startswith("✘ Order 'abc' is not a whole number")
    assert not match.poll().resolved
    assert match.row(bo, "units", 0).feedback.startswith("✘ Reroll below 'two' is not a whole number")


# -- finding 2: a row typed before its seat's window waits for it --------------------------------------------
def test_a_destination_typed_in_another_player_s_turn_is_kept_and_read_in_hers() -> None:
    match = Match("wesnoth")
    for _ in range(2):
        match.bots_play()
    ann = match.window().seats[0]
    bo = next(s for s in match.read().record.seats if s != ann)
    match.type(bo, "units", 0, "action", "move")
    match.type(bo, "units", 0, "to", "C5")
    match.poll()
    row = match.row(bo, "units", 0)
    assert row.text("to") == "C5" and row.feedback.startswith(f"Kept for {bo}'s next turn")
    match.bots_play()  # Ann's End turn
    window = match.window()
    assert window.seats == (bo,)
    row = match.row(bo, "units", 0)
    assert row.text("to") == "C5" and row.window == window.key  # still in its cell, stamped for her turn: read


def test_actions_typed_in_the_opponent_s_turn_are_read_in_her_own() -> None:
    match, _ann, bo = _winordie_turn()
    mine = next(u.id for u in match.read().record.state.units if u.owner == bo)
    for key, value in (("unit", mine), ("action", "move"), ("target", "C5")):
        match.type(bo, "actions", 0, key, value)
    match.poll()
    assert match.row(bo, "actions", 0).feedback.startswith(f"Kept for {bo}'s next turn")
    match.bots_play()  # Ann's turn ends
    assert match.window().seats[0] == bo
    row = match.row(bo, "actions", 0)
    assert (row.text("unit"), row.text("target"), row.window) == (mine, "C5", match.window().key)


# -- finding 4: a refusal at a resolution stays in its row ---------------------------------------------------
def test_a_recruit_refused_at_end_turn_stays_in_its_row_with_why() -> None:
    match = Match("wesnoth", WesnothSettings(start_gold=5))
    ann = match.window().seats[0]
    match.type(ann, "units", 0, "action", "recruit")
    match.type(ann, "recruit", 0, "type", "Thief")
    match.type(ann, "recruit", 1, "type", "Thief")
    match.type(ann, "seat", 0, "ready", True)
    assert not match.poll().resolved  # End turn waits for the refused recruit (issue 53: Ready means ready)
    assert "End turn is ticked, but not taken while" in match.row(ann, "seat", 0).feedback
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the GM closes the turn as the rules say
    for _ in range(2):  # the resolution, and every poll after it
        row = match.row(ann, "recruit", 0)  # the refused second entry, moved up to the first row
        assert row.text("type") == "Thief"
        assert row.feedback.startswith(f"✘ Not carried out in round 1 · dawn · {ann}: recruit: Thief costs "), \
            row.feedback
        assert f"gold; {ann} has " in row.feedback
        match.poll()
    assert f"Kept for {ann}'s next turn" in match.row(ann, "recruit", 0).feedback


# -- finding 6: an emptied row does not stop the list --------------------------------------------------------
def test_clearing_row_1_and_ticking_go_resolves_the_rows_below() -> None:
    match, ann, bo = _winordie_turn()
    state = match.read().record.state
    enemy = next(u.id for u in state.units if u.owner == bo)
    unit = next(u for u in state.units if u.owner == ann)
    for key, value in (("unit", enemy), ("action", "move"), ("target", "B5")):
        match.type(ann, "actions", 0, key, value)
    for key, value in (("unit", unit.id), ("action", "move"), ("target", unit.at.label if unit.at else "")):
        match.type(ann, "actions", 1, key, value)
    for key in ("unit", "action", "target"):  # she clears the refused row, as its feedback asks
        match.type(ann, "actions", 0, key, "")
    match.type(ann, "seat", 0, "go", True)
    report = match.poll()
    assert report.resolved and report.reason == "a Go box is ticked"
    assert '"subject":"Row 2"' in match.copies(ann)  # Row 2 was read and resolved


def test_a_row_refused_whole_at_a_resolution_stays_with_why_in_any_game() -> None:
    match = Match("gvg")
    red = match.window().seats[0]
    player = match.row(red, "players", 0).subject
    match.type(red, "players", 0, "destination", "O23")  # on the board, far beyond any roll
    report = match.poll()
    refusal = next(why for row, why in report.rejected if row == f"{red} · {player}")
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    row = match.row(red, "players", 0)
    assert row.text("destination") == "O23" and row.window == match.window().key  # read again next turn
    # turn 2 reads it at once, and what its own check says is the row's answer (the next poll says the same)
    assert row.feedback.startswith("✘ "), row.feedback
    match.poll()
    assert match.row(red, "players", 0).feedback == row.feedback
    assert f"Destination: O23 — not carried out ({refusal}" in match.archive(red)


# -- issue 64, item 4: a refusal stands with its reason through the windows that do not read its row ---------------
def test_win_or_die_rows_refused_while_deploying_keep_their_reason_through_the_opponent_s_turn() -> None:
    match = Match("winordie")
    ann = next(s for s in match.read().record.seats if s != match.window().seats[0])  # she deploys second
    enemy = next(u.id for u in match.read().record.state.units if u.owner != ann)
    for key, value in (("unit", enemy), ("action", "move"), ("target", "B5")):
        match.type(ann, "actions", 0, key, value)
    for key, value in (("unit", "zz"), ("ability", "qq")):
        match.type(ann, "reactions", 0, key, value)
    match.poll()
    # an unreadable reaction says why while its table is closed, as an action row does
    assert match.row(ann, "reactions", 0).feedback.startswith("✘ Unit 'zz' is not one of your units on the board: "
                                                                "none of your units is on the board yet")
    while match.window().phase != "actions":
        match.bots_play()
    assert match.window().awaited != (ann,)  # her opponent's first turn: her action row is kept for her own
    for _ in range(2):  # the resolution's drawing, and the poll after it
        feedback = match.row(ann, "actions", 0).feedback
        assert feedback.startswith(f"✘ Unit '{enemy}' is not one of your units on the board: write one of "), feedback
        assert f"Kept for {ann}'s next turn" in feedback
        match.poll()


def test_status_does_not_chase_the_empty_rows_of_a_list() -> None:
    """Issue 64: status listed a Wesnoth leader's empty recruit rows (and Win or Die's empty action rows) under
    'Nothing typed yet': a list's empty rows are no orders awaited."""
    match = Match("wesnoth")
    ann = match.window().awaited[0]
    untyped = poll(match.sheets, match.cls, now=NOW, dry_run=True).untyped[ann]
    assert untyped and not any(s.startswith("Recruit") or "recruit" in s for s in untyped), untyped


def test_status_says_why_a_ticked_ready_is_not_taken() -> None:
    """Issue 64: status said "Not ready: red" of a seat whose Ready was ticked and held by a refused row."""
    from sheets_gm.commands.polls import window_status_lines

    match = Match("gvg")
    red = match.window().seats[0]
    match.type(red, "players", 0, "destination", "O23")  # far beyond any roll: refused
    seat_table = next(t for t in match.read().seats[red].tab.tables if t.spec.name != "players").spec.name
    match.type(red, seat_table, 0, "ready", True)
    lines = window_status_lines(poll(match.sheets, match.cls, now=NOW, dry_run=True), NOW)
    line = next(x for x in lines if x.startswith("Not ready:"))
    assert f"{red} (Ready ticked, not taken while 1 row of {red}'s says ✘: listed below)" in line, line


def test_a_champions_fight_row_says_what_became_of_it_after_the_resolution() -> None:
    """Issue 64: a Champions fight row (a seat's one row, with Ready) said only "Not open now" once its round's
    fights were resolved, not what became of it."""
    match = Match("champions")
    match.bots_play()  # move and loot
    ann = match.window().seats[0]
    match.bots_play()  # equip and fight
    feedback = match.row(ann, "fight", 0).feedback
    assert feedback.startswith("✔ Carried out in round 1 · equip and fight"), feedback
    assert "Not open now" in feedback  # and what it waits for


def test_a_champions_move_and_loot_row_says_what_became_of_each_move_and_loot() -> None:
    """Issue 64: after its round's move and loot, the row said only "(the Log says what it did)", though each move
    and looting action had said ✔ before (the resolution gave no verdicts; GvG's and Wesnoth's rows say theirs)."""
    match = Match("champions")
    ann = match.window().seats[0]
    match.bots_play()  # move and loot
    feedback = match.row(ann, "move_loot", 0).feedback
    assert feedback.startswith("✔ Carried out in round 1 · move and loot: "), feedback
    assert "the Log says" not in feedback and "looting action 1: " in feedback, feedback


def test_a_wesnoth_row_typed_in_the_opponent_s_turn_says_at_once_what_her_turn_will_refuse() -> None:
    """Issue 64, item 4, in Wesnoth: Bo's row typed in Ann's turn said only "Kept for Bo's next turn" until his
    turn opened, its order unreadable ('zz'); it says why at once, as Win or Die's does."""
    match = Match("wesnoth")
    ann = match.window().seats[0]
    bo = next(s for s in match.read().record.seats if s != ann)
    match.type(bo, "units", 0, "order", "zz")
    match.poll()
    feedback = match.row(bo, "units", 0).feedback
    assert feedback.startswith("✘ Order 'zz' is not a whole number") and f"Kept for {bo}'s next turn" in feedback, \
        feedback


def test_a_refusal_the_reading_and_the_check_both_give_is_listed_once() -> None:
    """Issue 64: "Champions lists one refused word twice": the poll's rejected list named an unknown looting word
    once from the reading of the row and once from the engine's check (the row's cell says it once)."""
    match = Match("champions")
    ann = match.window().seats[0]
    match.type(ann, "move_loot", 0, "loot1", "magic")
    report = match.poll()
    said = [why for who, why in report.rejected if who.startswith(ann)]
    assert len(said) == 1 and "'magic'" in said[0], report.rejected


def test_an_end_turn_ticked_in_the_opponents_turn_is_unticked_as_it_resolves() -> None:
    """Issue 64, item 8, in Wesnoth: one rule for a Ready ticked in a window that does not wait for the seat. Bo's
    End turn ticked in Ann's turn was carried into his own and closed it at the first poll, before he saw Ann's
    moves; it is unticked as Ann's turn resolves, his row saying why, and his turn waits for him."""
    match = Match("wesnoth")
    ann = match.window().seats[0]
    bo = next(s for s in match.read().record.seats if s != ann)
    match.type(bo, "seat", 0, "ready", True)
    match.bots_play()  # Ann's turn
    assert match.window().seats == (bo,)
    row = match.row(bo, "seat", 0)
    assert not row.ticked("ready") and "was unticked as it resolved" in row.feedback, row.feedback
    assert not match.poll().resolved


def test_status_names_the_box_a_refused_row_holds() -> None:
    """Issue 64, tried in LibreOffice: a Wesnoth leader's move into an impassable hex held its ticked End turn, and
    status said "Not ready: Ann (Ready ticked, …)", of a box the sheet calls End turn."""
    from sheets_gm.commands.polls import window_status_lines

    match = Match("wesnoth")
    ann = match.window().awaited[0]
    match.type(ann, "units", 0, "action", "move")
    match.type(ann, "units", 0, "to", "A1")  # impassable on the sample map
    match.type(ann, "seat", 0, "ready", True)
    lines = window_status_lines(poll(match.sheets, match.cls, now=NOW, dry_run=True), NOW)
    line = next(x for x in lines if x.startswith("Not ready:"))
    assert f"{ann} (End turn ticked, not taken while 1 row of {ann}'s says ✘: listed below)" in line, line


def test_a_row_typed_in_the_opponent_s_turn_and_moved_up_says_its_refusal_at_once() -> None:
    """Issue 64, item 4, played in LibreOffice: Ann typed a Win or Die action in Row 2 (Row 1 empty) during Bo's
    turn; the poll that resolved a step of Bo's turn moved it up to Row 1 and said only "Kept for turn 5 · Bo.",
    naming his turn and not its refusal, which came at the next poll. The resolution looked the row up in what was
    read by the subject it moved to."""
    from sheets_gm.sync.autoplay import type_bot_orders

    match, first, second = _winordie_turn()
    ann = second  # the first player acts; the second types ahead
    enemy = next(u.id for u in match.read().record.state.units if u.owner == first)
    for key, value in (("unit", enemy), ("action", "move"), ("target", "B5")):
        match.type(ann, "actions", 1, key, value)
    window = match.window()
    type_bot_orders(match.sheets, match.cls, match.bots, ready=False)
    match.type(first, "seat", 0, "go", True)
    assert match.poll().resolved and match.window().key == window.key  # a step of the first player's turn
    row = match.row(ann, "actions", 0)
    assert row.text("unit") == enemy, row
    assert row.feedback.startswith(f"✘ Unit '{enemy}' is not one of your units"), row.feedback
    assert f"Kept for {ann}'s next turn" in row.feedback, row.feedback


def test_a_bot_typing_in_the_opponents_window_leaves_its_ready_alone() -> None:
    """Issue 78, item 7: a bot ticked Ready in the opponent's window (typing its reactions), and its seat row then told
    it to tick Ready once its own window is open. A bot ticks Ready only in a window that waits for it."""
    match, _ann, bo = _winordie_turn()
    window = match.window()
    assert bo in window.seats and bo not in window.awaited
    type_bot_orders(match.sheets, match.cls, {bo: match.bots[bo]})
    assert not match.row(bo, "seat", 0).ticked("ready")
    match.poll()
    assert "once" not in match.row(bo, "seat", 0).feedback, match.row(bo, "seat", 0).feedback


def test_a_reaction_typed_during_deployment_is_kept_without_a_refusal() -> None:
    """Issue 78, item 7: a standing reaction typed during deployment, for a unit not on the board yet, was marked ✘
    "… (mend it before Bo's turn …)" when nothing was wrong. It is kept for the turns it is read in; a reaction its
    unit's card does not have is still refused."""
    from sheets_gm.rulesets.winordie.enums import AbilityType

    match = Match("winordie")
    assert match.window().phase == "deploy"
    state = match.read().record.state
    for seat in match.read().seats:
        unit = next(u for u in state.units if u.owner == seat
                    and any(a.type is AbilityType.REACTION for a in state.card_of(u).abilities))
        reaction = next(a.name for a in state.card_of(unit).abilities if a.type is AbilityType.REACTION)
        match.type(seat, "reactions", 0, "unit", unit.id)
        match.type(seat, "reactions", 0, "ability", reaction)
        plain = next(u for u in state.units if u.owner == seat
                     and not any(a.type is AbilityType.REACTION for a in state.card_of(u).abilities))
        match.type(seat, "reactions", 1, "unit", plain.id)
        match.type(seat, "reactions", 1, "ability", reaction)
    match.poll()
    for seat in match.read().seats:
        kept, wrong = match.row(seat, "reactions", 0).feedback, match.row(seat, "reactions", 1).feedback
        assert "✘" not in kept and kept.startswith("Kept for when this table opens again"), kept
        assert wrong.startswith("✘ Ability"), wrong


def test_a_wesnoth_row_refused_at_its_go_says_so_with_a_mark() -> None:
    """Issue 78, item 7: a Wesnoth row whose Go resolved it and whose order the resolution refused ("A1 costs 32
    moves … choose a nearer hex") said "Not resolved, kept for …" with no ✘. A refusal kept in its window is marked."""
    match, bo = _wesnoth_second_round()
    for key, value in (("action", "move"), ("to", "A1"), ("go", True)):
        match.type(bo, "units", 1, key, value)
    match.poll()
    said = match.row(bo, "units", 1).feedback
    assert said.startswith("✘ Not resolved, kept for ") and "choose a nearer hex" in said, said


def test_rows_written_for_the_open_window_and_typed_over_are_never_said_written_for_another() -> None:
    """Issue 78, item 7: a standing reaction a bot's rows displaced at a hand-over was archived as "as written for turn
    3 · Ann … type them again in the window they are for" when it was written for that very window. The Archive line
    of rows written for the open window says they were typed over; rows of another window keep their line."""
    from dataclasses import replace

    from sheets_gm.sync.rows.fates import stale_line

    match, ann, _bo = _winordie_turn()
    window = match.window()
    tab = match.read().seats[ann].tab
    row = TypedRow("reactions", "Reaction 1", 40, window.key, {"unit": f"{ann}-2", "ability": "Parry"}, "")
    here = stale_line(tab, window, [row])
    assert window.label not in here.text.split(":")[1] and "type them again" not in here.text, here.text
    assert "other rows were typed over them" in here.text, here.text
    elsewhere = stale_line(tab, window, [replace(row, window="7")])
    assert "as written for window “7”" in elsewhere.text and "type them again" in elsewhere.text, elsewhere.text
