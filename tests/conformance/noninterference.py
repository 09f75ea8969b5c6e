"""Noninterference, the engine half: what a seat is given is a function of what it may see, and of nothing else.

Two states that differ only in what seat S may not see (``Ruleset.unseen_twin``) must give S the same view, the
same public board and the same state for its bot (``seat_state``), and so the same orders from its bot with the
same dice. ``differences`` lists what differs; the tests call it on bot matches, and on deliberate leaks to show
it can fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import Ruleset
from sheets_gm.match.config import MatchConfig
from sheets_gm.rulesets.registry import bots_of
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.sheets import MatchSheets

AnyRuleset = Ruleset[Any, Any, Any]


def canonical(data: Any) -> str:
    """JSON text that compares equal for equal data."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)


_OPENED: dict[Path, MatchSheets] = {}
_KEPT_OPEN = 4  # the matches a test walks at once (twins: two), and a few more


def opened(config: MatchConfig) -> MatchSheets:
    """The sheets of the match ``config`` names, opened once while a test walks it (the last few matches opened stay
    open): each backend keeps its workbook loaded while its file is unchanged (size, mtime, inode), as a host polling
    in one process does, so a walk's reads between polls do not load every workbook again, and a file a test or a
    player saves over is loaded anew."""
    sheets = _OPENED.pop(config.path, None) or open_match_sheets(config)
    _OPENED[config.path] = sheets  # the last used last: the first is the one let go
    while len(_OPENED) > _KEPT_OPEN:
        del _OPENED[next(iter(_OPENED))]
    return sheets


def received(rules: AnyRuleset, state: Any, seat: str, bot_secret: bytes) -> dict[str, str]:
    """Everything the engine hands ``seat`` in ``state``, by what it is: its view, the public board, the state its
    bot is given and the orders its bot gives (made from ``bot_secret``, with the rolls every seat is shown)."""
    out = {"its view": canonical(rules.view(state, seat)), "the public board": canonical(rules.view(state, None)),
           "its bot's state": canonical(rules.state_codec.to_json(rules.seat_state(state, seat)))}
    window = rules.window(state)
    if window is not None and seat in window.seats:
        shown = rules.rolls_shown(state, rules.dice(b"noninterference", state))
        dice = TurnDice(bot_secret, window.turn, shown, die_sides=None)
        bot = next(iter(bots_of(rules).values())).make(bot_secret.hex())
        orders = bot.orders(rules.seat_state(state, seat), seat, dice)
        out["its bot's orders"] = canonical(rules.orders_codec.to_json(rules.merge_orders({seat: orders})))
    return out


def differences(rules: AnyRuleset, state: Any, twin: Any, seat: str) -> list[str]:
    """What ``seat`` is handed differently in ``state`` and ``twin`` (two states it may not tell apart)."""
    secret = b"noninterference/" + seat.encode()
    mine, other = received(rules, state, seat, secret), received(rules, twin, seat, secret)
    return [f"{seat}: {what} differs" for what in mine if mine[what] != other.get(what)]
