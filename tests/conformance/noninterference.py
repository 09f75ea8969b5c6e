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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import visible_to
from sheets_gm.engine.reveals import reveal_of
from sheets_gm.engine.ruleset import BotKind, Ruleset, Verdict
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


def differences(rules: AnyRuleset, state: Any, twin: Any, seat: str,
                bots: Mapping[str, BotKind] | None = None) -> list[str]:
    """What ``seat`` is handed differently in ``state`` and ``twin`` (two states it may not tell apart; its bot the
    game's first kind, or the first of ``bots``)."""
    secret = b"noninterference/" + seat.encode()
    mine, other = received(rules, state, seat, secret, bots), received(rules, twin, seat, secret, bots)
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
#: noninterference state by state), and what the reveals of the public lines make public.
PUBLIC_SHOWN = ("the public board",)
#: What it shows a seat so: the public's, its view of the new state, and what the reveals it reads make public.
SEAT_SHOWN = (*PUBLIC_SHOWN, "its view")
#: The readers of a resolution's lines of reveals, the public and the seat, each by the key of the lines it reads (by
#: kind), with what else it is shown of the new state.
READERS = {"the public reveals": PUBLIC_SHOWN, "the reveals it reads": SEAT_SHOWN}
#: The key of what each reveal makes public of a resolution (its declared fields).
REVEALED = "what each reveal makes public"


@dataclass
class Worked:
    """One resolution worked out in a walk: the state it started from (kept while the walk lasts, its ``id`` a key),
    the resolution, and, once asked, the check's verdicts and the JSON of the state, the new state and the orders."""

    state: Any
    resolved: Any
    verdicts: list[Verdict] | None = None
    jsons: tuple[Any, Any, Any] | None = None
    shown: dict[tuple[str, ...], str] = field(default_factory=dict)  # views of the new state, by seats (``_shown``)


#: Resolutions worked out once in a walk over one state: by the state's ``id``, the orders and the seed.
Resolutions = dict[tuple[int, str, bytes], Worked]


def worked(rules: AnyRuleset, state: Any, orders: Any, seed: bytes, done: Resolutions | None = None) -> Worked:
    """``rules.resolve`` of ``orders`` in ``state`` with the match's dice of ``seed``: worked out once per ``done``
    (a walk's, over one state: the same orders of one seat are resolved beside each twin of the others')."""
    if done is None:
        return Worked(state, rules.resolve(state, orders, rules.dice(seed, state)))
    key = (id(state), canonical(rules.orders_codec.to_json(orders)), seed)
    if key not in done:
        done[key] = Worked(state, rules.resolve(state, orders, rules.dice(seed, state)))
    return done[key]


def resolution(rules: AnyRuleset, state: Any, orders: Any, seed: bytes, done: Resolutions | None = None) -> Any:
    """The resolution ``worked`` out."""
    return worked(rules, state, orders, seed, done).resolved


def resolved_for(rules: AnyRuleset, state: Any, orders: Any, seed: bytes, seat: str,
                 bots: Mapping[str, BotKind] | None = None,
                 done: Resolutions | None = None) -> tuple[dict[str, str], Any]:
    """Everything ``seat`` is handed once ``orders`` resolve in ``state`` (the match's dice of ``seed``), by what it
    is: its feedback on its orders; the lines of the resolution it reads and the public Log's, the game's reveals
    (by kind) apart from the others; what each reveal makes public of the resolution (``Reveal.of``: its declared
    fields); then what ``received`` names in the new state; and the new state."""
    work = worked(rules, state, orders, seed, done)
    resolved = work.resolved
    if work.verdicts is None:
        work.verdicts = rules.check(state, orders, rules.dice(seed, state))
    if work.jsons is None and rules.reveals:
        codec = rules.state_codec.to_json
        work.jsons = (codec(state), codec(resolved.state), rules.orders_codec.to_json(orders))

    def lines(who: str | None, reveal: bool) -> str:
        if not reveal:
            return canonical([e.text for e in visible_to(resolved.events, who)
                              if reveal_of(rules.reveals, e.kind) is None])
        by_kind: dict[str, list[str]] = {}
        for event in visible_to(resolved.events, who):
            if reveal_of(rules.reveals, event.kind) is not None:
                by_kind.setdefault(str(event.kind), []).append(event.text)
        return canonical(by_kind)

    told = {"its feedback": canonical([v.message for v in work.verdicts if v.seat == seat]),
            REVEALED: canonical({str(r.kind): r.of(*work.jsons) for r in rules.reveals} if work.jsons else {}),
            "the public reveals": lines(None, True), "the public Log's other lines": lines(None, False),
            "the reveals it reads": lines(seat, True), "the other lines it reads": lines(seat, False)}
    return {**told, **received(rules, resolved.state, seat, b"noninterference/" + seat.encode(), bots)}, resolved.state


