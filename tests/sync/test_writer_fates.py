"""Every writer around the poll decides a typed row's fate through ``sync/rows/fates.py`` (issue 38, "The design"): the
GM's ``adjust`` and the end of a match keep a row in its cells with its true fate, or set it aside to the seat's
Archive with a line of her View; never dropped. Played with the real sync on memory spreadsheets."""

from __future__ import annotations

import pytest

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.registry import bots_of, get_game
from sheets_gm.sheets.guard import grid_cells
from sheets_gm.sheets.layout import a1, cell_at
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, adjust_match, hand_seats
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import seat_backend
from tests.conformance.test_input_lifecycle import new_table
from tests.fakes.memory import MemoryBackend
from tests.sync.test_row_fates import _wesnoth_turn
from tests.sync.test_typed_row_lifecycle import NOW, Match, _winordie_turn
from tests.sync.test_undo_ticks import _play


def _adjust(match: Match, game: str, reason: str, **options: list[str]) -> None:
    adjust_match(match.sheets, match.cls, get_game(game).gm_events(match.read().record.seats, options, reason))


def _view(match: Match, seat: str) -> str:
    read = match.read()
    backend = seat_backend(match.sheets, read.tabs, seat)
    return "\n".join(str(v) for line in backend.read([a1(read.tabs.view(seat), "A1:H200")])[0] for v in line)


def test_a_row_of_a_unit_the_gm_s_adjustment_removes_is_set_aside_with_why() -> None:
    match, seat, _other = _wesnoth_turn()
    unit = match.row(seat, "units", 1).subject
    for key, value in (("action", "move"), ("target", "Q99")):
        match.type(seat, "units", 1, key, value)
    match.poll()
    assert match.row(seat, "units", 1).feedback.startswith("✘ Target 'Q99'")
    _adjust(match, "wesnoth", "fell off a cliff", wounds=[f"{unit}=99"])
    assert all(r.subject != unit for r in match.read().seats[seat].rows)
    archive = match.archive(seat)
    assert ("Set aside when the GM adjusted the match (fell off a cliff): what they are for has no row any more"
            in archive), archive
    assert f"· {unit} — Action: move, Target: Q99" in archive
    view = _view(match, seat)
    assert "1 row you typed was set aside when the GM adjusted the match (fell off a cliff)" in view, view


def test_rows_typed_when_the_gm_s_adjustment_ends_the_match_stay_as_typed_and_say_so() -> None:
    match = Match("coalition")
    seat = match.window().seats[0]
    row = next(r for r in match.read().seats[seat].rows if r.table != "seat")
    key = next(c.key for c in match.read().seats[seat].tab.table(row.table).spec.columns if c.kind.typed)
    index = [r.subject for r in match.read().seats[seat].rows if r.table == row.table].index(row.subject)
    match.type(seat, row.table, index, key, "zz")
    match.poll()
    match_refusal = match.row(seat, row.table, index).feedback
    assert match_refusal.startswith("✘"), match_refusal  # refused by the check: it says so after the end too
    _adjust(match, "coalition", "the other side gave up", concede=["phyrexia" if seat == "coalition" else "coalition"])
    read = match.read()
    assert read.record.ruleset.window(read.record.state) is None
    kept = match.row(seat, row.table, index)
    assert kept.text(key) == "zz"
    refusal = match_refusal.split(" · ")[0]
    assert kept.feedback == f"{refusal} · Kept as typed: the match is over, nothing more is read.", kept.feedback


def _typed_after_the_end() -> tuple[Match, str, str, int, str]:
    """A Coalition match its GM ended (a side conceded), then a side typing an order: the side, table, row, column."""
    match = Match("coalition")
    seat = match.window().seats[0]
    _adjust(match, "coalition", "the other side gave up", concede=["phyrexia" if seat == "coalition" else "coalition"])
    row = next(r for r in match.read().seats[seat].rows if r.table != "seat")
    key = next(c.key for c in match.read().seats[seat].tab.table(row.table).spec.columns if c.kind.typed)
    index = [r.subject for r in match.read().seats[seat].rows if r.table == row.table].index(row.subject)
    match.type(seat, row.table, index, key, "late order")
    return match, seat, row.table, index, key


def test_a_row_typed_once_the_match_is_over_is_answered_and_kept() -> None:
    match, seat, table, index, key = _typed_after_the_end()
    report = match.poll()
    assert report.finished and not report.resolved
    late = match.row(seat, table, index)
    assert late.text(key) == "late order"
    assert late.feedback.startswith("Kept as typed: the match is over, nothing more is read."), late.feedback
    assert match.poll().write_calls == 0  # answered once: an idle poll of a finished match writes nothing


