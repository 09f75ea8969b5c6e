"""GvG through gspread against the fake Google, on the one sync: a whole match equals the engine's and costs one
read per spreadsheet per poll (and one write each per resolution); a fault at any call of a resolution is retried
and the turn resolved once; an outage past the retries stops the poll and the next one completes the turn; a huge
cell does not break that; init shares each spreadsheet with the right people only.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import create_ruleset, get_ruleset, sheet_spec
from sheets_gm.sheets.backend import SheetUnavailableError
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.retry import RetryPolicy
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_record import HISTORY_FIRST_ROW, parse_match_record
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import (
    BATCH_UPDATE,
    GET,
    READ,
    WRITE,
    FakeSpreadsheet,
    FaultKind,
    GoogleApiFake,
    copied,
    fake_client,
)
from tests.made import made_on_fake
from tests.matchfiles import SEED, TEAMS, bots, engine_match, roster, state_of, sync
from tests.quick import soak_but

GVG = get_ruleset("gvg")
ENGINE_TAB = sheet_spec("gvg").tabs.engine
#: The four spreadsheets of a match, by role (the keys are what Google puts in the URL).
KEYS = {
    "board": "1BoardKey_sheetsgm_test_0000000000000000000",
    "engine": "1EngineKey_sheetsgm_test_000000000000000000",
    "red": "1RedOrdersKey_sheetsgm_test_000000000000000",
    "blue": "1BlueOrdersKey_sheetsgm_test_00000000000000",
}
ROLE_OF = {key: role for role, key in KEYS.items()}
_KEY_IN_URL = re.compile(r"/spreadsheets/([^/:?]+)")


def policy(clock: FakeClock, *, deadline: float = 60, max_attempts: int | None = None) -> RetryPolicy:
    return RetryPolicy(deadline=deadline, max_attempts=max_attempts, time=clock.time, sleep=clock.sleep,
                       random=lambda: 0.5)


#: Where the tabs' ids are kept between the backends of one test, as ``sync`` keeps them between processes
#: (``.sheets-gm/<config>.sheet-ids.json``): a write that must name a tab by its id asks Google for them only
#: when they are not known yet, or gone stale.
SHEET_IDS = Path(tempfile.mkdtemp(prefix="sheets-gm-test-ids-")) / "sheet-ids.json"


def open_match(retry: RetryPolicy) -> MatchSheets:
    """The match's four spreadsheets through one real gspread client (plain HTTPClient)."""
    client = fake_client()
    backend = {role: GoogleSheetBackend(client, key, retry=retry, title=role, sheet_ids=SHEET_IDS)
               for role, key in KEYS.items()}
    return MatchSheets(TEAMS, backend["board"], backend["engine"], (backend["red"], backend["blue"]), None)


def new_spreadsheets(fake: GoogleApiFake) -> None:
    for role, key in KEYS.items():
        fake.create_spreadsheet(key, f"GvG test · {role}", ("Sheet1",))


def create(fake: GoogleApiFake, retry: RetryPolicy, size: int = 5, settings: GvgSettings | None = None) -> MatchSheets:
    """A new GvG match of ``size`` a team in the fake's four spreadsheets, opened through ``retry``: made once a test
    process for the state the fake starts from, the fake given a copy of what it held then (``tests.made``)."""
    chosen = settings or GvgSettings()

    def make(_into: Path) -> None:
        new_spreadsheets(fake)
        create_match(open_match(retry), create_ruleset("gvg", chosen), roster(size), seed=SEED)

    with tempfile.TemporaryDirectory() as files:  # the match is all in the fake: no file is made
        made_on_fake(fake, Path(files), ("test_sync_google.create", size, chosen), make)
    return open_match(retry)


def calls_by_spreadsheet(fake: GoogleApiFake) -> Counter[tuple[str, str]]:
    """(endpoint, role) -> calls, from the fake's log (faulted calls included)."""
    out: Counter[tuple[str, str]] = Counter()
    for call in fake.log:
        m = _KEY_IN_URL.search(call.url)
        out[(call.endpoint, ROLE_OF[m.group(1)] if m else "?")] += 1
    return out


