"""GM commands end to end: adjust (corrections, duels), undo and verify, through the CLI on a local workbook.

Each test writes a match.toml in ``tmp_path``, creates the match in a workbook, lets bots type
orders into its cells and the real sync resolve turns, then runs ``sheets-gm`` as a GM would.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.engine.core.grid import Coord
from sheets_gm.match.config import load_config
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.rulesets.gvg.bots import ObjectiveBot, RandomBot
from sheets_gm.rulesets.gvg.enums import EventKind, Terrain
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry
from sheets_gm.rulesets.gvg.sheet.positions import GvgPositions
from sheets_gm.rulesets.gvg.sheet.template import default_map_text, default_template
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel, GvgState
from sheets_gm.sheets.backend import RangeWrite, SheetBackend
from sheets_gm.sheets.layout import CellValue, Grid, a1
from sheets_gm.sync.adjust import adjust_match
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.create import create_match
from sheets_gm.sync.export import export_match, match_replay, replay_states
from sheets_gm.sync.poll import poll
from sheets_gm.sync.record import EngineRecord
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.sync.snapshot import read_snapshot
from sheets_gm.sync.undo import undo_turn
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import READ, WRITE, GoogleApiFake
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.sync.test_sync import new as new_memory_match
from tests.sync.test_sync_google import KEYS, policy
from tests.sync.test_sync_google import calls_by_spreadsheet as google_calls
from tests.sync.test_sync_google import create as google_match

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
TEMPLATE = default_template()
SEED = b"gm-ops-test-seed"
ROSTER = (("Ann", "red", "dps"), ("Ben", "red", "tank"), ("Cat", "red", "healer"),
          ("Dan", "blue", "dps"), ("Eve", "blue", "tank"), ("Fay", "blue", "healer"))
CONFIG = """\
ruleset = "gvg"
teams = ["red", "blue"]

