"""Every die the Log names is printed whole, its HMAC message as ``verify`` computes it (issue 54, item 10), so that
anyone can check one by hand once the seed is revealed: after an undo, a window's dice carry their deal."""

from __future__ import annotations

import hmac
import re

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
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
    events: list[Event] = []

    class Seats:
        seats = ("Ines", "Kwame")

    first = roll_first(Seats(), TurnDice(b"s", 0, {"first/1/Ines": 3, "first/1/Kwame": 3, "first/2/Ines": 1,
                                                   "first/2/Kwame": 4}), events)  # type: ignore[arg-type]
    assert first == "Kwame"
    assert [e.text for e in events] == [
        "Ines rolls 3 [0/first/1/Ines], Kwame rolls 3 [0/first/1/Kwame]: a tie, both roll again.",
        "Ines rolls 1 [0/first/2/Ines], Kwame rolls 4 [0/first/2/Kwame]: Kwame plays first."]