def cells(fake: GoogleApiFake) -> dict[str, dict[str, dict[tuple[int, int], Any]]]:
    """Every cell value of every tab of every spreadsheet, as the API stores it (formula or not)."""
    return {
        role: {
            sheet.title: {pos: c["userEnteredValue"] for pos, c in sheet.cells.items() if "userEnteredValue" in c}
            for sheet in fake.spreadsheets[key].sheets
        }
        for role, key in KEYS.items()
    }


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        yield f
    assert not f.violations, f.violations


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize(("size", "max_turns"), [(5, None), (1, 15)], ids=["5v5-full", "1v1-15-turns"])
def test_a_whole_match_through_gspread_equals_the_engine_and_costs_one_call_per_spreadsheet(
    fake: GoogleApiFake, size: int, max_turns: int | None
) -> None:
    settings = GvgSettings() if max_turns is None else GvgSettings(max_turns=max_turns)
    clock = FakeClock()
    sheets = create(fake, policy(clock), size, settings)
    players = bots()
    idle_bytes: list[int] = []
    turns = 0
    while True:
        fake.reset_counters()
        idle = sync(sheets)
        assert not idle.resolved
        assert calls_by_spreadsheet(fake) == Counter({(READ, role): 1 for role in KEYS}), f"idle poll, {idle.window}"
        idle_bytes.append(fake.byte_counts(READ)[1])

        type_bot_orders(sheets, GVG, players)
        fake.reset_counters()
        report = sync(sheets)
        assert report.resolved and report.window_key == str(turns + 1), report
        # A team's write clears the rows it carried out only where they still hold what was read (a findReplace:
        # a save made meanwhile stays), so it is one spreadsheets.batchUpdate; Google counts it as one write.
        calls = calls_by_spreadsheet(fake)
        assert {(e, r): n for (e, r), n in calls.items() if e == READ} == {(READ, role): 1 for role in KEYS}
        writes = Counter({role: n for (e, role), n in calls.items() if e in (WRITE, BATCH_UPDATE)})
        assert writes == Counter(list(KEYS)) and not calls[(BATCH_UPDATE, "board")] + calls[(BATCH_UPDATE, "engine")], \
            f"resolution of {report.window}: {calls}"
        assert fake.calls(GET) == 0 and fake.calls() == 8
        turns += 1
        if report.finished:
            break

    state, direct_turns = engine_match(size, settings)
    assert state_of(sheets).to_json() == state.to_json()
    assert turns == direct_turns
    assert state.finished
    if max_turns is not None:
        assert turns == max_turns
    assert clock.sleeps == []  # no fault, no retry
    # bytes read per poll do not grow with the turn: measured from the second poll, the first after a resolution (the
    # first has an empty Log; a poll reads the Log's last block of lines, up to 16, to find a line typed below it)
    assert max(idle_bytes[1:]) <= idle_bytes[1] * 1.25, idle_bytes
    formulas = [(role, tab, pos) for role, tabs in cells(fake).items() for tab, found in tabs.items()
                for pos, value in found.items() if "formulaValue" in value]
    assert formulas == []


def test_a_finished_match_is_only_read(fake: GoogleApiFake) -> None:
    sheets = create(fake, policy(FakeClock()), 1, GvgSettings(max_turns=2))
    assert sync(sheets, force=True).resolved
    assert sync(sheets, force=True).finished
    fake.reset_counters()
    report = sync(sheets, force=True)
    assert report.finished and not report.resolved
    assert calls_by_spreadsheet(fake) == Counter({(READ, role): 1 for role in KEYS})


# --------------------------------------------------------------------------- faults at every call of a resolution

#: The calls of a resolution poll, in order: one read per spreadsheet (the board's last: the Log is read from where
#: the engine says it ends), then one write per spreadsheet (teams first, the engine tab last: the commit). A team's
#: write clears the rows it carried out only where they still hold what was read (a save made meanwhile stays): one
#: spreadsheets.batchUpdate.
POSITIONS = [(READ, role) for role in ("red", "blue", "engine", "board")] + [
    (BATCH_UPDATE, role) for role in ("red", "blue")] + [(WRITE, role) for role in ("board", "engine")]
#: Each fault kind, and the Retry-After it carries (503 asks for 7 s).
FAULTS = [
    (FaultKind.RATE_LIMIT_JSON, None),
    (FaultKind.RATE_LIMIT_HTML, None),
    (FaultKind.REQUEST_TIMEOUT, None),
    (FaultKind.INTERNAL, None),
    (FaultKind.UNAVAILABLE, 7.0),
    (FaultKind.CONNECTION_RESET, None),
]
TURNS_BEFORE = 3  # resolved before the faulty resolution, so the state is not the trivial first one


