"""Noninterference, the engine half: what a seat is given is a function of what it may see, and of nothing else.

Two states that differ only in what seat S may not see (``Ruleset.unseen_twin``) must give S the same view, the
same public board and the same state for its bot (``seat_state``), and so the same orders from its bot with the
same dice. ``differences`` lists what differs; the tests call it on bot matches, and on deliberate leaks to show
it can fail.

Across a resolution (``differences_after``): twins that differ only in what S may not see (the state's hidden part,
another seat's orders), resolved through the same orders, give S the same lines of the Log and the public the same,
but for the events the game names as reveals (``Ruleset.reveals``); what the new state shows is the views' to say
(each new state is held to the first property in turn), and where the views and the reveals are the same, everything
else S is handed (its bot's state and orders) is the same too. And an engine keeps nothing of orders it did not
carry out (``kept_differences``): twin windows whose orders differ, after which every seat's view and the public
board are the same, end in the same state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import visible_to
from sheets_gm.engine.ruleset import BotKind, Ruleset
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


def received(rules: AnyRuleset, state: Any, seat: str, bot_secret: bytes,
             bots: Mapping[str, BotKind] | None = None) -> dict[str, str]:
    """Everything the engine hands ``seat`` in ``state``, by what it is: its view, the public board, the state its
    bot is given and the orders its bot gives (made from ``bot_secret``, with the rolls every seat is shown; the
    game's first kind of bot, or the first of ``bots``)."""
    out = {"its view": canonical(rules.view(state, seat)), "the public board": canonical(rules.view(state, None)),
           "its bot's state": canonical(rules.state_codec.to_json(rules.seat_state(state, seat)))}
    window = rules.window(state)
    if window is not None and seat in window.seats:
        shown = rules.rolls_shown(state, rules.dice(b"noninterference", state))
        dice = TurnDice(bot_secret, window.turn, shown, die_sides=None)
        bot = next(iter((bots or bots_of(rules)).values())).make(bot_secret.hex())
        orders = bot.orders(rules.seat_state(state, seat), seat, dice)
        out["its bot's orders"] = canonical(rules.orders_codec.to_json(rules.merge_orders({seat: orders})))
    return out


def differences(rules: AnyRuleset, state: Any, twin: Any, seat: str) -> list[str]:
    """What ``seat`` is handed differently in ``state`` and ``twin`` (two states it may not tell apart)."""
    secret = b"noninterference/" + seat.encode()
    mine, other = received(rules, state, seat, secret), received(rules, twin, seat, secret)
    return [f"{seat}: {what} differs" for what in mine if mine[what] != other.get(what)]


def json_differences(mine: str, theirs: str, most: int = 4) -> list[str]:
    """Where two JSON texts differ, each place named by its path with both values (the first ``most``):
    ``state.pending.players.blue1.move: 'F21' / 'C17'``."""
    out: list[str] = []

    def walk_json(a: Any, b: Any, path: str) -> None:
        if len(out) >= most or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk_json(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for n, (x, y) in enumerate(zip(a, b, strict=True)):
                walk_json(x, y, f"{path}[{n}]")
        else:
            out.append(f"{path or '(whole)'}: {a!r} / {b!r}")

    walk_json(json.loads(mine), json.loads(theirs), "")
    return out


#: What a resolution shows the public by the game's own declaration: the public board of the new state (held to
#: noninterference state by state) and the public lines of the kinds the game names as reveals.
PUBLIC_SHOWN = ("the public board", "the public reveals")
#: What it shows a seat so: the public's, its view of the new state, and the reveals it reads.
SEAT_SHOWN = (*PUBLIC_SHOWN, "its view", "the reveals it reads")


#: Resolutions worked out once in a walk over one state: by the state (its ``id``, the state kept with it while the
#: walk lasts), the orders and the seed, the state and its resolution.
Resolutions = dict[tuple[int, str, bytes], tuple[Any, Any]]


def resolution(rules: AnyRuleset, state: Any, orders: Any, seed: bytes, done: Resolutions | None = None) -> Any:
    """``rules.resolve`` of ``orders`` in ``state`` with the match's dice of ``seed``: worked out once per ``done``
    (a walk's, over one state: the same orders of one seat are resolved beside each twin of the others')."""
    if done is None:
        return rules.resolve(state, orders, rules.dice(seed, state))
    key = (id(state), canonical(rules.orders_codec.to_json(orders)), seed)
    if key not in done:
        done[key] = (state, rules.resolve(state, orders, rules.dice(seed, state)))
    return done[key][1]


def resolved_for(rules: AnyRuleset, state: Any, orders: Any, seed: bytes, seat: str,
                 bots: Mapping[str, BotKind] | None = None,
                 done: Resolutions | None = None) -> tuple[dict[str, str], Any]:
    """Everything ``seat`` is handed once ``orders`` resolve in ``state`` (the match's dice of ``seed``), by what it
    is: the lines of the resolution it reads and the public Log's, each split into the game's reveals and the
    others, then what ``received`` names in the new state; and the new state."""
    resolved = resolution(rules, state, orders, seed, done)

    def lines(who: str | None, reveal: bool) -> str:
        return canonical([e.text for e in visible_to(resolved.events, who) if (e.kind in rules.reveals) is reveal])

    told = {"the public reveals": lines(None, True), "the public Log's other lines": lines(None, False),
            "the reveals it reads": lines(seat, True), "the other lines it reads": lines(seat, False)}
    return {**told, **received(rules, resolved.state, seat, b"noninterference/" + seat.encode(), bots)}, resolved.state


def differences_after(rules: AnyRuleset, twins: tuple[tuple[Any, Any], tuple[Any, Any]], seed: bytes, seat: str,
                      bots: Mapping[str, BotKind] | None = None,
                      done: Resolutions | None = None) -> tuple[list[str], bool]:
    """What ``seat`` is handed differently once each of ``twins`` (a state and the orders resolved in it, the two
    differing only in what ``seat`` may not see) resolves, where the game's declarations do not allow it: the
    public Log's other lines where the public board and reveals are the same; anything else where its view and
    the reveals it reads are the same too. And whether the twins were so compared (not told apart by a reveal or
    a view). Each difference names the place and both values."""
    (mine, _), (theirs, _) = (resolved_for(rules, s, o, seed, seat, bots, done) for s, o in twins)
    differ = [what for what in {**mine, **theirs} if mine.get(what) != theirs.get(what)]
    compared = not set(differ) & set(SEAT_SHOWN)
    if compared:
        checked = differ
    elif not set(differ) & set(PUBLIC_SHOWN) and "the public Log's other lines" in differ:
        checked = ["the public Log's other lines"]
    else:
        checked = []
    found = [f"{seat}: {what} differs, though {'nothing it is shown' if compared else 'nothing public'} does: "
             f"{'; '.join(json_differences(mine.get(what, 'null'), theirs.get(what, 'null'), 2))}" for what in checked]
    return found, compared


def kept_differences(rules: AnyRuleset, state: Any, orders: tuple[Any, Any], seed: bytes,
                     done: Resolutions | None = None) -> tuple[list[str], bool]:
    """Where the states after the same window resolved with each of two ``orders`` differ although every seat's view
    and the public board after it are the same (orders nobody sees carried out were not carried out: the state may
    keep nothing of them); and whether the two were so compared."""
    after = [resolution(rules, state, o, seed, done).state for o in orders]
    seats = sorted({*rules.seats(after[0]), *rules.seats(after[1])})
    shown = [canonical([rules.view(s, None), *(rules.view(s, seat) for seat in seats)]) for s in after]
    if shown[0] != shown[1]:
        return [], False
    states = [canonical(rules.state_codec.to_json(s)) for s in after]
    return [f"the state keeps what nobody is shown: {d}" for d in json_differences(states[0], states[1])], True
