"""The generic sync (``sync.window_*``) on the test game "race": any ruleset with a sheet adapter.

Players type in the memory spreadsheet as they would in Google Sheets; each poll must make one
read per spreadsheet, answer every row, resolve when every seat is ready, and keep private
what the ruleset says is private.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from sheets_gm.sheets.backend import LayoutDriftError, SheetError
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, adjust_match, undo_window
from sheets_gm.sync.life.create import SeatsMismatchError, create_match
from sheets_gm.sync.life.export import match_replay
from sheets_gm.sync.life.replay import replay_states
from sheets_gm.sync.match_record import HISTORY_FIRST_ROW, engine_read_range, parse_match_record
from sheets_gm.sync.match_tabs import VIEW_LOG_HEADER_ROW, MatchTabs
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.sync.race_game import RACE, RaceOrders, RaceRuleset, RaceSettings, RaceSheet, as_ruleset, registered_race

__all__ = ["registered_race"]  # the fixture, used by name

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"race-seed"
SEATS = ("Ann", "Bo")


def new_race(separate: bool = True, settings: RaceSettings | None = None) -> tuple[MatchSheets, list[MemoryBackend]]:
    rules = RaceRuleset(settings or RaceSettings(), "track 8")
    if separate:
        backends = [MemoryBackend(n) for n in ("board", "engine", "Ann", "Bo")]
        sheets = MatchSheets(SEATS, backends[0], backends[1], (backends[2], backends[3]))
    else:
        backends = [MemoryBackend("match")]
        sheets = MatchSheets.single(SEATS, backends[0])
    create_match(sheets, as_ruleset(rules), rules.sample_roster(), seed=SEED)
    return sheets, backends


def tabs() -> MatchTabs:
    return MatchTabs(RaceSheet(RaceRuleset(RaceSettings(), "track 8")).spec, SEATS, False)


def type_pace(backend: MemoryBackend, seat: str, index: int, pace: CellValue) -> None:
    placed = tabs().orders(seat).table("runners")
    backend.type(f"Orders {seat}", placed.cell(index, "pace"), pace)


def tick_ready(backend: MemoryBackend, seat: str, value: CellValue = True) -> None:
    placed = tabs().orders(seat).table("seat")
    backend.type(f"Orders {seat}", placed.cell(0, "ready"), value)


def feedback(backend: MemoryBackend, seat: str, table: str, index: int) -> str:
    placed = tabs().orders(seat).table(table)
    return str(backend.value(f"Orders {seat}", placed.cell(index, "feedback")))


def engine_archived(engine: MemoryBackend, resolution: int, seat: str) -> dict[str, object]:
    """What the engine's history row of ``resolution`` keeps of the rows ``seat`` typed that it read (``archived``):
    the one copy ``undo`` reads."""
    entry = json.loads(str(engine.value("Engine", f"B{HISTORY_FIRST_ROW + resolution - 1}")))
    found = json.loads(entry["archived"][seat])
    assert isinstance(found, dict)
    return found


def archive_lines(backend: MemoryBackend, seat: str) -> list[str]:
    """The sentences of a seat's Archive tab, in order (column B from row 2 to the first empty one)."""
    out: list[str] = []
    for row in range(2, 100):
        text = backend.value(f"Archive {seat}", f"B{row}")
        if text in (None, ""):
            return out
        out.append(str(text))
    return out


def record_of(backend: MemoryBackend) -> object:
    grid = backend.read([engine_read_range("Engine")])[0]
    return parse_match_record(grid[1:], "engine")


def test_a_new_match_draws_each_seat_its_rows_and_the_board(registered_race: type[RaceRuleset]) -> None:
    _sheets, (board, engine, ann, bo) = new_race()
    runners = tabs().orders("Ann").table("runners")
    assert ann.value("Orders Ann", runners.cell(0, "runner")) == "Ann-1"
    assert ann.value("Orders Ann", runners.cell(1, "runner")) == "Ann-2"
    assert ann.value("Orders Ann", runners.cell(0, "window")) == "1"
    assert "Waiting for your orders for turn 1" in feedback(ann, "Ann", "runners", 0)
    assert "Orders Bo" not in ann.tabs and "Orders Ann" not in bo.tabs  # each seat's own spreadsheet
    assert board.value("Board", "A1") == "Ann-1\nAnn-2\nBo-1\nBo-2"
    assert "race track" in str(board.value("Board", "K1"))  # right of the 9 squares and a gap
    assert engine.value("Engine", "B2") == "race"


def test_an_idle_poll_reads_once_per_spreadsheet_and_writes_nothing(registered_race: type[RaceRuleset]) -> None:
    sheets, backends = new_race()
    poll(sheets, RACE, now=NOW)  # the first poll may settle feedback
    for b in backends:
        b.calls.clear()
    report = poll(sheets, RACE, now=NOW)
    assert [b.calls for b in backends] == [["read"]] * 4
    assert not report.resolved and report.waiting_for == ["Ann", "Bo"]