@dataclass(frozen=True)
class Prepared:
    """The spreadsheets just before a resolution (orders typed, both teams ready) and the fault-free outcome."""

    before: dict[str, FakeSpreadsheet]
    after: dict[str, dict[str, dict[tuple[int, int], Any]]]


@pytest.fixture(scope="module")
def prepared() -> Prepared:
    with GoogleApiFake() as fake:
        sheets = create(fake, policy(FakeClock()))
        players = bots()
        for _ in range(TURNS_BEFORE):
            type_bot_orders(sheets, GVG, players)
            assert sync(sheets).resolved
        typed = type_bot_orders(sheets, GVG, players)
        before = copied(fake.spreadsheets)
        fake.reset_counters()
        report = sync(sheets)
        assert report.resolved and report.window_key == str(TURNS_BEFORE + 1)
        order = []
        for call in fake.log:
            m = _KEY_IN_URL.search(call.url)
            assert m is not None
            order.append((call.endpoint, ROLE_OF[m.group(1)]))
        assert order == POSITIONS  # the positions the fault tests walk through
        after = cells(fake)
        assert not fake.violations
        # The orders typed are the orders resolved (so "the same cells" below means "no order lost").
        engine = fake.spreadsheets[KEYS["engine"]].sheet(ENGINE_TAB)
        history = json.loads(str(engine.value(HISTORY_FIRST_ROW - 1 + TURNS_BEFORE, 1)))  # 0-based row
        assert history["resolution"] == TURNS_BEFORE + 1
        rules = create_ruleset("gvg")
        want = rules.orders_codec.to_json(rules.merge_orders(typed))
        assert history["orders"] == want and len(want["players"]) >= 5
    return Prepared(before, after)


def writes_and_reads_of(calls: Counter[tuple[str, str]]) -> Counter[tuple[str, str]]:
    """``calls`` (endpoint, role) as requests Google's quota counts: ('read', role) or ('write', role)."""
    out: Counter[tuple[str, str]] = Counter()
    for (endpoint, role), n in calls.items():
        out[("read" if endpoint in (READ, GET) else "write", role)] += n
    return out


def writes_and_reads(fake: GoogleApiFake) -> Counter[tuple[str, str]]:
    """The fake's calls since its counters were reset, as :func:`writes_and_reads_of` counts them."""
    return writes_and_reads_of(calls_by_spreadsheet(fake))


def restore(fake: GoogleApiFake, prepared: Prepared) -> None:
    fake.spreadsheets.update(copied(prepared.before))


def faulted_calls(fake: GoogleApiFake) -> list[tuple[str, str]]:
    out = []
    for call in fake.log:
        if call.status != 200:
            m = _KEY_IN_URL.search(call.url)
            assert m is not None
            out.append((call.endpoint, ROLE_OF[m.group(1)]))
    return out


def engine_turn(fake: GoogleApiFake) -> int:
    """The turn the engine tab has open (its resolutions + 1), read from the fake's storage (no API call)."""
    return parse_match_record(fake.values(KEYS["engine"], ENGINE_TAB)[1:], "engine").resolved + 1


def assert_resolved_once_like_the_fault_free_run(fake: GoogleApiFake, prepared: Prepared) -> None:
    """Every cell of the four spreadsheets equals the fault-free resolution's: the same state
    (so no order was lost), the turn counter moved once, the log and archives written once."""
    assert cells(fake) == prepared.after, "the cells differ from the fault-free resolution"
    assert engine_turn(fake) == TURNS_BEFORE + 2


#: Every kind at every call; and a write whose answer is lost after Google applied it (the
#: connection dropped on the way back), at each write.
RETRIED = [(kind, retry_after, position, False) for kind, retry_after in FAULTS for position in range(8)] + [
    (FaultKind.CONNECTION_RESET, None, position, True) for position in range(4, 8)
]


def _diagonal(kind: FaultKind, position: int) -> bool:
    """Whether the test command runs the fault ``kind`` at the call ``position``: the kinds taken in turn along the
    calls, so that the quick run fails every call and meets every kind (the soak run: every kind at every call)."""
    return FAULTS[position % len(FAULTS)][0] is kind