[sheets]
backend = "local"
board = "match.xlsx"
"""


@dataclass
class Match:
    """A match in ``tmp_path``: its config file and its spreadsheets."""

    config: Path
    sheets: MatchSheets

    def record(self) -> EngineRecord:
        return read_snapshot(self.sheets, TEMPLATE).record

    def state(self) -> GvgState:
        return self.record().state

    def positions(self) -> GvgPositions:
        return read_snapshot(self.sheets, TEMPLATE).positions

    def read(self, backend: SheetBackend, a1_range: str) -> Grid:
        return backend.read([a1_range])[0]

    def cell(self, backend: SheetBackend, a1_range: str) -> CellValue:
        grid = self.read(backend, a1_range)
        return grid[0][0] if grid and grid[0] else None

    def log(self) -> Grid:
        rows = self.record().log_rows
        return self.read(self.sheets.board, a1(TEMPLATE.tabs.log, f"A2:C{1 + rows}"))

    def play(self, turns: int = 1) -> None:
        players = [ObjectiveBot(1), RandomBot(2)]
        for _ in range(turns):
            type_bot_orders(self.sheets, players)
            report = poll(self.sheets, now=NOW)
            assert report.resolved, report

    def run(self, *args: str) -> int:
        return main([args[0], "-c", str(self.config), *args[1:]])

    def files(self) -> bytes:
        return (self.config.parent / "match.xlsx").read_bytes()


@pytest.fixture
def match(tmp_path: Path) -> Match:
    return make_match(tmp_path)


def make_match(tmp_path: Path, max_turns: int = 60) -> Match:
    config = tmp_path / "match.toml"
    config.write_text(CONFIG, encoding="utf-8")
    openpyxl.Workbook().save(tmp_path / "match.xlsx")
    sheets = open_match_sheets(load_config(config))
    create_match(sheets, [RosterEntry(*r) for r in ROSTER], settings=GvgSettings(max_turns=max_turns),
                 map_text=default_map_text(), seed=SEED)
    return Match(config, sheets)


def open_tile(m: Match, team: int, avoid: set[Coord]) -> Coord:
    """An open tile a player of ``team`` may stand on."""
    rules = m.record().rules()
    return next(c for c, (t, _o) in sorted(rules.board.terrain.items())
                if t is Terrain.OPEN and rules.board.enterable(team, c) and c not in avoid)


# --------------------------------------------------------------------------- adjust


def test_adjust_coins_is_written_to_the_engine_board_log_and_orders_tabs(
        match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    match.play(1)
    before = match.record()
    assert match.run("adjust", "--coins", "red=5", "--reason", "duel paid twice") == 0
    out = capsys.readouterr().out
    assert "GM sets red's coins from" in out and "to 5: duel paid twice." in out
    record = match.record()
    assert record.state.coins[0] == 5 and record.turn == before.turn == 2
    assert [e.coins for e in record.gm_events.events if isinstance(e, Adjustment)] == [(0, 5)]
    assert record.log_rows == before.log_rows + 1
    assert match.log()[-1] == [2, EventKind.GM_ADJUSTMENT.value, match.log()[-1][2]]
    assert "duel paid twice" in str(match.log()[-1][2])
    status = str(match.cell(match.sheets.board, a1(TEMPLATE.tabs.board, "Q2")))
    assert "red: 5 coins, " in status
    for team in match.positions().teams:
        assert match.cell(match.sheets.orders[0], a1(team.orders_tab, "A2")) == status


def test_adjust_hp_position_and_a_duel_at_once(match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    state = match.state()
    structure = next(iter(state.structures.values()))
    ann = state.player("Ann")
    tile = open_tile(match, ann.team, {p.at for p in state.players})
    coins = state.coins[1]
    code = match.run("adjust", "--hp", f"{structure.at.label}=1", "--position", f"Ann={tile.label}",
                     "--duel", "blue=3-2", "--reason", "server lag")
    assert code == 0, capsys.readouterr().err
    new = match.state()
    assert new.structures[structure.at].hp == 1
    assert new.player("Ann").at == tile
    assert new.coins[1] == coins + match.record().settings.duel_reward
    kinds = [row[1] for row in match.log()]
    assert kinds == [EventKind.GM_ADJUSTMENT.value] * 2 + [EventKind.ARCHERY_DUEL.value]
    players = match.read(match.sheets.board, a1(TEMPLATE.tabs.players, "A2:D7"))
    assert ["Ann", "red", "DPS", tile.label] in players
    board = match.read(match.sheets.board, match.positions().board_range())
    assert "Ann" in str(board[tile.row][tile.col]) and "Ann" not in str(board[ann.at.row][ann.at.col])


def test_gm_events_are_replayed_by_verify_from_the_sheets_and_from_the_export(
        match: Match, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert match.run("adjust", "--duel", "red=3-0") == 0  # before turn 1: the replay starts before it
    match.play(1)
    assert match.record().gm_events.events == ()
    assert match.run("adjust", "--coins", "blue=7", "--reason", "refund") == 0
    assert match.run("adjust", "--position", f"Dan={open_tile(match, 1, set()).label}", "--reason", "stuck") == 0
    match.play(2)
    assert match.run("adjust", "--coins", "red=0", "--reason", "fine") == 0  # pending at the end
    capsys.readouterr()
    assert match.run("verify") == 0
    assert "OK: 3 windows" in capsys.readouterr().out
    export_match(match.sheets, tmp_path / "export")
    doc = json.loads((tmp_path / "export" / "replay.json").read_text(encoding="utf-8"))
    assert [len(t["gm_events"]) for t in doc["turns"]] == [1, 2, 0] and len(doc["gm_events_after"]) == 1
    assert doc["initial_state"]["coins"] == [0, 0]
    assert main(["verify", str(tmp_path / "export" / "replay.json")]) == 0


def test_a_tampered_history_fails_verify_naming_the_turn(match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    match.play(1)
    assert match.run("adjust", "--coins", "red=4", "--reason", "refund") == 0
    match.play(2)
    pos = match.positions()
    cell = pos.engine_history_range(2)
    row = match.read(match.sheets.engine, cell)[0]
    entry = json.loads(str(row[1]))
    capsys.readouterr()

    forged = json.loads(json.dumps(entry))
    forged["gm_events"]["events"][0]["coins"] = [0, 40]
    match.sheets.engine.write([RangeWrite(cell, [[2, json.dumps(forged)]])])
    assert match.run("verify") == 1
    said = capsys.readouterr().out
    assert ("MISMATCH after 1 windows replayed: the state before resolution 2 (window 2) differs: coins[0]: "
            "recorded 4, recomputed 40") in said

    forged = json.loads(json.dumps(entry))
    forged["gm_events"]["events"][0]["coins"] = [5, 4]
    match.sheets.engine.write([RangeWrite(cell, [[2, json.dumps(forged)]])])
    assert match.run("verify") == 1
    assert "GM event 1 before resolution 2 (window 2) cannot be applied" in capsys.readouterr().out

    forged = json.loads(json.dumps(entry))
    forged["gm_events"] = None  # an adjustment hidden from the replay
    match.sheets.engine.write([RangeWrite(cell, [[2, json.dumps(forged)]])])
    assert match.run("verify") == 1
    assert "the state before resolution 2 (window 2) differs" in capsys.readouterr().out


# --------------------------------------------------------------------------- undo


def test_undo_restores_the_turn_and_its_orders_and_resolving_again_gives_the_same_state(
        match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    match.play(1)
    type_bot_orders(match.sheets, [ObjectiveBot(1), RandomBot(2)])
    pos = match.positions()
    typed = {i: match.read(match.sheets.orders[i], a1(t.orders_tab, f"D{t.first_row}:F{t.last_player_row}"))
             for i, t in enumerate(pos.teams)}
    skills = {i: match.read(match.sheets.orders[i], a1(t.orders_tab, f"C{t.captain_row}:I{t.captain_row}"))
              for i, t in enumerate(pos.teams)}
    assert poll(match.sheets, now=NOW).resolved
    after = match.record()
    board = match.read(match.sheets.board, pos.board_range())
    log_before = match.log()

    assert match.run("undo", "--reason", "wrong orders typed") == 0
    assert "Turn 2 undone" in capsys.readouterr().out
    record = match.record()
    history = json.loads(str(match.read(match.sheets.engine, pos.engine_history_range(2))[0][1]))
    assert record.state.to_json() == history["state_before"] and record.turn == 2
    assert record.log_rows == after.log_rows + 1
    log = match.log()
    assert log[:-1] == log_before  # the log is an audit trail: the undo row comes after every other
    assert log[-1][:2] == [2, EventKind.UNDO.value] and "wrong orders typed" in str(log[-1][2])
    for i, team in enumerate(pos.teams):
        backend = match.sheets.orders[i]
        assert match.read(backend, a1(team.orders_tab, f"D{team.first_row}:F{team.last_player_row}")) == typed[i]
        assert match.read(backend, a1(team.orders_tab, f"C{team.captain_row}:I{team.captain_row}")) == skills[i]
        turn_cells = match.read(backend, a1(team.orders_tab, f"B{team.first_row}:B{team.last_player_row}"))
        assert turn_cells == [[2]] * len(team.players)
        assert match.cell(backend, a1(team.orders_tab, f"B{team.captain_row}")) == 2
        assert match.cell(backend, a1(team.orders_tab, f"J{team.captain_row}")) is False  # Ready unticked
        assert match.read(backend, team.pending_range())[1:] in ([], [[]], [["", ""]])
    assert "Turn 2 of 60" in str(match.cell(match.sheets.board, a1(TEMPLATE.tabs.board, "Q2")))

    report = poll(match.sheets, now=NOW)  # the captains have not ticked Ready again
    assert not report.resolved and not report.rejected
    assert poll(match.sheets, now=NOW, force=True).resolved
    again = match.record()
    assert again.state.to_json() == after.state.to_json()
    assert match.read(match.sheets.board, pos.board_range()) == board
    assert match.run("verify") == 0


def test_undo_twice_goes_back_two_turns_then_there_is_nothing_to_undo(
        match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    start = match.state().to_json()
    match.play(2)
    assert match.run("undo", "--reason", "one") == 0
    assert match.run("undo", "--reason", "two") == 0
    assert match.state().to_json() == start
    assert [row[1] for row in match.log()][-2:] == [EventKind.UNDO.value] * 2
    assert match.run("verify") == 0
    files = match.files()
    capsys.readouterr()
    assert match.run("undo", "--reason", "three") == 1
    assert "nothing to undo: no turn of this match has been resolved yet" in capsys.readouterr().err
    assert match.files() == files


def test_undo_keeps_the_gm_events_before_the_turn_and_drops_those_after(
        match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    match.play(1)
    assert match.run("adjust", "--coins", "red=6", "--reason", "before turn 2") == 0
    match.play(1)
    assert match.run("adjust", "--coins", "blue=9", "--reason", "after turn 2") == 0
    capsys.readouterr()
    assert match.run("undo", "--reason", "redo turn 2") == 0
    assert "1 GM event(s) recorded after turn 2 were dropped" in capsys.readouterr().out
    record = match.record()
    assert record.state.coins[0] == 6
    assert [e.coins for e in record.gm_events.events if isinstance(e, Adjustment)] == [(0, 6)]
    assert match.run("verify") == 0
    assert poll(match.sheets, now=NOW, force=True).resolved
    assert match.run("verify") == 0


def test_undo_of_a_finished_match_reopens_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = make_match(tmp_path, max_turns=2)
    m.play(2)
    final = m.record()
    assert final.state.finished
    assert m.run("adjust", "--coins", "red=1", "--reason", "late") == 1
    assert "the match is over (turn 2); undo its last turn first" in capsys.readouterr().err
    assert m.run("undo", "--reason", "the last turn was resolved too early") == 0
    reopened = m.record()
    assert not reopened.state.finished and reopened.turn == 2
    assert "Turn 2 of 2 · orders open" in str(m.cell(m.sheets.board, a1(TEMPLATE.tabs.board, "Q2")))
    assert m.run("verify") == 0
    assert poll(m.sheets, now=NOW, force=True).finished
    assert m.state().to_json() == final.state.to_json()


def test_orders_typed_since_the_undone_turn_are_set_aside_not_lost(match: Match) -> None:
    match.play(1)
    typed = type_bot_orders(match.sheets, [ObjectiveBot(1), RandomBot(2)])
    assert typed[0].players
    team = match.positions().teams[0]
    match.sheets.orders[0].write([RangeWrite(a1(team.orders_tab, f"C{team.captain_row}:D{team.captain_row}"),
                                             [["Tree Speed", "Player Speed"]])])
    assert match.run("undo", "--reason", "redo turn 1") == 0
    kept = json.loads(str(match.cell(match.sheets.orders[0], a1(team.archive_tab, f"C{team.history_row(2)}"))))
    assert kept["turn"] == 2
    assert set(typed[0].players) <= set(kept["stale"])
    assert kept["stale"]["captain"]["for_turn"] == 2 and kept["stale"]["captain"]["skills"][:2] == [
        "Tree Speed", "Player Speed"]


# --------------------------------------------------------------------------- user errors


@pytest.mark.parametrize(("args", "message"), [
    (["adjust", "--coins", "red5", "--reason", "x"], "--coins 'red5': write TEAM=COINS, like red=5"),
    (["adjust", "--coins", "green=5", "--reason", "x"], "no team 'green'; the teams are red and blue"),
    (["adjust", "--coins", "red=five", "--reason", "x"], "--coins: coins 'five' is not a whole number"),
    (["adjust", "--coins", "red=-1", "--reason", "x"], "coins must be 0 or more for red or blue; got -1"),
    (["adjust", "--coins", "red=5"], "--reason is required with --coins, --hp and --position"),
    (["adjust", "--coins", "red=5", "--reason", "  "], "--reason is required"),
    (["adjust", "--position", "Zed=G5", "--reason", "x"],
     "there is no player called 'Zed'; the players are Ann, Ben, Cat, Dan, Eve, Fay"),
    (["adjust", "--position", "Ann=Z99", "--reason", "x"], "Ann cannot stand on Z99: it is off the board (A1 to"),
    (["adjust", "--position", "Ann=5G", "--reason", "x"], "--position: '5G' is not a tile; write a column letter"),
    (["adjust", "--hp", "A1=1", "--reason", "x"], "there is no bulwark, fish or boss on A1; HP can be set on bulwark@"),
    (["adjust", "--duel", "red=4-1"], "score 4-1 is impossible; best of 5"),
    (["adjust", "--duel", "red=3"], "the score is the winner's points, a dash and the loser's, like 3-1"),
    (["adjust"], "nothing to change: give --coins TEAM=N, --hp TILE=N, --position PLAYER=TILE or --duel TEAM=W-L"),
    (["undo"], "--reason is required"),
    (["undo", "--reason", "x"], "nothing to undo"),
])
def test_user_errors_exit_1_naming_what_and_what_is_accepted_and_write_nothing(
        match: Match, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    files = match.files()
    assert match.run(*args) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert match.files() == files


def test_a_missing_config_and_two_sources_for_verify_are_user_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["undo", "-c", str(tmp_path / "nope.toml"), "--reason", "x"]) == 1
    assert "no config file at" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "replay.json"), "-c", str(tmp_path / "match.toml")]) == 1
    assert "give a replay file or -c MATCH.toml, not both" in capsys.readouterr().err


def test_a_gm_command_waits_for_a_resolution_interrupted_half_way(match: Match,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    type_bot_orders(match.sheets, [ObjectiveBot(1), RandomBot(2)])
    team = match.positions().teams[0]
    match.sheets.orders[0].write([RangeWrite(a1(team.archive_tab, "A2:B2"),
                                             [[1, json.dumps({"turn": 1, "players": {}, "captain": {
                                                 "skills": [], "ready": True}})]])])
    assert match.run("adjust", "--coins", "red=3", "--reason", "x") == 1
    assert "the resolution of turn 1 was interrupted (red's orders" in capsys.readouterr().err


# --------------------------------------------------------------------------- crashes


class Crash:
    """Make a backend's next write fail, as a crash at that point would."""

    def __init__(self, backend: MemoryBackend) -> None:
        self.backend = backend
        self.original = backend.write

    def __enter__(self) -> None:
        def fail(writes: Any) -> None:
            raise InjectedFault(f"crash writing {self.backend.name}")
        self.backend.write = fail  # type: ignore[method-assign]

    def __exit__(self, *exc: object) -> None:
        self.backend.write = self.original  # type: ignore[method-assign]