def test_repair_keeps_a_refused_row_with_its_refusal_and_a_late_row_of_a_finished_match() -> None:
    match, seat, _other = _wesnoth_turn()
    match.type(seat, "units", 1, "action", "move")
    match.type(seat, "units", 1, "target", "Q99")
    match.poll()
    refused = match.row(seat, "units", 1).feedback
    assert refused.startswith("✘ Target 'Q99'")
    board = match.sheets.board
    assert isinstance(board, MemoryBackend)
    log = match.read().tabs.spec.tabs.log
    board.tabs[f"{log} (renamed)"] = board.tabs.pop(log)
    board.sizes[f"{log} (renamed)"] = board.sizes.pop(log)
    repair_match(match.sheets, match.cls)
    row = match.row(seat, "units", 1)
    assert (row.text("action"), row.text("target")) == ("move", "Q99")
    assert row.feedback == refused  # not masked by "Kept for …" until the next poll checks it again
    match.poll()
    assert match.row(seat, "units", 1).feedback == refused


def test_repair_of_a_finished_match_keeps_what_was_typed_after_its_end() -> None:
    match, seat, table, index, key = _typed_after_the_end()
    repair_match(match.sheets, match.cls)
    late = match.row(seat, table, index)
    assert late.text(key) == "late order"
    assert late.feedback.startswith("Kept as typed: the match is over, nothing more is read."), late.feedback


def _typed_columns(match: Match, seat: str, table: str) -> list[str]:
    spec = match.read().seats[seat].tab.table(table).spec
    return [c.key for c in spec.columns if c.kind.typed and c.kind.name not in ("TICK", "READY")]


def test_an_unreadable_reaction_stays_with_why_through_the_turn_it_waits_in() -> None:
    match, _acting, waiting = _winordie_turn()
    key = _typed_columns(match, waiting, "reactions")[0]
    match.type(waiting, "reactions", 0, key, "zz")
    match.poll()
    said = match.row(waiting, "reactions", 0).feedback
    assert said.startswith("✘"), said
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved  # the acting player's turn, forced
    for _ in range(2):  # the resolution's drawing, then the next poll
        row = match.row(waiting, "reactions", 0)
        assert row.text(key) == "zz" and row.feedback.startswith("✘"), row.feedback
        match.poll()


def test_an_unreadable_judge_result_is_kept_with_why_when_the_gm_forces_the_window() -> None:
    match = Match.played_until("coalition",
                               lambda m: m.window().phase == "results" and bool(m.read().seats[JUDGE].rows))
    results = [r for r in match.read().seats[JUDGE].rows if r.table == "results"]
    assert results, "a battle to judge"
    key = _typed_columns(match, JUDGE, "results")[0]
    match.type(JUDGE, "results", 0, key, "nonsense")
    match.poll()
    said = match.row(JUDGE, "results", 0).feedback
    assert said.startswith("✘"), said
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    kept = [r for r in match.read().seats[JUDGE].rows if r.table == "results" and r.text(key) == "nonsense"]
    archive = match.archive(JUDGE)
    assert (kept and kept[0].feedback.startswith(f"✘ Not carried out in {closed.label}")) or \
        ("nonsense" in archive and "not carried out" in archive), (kept, archive[-800:])


def test_the_gm_s_changes_to_a_stopped_face_down_attack_name_its_token_in_the_log_and_views() -> None:
    """Win or Die through the sync (issue 38 item 11): a face-down unit whose attack a reaction stopped, changed by
    the GM's ``adjust`` by its id (--cancel, --dice, --soften), is named by its token in the public Log and in the
    other player's View, never by its id or card; --dice for a unit no reaction stopped is refused, writing nothing."""
    table = new_table("winordie")
    for _ in range(40):
        state = read_match(table.sheets, table.cls).record.state
        stopped = [p for p in state.pending if p.turn == state.turn and p.player != state.acting]
        hidden = [u for u in state.units if u.owner == state.acting and u.hidden and u.token
                  and any(p.target.startswith(f"{u.token} attack ") for p in stopped)]
        if hidden:
            break
        _play(table, 1)
    else:
        raise AssertionError("no reaction stopped a face-down attacker in 40 windows")
    unit, other = hidden[0], next(s for s in state.seats if s != state.acting)
    gm = get_game("winordie").gm
    assert gm is not None
    idle = next(u for u in state.units if u.owner == state.acting
                and not any(p.target.startswith((f"{u.id} ", f"{u.token} ")) for p in stopped))
    refused = f"no reaction or passive has stopped an action of {idle.id}.*nothing was written"
    with pytest.raises(BetweenWindowsError, match=refused):
        adjust_match(table.sheets, table.cls, gm.events_from_options(state.seats, {"dice": [f"{idle.id}=1"]}, "Brace"))
    options = {"cancel": [unit.id], "dice": [f"{unit.id}=-1"], "soften": [f"{unit.id}=1"]}
    adjust_match(table.sheets, table.cls, gm.events_from_options(state.seats, options, "Parry"))
    read = read_match(table.sheets, table.cls)
    log = [str(line[2]) for line in table.sheets.board.read([a1(read.tabs.spec.tabs.log, "A2:C400")])[0]
           if len(line) > 2 and str(line[1]).startswith("gm")]
    assert len(log) == 3 and all(unit.token in line for line in log), log
    backend = seat_backend(table.sheets, read.tabs, other)
    view = "\n".join(str(v) for line in backend.read([a1(read.tabs.view(other), "A1:H400")])[0] for v in line)
    for text in ("\n".join(log), view):
        assert f"{unit.id} " not in text and f"{unit.id}'" not in text and state.card_of(unit).name not in text