def test_feedback_names_the_row_and_what_is_accepted(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    type_pace(ann, "Ann", 0, "sprint")
    type_pace(ann, "Ann", 1, "walk")
    report = poll(sheets, RACE, now=NOW)
    assert "Pace 'sprint' is not a pace: write run or walk" in feedback(ann, "Ann", "runners", 0)
    assert "✔ Ann-2 will walk" in feedback(ann, "Ann", "runners", 1)
    assert ("Ann · Ann-1", "Pace 'sprint' is not a pace: write run or walk") in report.rejected
    assert "Tick Ready" in feedback(ann, "Ann", "seat", 0)


def test_without_preview_a_typed_row_shows_no_verdict_until_it_resolves(
        registered_race: type[RaceRuleset], monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = tabs().spec.model_copy(update={"preview": False})  # as a hidden-information game's layout.yaml says
    monkeypatch.setattr("sheets_gm.sync.read.sheet_spec", lambda name: quiet)
    monkeypatch.setattr("tests.sync.race_game.sheet_spec", lambda name: quiet)  # the adapter's, read after
    sheets, (_board, _engine, ann, _bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    type_pace(ann, "Ann", 1, "sprint")
    assert not poll(sheets, RACE, now=NOW).resolved
    assert feedback(ann, "Ann", "runners", 0) == "Kept for turn 1."  # not "✔ Ann-1 will run": that waits
    assert feedback(ann, "Ann", "runners", 1) == "✘ Pace 'sprint' is not a pace: write run or walk"  # unreadable: said


def test_the_window_resolves_when_every_seat_is_ready(registered_race: type[RaceRuleset]) -> None:
    sheets, (board, engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    assert not poll(sheets, RACE, now=NOW).resolved
    tick_ready(bo, "Bo")
    for b in (board, engine, ann, bo):
        b.calls.clear()
    report = poll(sheets, RACE, now=NOW)
    assert report.resolved and report.reason == "every seat is ready"
    assert [b.calls for b in (board, engine, ann, bo)] == [["read", "write"]] * 4
    # Ann-1 ran (a d6 keyed by the seed), everyone else walked 2
    expected = RaceRuleset(RaceSettings(), "track 8")
    start = expected.new_match(expected.sample_roster(), SEED)
    after = expected.resolve(start, RaceOrders({"Ann-1": "run"}), expected.dice(SEED, start)).state
    assert record_of(engine).state == after  # type: ignore[attr-defined]
    runners = tabs().orders("Ann").table("runners")
    assert ann.value("Orders Ann", runners.cell(0, "pace")) == ""  # consumed and cleared
    assert ann.value("Orders Ann", runners.cell(0, "window")) == "2"
    assert ann.value("Orders Ann", runners.cell(0, "at")) == after.at["Ann-1"]
    assert ann.value("Orders Ann", tabs().orders("Ann").table("seat").cell(0, "ready")) is False
    archived = engine_archived(engine, 1, "Ann")  # the engine's history row of resolution 1 keeps what it read
    assert archived["rows"][0]["values"]["pace"] == "run"  # type: ignore[index]
    assert json.loads(str(ann.value("Copies Ann", "C2")))["rows"] == archived["rows"]  # and the pending row
    assert archive_lines(ann, "Ann") == [  # and what Ann reads
        "Turn 1 resolved with what you typed:", "    · Ann-1 — Pace: run", "    · Ann — Ready ✔"]
    assert ann.value("Archive Ann", "A2") == "Turn 1"


def test_private_events_reach_only_their_seat_and_the_gm(registered_race: type[RaceRuleset]) -> None:
    sheets, (board, _engine, ann, bo) = new_race()
    for turn in range(2):  # Ann's runners run until they are out of stamina
        type_pace(ann, "Ann", 0, "run")
        type_pace(ann, "Ann", 1, "run")
        tick_ready(ann, "Ann")
        tick_ready(bo, "Bo")
        assert poll(sheets, RACE, now=NOW).resolved, turn
    public = [str(v) for (r, c), v in board.tabs["Log"].items() if c == 2 and r > 0]
    private = [str(v) for (r, c), v in ann.tabs["View Ann"].items() if c == 2 and r >= VIEW_LOG_HEADER_ROW]
    assert any("no stamina left" in t for t in private)
    assert not any("no stamina" in t for t in public)
    assert not any("no stamina" in str(v) for v in bo.tabs["View Bo"].values())
    assert ann.value("View Ann", "C5") == "Ann-1 stamina 0" and "Stamina" in str(ann.value("View Ann", "C4"))
    gm = [str(v) for v in _engine.tabs["GM"].values()]  # the GM's tab, in the GM's engine spreadsheet
    assert "Ann-1 stamina 0" in gm and "Bo-1 stamina 2" in gm and any("no stamina left" in t for t in gm)


def test_a_row_typed_for_another_window_is_set_aside(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    runners = tabs().orders("Ann").table("runners")
    ann.type("Orders Ann", runners.cell(0, "window"), "7")  # a copy of an old row pasted back
    type_pace(ann, "Ann", 0, "run")
    poll(sheets, RACE, now=NOW)
    assert ann.value("Orders Ann", runners.cell(0, "pace")) == ""
    assert "written for 7" in feedback(ann, "Ann", "runners", 0)
    assert "a copy is in tab 'Archive Ann'" in feedback(ann, "Ann", "runners", 0)
    assert archive_lines(ann, "Ann") == [
        "Set aside while turn 1 was played, as written for window “7”; no longer in your rows: type them again in "
        "the window they are for:", "    · Ann-1 — Pace: run"]
    assert json.loads(str(ann.value("Copies Ann", "A2")))[0]["values"]["pace"] == "run"  # hidden: the rows
    assert ann.value("Copies Ann", "D2") == 2  # the lines written
    assert all(c < 2 for _, c in ann.tabs["Archive Ann"]), "the Archive holds its two columns of sentences only"


def test_the_deadline_and_the_gm_resolve_without_every_seat(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, engine, _ann, _bo) = new_race()
    refused = poll(sheets, RACE, now=NOW, force=True, window_key="2")
    assert not refused.resolved and "window '2' is not the open one" in refused.force_refused
    forced = poll(sheets, RACE, now=NOW, force=True, window_key="1")
    assert forced.resolved and forced.reason == "forced by the GM"
    engine.type("Engine", "B10", "2026-11-22T11:00+00:00")  # the deadline cell
    late = poll(sheets, RACE, now=NOW)
    assert late.resolved and "deadline" in late.reason


@pytest.mark.parametrize("fault", range(1, 4))
def test_a_resolution_cut_before_its_commit_is_completed_by_the_next_poll(
        registered_race: type[RaceRuleset], fault: int) -> None:
    sheets, (board, engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    writers = [ann, bo, board]  # written before the engine, in this order
    writers[fault - 1].fail_on_call = len(writers[fault - 1].calls) + 2  # its read passes, its write fails
    with pytest.raises(InjectedFault):
        poll(sheets, RACE, now=NOW)
    writers[fault - 1].fail_on_call = None
    # Bo types meanwhile: for turn 1 if his spreadsheet was not written yet (his order counts), else for turn 2
    type_pace(bo, "Bo", 0, "run")
    report = poll(sheets, RACE, now=NOW)
    assert report.resolved and (report.reason == "completing a resolution that was interrupted") == (fault > 1)
    record = record_of(engine)
    assert record.resolved == 1  # type: ignore[attr-defined]
    expected = RaceRuleset(RaceSettings(), "track 8")
    start = expected.new_match(expected.sample_roster(), SEED)
    first_orders = RaceOrders({"Ann-1": "run"} if fault > 2 else {"Ann-1": "run", "Bo-1": "run"})
    assert record.state == expected.resolve(  # type: ignore[attr-defined]
        start, first_orders, expected.dice(SEED, start)).state
    kept = bo.value("Orders Bo", tabs().orders("Bo").table("runners").cell(0, "pace"))
    assert kept == ("run" if fault > 2 else "")  # typed for turn 2: still there for turn 2


def test_an_edited_header_stops_the_sync_before_anything_is_written(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    runners = tabs().orders("Ann").table("runners")
    ann.type("Orders Ann", f"D{runners.header_row}", "Speed")
    with pytest.raises(LayoutDriftError, match=r"Orders Ann.*should say 'Pace' but says 'Speed'"):
        poll(sheets, RACE, now=NOW)


def test_the_config_must_name_the_rosters_seats(registered_race: type[RaceRuleset]) -> None:
    rules = RaceRuleset(RaceSettings(), "track 8")
    sheets = MatchSheets.single(("Bo", "Ann"), MemoryBackend())
    with pytest.raises(SeatsMismatchError, match="roster's order"):
        create_match(sheets, as_ruleset(rules), rules.sample_roster(), seed=SEED)


def test_a_match_in_one_spreadsheet_plays_to_its_end_like_the_pure_engine(registered_race: type[RaceRuleset]) -> None:
    sheets, (match,) = new_race(separate=False, settings=RaceSettings(max_turns=6))
    rules = RaceRuleset(RaceSettings(max_turns=6), "track 8")
    state = rules.new_match(rules.sample_roster(), SEED)
    for turn in range(1, 20):
        if rules.window(state) is None:
            break
        paces = {"Ann-1": "run", "Bo-2": "run"} if turn % 2 else {"Ann-2": "run"}
        for runner, pace in paces.items():
            seat, index = runner.split("-")
            type_pace(match, seat, int(index) - 1, pace)
        for seat in SEATS:
            tick_ready(match, seat)
        assert poll(sheets, RACE, now=NOW).resolved
        state = rules.resolve(state, RaceOrders(paces), rules.dice(SEED, state)).state
    final = poll(sheets, RACE, now=NOW)
    assert final.finished and record_of(match).state == state  # type: ignore[attr-defined]
    assert "Race over" in str(match.value("Orders Ann", "A2"))


def test_a_standing_row_stays_from_window_to_window(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, bo) = new_race()
    notes = tabs().orders("Ann").table("notes")
    ann.type("Orders Ann", notes.cell(0, "note"), "sprint at the end")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    assert ann.value("Orders Ann", notes.cell(0, "note")) == "sprint at the end"
    assert ann.value("Orders Ann", notes.cell(0, "window")) == "2"
    assert poll(sheets, RACE, now=NOW).feedback_written == 0  # not stale, nothing to say again
    assert not any("Set aside" in line for line in archive_lines(ann, "Ann"))


def test_a_window_may_wait_for_some_seats_only(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, bo) = new_race(settings=RaceSettings(first_decides=True))
    assert feedback(bo, "Bo", "seat", 0) == "Turn 1 waits for Ann only: Bo need not tick Ready."
    type_pace(bo, "Bo", 0, "run")  # Bo may still give orders; the window does not wait for him
    assert poll(sheets, RACE, now=NOW).waiting_for == ["Ann"]
    assert feedback(bo, "Bo", "seat", 0) == "Turn 1 waits for Ann only: Bo need not tick Ready."
    tick_ready(ann, "Ann")
    report = poll(sheets, RACE, now=NOW)
    assert report.resolved and report.reason == "Ann is ready"


def _whistled_turn() -> tuple[MatchSheets, list[MemoryBackend]]:
    """A race with the whistle: Ann orders both runners, Bo one, both ready; the whistle stops the resolution
    after Ann-1, so Ann-2's and Bo-1's rows are read but not used."""
    sheets, backends = new_race(settings=RaceSettings(whistle=True))
    _board, _engine, ann, bo = backends
    type_pace(ann, "Ann", 0, "run")
    type_pace(ann, "Ann", 1, "walk")
    type_pace(bo, "Bo", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    return sheets, backends


def test_rows_a_resolution_did_not_use_stay_typed_and_say_why(registered_race: type[RaceRuleset]) -> None:
    """Issue 14: a resolution that leaves its window open keeps the rows it says it did not use (Win or Die's
    rows after a reaction), with its reason, and archives every row it read."""
    sheets, (_board, engine, ann, bo) = _whistled_turn()
    report = poll(sheets, RACE, now=NOW)
    assert report.resolved and report.window_key == "1"
    state = record_of(engine).state  # type: ignore[attr-defined]
    assert state.turn == 1 and state.at["Ann-1"] > 0 and state.at["Ann-2"] == 0 and state.whistled
    runners = tabs().orders("Ann").table("runners")
    assert ann.value("Orders Ann", runners.cell(0, "pace")) == ""  # used: cleared
    assert ann.value("Orders Ann", runners.cell(1, "pace")) == "walk"  # unused: still typed
    assert ann.value("Orders Ann", runners.cell(1, "window")) == "1"
    said = "Not resolved, kept for turn 1: the whistle blew after Ann-1 moved."
    assert feedback(ann, "Ann", "runners", 1) == said and feedback(bo, "Bo", "runners", 0) == said
    assert bo.value("Orders Bo", tabs().orders("Bo").table("runners").cell(0, "pace")) == "run"
    assert ann.value("Orders Ann", tabs().orders("Ann").table("seat").cell(0, "ready")) is False
    archived = json.loads(str(ann.value("Copies Ann", "C2")))
    assert {r["subject"] for r in archived["rows"]} == {"Ann-1", "Ann-2", "Ann"}  # all it read: undo, recovery
    assert "    · Ann-2 — Pace: walk — not carried out (the whistle blew after Ann-1 moved): still in your rows" in \
        archive_lines(ann, "Ann")
    assert archived["kept"] == [{"table": "runners", "subject": "Ann-2", "values": {"pace": "walk"}, "note": said},
                                {"table": "runners", "subject": "Ann-1", "values": {},  # cleared: says it was done
                                 "note": "✔ Carried out in turn 1 (the Log says what it did)."}]
    poll(sheets, RACE, now=NOW)  # the next polls keep saying why, before the engine's verdict
    assert feedback(ann, "Ann", "runners", 1) == f"{said} · ✔ Ann-2 will walk"
    assert poll(sheets, RACE, now=NOW).feedback_written == 0
    type_pace(ann, "Ann", 1, "run")  # changed since: an ordinary row now
    poll(sheets, RACE, now=NOW)
    assert feedback(ann, "Ann", "runners", 1) == "✔ Ann-2 will run"
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    state = record_of(engine).state  # type: ignore[attr-defined]
    assert state.turn == 2 and state.at["Ann-2"] > 0 and not state.whistled
    assert ann.value("Orders Ann", runners.cell(1, "pace")) == "" and "Kept" not in feedback(ann, "Ann", "runners", 1)


def test_rows_not_used_keep_their_reason_when_a_cut_resolution_is_completed(
        registered_race: type[RaceRuleset]) -> None:
    sheets, (board, engine, ann, bo) = _whistled_turn()
    board.fail_on_call = len(board.calls) + 2  # the seats are written, the board's write fails: no commit
    with pytest.raises(InjectedFault):
        poll(sheets, RACE, now=NOW)
    board.fail_on_call = None
    report = poll(sheets, RACE, now=NOW)
    assert report.resolved and report.reason == "completing a resolution that was interrupted"
    assert record_of(engine).resolved == 1  # type: ignore[attr-defined]
    assert ann.value("Orders Ann", tabs().orders("Ann").table("runners").cell(1, "pace")) == "walk"
    assert feedback(ann, "Ann", "runners", 1) == "Not resolved, kept for turn 1: the whistle blew after Ann-1 moved."
    assert feedback(bo, "Bo", "runners", 0).startswith("Not resolved, kept for turn 1")


def test_an_adjustment_keeps_saying_why_and_an_undo_puts_back_every_row_read(
        registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, engine, ann, _bo) = _whistled_turn()
    assert poll(sheets, RACE, now=NOW).resolved
    runners = tabs().orders("Ann").table("runners")
    said = "Not resolved, kept for turn 1: the whistle blew after Ann-1 moved."
    adjust_match(sheets, RACE, [{"runner": "Bo-2", "stamina": 0, "reason": "a cramp"}])
    after = feedback(ann, "Ann", "runners", 1)
    assert after.startswith(said), after
    assert not poll(sheets, RACE, now=NOW).resolved
    assert feedback(ann, "Ann", "runners", 1) == after  # the adjustment said at once what the next poll says
    undone = undo_window(sheets, RACE, "the whistle was a mistake")
    # Ann's 2 rows and Ready, Bo's row and Ready come back; the 2 rows kept unused hold what comes back: none is
    # set aside
    assert undone.restored == 5 and undone.set_aside == 0
    assert [ann.value("Orders Ann", runners.cell(i, "pace")) for i in (0, 1)] == ["run", "walk"]
    assert "Taken back by the GM's undo (the whistle was a mistake): your orders for turn 1 are back in your rows, " \
           "Ready unticked, to be read again when turn 1 resolves:" in archive_lines(ann, "Ann")
    assert feedback(ann, "Ann", "runners", 1) != said
    assert record_of(engine).resolved == 0  # type: ignore[attr-defined]


def _both_run(ann: MemoryBackend, bo: MemoryBackend) -> None:
    for index in range(2):
        type_pace(ann, "Ann", index, "run")
        type_pace(bo, "Bo", index, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")


def test_an_undone_window_is_dealt_afresh_and_the_match_still_verifies(registered_race: type[RaceRuleset]) -> None:
    """Issue 20, finding 10: the undone turn's dice were in the log; the same orders typed again must not meet
    the same dice (a player could aim them), and verify still replays every die from the seed."""
    sheets, (_board, engine, ann, bo) = new_race()
    _both_run(ann, bo)
    assert poll(sheets, RACE, now=NOW).resolved
    first = record_of(engine).state  # type: ignore[attr-defined]
    undo_window(sheets, RACE, "Bo ticked Ready too early")
    assert record_of(engine).deal == 1  # type: ignore[attr-defined]
    _both_run(ann, bo)
    assert poll(sheets, RACE, now=NOW).resolved
    again = record_of(engine).state  # type: ignore[attr-defined]
    assert again.at != first.at  # four d6 dealt afresh (this seed's first deal and second differ)
    rules = RaceRuleset(RaceSettings(), "track 8")
    start = rules.new_match(rules.sample_roster(), SEED)
    orders = RaceOrders({r: "run" for r in ("Ann-1", "Ann-2", "Bo-1", "Bo-2")})
    assert first == rules.resolve(start, orders, rules.dice(SEED, start)).state  # deal 0: the plain formula
    assert again == rules.resolve(start, orders, rules.dice(SEED, start).dealt(1)).state
    check = replay_states(match_replay(sheets, RACE))
    assert check.difference is None and check.resolutions == 1 and check.rolls == 4


def test_rows_typed_since_an_undone_turn_stay_in_the_archive_after_the_next_resolutions(
        registered_race: type[RaceRuleset]) -> None:
    """Issue 20, finding 3: what an undo sets aside is never written over, and the seat is told where it is."""
    sheets, (_board, _engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    type_pace(ann, "Ann", 1, "walk")  # Ann plans turn 2
    undone = undo_window(sheets, RACE, "Bo ticked too early")
    assert undone.set_aside == 1
    said = ("Your orders for turn 2, set aside by the GM's undo of turn 1; no longer in your rows: type them again "
            "when turn 2 opens:")
    lines = archive_lines(ann, "Ann")
    assert lines[lines.index(said) + 1] == "    · Ann-2 — Pace: walk"
    assert any("tab 'Archive Ann' lists them" in str(v) for v in ann.tabs["View Ann"].values())  # told where
    assert not any("Archive Ann" in str(v) for v in bo.tabs["View Bo"].values())
    for turn in (1, 2):  # the next resolutions, and another row set aside, write after it, never over it
        if turn == 2:
            ann.type("Orders Ann", tabs().orders("Ann").table("runners").cell(0, "window"), "9")
            type_pace(ann, "Ann", 0, "run")
            assert not poll(sheets, RACE, now=NOW).resolved
        tick_ready(ann, "Ann")
        tick_ready(bo, "Bo")
        assert poll(sheets, RACE, now=NOW).resolved
    lines = archive_lines(ann, "Ann")
    assert lines[lines.index(said) + 1] == "    · Ann-2 — Pace: walk"
    assert any(t.startswith("Set aside while turn 2 was played") for t in lines)
    # turn 1 read; its undo; the row set aside; turn 1 read again; the pasted row; turn 2 read (Ready alone)
    assert [t for t in lines if not t.startswith("    · ")] == [
        "Turn 1 resolved with what you typed:",
        "Taken back by the GM's undo (Bo ticked too early): your orders for turn 1 are back in your rows, Ready "
        "unticked, to be read again when turn 1 resolves:", said, "Turn 1 resolved with what you typed:",
        "Set aside while turn 2 was played, as written for window “9”; no longer in your rows: type them again in "
        "the window they are for:", "Turn 2 resolved with what you typed:"]
    copy = json.loads(str(ann.value("Copies Ann", f"A{2 + lines.index(said)}")))  # the hidden copy, in its row
    assert copy == [{"table": "runners", "subject": "Ann-2", "window": "2", "values": {"pace": "walk"}}]


def test_rows_set_aside_by_a_resolution_cut_mid_write_stay_in_the_archive(registered_race: type[RaceRuleset]) -> None:
    """Issue 20, finding 3: the completing sync does not write over what the cut one set aside."""
    sheets, (board, _engine, ann, bo) = new_race()
    ann.type("Orders Ann", tabs().orders("Ann").table("runners").cell(1, "window"), "7")  # a row pasted back
    type_pace(ann, "Ann", 1, "fly")
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    board.fail_on_call = len(board.calls) + 2  # the seats are written, the board's write fails: no commit
    with pytest.raises(InjectedFault):
        poll(sheets, RACE, now=NOW)
    board.fail_on_call = None
    assert poll(sheets, RACE, now=NOW).resolved
    lines = archive_lines(ann, "Ann")
    assert lines == ["Turn 1 resolved with what you typed:", "    · Ann-1 — Pace: run", "    · Ann — Ready ✔",
                     "Set aside while turn 1 was played, as written for window “7”; no longer in your rows: type "
                     "them again in the window they are for:", "    · Ann-2 — Pace: fly"]


def test_two_rows_set_aside_one_poll_after_the_other_are_both_kept(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    runners = tabs().orders("Ann").table("runners")
    for index, pace in ((0, "run"), (1, "walk")):
        ann.type("Orders Ann", runners.cell(index, "window"), "5")
        type_pace(ann, "Ann", index, pace)
        poll(sheets, RACE, now=NOW)
    lines = archive_lines(ann, "Ann")
    assert lines[1::2] == ["    · Ann-1 — Pace: run", "    · Ann-2 — Pace: walk"] and len(lines) == 4


def _engine_without_archived(engine: MemoryBackend, resolved: int) -> None:
    """The engine's history rows as a version of sheets-gm that kept no ``archived`` copy wrote them."""
    for number in range(1, resolved + 1):
        cell = f"B{HISTORY_FIRST_ROW + number - 1}"
        entry = json.loads(str(engine.value("Engine", cell)))
        entry.pop("archived", None)
        engine.type("Engine", cell, json.dumps(entry))


def _as_hidden_columns_layout(seats: dict[str, MemoryBackend], engine: MemoryBackend, resolved: int) -> None:
    """Turn each seat's archive back into the layout the sync wrote before the Copies tab: the copies in hidden
    columns of the Archive (C: each line's rows, D:F: the pending row 2 and the history rows from row 5), no Copies
    tab, the engine's history rows without their ``archived`` copy."""
    for seat, backend in seats.items():
        copies = backend.tabs.pop(f"Copies {seat}")
        rows, _cols = backend.sizes.pop(f"Copies {seat}")
        backend.sizes[f"Archive {seat}"] = (rows, 6)
        archive = backend.tabs[f"Archive {seat}"]
        for c, header in enumerate(("Rows named (JSON)", "Window key", "Rows read (JSON)", "Lines"), start=2):
            archive[(0, c)] = header
        for (r, c), value in copies.items():
            if r > 0:
                archive[(r, c + 2)] = value
        for number in range(1, resolved + 1):
            entry = json.loads(str(engine.value("Engine", f"B{HISTORY_FIRST_ROW + number - 1}")))
            archive[(3 + number, 3)] = entry["window"]
            archive[(3 + number, 4)] = entry["archived"][seat]
    _engine_without_archived(engine, resolved)


def test_repair_moves_an_archive_of_the_first_layout_and_undo_still_reads_it(
        registered_race: type[RaceRuleset]) -> None:
    """A match created before the archive read as sentences (JSON in A:C): its copies move to the engine's history
    and the hidden Copies tab, the rows it had set aside to entries."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    read = engine_archived(engine, 1, "Ann")
    text = json.dumps(read)
    _as_hidden_columns_layout({"Ann": ann, "Bo": bo}, engine, 1)
    for cell in ("A2", "B2", "C2", "B3", "C3", "B4", "C4", "D2", "E2", "F2", "D5", "E5", "C1", "D1", "E1", "F1"):
        ann.type("Archive Ann", cell, "")
    fly = {"table": "runners", "subject": "Ann-2", "window": "7", "values": {"pace": "fly"}}
    stale = {"window": "1", "stale": [fly]}
    for cell, value in (("A2", "1"), ("B2", text), ("C2", json.dumps(stale)), ("A4", "Window"), ("A5", "1"),
                        ("B5", text)):
        ann.type("Archive Ann", cell, value)  # the first layout: pending row 2, stale JSON in C, history from 5
    report = repair_match(sheets, RACE)
    assert any("'Archive Ann'" in n and "moved to the new archive layout" in n for n in report.notes)
    assert archive_lines(ann, "Ann") == ["Set aside before this archive was laid out anew; no longer in your rows: "
                                         "type them again in the window they are for:", "    · Ann-2 — Pace: fly"]
    assert engine_archived(engine, 1, "Ann") == read  # moved to the engine's history row
    assert json.loads(str(ann.value("Copies Ann", "A2"))) == [fly]  # the entry's copy, in its row
    assert not any(str(v).startswith(("{", "[")) for (_r, c), v in ann.tabs["Archive Ann"].items() if c < 2)
    assert undo_window(sheets, RACE, "checking the move").restored == 3
    assert ann.value("Orders Ann", tabs().orders("Ann").table("runners").cell(0, "pace")) == "run"


def test_repair_moves_the_hidden_columns_of_an_archive_off_the_tab_players_read(
        registered_race: type[RaceRuleset]) -> None:
    """The layout before this one kept the sync's copies in hidden columns C:F of the Archive: repair moves them once
    (each line's copy to the Copies tab, in the same row; the pending row; each resolution's rows read to the engine's
    history, where undo reads them), losing nothing, and the Archive holds sentences only."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    ann.type("Orders Ann", tabs().orders("Ann").table("runners").cell(1, "window"), "7")  # a row pasted back
    type_pace(ann, "Ann", 1, "fly")
    poll(sheets, RACE, now=NOW)  # set aside: an entry and its copy
    lines = archive_lines(ann, "Ann")
    pending = ann.value("Copies Ann", "C2")
    copy = ann.value("Copies Ann", f"A{2 + len(lines) - 2}")
    read = engine_archived(engine, 1, "Ann")
    _as_hidden_columns_layout({"Ann": ann, "Bo": bo}, engine, 1)
    with pytest.raises(SheetError, match="repair"):
        poll(sheets, RACE, now=NOW)  # the sync names the fix; nothing written
    report = repair_match(sheets, RACE)
    assert any("'Archive Ann'" in n and "moved to the new archive layout" in n for n in report.notes)
    assert archive_lines(ann, "Ann") == lines
    assert ann.sizes["Archive Ann"][1] == 2  # laid out with its two columns of sentences (Google drops the rest)
    assert not any(str(v).startswith(("{", "[")) for (_r, c), v in ann.tabs["Archive Ann"].items() if c < 2)
    assert ann.value("Copies Ann", "C2") == pending and ann.value("Copies Ann", "D2") == len(lines)
    assert ann.value("Copies Ann", f"A{2 + len(lines) - 2}") == copy and "fly" in str(copy)
    assert engine_archived(engine, 1, "Ann") == read
    assert not poll(sheets, RACE, now=NOW).resolved  # the sync reads the moved match
    assert archive_lines(ann, "Ann") == lines
    assert not any("moved to the new archive" in n for n in repair_match(sheets, RACE).notes)  # once
    assert undo_window(sheets, RACE, "checking the move").restored == 3
    assert ann.value("Orders Ann", tabs().orders("Ann").table("runners").cell(0, "pace")) == "run"


def test_undo_of_a_match_whose_history_kept_no_copy_names_repair(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    _engine_without_archived(engine, 1)
    with pytest.raises(BetweenWindowsError, match="run sheets-gm repair"):
        undo_window(sheets, RACE, "no copy")


def test_repair_lays_a_deleted_copies_tab_out_again_counting_the_archive_lines(
        registered_race: type[RaceRuleset]) -> None:
    """The hidden Copies tab deleted by hand: repair writes its pending row afresh (the last resolution's mark, the
    lines the Archive holds), so the next entry goes after the last one, never over it; undo reads the engine."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, _engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    assert poll(sheets, RACE, now=NOW).resolved
    lines = archive_lines(ann, "Ann")
    del ann.tabs["Copies Ann"], ann.sizes["Copies Ann"]
    report = repair_match(sheets, RACE)
    assert any("'Copies Ann' (hidden) was missing" in n for n in report.notes), report.notes
    assert ann.value("Copies Ann", "D2") == len(lines)
    ann.type("Orders Ann", tabs().orders("Ann").table("runners").cell(1, "window"), "7")
    type_pace(ann, "Ann", 1, "fly")
    assert not poll(sheets, RACE, now=NOW).resolved  # not taken for a copy older than the last resolution
    assert archive_lines(ann, "Ann")[:len(lines)] == lines and "Ann-2 — Pace: fly" in archive_lines(ann, "Ann")[-1]
    assert undo_window(sheets, RACE, "after the repair").restored == 3


def test_repair_copies_a_renamed_copies_tab_back_with_the_copies_of_rows_set_aside(
        registered_race: type[RaceRuleset]) -> None:
    """The hidden Copies tab renamed by hand (found by a random run of the lifecycle steps: the copies of the rows an
    undo had set aside were gone after repair): repair lays it out again and copies back, from the renamed tab, the
    copy of each row its Archive names, in that line's row, and the count of the Archive's lines."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, _engine, ann, _bo) = new_race()
    ann.type("Orders Ann", tabs().orders("Ann").table("runners").cell(1, "window"), "7")
    type_pace(ann, "Ann", 1, "fly")
    poll(sheets, RACE, now=NOW)  # written for window 7: set aside, its copy in the Copies tab
    copies = {k: v for k, v in ann.tabs["Copies Ann"].items() if k[1] == 0 and k[0] >= 1 and v}
    assert any("fly" in str(v) for v in copies.values()), copies
    count = ann.value("Copies Ann", "D2")
    ann.tabs["Copies Ann (old)"] = ann.tabs.pop("Copies Ann")
    ann.sizes["Copies Ann (old)"] = ann.sizes.pop("Copies Ann")
    report = repair_match(sheets, RACE)
    assert any("copied back from tab 'Copies Ann (old)' (a renamed copy)" in n for n in report.notes), report.notes
    assert not any("'Copies Ann (old)' in Ann is no part of the match's layout" in n for n in report.notes)
    assert {k: v for k, v in ann.tabs["Copies Ann"].items() if k[1] == 0 and k[0] >= 1 and v} == copies
    assert str(ann.value("Copies Ann", "D2")) == str(count)
    assert not poll(sheets, RACE, now=NOW).resolved  # the repaired match syncs


def test_repair_copies_back_a_renamed_copies_tab_s_pending_row_before_it_says_the_tab_may_go(
        registered_race: type[RaceRuleset]) -> None:
    """The pending row of a renamed Copies tab (what the last resolution read, and the notes of the rows it kept) was
    written afresh by repair, which then said the renamed tab, its only copy, may go (issue 38)."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, _engine, ann, bo) = new_race()
    type_pace(ann, "Ann", 1, "fly")  # refused: kept, and the resolution's pending row notes why
    for seat, player in (("Ann", ann), ("Bo", bo)):
        player.type(f"Orders {seat}", tabs().orders(seat).table("seat").cell(0, "ready"), True)
    assert poll(sheets, RACE, now=NOW, force=True).resolved
    pending = (ann.value("Copies Ann", "B2"), ann.value("Copies Ann", "C2"))
    assert pending[0] and '"rows"' in str(pending[1]), pending
    ann.tabs["Copies Ann (old)"] = ann.tabs.pop("Copies Ann")
    ann.sizes["Copies Ann (old)"] = ann.sizes.pop("Copies Ann")
    report = repair_match(sheets, RACE)
    assert any("copied back from tab 'Copies Ann (old)' (a renamed copy), which may go" in n for n in report.notes)
    assert (ann.value("Copies Ann", "B2"), ann.value("Copies Ann", "C2")) == pending  # nothing only the copy holds


def test_repair_keeps_a_renamed_archive_that_holds_more_than_its_sentences(registered_race: type[RaceRuleset]) -> None:
    """A renamed Archive tab is copied back by its sentences (columns A and B); one holding cells right of them (an
    earlier layout's copies of the rows) is never said to be a tab that may go: they are its only copy."""
    from sheets_gm.sync.life.repair import repair_match

    sheets, (_board, _engine, ann, _bo) = new_race()
    ann.type("Orders Ann", tabs().orders("Ann").table("runners").cell(1, "window"), "7")
    type_pace(ann, "Ann", 1, "fly")
    poll(sheets, RACE, now=NOW)  # set aside: an entry of the Archive
    lines = archive_lines(ann, "Ann")
    assert lines
    ann.tabs["Archive Ann (old)"] = ann.tabs.pop("Archive Ann")
    ann.sizes["Archive Ann (old)"] = ann.sizes.pop("Archive Ann")
    ann.type("Archive Ann (old)", "D2", '{"rows": "a copy kept nowhere else"}')
    report = repair_match(sheets, RACE)
    said = next(n for n in report.notes if "copied back from tab 'Archive Ann (old)'" in n)
    assert "may go" not in said and "keep it until you have moved what you need" in said, said
    assert archive_lines(ann, "Ann") == lines
