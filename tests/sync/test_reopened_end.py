"""An undo of a match's end, in every game (issue 93, item 7). The property: however a match ends (its GM's
adjustment, a concession; or the resolution of its last window, its bots playing it out), ``undo`` reopens it with
a fresh seed, and after any number of ends undone (here two, one of each) the match played to its end again
verifies whole: each seed against the hash committed for it, each window's dice against the seed in force when it
resolved (every history row resolved after the k-th undo of an end names seed k), the resolution an undo took back
recomputed with its old seed, every Log line as the match logged it. A seed of the chain or the state an ended turn
left, tampered with, is named. Played with the real sync on memory spreadsheets; under ``-m soak`` (about a minute
for the five games), the quick path being ``tests/commands/test_gm_ops.py``'s. And a match never reopened keeps its
record as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sheets_gm.rulesets.registry import get_game
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import adjust_match, undo_window
from sheets_gm.sync.life.export import match_replay
from sheets_gm.sync.life.log_check import forged_log_lines
from sheets_gm.sync.life.reopen import reseeded
from sheets_gm.sync.life.replay import replay_states
from sheets_gm.sync.match_record import MATCH_KEYS, parse_match_record
from sheets_gm.sync.poll import poll
from tests.declared import concedes
from tests.sync.test_published_seed import GAMES
from tests.sync.test_typed_row_lifecycle import NOW, Match


def _over(match: Match) -> bool:
    record = match.read().record
    return record.ruleset.window(record.state) is None


def _concede(match: Match, game: str) -> None:
    """Every seat but the first concedes, until the match is over (Champions' sixteen: fifteen of them)."""
    seats = match.read().record.seats
    for loser in seats[:0:-1]:
        if _over(match):
            break
        adjust_match(match.sheets, match.cls, get_game(game).gm_events(seats, {"concede": [loser]}, "gave up"))


def _play_out(match: Match) -> None:
    """The match played to its end by its bots, each window forced once their orders are in."""
    while not _over(match):
        type_bot_orders(match.sheets, match.cls, match.bots)
        poll(match.sheets, match.cls, now=NOW, force=True)


def _undo_end(match: Match, reason: str) -> None:
    """``undo`` of the finished match: open again, the chain one seed longer, the reopened window dealt from it."""
    ended = match.read().record
    assert ended.ruleset.window(ended.state) is None
    report = undo_window(match.sheets, match.cls, reason)
    record = match.read().record
    assert record.ruleset.window(record.state) is not None, reason
    assert record.seeds[:-1] == ended.seeds and record.dice_seed not in ended.seeds
    assert record.dice().seed == record.dice_seed and report.committed == record.dice_hash
    assert f"committed as {record.dice_hash}" in report.events[0].text


def _tampered(doc: dict[str, Any], where: list[Any], value: Any) -> dict[str, Any]:
    """A copy of the replay ``doc`` with the value at the path ``where`` replaced by ``value``."""
    bad: dict[str, Any] = json.loads(json.dumps(doc))
    at = bad
    for key in where[:-1]:
        at = at[key]
    at[where[-1]] = value
    return bad


def _flipped(hex_text: str) -> str:
    return ("1" if hex_text[0] == "0" else "0") + hex_text[1:]


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_a_match_ended_twice_and_reopened_verifies_whole_and_names_what_is_tampered(game: str) -> None:
    match = Match(game)
    match.bots_play()
    if concedes(game):
        _concede(match, game)
        _undo_end(match, "the concession was typed in error")
    _play_out(match)
    _undo_end(match, "the last blow was miscounted")
    _play_out(match)
    _undo_end(match, "miscounted again")
    _play_out(match)
    read = match.read()
    doc = match_replay(match.sheets, match.cls)
    assert replay_states(doc).difference is None
    assert forged_log_lines(match.sheets, doc, read.record.log_rows) == []
    links = doc["reseeds"]
    assert len(links) == (3 if concedes(game) else 2) == len(read.record.reseeds)
    named = [int(e.get("seed", 0)) for e in doc["resolutions"]]
    assert named == sorted(named) and named[-1] == len(links), named  # each window dealt from the seed then
    assert replay_states(_tampered(doc, ["seed"], _flipped(doc["seed"]))).difference == \
        "the seed does not match the hash published at the start of the match"
    for i, link in enumerate(links):
        said = replay_states(_tampered(doc, ["reseeds", i, "seed"], _flipped(link["seed"]))).difference
        assert said is not None and f"undid the end of the match ({link['reason']})" in said, said
        if "orders" in link["ended"]:  # a resolution ended it: the state it left is recomputed with the old seed
            said = replay_states(_tampered(doc, ["reseeds", i, "ended", "state_after"],
                                           doc["resolutions"][0]["state_before"])).difference
            assert said is not None and "that ended the match before the GM's undo" in said, said


def test_a_match_never_reopened_keeps_its_record_as_before_and_a_chain_reads_back() -> None:
    """A match whose end no undo took back writes what it wrote before the chain existed: its seed cell the seed's
    hex alone, no history row naming a seed, no chain in its replay. A record with a chain reads back the same."""
    match = Match("gvg")
    match.bots_play()
    read = match.read()
    record = read.record
    assert record.reseeds == () and record.values()[MATCH_KEYS.index("seed")] == [record.seed.hex()]
    doc = match_replay(match.sheets, match.cls)
    assert "reseeds" not in doc and all("seed" not in e for e in doc["resolutions"])
    chained = reseeded(record, "oops", {"adjustment": "gave up"}, seed=b"fresh")
    rows = [[key, *value] for key, value in zip(MATCH_KEYS, chained.values(), strict=True)]
    again = parse_match_record(rows, "engine")
    assert again.reseeds == chained.reseeds and again.seeds == (record.seed, b"fresh")
    assert again.dice_seed == b"fresh" and again.seed_hash == record.seed_hash  # the match's id stays