@pytest.mark.parametrize("victim", [0, 1, 2, 3], ids=["red", "blue", "board", "engine"])
@pytest.mark.parametrize("op", ["adjust", "undo"])
def test_a_crash_at_any_write_leaves_the_engine_as_it_was_and_running_again_completes(victim: int, op: str) -> None:
    sheets, backends = new_memory_match(3)
    players = [ObjectiveBot(1), RandomBot(2)]
    for _ in range(2):
        type_bot_orders(sheets, players)
        assert poll(sheets, now=NOW).resolved
    before = read_snapshot(sheets, TEMPLATE).record

    def do() -> None:
        if op == "adjust":
            adjust_match(sheets, [Adjustment("refund", coins=(1, 8)), ArcheryDuel(0, 3, 2)])
        else:
            undo_turn(sheets, "redo")

    order = [backends[2], backends[3], backends[0], backends[1]]  # teams, board, engine: the write order
    with Crash(order[victim]), pytest.raises(InjectedFault):
        do()
    assert read_snapshot(sheets, TEMPLATE).record == before
    assert poll(sheets, now=NOW).resolved is False  # a sync in between changes nothing that matters
    do()
    record = read_snapshot(sheets, TEMPLATE).record
    if op == "adjust":
        assert record.state.coins == [before.state.coins[0] + 2, 8] and len(record.gm_events.events) == 2
    else:
        assert record.turn == 2 and not record.state.finished
        assert poll(sheets, now=NOW, force=True).resolved
        assert read_snapshot(sheets, TEMPLATE).record.state.to_json() == before.state.to_json()
    assert replay_states(match_replay(sheets)).difference is None