@pytest.mark.parametrize(
    ("kind", "retry_after", "position", "after_apply"),
    soak_but(RETRIED, *(c for c in RETRIED if c[3] or _diagonal(c[0], c[2]))),
    ids=[f"{k.value}-{'-'.join(POSITIONS[p]).split('.')[-1]}{'-answer-lost' if a else ''}" for k, _, p, a in RETRIED],
)
def test_a_fault_at_any_call_of_a_resolution_is_retried_and_the_turn_resolved_once(
    fake: GoogleApiFake, prepared: Prepared, kind: FaultKind, retry_after: float | None, position: int,
    after_apply: bool,
) -> None:
    """One failed attempt at any call (a write's answer lost after it landed, too): the poll
    retries that call alone, after the server's Retry-After if it gave one, and resolves."""
    restore(fake, prepared)
    clock = FakeClock()
    sheets = open_match(policy(clock))
    fault = fake.inject(kind, at=position + 1, retry_after=retry_after, after_apply=after_apply)
    report = sync(sheets)
    assert fault.fired == 1
    assert faulted_calls(fake) == [POSITIONS[position]]
    assert report.resolved and report.window_key == str(TURNS_BEFORE + 1) and report.write_calls == 4
    expected = Counter({p: 1 for p in POSITIONS}) + Counter({POSITIONS[position]: 1})
    assert calls_by_spreadsheet(fake) == expected  # the faulty call once more, nothing else
    assert fake.calls(GET) == 0
    assert len(clock.sleeps) == 1
    if retry_after is not None:
        assert clock.sleeps[0] >= retry_after
    assert_resolved_once_like_the_fault_free_run(fake, prepared)


OUTAGES = (
    [(kind, retry_after, position, "5s-deadline", False) for kind, retry_after in FAULTS for position in range(8)]
    + [(FaultKind.INTERNAL, None, position, "3-attempts", False) for position in range(8)]
    + [(FaultKind.CONNECTION_RESET, None, position, "3-attempts", True) for position in range(4, 8)]
)


def _capped_quick(limit: str, kind: FaultKind, position: int) -> bool:
    """Whether the test command runs an outage of ``kind`` at the call ``position`` under ``limit``: past the deadline,
    the kinds taken in turn along the calls (``_diagonal``: every call fails once); past the attempt cap, the first
    read and the first write (the soak run: every kind at every call, under each limit)."""
    return _diagonal(kind, position) if limit == "5s-deadline" else position in (0, 4)


@pytest.mark.parametrize(
    ("kind", "retry_after", "position", "limit", "after_apply"),
    soak_but(OUTAGES, *(c for c in OUTAGES if c[4] or _capped_quick(c[3], c[0], c[2]))),
    ids=[f"{k.value}-{'-'.join(POSITIONS[p]).split('.')[-1]}-{lim}{'-answer-lost' if a else ''}"
         for k, _, p, lim, a in OUTAGES],
)
def test_a_fault_that_outlasts_the_retries_stops_the_poll_and_the_next_poll_completes_the_turn(
    fake: GoogleApiFake, prepared: Prepared, kind: FaultKind, retry_after: float | None, position: int, limit: str,
    after_apply: bool,
) -> None:
    """Google keeps failing one call past the retry deadline (or the attempt cap): the poll stops
    with SheetUnavailableError and calls nothing after it; once Google is back, the next poll
    completes the turn (from the pending archive where the orders were already cleared)."""
    restore(fake, prepared)
    clock = FakeClock()
    retry = policy(clock, max_attempts=3) if limit == "3-attempts" else policy(clock, deadline=5)
    sheets = open_match(retry)
    fake.inject(kind, at=position + 1, times=None, retry_after=retry_after, after_apply=after_apply)
    start = clock.now
    with pytest.raises(SheetUnavailableError, match=r"failed \d+ times? over"):
        sync(sheets)
    assert set(faulted_calls(fake)) == {POSITIONS[position]}
    if limit == "3-attempts":
        assert len(faulted_calls(fake)) == 3
    elif retry_after is not None:  # the server asks for more than the deadline leaves: no second attempt
        assert len(faulted_calls(fake)) == 1 and clock.sleeps == []
    else:
        assert len(faulted_calls(fake)) > 2
    assert clock.now - start <= retry.deadline
    seen = calls_by_spreadsheet(fake)
    assert all(seen[p] == 0 for p in POSITIONS[position + 1:]), "a call after the failing one was made"
    committed = after_apply and POSITIONS[position] == (WRITE, "engine")
    assert engine_turn(fake) == TURNS_BEFORE + (2 if committed else 1)

    fake.clear_faults()
    fake.reset_counters()
    report = sync(sheets)  # the outage is over
    if committed:  # the commit landed though its answer was lost: the next sync finds the turn resolved
        assert not report.resolved and report.write_calls == 0
    else:
        assert report.resolved and report.window_key == str(TURNS_BEFORE + 1)
        # one read and one write each (a team written before the outage has nothing left to clear: a values write)
        assert writes_and_reads(fake) == writes_and_reads_of(Counter({p: 1 for p in POSITIONS}))
    assert_resolved_once_like_the_fault_free_run(fake, prepared)
    again = sync(sheets)  # and a further sync does nothing
    assert not again.resolved and again.window_key == str(TURNS_BEFORE + 2) and again.write_calls == 0
    assert cells(fake) == prepared.after


