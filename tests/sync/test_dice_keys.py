"""Every die the Log names is printed whole, its HMAC message as ``verify`` computes it (issue 54, item 10), so that
anyone can check one by hand once the seed is revealed: after an undo, a window's dice carry their deal."""

from __future__ import annotations

import hmac
import re

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.rulesets.winordie.setup import roll_first
from sheets_gm.sheets.layout import a1
from sheets_gm.sync.life.adjust_undo import undo_window
from tests.sync.test_typed_row_lifecycle import Match

_DIE = re.compile(r"roll(?:s|ed) (\d) \[([^\]]+)\]")


def _by_hand(seed: bytes, message: str) -> int:
    """A d6 from its message, as the rules pages say to check one: the first byte of HMAC-SHA256(seed, message)
    below 252, modulo 6, plus 1."""
    return next(b % 6 + 1 for b in hmac.digest(seed, message.encode(), "sha256") if b < 252)


def test_each_gvg_die_in_the_log_checks_by_hand_from_its_printed_message_after_an_undo_too() -> None:
    match = Match("gvg")
    match.bots_play()
    undo_window(match.sheets, match.cls, "typed by the wrong team")
    match.bots_play()
    read = match.read()
    seed = read.record.seed
    log = [str(line[2]) for line in match.sheets.board.read([a1(read.tabs.spec.tabs.log, "A2:C400")])[0]
           if len(line) > 2]
    dice = [(int(v), m) for line in log for v, m in _DIE.findall(line)]
    assert dice, log
    # the rolls public before the orders keep their first deal, as the replay deals them (``TurnDice.message``)
    assert all(m.startswith("1/move/") for _, m in dice if "/move/" in m), dice
    assert all(_by_hand(seed, m) == v for v, m in dice), dice


def test_win_or_die_logs_every_first_player_roll_a_tie_too() -> None:
    r = create_ruleset("winordie")
    state = r.new_match(r.sample_roster(), b"first")
    a, b = state.seats
    events: list[Event] = []
    first = roll_first(state, TurnDice(b"s", 0, {f"first/1/{a}": 3, f"first/1/{b}": 3, f"first/2/{a}": 1,
                                                 f"first/2/{b}": 4}), events)
    assert first == b
    assert [e.text for e in events] == [
        f"{a} rolls 3 [0/first/1/{a}], {b} rolls 3 [0/first/1/{b}]: a tie, both roll again.",
        f"{a} rolls 1 [0/first/2/{a}], {b} rolls 4 [0/first/2/{b}]: {b} plays first."]