def told_apart(mine: Mapping[str, str], theirs: Mapping[str, str], reader: str) -> bool:
    """Whether the game's declarations show ``reader`` (``the public reveals`` or ``the reveals it reads``) the two
    twins apart: the board or view it is shown (``READERS``), or the fields of a reveal whose lines it reads in
    either."""
    if any(mine.get(k) != theirs.get(k) for k in READERS[reader]):
        return True
    told = set(json.loads(mine[reader])) | set(json.loads(theirs[reader]))
    fields = [json.loads(t[REVEALED]) for t in (mine, theirs)]
    return any(fields[0].get(kind) != fields[1].get(kind) for kind in told)


def reveal_differences(mine: Mapping[str, str], theirs: Mapping[str, str]) -> list[str]:
    """The lines of a kind of reveal that differ between two twins (its text, or whether it is there) although
    what the kind makes public is the same in both: a line that tells more than its declared fields."""
    found: list[str] = []
    fields = [json.loads(t[REVEALED]) for t in (mine, theirs)]
    for reader in READERS:
        lines = [json.loads(t[reader]) for t in (mine, theirs)]
        for kind in sorted(set(lines[0]) | set(lines[1])):
            one, other = (canonical(side.get(kind, [])) for side in lines)
            if one != other and fields[0].get(kind) == fields[1].get(kind):
                found.append(f"{reader} of kind {kind} differ, though the fields its reveal declares are the same: "
                             f"{'; '.join(json_differences(one, other, 2))}")
    return found


def differences_after(rules: AnyRuleset, twins: tuple[tuple[Any, Any], tuple[Any, Any]], seed: bytes, seat: str,
                      bots: Mapping[str, BotKind] | None = None,
                      done: Resolutions | None = None) -> tuple[list[str], bool]:
    """What ``seat`` is handed differently once each of ``twins`` (a state and the orders resolved in it, the two
    differing only in what ``seat`` may not see) resolves, where the game's declarations do not allow it: a
    reveal's lines where the fields it declares are the same (``reveal_differences``); the public Log's other
    lines where the public is not shown the twins apart (``told_apart``); anything else (its feedback on its
    orders, the other lines it reads, its bot's state and orders) where the seat is not either. And whether the
    twins were so compared (not told apart by a view or a reveal's fields). Each difference names the place and
    both values."""
    (mine, _), (theirs, _) = (resolved_for(rules, s, o, seed, seat, bots, done) for s, o in twins)
    differ = [what for what in {**mine, **theirs} if mine.get(what) != theirs.get(what)
              and what not in (*READERS, REVEALED, *SEAT_SHOWN)]
    compared = not told_apart(mine, theirs, "the reveals it reads")
    if compared:
        checked = differ
    elif not told_apart(mine, theirs, "the public reveals") and "the public Log's other lines" in differ:
        checked = ["the public Log's other lines"]
    else:
        checked = []
    found = [f"{seat}: {what} differs, though {'nothing it is shown' if compared else 'nothing public'} does: "
             f"{'; '.join(json_differences(mine.get(what, 'null'), theirs.get(what, 'null'), 2))}" for what in checked]
    found += [f"{seat}: {d}" for d in reveal_differences(mine, theirs)]
    return found, compared


def kept_differences(rules: AnyRuleset, state: Any, orders: tuple[Any, Any], seed: bytes,
                     done: Resolutions | None = None) -> tuple[list[str], bool]:
    """Where the states after the same window resolved with each of two ``orders`` differ although every seat's view
    and the public board after it are the same (orders nobody sees carried out were not carried out: the state may
    keep nothing of them); and whether the two were so compared."""
    works = [worked(rules, state, o, seed, done) for o in orders]
    after = [work.resolved.state for work in works]
    seats = sorted({*rules.seats(after[0]), *rules.seats(after[1])})
    shown = [_shown(rules, work, seats) for work in works]
    if shown[0] != shown[1]:
        return [], False
    states = [canonical(rules.state_codec.to_json(s)) for s in after]
    return [f"the state keeps what nobody is shown: {d}" for d in json_differences(states[0], states[1])], True


def _shown(rules: AnyRuleset, work: Worked, seats: list[str]) -> str:
    """The public board and every one of ``seats``' view after ``work``, drawn once a walk: the same orders of one
    seat are compared beside each twin of the others'."""
    key = tuple(seats)
    if key not in work.shown:
        state = work.resolved.state
        work.shown[key] = canonical([rules.view(state, None), *(rules.view(state, seat) for seat in seats)])
    return work.shown[key]