def test_a_poll_of_a_finished_match_draws_again_a_board_cell_and_the_log_header_typed_over() -> None:
    """Once the match is over its board still shows the result: a cell typed over there (or the Log's header) is
    drawn again by the next poll, as in a match in play (issue 38, item 12: the promise of docs/sync.md)."""
    match, *_ = _typed_after_the_end()
    match.poll()
    read = match.read()
    assert read.board is not None
    board_range, grid = read.board
    board = match.sheets.board
    assert isinstance(board, MemoryBackend)
    tab = read.tabs.spec.tabs.board
    (before,) = board.read([board_range])
    status = next(cell_at(c, r + 1) for (_t, r, c), v in grid_cells(board_range, grid).items()
                  if "wins" in str(v))  # the result line
    board.type(tab, status, "Match over: phyrexia wins")
    board.type(read.tabs.spec.tabs.log, "A1", "Round")
    report = match.poll()
    assert report.finished and set(report.drawn_again) == {tab, f"{read.tabs.spec.tabs.log} (header)"}
    assert board.read([board_range]) == [before]
    assert board.read([read.tabs.log_header_range()])[0][0][0] == "Turn"


@pytest.mark.parametrize(("game", "options"), [
    ("gvg", {"coins": ["red=5"]}),
    ("winordie", {"crystals": ["{seat}=+1"]}),
    ("gvg", {"bot": ["{other}"]}),
    ("winordie", {"bot": ["{other}"]}),
])
def test_the_rows_an_adjustment_draws_again_say_at_once_what_the_next_poll_says(
        game: str, options: dict[str, list[str]]) -> None:
    """An adjustment (or a seat handed to a bot) answers every row it keeps for the open window as the next poll
    would (``opened.check_opened``): a refused row says why, a legal one what the check says, not "Kept for …" a
    poll longer; the poll after it has nothing new to write in those cells."""
    match = Match.played_until(game, lambda m: m.window().phase == "actions") if game == "winordie" else Match(game)
    type_bot_orders(match.sheets, match.cls, match.bots, ready=False)
    seat = match.window().seats[0]
    typed = [r for r in match.read().seats[seat].rows if r.typed and r.table != "seat"]
    assert len(typed) >= 2, typed
    table = typed[0].table
    key = _typed_columns(match, seat, table)[0]
    index = [r.subject for r in match.read().seats[seat].rows if r.table == table].index(typed[0].subject)
    match.type(seat, table, index, key, "zz")
    other = next(s for s in match.window().seats if s != seat)
    if "bot" in options:  # the other seat handed to a bot, which types its rows in the same write
        bot = next(iter(bots_of(match.read().record.ruleset)))
        hand_seats(match.sheets, match.cls, {other: bot}, "a ruling")
    else:
        _adjust(match, game, "a ruling", **{k: [v.format(seat=seat) for v in vs] for k, vs in options.items()})
    after = {(s, r.table, r.row): r.feedback for s, sr in match.read().seats.items() for r in sr.rows if r.typed}
    refused = match.row(seat, table, index)
    assert refused.text(key) == "zz" and refused.feedback.startswith("✘"), refused.feedback
    report = match.poll()
    assert not report.resolved
    polled = {(s, r.table, r.row): r.feedback for s, sr in match.read().seats.items() for r in sr.rows if r.typed}
    assert polled == after, {k: (after.get(k), v) for k, v in polled.items() if after.get(k) != v}
