"""Every writer around the poll decides a typed row's fate through ``sync/rows/fates.py`` (issue 38, "The design"): the
GM's ``adjust`` and the end of a match keep a row in its cells with its true fate, or set it aside to the seat's
Archive with a line of her View; never dropped. Played with the real sync on memory spreadsheets."""

from __future__ import annotations

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.registry import get_game
from sheets_gm.sheets.layout import a1
from sheets_gm.sync.life.adjust_undo import adjust_match
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import seat_backend
from tests.fakes.memory import MemoryBackend
from tests.sync.test_row_fates import _wesnoth_turn
from tests.sync.test_typed_row_lifecycle import NOW, Match, _winordie_turn


def _adjust(match: Match, game: str, reason: str, **options: list[str]) -> None:
    gm = get_game(game).gm
    assert gm is not None
    adjust_match(match.sheets, match.cls, gm.events_from_options(match.read().record.seats, options, reason))


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
    match = Match("coalition")
    while match.window().phase != "results" or not match.read().seats[JUDGE].rows:
        match.bots_play()
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