# --------------------------------------------------------------------------- Google


@pytest.fixture
def google() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        yield f
    assert not f.violations, f.violations


def test_adjust_and_undo_over_four_google_spreadsheets_cost_one_write_each(google: GoogleApiFake) -> None:
    sheets = google_match(google, policy(FakeClock()), 3)
    players = [ObjectiveBot(1), RandomBot(2)]
    for _ in range(2):
        type_bot_orders(sheets, players)
        assert poll(sheets, now=NOW).resolved
    after = read_snapshot(sheets, TEMPLATE).record

    google.reset_counters()
    report = adjust_match(sheets, [Adjustment("refund", coins=(1, 6)), ArcheryDuel(0, 3, 1)])
    assert report.write_calls == 4
    assert google_calls(google) == Counter({(endpoint, role): 1 for role in KEYS for endpoint in (READ, WRITE)})
    assert read_snapshot(sheets, TEMPLATE).record.state.coins[1] == 6

    google.reset_counters()
    undone = undo_turn(sheets, "redo turn 2")
    assert undone.turn == 2 and undone.dropped_gm_events == 2 and undone.write_calls == 4
    # the match is read once, then the engine's history row and the teams' archive rows
    reads = {(READ, role): 1 if role == "board" else 2 for role in KEYS}
    assert google_calls(google) == Counter({**reads, **{(WRITE, role): 1 for role in KEYS}})
    assert replay_states(match_replay(sheets)).difference is None
    assert poll(sheets, now=NOW, force=True).resolved
    assert read_snapshot(sheets, TEMPLATE).record.state.to_json() == after.state.to_json()
    assert replay_states(match_replay(sheets)).difference is None
