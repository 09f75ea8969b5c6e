"""GM commands on a GvG match end to end: adjust (corrections, duels), undo and verify, through the CLI on a
local workbook, and the same operations cut short by a crash or run against four Google spreadsheets.

Each test creates the match in a workbook (tests/matchfiles.py), lets bots type orders into its cells and the
real sync resolve turns, then runs ``sheets-gm`` as a GM would. What any game on the generic sync shares is
in test_window_commands.py and tests/sync/test_generic_sync.py; this file keeps what a GvG GM relies on.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.engine.dice import seed_hash
from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.enums import Terrain
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel, GvgState
from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sync.life.adjust_undo import adjust_match, undo_window
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.export import match_replay
from sheets_gm.sync.life.replay import replay_states
from sheets_gm.sync.match_record import HISTORY_FIRST_ROW, MatchRecord
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import READ, WRITE, GoogleApiFake, fake_client
from tests.matchfiles import GVG, SEED, played_match, record_of, roster, rules_of, sync, type_orders

STATUS = "Q2"  # the board's status line, right of the 15-column map


@dataclass
class Match:
    """A match in ``tmp_path``: its config file and its spreadsheets (one local workbook)."""

    config: Path
    sheets: MatchSheets

    @property
    def workbook(self) -> Path:
        return self.config.parent / "match.xlsx"

    def record(self) -> MatchRecord:
        return record_of(self.sheets)

    def state(self) -> GvgState:
        state: GvgState = self.record().state
        return state

    def book(self) -> openpyxl.Workbook:
        return openpyxl.load_workbook(self.workbook)

    def log(self) -> list[list[Any]]:
        """The Log tab's rows under its header: turn, kind, what happened."""
        sheet = self.book()["Log"]
        return [[c.value for c in row][:3] for row in sheet.iter_rows(min_row=2) if row[0].value is not None]

    def play(self, turns: int = 1) -> None:
        for _ in range(turns):
            type_orders(self.sheets)
            report = sync(self.sheets)
            assert report.resolved, report

    def run(self, *args: str) -> int:
        return main([args[0], "-c", str(self.config), *args[1:]])

    def files(self) -> bytes:
        return self.workbook.read_bytes()


@pytest.fixture
def match(tmp_path: Path) -> Match:
    return make_match(tmp_path)


def make_match(tmp_path: Path, max_turns: int = 60, played: int = 0) -> Match:
    """The match in ``tmp_path``, ``played`` turns on (a copy: ``played_match``)."""
    config, sheets = played_match(tmp_path, played, settings=GvgSettings(max_turns=max_turns))
    return Match(config, sheets)


def open_tile(m: Match, team: int, avoid: set[Coord]) -> Coord:
    """An open tile a player of ``team`` may stand on."""
    board = rules_of(m.record()).board
    return next(c for c, (t, _o) in sorted(board.terrain.items())
                if t is Terrain.OPEN and board.enterable(team, c) and c not in avoid)


def row_of(sheet: Any, first: str) -> int:
    """The row whose column A says ``first`` (a player's name, a team's captain row)."""
    return next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 1).value == first)


def pending_events(record: MatchRecord) -> list[Any]:
    """The GM events recorded since the last resolution (applied again by the replay)."""
    return list((record.gm_events or {}).get("events", []))


# --------------------------------------------------------------------------- adjust


def test_adjust_coins_is_written_to_the_engine_board_log_and_orders_tabs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = make_match(tmp_path, played=1)
    before = match.record()
    assert match.run("adjust", "--coins", "red=5", "--reason", "duel paid twice") == 0
    out = capsys.readouterr().out
    assert "GM sets red's coins from 0 to 5: duel paid twice." in out
    assert f"`sheets-gm verify -c {match.config}` applies it again." in out  # the match's own config
    record = match.record()
    assert record.state.coins[0] == 5 and record.state.turn == before.state.turn == 2
    assert record.resolved == before.resolved == 1
    assert [e["coins"] for e in pending_events(record)] == [[0, 5]]
    assert record.log_rows == before.log_rows + 1
    log = match.log()
    assert log[-1][:2] == [2, "gm adjustment"] and "duel paid twice" in str(log[-1][2])
    book = match.book()
    status = str(book["Board"][STATUS].value)
    assert "red: 5 coins, " in status
    for team in ("red", "blue"):
        assert book[f"Orders {team}"]["A2"].value == status


