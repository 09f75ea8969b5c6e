"""GvG matches and replays of the old layout, read through the ``legacy`` part of GvG's record.

Fixtures: ``legacy/README.md``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.legacy import GvgLegacy
from sheets_gm.rulesets.parts.legacy import LegacyError
from sheets_gm.rulesets.registry import get_game
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.life.legacy.upgrade import upgraded_record, windows_replay
from sheets_gm.sync.life.replay import (
    WINDOW_REPLAY_FORMAT,
    WindowReplayError,
    replay_document,
    replay_states,
)
from sheets_gm.sync.match_record import MatchRecordError, key_column

FIXTURES = Path(__file__).resolve().parent / "legacy"
HOOK = GvgLegacy()


def fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def engine() -> list[list[Any]]:
    """The old engine tab's cells, from A1."""
    grid: list[list[Any]] = fixture("engine.json")
    return grid


def test_gvg_declares_its_legacy_hook_and_detects_only_the_old_record() -> None:
    assert isinstance(get_game("gvg").legacy, GvgLegacy)
    assert HOOK.detect(engine())
    generic: list[list[Any]] = [["sheets-gm engine"], *([k[0], ""] for k in key_column())]
    assert not HOOK.detect(generic)
    assert not HOOK.detect([])


def test_the_upgraded_record_loads_with_the_legacy_state_seed_and_history() -> None:
    raw = engine()
    up = HOOK.upgrade_record(raw, "Engine")
    record = upgraded_record(GvgRuleset, up, "Engine")
    legacy_state = json.loads(raw[3][1])
    assert record.name == "gvg"
    assert record.ruleset.state_codec.to_json(record.state) == legacy_state
    assert record.seed.hex() == raw[4][1] and record.seed_hash == raw[5][1]
    assert record.seats == ("red", "blue") and record.window_key() == "5"
    assert record.resolved == 4 and record.log_rows == raw[8][1]
    assert record.gm_events == json.loads(raw[11][1])  # the coin correction pending since turn 4
    assert [e["window"] for e in up.history] == ["1", "2", "3", "4"]
    assert [e["resolution"] for e in up.history] == [1, 2, 3, 4]
    for turn, entry in enumerate(up.history, start=1):
        old = json.loads(raw[19 + turn][1])
        assert entry["orders"] == old["orders"] and entry["state_before"] == old["state_before"]
        assert entry["gm_events"] == old["gm_events"]
    assert up.history[2]["gm_events"]["events"] == [{"kind": "archery_duel", "winner": 0, "winner_points": 3,
                                                     "loser_points": 1}]


def test_each_seats_part_of_the_orders_merges_back_into_the_turns_orders() -> None:
    up = HOOK.upgrade_record(engine(), "Engine")
    rules = GvgRuleset.create(GvgRuleset.traits.settings_type(), up.board)
    for entry, parts in zip(up.history, up.seat_orders, strict=True):
        assert set(parts) == {"red", "blue"}
        merged = rules.merge_orders({seat: rules.orders_codec.from_json(part) for seat, part in parts.items()})
        codec = rules.orders_codec
        assert codec.to_json(merged) == codec.to_json(codec.from_json(entry["orders"]))
        assert not set(parts["red"]["players"]) & set(parts["blue"]["players"])


def test_continuing_the_upgraded_match_gives_what_the_legacy_engine_did() -> None:
    record = upgraded_record(GvgRuleset, HOOK.upgrade_record(engine(), "Engine"), "Engine")
    continued = fixture("continued.json")
    rules = record.ruleset
    assert record.window_key() == str(continued["turn"])
    dice = rules.dice(record.seed, record.state)
    after = rules.resolve(record.state, rules.orders_codec.from_json(continued["orders"]), dice).state
    assert rules.state_codec.to_json(after) == continued["state_after"]


def test_the_upgraded_match_replays_from_its_history() -> None:
    up = HOOK.upgrade_record(engine(), "Engine")
    record = upgraded_record(GvgRuleset, up, "Engine")
    doc = replay_document(record, [dict(e) for e in up.history])
    check = replay_states(doc)
    assert check.difference is None and check.resolutions == 4


def test_what_the_teams_typed_for_the_open_turn_is_carried() -> None:
    book = LocalWorkbookBackend(FIXTURES / "match.xlsx")
    record = upgraded_record(GvgRuleset, HOOK.upgrade_record(engine(), "Engine"), "Engine")
    state = record.ruleset.state_codec.to_json(record.state)
    continued = fixture("continued.json")
    for i, seat in enumerate(("red", "blue")):
        (grid,) = book.read([f"'{HOOK.orders_tab(seat)}'!A:Z"])
        carried = HOOK.carried_orders(grid, state, seat)
        assert carried.orders is not None and carried.dropped == ()
        wanted = {n: o for n, o in continued["orders"]["players"].items()
                  if record.state.player(n).team == i}
        assert carried.orders["players"] == wanted
    (grid,) = book.read(["'Orders red'!A:Z"])
    typed = [list(r) for r in grid]
    typed[4][4] = "dance"  # Ann's action
    typed[4][3] = "north"  # and her destination
    carried = HOOK.carried_orders(typed, state, "red")
    assert any("Ann's order" in d and "dance" in d for d in carried.dropped)
    assert any("Ann's order" in d and "north" in d for d in carried.dropped)
    assert carried.orders is not None and carried.orders["players"]["Ann"]["move"] is None