@pytest.mark.parametrize("position", range(4, 8), ids=[f"{role}-write-fails" for _, role in POSITIONS[4:]])
def test_a_huge_order_cell_does_not_break_the_completion_of_an_interrupted_resolution(
    fake: GoogleApiFake, position: int
) -> None:
    """A player pastes 50,000 characters (the most a Google cell holds) into their order: the
    consumed orders archived with it must still fit a cell and read back, so the next sync can
    complete a resolution interrupted after the team's write."""
    clock = FakeClock()
    sheets = create(fake, policy(clock, max_attempts=2), 2)
    huge = "F7 " + "🐠" * 49_997
    fake.set_values(KEYS["red"], "'Orders red'!D5:E5", [[huge, "x" * 50_000]], user_entered=False)
    fake.set_values(KEYS["red"], "'Orders red'!D6", [["G4"]])
    fake.set_values(KEYS["blue"], "'Orders blue'!D5:F5", [["=A1", "🍁" * 50_000, " " * 49_990 + "f 7"]])
    reference = copied(fake.spreadsheets)
    assert sync(sheets, force=True).resolved
    want = cells(fake)

    fake.spreadsheets.update(reference)
    fake.inject(FaultKind.INTERNAL, at=position + 1, times=None)
    with pytest.raises(SheetUnavailableError):
        sync(sheets, force=True)
    fake.clear_faults()
    report = sync(sheets, force=True)
    assert report.resolved and report.window_key == "1"
    assert cells(fake) == want


def test_init_shares_each_spreadsheet_with_the_right_people_only(fake: GoogleApiFake) -> None:
    from sheets_gm.sync.life.share import share_match, sharing_plan

    clock = FakeClock()
    sheets = create(fake, policy(clock), size=2)
    players = roster(2).members
    emails = {team: tuple(f"{p.name}@example.com" for p in players if p.seat == team) for team in sheets.seats}
    lines = share_match(sharing_plan(sheets, emails, gm=["gm@example.com"]), notify=False)
    assert len([line for line in lines if line.startswith("Shared: ")]) == 5
    assert len([line for line in lines if line.startswith("Locked: ")]) == 4  # each spreadsheet, before its grants
    assert not any(fake.spreadsheets[key].writers_can_share for key in KEYS.values())

    def granted(role: str) -> dict[str, str]:
        return {p["emailAddress"]: p["role"] for p in fake.spreadsheets[KEYS[role]].permissions}

    assert granted("board") == {"gm@example.com": "writer", "red0@example.com": "reader", "red1@example.com": "reader",
                                "blue0@example.com": "reader", "blue1@example.com": "reader"}
    assert granted("red") == {"red0@example.com": "writer", "red1@example.com": "writer", "gm@example.com": "writer"}
    assert granted("blue") == {"blue0@example.com": "writer", "blue1@example.com": "writer",
                               "gm@example.com": "writer"}
    assert granted("engine") == {"gm@example.com": "writer"}