def test_adjust_hp_position_and_a_duel_at_once(match: Match, capsys: pytest.CaptureFixture[str]) -> None:
    state = match.state()
    structure = next(iter(state.structures.values()))
    red0 = state.player("red0")
    tile = open_tile(match, red0.team, {p.at for p in state.players})
    coins = state.coins[1]
    code = match.run("adjust", "--hp", f"{structure.at.label}=1", "--position", f"red0={tile.label}",
                     "--duel", "blue=3-2", "--reason", "server lag")
    assert code == 0, capsys.readouterr().err
    new = match.state()
    assert new.structures[structure.at].hp == 1
    assert new.player("red0").at == tile
    assert new.coins[1] == coins + rules_of(match.record()).settings.duel_reward
    kinds = [row[1] for row in match.log()]
    assert kinds == ["gm adjustment"] * 2 + ["archery duel"]
    board = match.book()["Board"]
    listed = row_of(board, "Player")
    players = [[c.value for c in row][:4] for row in board.iter_rows(min_row=listed + 1, max_row=listed + 6)]
    assert ["red0", "red", "DPS", tile.label] in players
    assert "red0" in str(board[tile.label].value) and "red0" not in str(board[red0.at.label].value)


def test_gm_events_are_replayed_by_verify_from_the_sheets_and_from_the_export(
        match: Match, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert match.run("adjust", "--duel", "red=3-0") == 0  # before turn 1: the replay starts before it
    match.play(1)
    assert pending_events(match.record()) == []
    assert match.run("adjust", "--coins", "blue=7", "--reason", "refund") == 0
    assert match.run("adjust", "--position", f"blue0={open_tile(match, 1, set()).label}", "--reason", "stuck") == 0
    match.play(2)
    assert match.run("adjust", "--coins", "red=0", "--reason", "fine") == 0  # pending at the end
    capsys.readouterr()
    assert match.run("verify") == 0
    assert "OK: 3 windows and" in capsys.readouterr().out
    assert match.run("export", "--reveal-early", "--out", str(tmp_path / "export")) == 0
    doc = json.loads((tmp_path / "export" / "replay.json").read_text(encoding="utf-8"))
    assert [len(r["gm_events"]) for r in doc["resolutions"]] == [1, 2, 0]
    assert len(doc["gm_events_after"]) == 1
    assert doc["initial_state"]["coins"] == [0, 0]
    assert main(["verify", str(tmp_path / "export" / "replay.json")]) == 0


def test_a_tampered_history_fails_verify_naming_the_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = make_match(tmp_path, played=1)
    assert match.run("adjust", "--coins", "red=4", "--reason", "refund") == 0
    match.play(2)
    cell = f"B{HISTORY_FIRST_ROW + 1}"  # the history row of resolution 2
    entry = json.loads(str(match.book()["Engine"][cell].value))
    assert entry["resolution"] == 2 and entry["gm_events"]["events"][0]["coins"] == [0, 4]
    capsys.readouterr()

    def forge(change: dict[str, Any] | None) -> str:
        forged = json.loads(json.dumps(entry))
        if change is None:
            forged["gm_events"] = None  # an adjustment hidden from the replay
        else:
            forged["gm_events"]["events"][0].update(change)
        book = match.book()
        book["Engine"][cell] = json.dumps(forged)
        book.save(match.workbook)
        assert match.run("verify") == 1
        return capsys.readouterr().out

    said = forge({"coins": [0, 40]})
    assert "MISMATCH after 1 window replayed" in said and "40" in said
    said = forge({"coins": [5, 4]})
    assert "MISMATCH" in said and "cannot be applied" in said
    said = forge(None)
    assert "MISMATCH after 1 window replayed" in said


# --------------------------------------------------------------------------- undo


def typed_rows(m: Match) -> dict[str, list[Any]]:
    """Each team's typed cells: its players' destination, action, teleport and its captain's skills and Ready."""
    book = m.book()
    out: dict[str, list[Any]] = {}
    for team in ("red", "blue"):
        sheet = book[f"Orders {team}"]
        players = [[sheet.cell(row_of(sheet, f"{team}{i}"), c).value for c in (4, 5, 6)] for i in range(3)]
        captain = row_of(sheet, team)
        out[team] = [players, [sheet.cell(captain, c).value for c in range(3, 10)], sheet.cell(captain, 11).value]
    return out


def shown_rolls(m: Match) -> dict[str, list[Any]]:
    """Every value of each team's orders tab whose header row says 'Move roll' or "The other team's move rolls"."""
    out: dict[str, list[Any]] = {}
    book = m.book()  # read once for both teams
    for team in ("red", "blue"):
        sheet = book[f"Orders {team}"]
        found = [(r, c) for r in range(1, sheet.max_row + 1) for c in range(1, sheet.max_column + 1)
                 if sheet.cell(r, c).value in ("Move roll", "The other team's move rolls")]
        out[team] = [sheet.cell(r + i, c).value for r, c in found for i in range(1, 5)]
    return out


def test_undo_restores_the_turn_keeps_the_rolls_shown_before_the_orders_and_deals_the_rest_afresh(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = make_match(tmp_path, played=1)
    type_orders(match.sheets)
    typed = typed_rows(match)
    rolls = shown_rolls(match)
    assert any(v not in (None, "") for values in rolls.values() for v in values)
    assert all(t[2] is True for t in typed.values())  # Ready ticked
    assert sync(match.sheets).resolved
    after = match.record()
    next_rolls = shown_rolls(match)  # turn 3's, revealed by resolving turn 2
    log_before = match.log()

    assert match.run("undo", "--reason", "wrong orders typed") == 0
    out = capsys.readouterr().out
    assert "GM undoes turn 2: wrong orders typed." in out
    # Every die of turn 2 with its deal: the move rolls shown before the orders kept (deal 0, their plain
    # message), the dice the resolution revealed dealt afresh (deal 1)
    assert 'move/red0 = ' in out and 'deal 0: HMAC-SHA256(seed, "2/move/red0")' in out
    assert 'Every other die of this window is dealt afresh too: HMAC-SHA256(seed, "2.1/<key>")' in out
    assert shown_rolls(match) == rolls  # the rolls public before the orders are the same
    record = match.record()
    book = match.book()  # read once for the checks below (the undo wrote last)
    history = json.loads(str(book["Engine"][f"B{HISTORY_FIRST_ROW + 1}"].value))
    assert record.state.to_json() == history["state_before"] and record.state.turn == 2
    assert record.resolved == 1 and record.log_rows == after.log_rows + 1
    log = match.log()
    assert log[:-1] == log_before  # the log is an audit trail: the undo row comes after every other
    assert log[-1][0] == 2 and "wrong orders typed" in str(log[-1][2])
    again_typed = typed_rows(match)
    for team in ("red", "blue"):
        assert again_typed[team][:2] == typed[team][:2]  # the orders and skills are back in their cells
        assert again_typed[team][2] is False  # Ready unticked
        sheet = book[f"Orders {team}"]
        assert str(sheet.cell(row_of(sheet, f"{team}0"), 2).value) == "2"  # For turn
    assert str(book["Board"][STATUS].value).startswith("Turn 2 of 60")

    report = sync(match.sheets)  # the captains have not ticked Ready again
    assert not report.resolved and report.waiting_for == ["red", "blue"]
    assert report.rejected == []  # the move rolls were kept: every order typed for them still holds
    assert sync(match.sheets, force=True).resolved
    again = match.record()
    history = json.loads(str(match.book()["Engine"][f"B{HISTORY_FIRST_ROW + 1}"].value))
    assert again.deal == 1 and history["deal"] == 1 and history["kept_dice"]["window"] == "2"
    assert history["kept_dice"]["keys"]["move/red0"] == [0, 6] and not again.kept_dice  # the next turn: none kept
    # The same orders on the same kept rolls, no other die rolled: the same turn 2; turn 3 is dealt afresh
    assert again.state.to_json() == after.state.to_json()
    assert shown_rolls(match) != next_rolls
    assert match.run("verify") == 0


def test_undo_twice_goes_back_two_turns_then_there_is_nothing_to_undo(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = make_match(tmp_path / "new").state().to_json()  # the same match before its first turn
    match = make_match(tmp_path, played=2)
    assert match.run("undo", "--reason", "one") == 0
    assert match.run("undo", "--reason", "two") == 0
    assert match.state().to_json() == start
    assert [row[1] for row in match.log()][-2:] == ["undo", "undo"]
    assert match.run("verify") == 0
    files = match.files()
    capsys.readouterr()
    assert match.run("undo", "--reason", "three") == 1
    assert "nothing to undo: no window of this match has been resolved yet" in capsys.readouterr().err
    assert match.files() == files


def test_undo_keeps_the_gm_events_before_the_turn_and_drops_those_after(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = make_match(tmp_path, played=1)
    assert match.run("adjust", "--coins", "red=6", "--reason", "before turn 2") == 0
    match.play(1)
    assert match.run("adjust", "--coins", "blue=9", "--reason", "after turn 2") == 0
    capsys.readouterr()
    assert match.run("undo", "--reason", "redo turn 2") == 0
    assert "1 GM event recorded after turn 2 was dropped (the log keeps them" in capsys.readouterr().out
    assert "after turn 2 was dropped" in str(match.log()[-1][2])
    record = match.record()
    assert record.state.coins == [6, 0]
    assert [e["coins"] for e in pending_events(record)] == [[0, 6]]
    assert match.run("verify") == 0
    assert sync(match.sheets, force=True).resolved
    assert match.run("verify") == 0


def test_undo_of_a_finished_match_reopens_it_with_a_new_seed_and_verify_checks_the_chain(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The end of a match publishes its seed (the "match is over" notice, the export). ``undo`` reopens it all the
    same (issue 93, item 7): a fresh seed is drawn and its hash logged at once, the turn is dealt again from it, the
    ended turn stays checkable with the old seed, and ``verify`` checks the chain; a seed or a die of the ended turn
    tampered with is named. With the refusal of issue 75 put back in ``undo_window``, this fails."""
    m = make_match(tmp_path, max_turns=2, played=2)
    final = m.record()
    assert final.state.finished
    assert m.run("undo", "--reason", "the last turn was resolved too early") == 0
    out = capsys.readouterr().out
    record = m.record()
    assert record.state.turn == 2 and not record.state.finished and record.deal == 1
    assert record.seeds == (final.seed, record.dice_seed) and record.dice_hash == seed_hash(record.dice_seed)
    line = ("The GM undid the end of the match (the last turn was resolved too early): the dice from now on come "
            f"from a new seed, committed as {record.dice_hash}; the old seed stays published so the ended turn can be "
            "checked.")
    assert line in out and [2, "undo", line] in m.log()
    assert 'HMAC-SHA256(new seed, "2.1/move/red0")' in out
    m.play()  # turn 2 again, its dice from the new seed: the end again
    assert m.record().state.finished
    assert any("[2.1/move/" in str(row[2]) for row in m.log())
    assert m.run("verify") == 0
    assert "OK: 2 windows and" in capsys.readouterr().out
    assert m.run("export", "--out", str(tmp_path / "out")) == 0
    assert final.seed.hex() in capsys.readouterr().out  # and the new one: both published now
    replay = tmp_path / "out" / "replay.json"
    doc = json.loads(replay.read_text(encoding="utf-8"))
    assert [link["hash"] for link in doc["reseeds"]] == [record.dice_hash]
    assert doc["resolutions"][1]["seed"] == 1 and "seed" not in doc["resolutions"][0]
    assert main(["verify", str(replay)]) == 0
    capsys.readouterr()
    for tampered, named in (("seed", "the seed does not match the hash published at the start of the match"),
                            ("reseed", "the seed committed when the GM undid the end of the match (the last turn "
                                       "was resolved too early) does not match its hash")):
        bad = json.loads(json.dumps(doc))
        if tampered == "seed":
            bad["seed"] = "00" + bad["seed"][2:]
        else:
            bad["reseeds"][0]["seed"] = "00" + bad["reseeds"][0]["seed"][2:]
        replay.write_text(json.dumps(bad), encoding="utf-8")
        assert main(["verify", str(replay)]) == 1
        assert named in capsys.readouterr().out, tampered
    book = m.book()  # a die of the ended turn typed over, in the rows the undo's line says no longer hold
    log = book["Log"]
    row = next(r for r in range(2, log.max_row + 1) if "[2/move/red0]" in str(log.cell(r, 3).value))
    said = str(log.cell(row, 3).value)
    log.cell(row, 3).value = re.sub(r"rolled \d", "rolled 7", said)
    book.save(m.workbook)
    assert m.run("verify") == 1
    assert f"cell C{row} says" in capsys.readouterr().out


def test_orders_typed_since_the_undone_turn_are_set_aside_not_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = make_match(tmp_path, played=1)
    typed = type_orders(match.sheets)  # for turn 2, then the GM takes turn 1 back
    assert typed
    book = match.book()
    sheet = book["Orders red"]
    captain = row_of(sheet, "red")
    sheet.cell(captain, 3).value, sheet.cell(captain, 4).value = "Tree Speed", "Player Speed"
    book.save(match.workbook)
    assert match.run("undo", "--reason", "redo turn 1") == 0
    out = capsys.readouterr().out
    assert re.search(r"\b\d+ rows typed since were set aside: each seat's Archive tab lists them", out), out
    assert "row(s)" not in out
    archive = match.book()["Archive red"]
    line = next(r for r in range(2, 40) if str(archive[f"B{r}"].value).startswith(
        "Your orders for turn 2, set aside by the GM's undo of turn 1; no longer in your rows"))
    details = [str(archive[f"B{r}"].value) for r in range(line + 1, line + 5)]
    assert "    · red — Skill 1: Tree Speed, Skill 2: Player Speed, Ready ✔" in details
    stale = {row["subject"]: row for row in json.loads(str(match.book()["Copies red"][f"A{line}"].value))}
    assert {"red0", "red1", "red2", "red"} <= set(stale)
    assert {row["window"] for row in stale.values()} == {"2"}  # typed for turn 2
    assert [stale["red"]["values"][k] for k in ("skill1", "skill2")] == ["Tree Speed", "Player Speed"]


# --------------------------------------------------------------------------- user errors


@pytest.mark.parametrize(("args", "message"), [
    (["adjust", "--coins", "red5", "--reason", "x"], "--coins 'red5': write TEAM=COINS, like red=5"),
    (["adjust", "--coins", "green=5", "--reason", "x"], "there is no team 'green'; the teams are red and blue"),
    (["adjust", "--coins", "red=five", "--reason", "x"], "--coins: coins 'five' is not a whole number"),
    (["adjust", "--coins", "red=-1", "--reason", "x"], "coins must be 0 or more for red or blue; got -1"),
    (["adjust", "--coins", "red=5"], "--reason is required with --coins, --hp and --position"),
    (["adjust", "--coins", "red=5", "--reason", "  "], "--reason is required"),
    (["adjust", "--position", "Zed=G5", "--reason", "x"],
     "there is no player called 'Zed'; the players are red0, red1, red2, blue0, blue1, blue2"),
    (["adjust", "--position", "red0=Z99", "--reason", "x"], "red0 cannot stand on Z99: it is off the board (A1 to"),
    (["adjust", "--position", "red0=5G", "--reason", "x"], "--position: '5G' is not a tile; write a column letter"),
    (["adjust", "--hp", "A1=1", "--reason", "x"], "there is no bulwark, fish or boss on A1; HP can be set on "),
    (["adjust", "--duel", "red=4-1"], "score 4-1 is impossible; best of 5"),
    (["adjust", "--duel", "red=3"], "the score is the winner's points, a dash and the loser's, like 3-1"),
    (["adjust"], "nothing to change: give --coins TEAM=N, --hp TILE=N, --position PLAYER=TILE or --duel TEAM=W-L"),
    (["adjust", "--vp", "red=1", "--reason", "x"], "--vp: not a correction of a gvg match; it accepts "
                                                   "--coins, --concede, --duel, --hp, --position"),
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
    assert f"give a replay file or -c {tmp_path / 'match.toml'}, not both" in capsys.readouterr().err


def test_a_gm_command_waits_for_a_resolution_interrupted_half_way(match: Match,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """red's orders were archived by a resolution cut before its commit: adjust and undo wait for the sync."""
    type_orders(match.sheets)
    book = match.book()
    book["Copies red"]["C2"] = json.dumps({"resolution": 1, "window": "1", "rows": []})
    book.save(match.workbook)
    files = match.files()
    for args in (["adjust", "--coins", "red=3", "--reason", "x"], ["undo", "--reason", "x"]):
        assert match.run(*args) == 1
        err = capsys.readouterr().err
        assert "the last resolution was interrupted (red's orders are archived but not saved)" in err
        assert f"run `sheets-gm sync -c {match.config}` to complete it first — nothing was written" in err
        assert match.files() == files
    assert sync(match.sheets).resolved  # the sync completes it
    assert match.run("adjust", "--coins", "red=3", "--reason", "x") == 0


# --------------------------------------------------------------------------- crashes


# A GM's change cut at any write, and the next command completing it: tests/sync/test_cut_commands.py.


# --------------------------------------------------------------------------- Google

KEYS = {"board": "1BoardKey_gm_ops_test_000000000000000000000",
        "engine": "1EngineKey_gm_ops_test_00000000000000000000",
        "red": "1RedKey_gm_ops_test_0000000000000000000000000",
        "blue": "1BlueKey_gm_ops_test_000000000000000000000000"}
ROLE_OF = {key: role for role, key in KEYS.items()}


@pytest.fixture
def google() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        yield f
    assert not f.violations, f.violations


def google_match(fake: GoogleApiFake) -> MatchSheets:
    """A match in four Google spreadsheets through one real gspread client, two turns played."""
    from sheets_gm.sheets.retry import RetryPolicy

    clock = FakeClock()
    retry = RetryPolicy(deadline=60, time=clock.time, sleep=clock.sleep, random=lambda: 0.5)
    for role, key in KEYS.items():
        fake.create_spreadsheet(key, f"gm ops · {role}")
    client = fake_client()
    backend = {role: GoogleSheetBackend(client, key, retry=retry, title=role) for role, key in KEYS.items()}
    sheets = MatchSheets(("red", "blue"), backend["board"], backend["engine"], (backend["red"], backend["blue"]))
    create_match(sheets, create_ruleset("gvg"), roster(3), seed=SEED)
    for _ in range(2):
        type_orders(sheets)
        assert sync(sheets).resolved
    return sheets


def google_calls(fake: GoogleApiFake) -> Counter[tuple[str, str]]:
    """(endpoint, spreadsheet role) -> calls, from the fake's log."""
    out: Counter[tuple[str, str]] = Counter()
    for call in fake.log:
        role = next((r for key, r in ROLE_OF.items() if f"/spreadsheets/{key}" in call.url), "?")
        out[(call.endpoint, role)] += 1
    return out


def test_adjust_and_undo_over_four_google_spreadsheets_cost_one_write_each(google: GoogleApiFake) -> None:
    sheets = google_match(google)
    after = record_of(sheets)

    google.reset_counters()
    report = adjust_match(sheets, GVG, [Adjustment("refund", coins=(1, 6)), ArcheryDuel(0, 3, 1)])
    assert report.write_calls == 4
    assert google_calls(google) == Counter({(endpoint, role): 1 for role in KEYS for endpoint in (READ, WRITE)})
    assert record_of(sheets).state.coins[1] == 6

    google.reset_counters()
    undone = undo_window(sheets, GVG, "redo turn 2")
    assert undone.write_calls == 4 and undone.restored > 0
    # the match is read once, then the engine's history row alone: it keeps what the undone resolution read
    reads = {(READ, role): 2 if role == "engine" else 1 for role in KEYS}
    assert google_calls(google) == Counter({**reads, **{(WRITE, role): 1 for role in KEYS}})
    assert replay_states(match_replay(sheets, GVG)).difference is None
    assert sync(sheets, force=True).resolved
    assert record_of(sheets).resolved == after.resolved and record_of(sheets).deal == 1
    assert replay_states(match_replay(sheets, GVG)).difference is None


def test_undo_of_a_battle_prints_its_dice_dealt_afresh_and_the_replay_verifies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The dice a resolution revealed (a battle's) are listed with their new deal; the move rolls shown before the
    orders with their old one; the match then replays from its history, kept rolls included."""
    config, sheets = played_match(tmp_path, 2)  # the turns before its first battle (the third), copied
    for _ in range(40):
        type_orders(sheets)
        before = record_of(sheets).log_rows
        assert sync(sheets).resolved
        record = record_of(sheets)
        if any("Battle" in str(line[2]) for line in _log_lines(tmp_path)[before:record.log_rows]):
            break
    else:
        raise AssertionError("no battle in 40 turns")
    turn = record.state.turn - 1
    assert main(["undo", "-c", str(config), "--reason", "the battle's orders were mistyped"]) == 0
    out = capsys.readouterr().out
    assert "Dealt afresh, as the undone resolution revealed them" in out
    assert f'deal 1: HMAC-SHA256(seed, "{turn}.1/combat/' in out
    assert f'deal 0: HMAC-SHA256(seed, "{turn}/move/' in out
    assert sync(sheets, force=True).resolved
    assert main(["verify", "-c", str(config)]) == 0, capsys.readouterr().out


def _log_lines(folder: Path) -> list[tuple[Any, ...]]:
    return [tuple(r[:3]) for r in openpyxl.load_workbook(folder / "match.xlsx")["Log"].iter_rows(min_row=2,
                                                                                                 values_only=True)]