@pytest.mark.parametrize("edit, message", [
    (lambda g: g[2].__setitem__(0, "tour"), "cell A3 should say 'turn' but says 'tour'"),
    (lambda g: g[3].__setitem__(1, "{not json"), "cell B4 (state) is not readable JSON"),
    (lambda g: g[3].__setitem__(1, "{}"), "cell B4 (state) does not hold a GvG state"),
    (lambda g: g[4].__setitem__(1, "xyz"), "cell B5 (seed) should hold the match seed in hexadecimal"),
    (lambda g: g[2].__setitem__(1, 9), "cell B3 (turn) says 9 but the state is at turn 5"),
    (lambda g: g[10].__setitem__(1, '["red"]'), "cell B11 (teams) should hold the two team names"),
    (lambda g: g[10].__setitem__(1, '["red", "green"]'), "cell B11 names the teams"),
    (lambda g: g[11].__setitem__(1, '{"events": []}'), "cell B12 (gm_events) should hold the pending GM events"),
    (lambda g: g[22].__setitem__(1, '{"turn": 2}'), "row 23 should hold the history of turn 3"),
    (lambda g: g[22].__setitem__(1, '{"turn": 3}'), "cell B23 (the history of turn 3) lacks 'orders'"),
    (lambda g: g.__delitem__(slice(23, None)), "row 24 should hold the history of turn 4"),
    (lambda g: g[6].__setitem__(1, '{"movement": "teleport"}'), "movement"),
    (lambda g: g[7].__setitem__(1, "nonsense"), "B8 (map)"),
])
def test_a_malformed_old_record_is_one_message_naming_the_cell(edit: Any, message: str) -> None:
    raw = copy.deepcopy(engine())
    edit(raw)
    with pytest.raises(LegacyError) as caught:
        HOOK.upgrade_record(raw, "tab 'Engine'")
    assert message in str(caught.value) and str(caught.value).startswith("tab 'Engine'")


def test_a_record_whose_state_the_ruleset_refuses_is_a_record_error() -> None:
    up = HOOK.upgrade_record(engine(), "Engine")
    broken = type(up)(**{**up.__dict__, "seats": ("red", "blue", "green")})
    record = upgraded_record(GvgRuleset, broken, "Engine")
    assert record.seats == ("red", "blue", "green")  # the seats are the sync's to check against the config
    with pytest.raises(MatchRecordError):
        upgraded_record(GvgRuleset, type(up)(**{**up.__dict__, "state": {"turn": "x"}}), "Engine")


@pytest.mark.parametrize("name, turns", [("replay-v1.json", 3), ("replay-v2.json", 4)])
def test_old_replays_verify_as_windows_replays(name: str, turns: int) -> None:
    doc = windows_replay(fixture(name))
    assert doc["format"] == WINDOW_REPLAY_FORMAT and doc["seats"] == ["red", "blue"]
    check = replay_states(doc)
    assert check.difference is None and check.resolutions == turns and check.rolls > 0


def test_a_changed_order_in_an_old_replay_is_a_mismatch_naming_the_window() -> None:
    doc = fixture("replay-v2.json")
    doc["turns"][2]["orders"]["players"]["Ann"]["move"] = "A1"
    check = replay_states(windows_replay(doc))
    assert check.difference is not None and "before resolution 4 (window 4)" in check.difference


def test_a_malformed_old_replay_says_what_it_lacks() -> None:
    doc = fixture("replay-v1.json")
    del doc["map"], doc["seed"]
    with pytest.raises(WindowReplayError, match="lacks 'seed', 'map'"):
        windows_replay(doc)
    doc = fixture("replay-v2.json")
    doc["turns"][1] = {"turn": 2}
    with pytest.raises(WindowReplayError, match="turn 2 should hold 'turn', 'orders' and 'state_before'"):
        windows_replay(doc)
    with pytest.raises(WindowReplayError, match="not a replay this version reads"):
        windows_replay({"format": "sheets-gm replay v9", "ruleset": "gvg"})
    with pytest.raises(WindowReplayError, match="not a replay this version reads"):
        windows_replay({"format": "sheets-gm replay v2", "ruleset": "chess"})