def _as_hidden_columns_layout(fake: GoogleApiFake, role: str, seat: str, resolved: int) -> None:
    """Turn ``seat``'s archive on Google back into the layout the sync wrote before the Copies tab: the copies in
    hidden columns C:F of the Archive (C: each line's rows; D:F: the pending row 2 and a history row per resolution
    from row 5), no Copies tab, the engine's history rows without their ``archived`` copy."""
    ss = fake.spreadsheets[KEYS[role]]
    copies = ss.sheet(f"Copies {seat}")
    ss.sheets.remove(copies)
    ss.renumber()
    archive = ss.sheet(f"Archive {seat}")
    archive.properties["gridProperties"]["columnCount"] = 6
    for (r, c), cell in copies.cells.items():
        if r > 0 and "userEnteredValue" in cell:
            archive.cells[(r, c + 2)] = {"userEnteredValue": dict(cell["userEnteredValue"])}
    engine = fake.spreadsheets[KEYS["engine"]].sheet(ENGINE_TAB)
    for number in range(1, resolved + 1):
        row = HISTORY_FIRST_ROW - 1 + number - 1
        entry = json.loads(str(engine.value(row, 1)))
        archive.cells[(3 + number, 3)] = {"userEnteredValue": {"stringValue": entry["window"]}}
        archive.cells[(3 + number, 4)] = {"userEnteredValue": {"stringValue": entry["archived"][seat]}}
        if seat == TEAMS[-1]:  # the last seat moved: the engine keeps no copy any more
            entry.pop("archived")
            engine.cells[(row, 1)] = {"userEnteredValue": {"stringValue": json.dumps(entry)}}


def test_repair_moves_an_archive_of_hidden_columns_off_the_tab_on_google(fake: GoogleApiFake) -> None:
    """A match whose Archive tabs kept the sync's copies in hidden columns (the layout before the Copies tab): the
    sync names repair; repair moves the copies (the Archive narrowed to its two columns of sentences, Google dropping
    the rest), and undo puts the rows back from the engine's history, as before."""
    from sheets_gm.sync.life.adjust_undo import undo_window
    from sheets_gm.sync.life.repair import repair_match

    sheets = create(fake, policy(FakeClock()))
    type_bot_orders(sheets, GVG, bots())
    assert sync(sheets).resolved
    archive_before = {seat: fake.values(KEYS[seat], f"Archive {seat}") for seat in TEAMS}
    pending = {seat: fake.values(KEYS[seat], f"Copies {seat}")[1][1:4] for seat in TEAMS}
    for seat in TEAMS:
        _as_hidden_columns_layout(fake, seat, seat, 1)
    with pytest.raises(Exception, match="run sheets-gm repair"):
        sync(sheets)
    report = repair_match(open_match(policy(FakeClock())), GVG)
    for seat in TEAMS:
        assert any(f"'Archive {seat}'" in n and "moved to the new archive layout" in n for n in report.notes)
        ss = fake.spreadsheets[KEYS[seat]]
        assert ss.sheet(f"Archive {seat}").column_count == 2 and ss.sheet(f"Copies {seat}").properties.get("hidden")
        assert fake.values(KEYS[seat], f"Archive {seat}") == archive_before[seat]
        assert fake.values(KEYS[seat], f"Copies {seat}")[1][1:4] == pending[seat]
    engine = fake.spreadsheets[KEYS["engine"]].sheet(ENGINE_TAB)
    assert set(json.loads(str(engine.value(HISTORY_FIRST_ROW - 1, 1)))["archived"]) == set(TEAMS)
    assert not sync(sheets).resolved
    assert undo_window(sheets, GVG, "checking the move").restored > 0


def test_repair_copies_a_renamed_copies_tab_back_on_google(fake: GoogleApiFake) -> None:
    """A seat's hidden Copies tab renamed by hand in Sheets: repair lays it out again and copies it back from the
    renamed tab. It read that tab one row past its last (row 3002 of 3001), which Google refuses: repair stopped on
    an error (found by a random run of the lifecycle steps on the Google fake)."""
    from sheets_gm.sync.life.repair import repair_match

    sheets = create(fake, policy(FakeClock()))
    type_bot_orders(sheets, GVG, bots())
    assert sync(sheets).resolved
    def copies() -> tuple[list[Any], Any]:  # each Archive line's copy (column A), and the count of its lines (D2)
        grid = fake.values(KEYS["red"], "Copies red")
        return [row[0] for row in grid[1:] if row and row[0]], grid[1][3]

    before = copies()
    assert before[0] and before[1]
    fake.rename_tab(KEYS["red"], "Copies red", "Copies red (renamed)")
    report = repair_match(open_match(policy(FakeClock())), GVG)
    assert any("copied back from tab 'Copies red (renamed)'" in n for n in report.notes), report.notes
    assert copies() == before
    assert not sync(sheets).resolved  # the repaired match syncs
