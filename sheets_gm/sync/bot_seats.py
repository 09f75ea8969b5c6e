"""Seats one of the game's bots plays in a real match: it types its rows as a player would.

The engine record names them (``MatchRecord.bots``: a seat, or one member of a team or a side, and the kind of
bot), set at ``init`` (the config's ``[bots]``, the roster's ``bot`` column, ``--practice``) and changed by the
GM's ``adjust --bot`` (logged, undone by ``undo`` like any adjustment). When a window opens in which a bot's seat
acts, the bot decides and its rows go into the very write that draws the seat's tables for that window, as rows
a player typed: so they are read, answered, archived and replayed like anyone's, and the bot costs no write of
its own. A bot that plays a whole seat ticks its Ready box; one that plays a member types that member's rows.

A bot sees only what its seat may see: the state as the seat knows it (``Ruleset.seat_state``: what its view
shows) and dice of its own, keyed by a secret drawn from the seed that tells nothing of the seed or the match's
dice, with only the rolls every seat is shown pinned (``Ruleset.rolls_shown``: GvG's movement rolls). So it plans
with dice of its own, as a person imagines hers, and a row the real dice spoil is answered like a person's.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.ruleset import JUDGE, SeatKind, Window
from sheets_gm.rulesets.registry import AnyRuleset, bots_of
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.spec import SEAT_ROWS
from sheets_gm.sheets.tables import InputTab, TypedRow
from sheets_gm.sync.autoplay import typed_values
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.rows.fates import SeatSettled
from sheets_gm.sync.rows.seat_read import cells_text

#: The kind that hands a seat back to a person (``adjust --bot Bo=none``).
NO_BOT = "none"


class BotSeatError(ValueError):
    """A bot seat asked for that cannot be: an unknown seat or member, an unknown kind of bot."""


def bot_secret(seed: bytes, seat: str) -> bytes:
    """The key of the dice and choices of the bot playing ``seat``: an HMAC of the match seed, from which neither
    the seed nor any die of the match can be worked out.

    >>> bot_secret(b"seed", "Bo") != bot_secret(b"seed", "Ann") and len(bot_secret(b"seed", "Bo")) == 32
    True
    """
    return hmac.digest(seed, f"sheets-gm bot seat/{seat}".encode(), "sha256")


@dataclass(frozen=True)
class BotInput:
    """Everything a bot playing ``seat`` is given: the state as the seat knows it and the bot's own dice."""

    seat: str
    state: Any
    dice: TurnDice


def bot_input(record: MatchRecord, state: Any, seat: str) -> BotInput:
    """What the bot of ``seat`` reads in the window open in ``state``: ``seat_state`` and its own dice for the
    window, the rolls every seat is shown pinned."""
    ruleset = record.ruleset
    window = ruleset.window(state)
    turn = window.turn if window is not None else 0
    shown = ruleset.rolls_shown(state, record.dice(state))
    return BotInput(seat, ruleset.seat_state(state, seat), TurnDice(bot_secret(record.dice_seed, seat), turn, shown,
                                                                     die_sides=None))


def kind_names(ruleset: AnyRuleset) -> list[str]:
    """The kinds of bot of the game, the default (its best) first."""
    return list(bots_of(ruleset))


def check_kind(ruleset: AnyRuleset, kind: str, name: str) -> str:
    """``kind`` as the game names it, or BotSeatError listing the game's bots."""
    kinds = kind_names(ruleset)
    found = next((k for k in kinds if k.lower() == kind.strip().lower()), None)
    if found is None:
        accepted = ", ".join(kinds) or "(none: this game has no bot)"
        raise BotSeatError(f"{name}={kind}: a {ruleset.traits.name} match has no bot called {kind.strip()!r}; its "
                           f"bots are {accepted} (or {NO_BOT} to hand the seat back to a person)")
    return found


def members(adapter: AnySheetAdapter, tabs_of: Mapping[str, InputTab], state: Any) -> dict[str, str]:
    """The subjects of every seat's rows (its players, units or armies; not its seat row), with their seat."""
    found: dict[str, str] = {}
    for seat, tab in tabs_of.items():
        for placed in tab.tables:
            if placed.spec.rows != SEAT_ROWS:
                for subject in adapter.rows(state, seat, placed.spec):
                    found.setdefault(subject, seat)
    return found


def seat_of(name: str, seats: Sequence[str], member_seats: Mapping[str, str]) -> str | None:
    """The seat ``name`` is (a seat) or belongs to (a member), or None."""
    if name in seats:
        return name
    return member_seats.get(name)


def checked_bots(ruleset: AnyRuleset, adapter: AnySheetAdapter, tabs: MatchTabs, state: Any,
                 wanted: Mapping[str, str], now: Mapping[str, str] | None = None) -> dict[str, str]:
    """The bots of a match: ``now`` (none by default) changed by ``wanted`` (a seat's or member's name and a kind
    of bot, or ``none`` to hand it back to a person); BotSeatError naming what is no seat or member, no bot of the
    game, a member of a seat a bot already plays whole, or a name no bot plays handed back."""
    found = dict(now or {})
    seats = (*tabs.seats, *((JUDGE,) if ruleset.traits.judge else ()))  # the Coalition's stand-in judge plays one
    groups = ruleset.traits.seat_kind is not SeatKind.PLAYER  # a team's player, a side's army: a member of a seat
    member_seats = members(adapter, {seat: tabs.orders(seat) for seat in tabs.seats}, state) if groups else {}
    for name, kind in wanted.items():
        if seat_of(name, seats, member_seats) is None:
            listed = list(member_seats)[:12]
            more = "…" if len(member_seats) > len(listed) else ""
            raise BotSeatError(f"{name}={kind}: {name!r} is no seat of this match"
                               + (" nor one of its members" if groups else "") + f"; the seats are {', '.join(seats)}"
                               + (f", the members {', '.join(listed)}{more}" if listed else ""))
        if kind.strip().lower() == NO_BOT:
            if name not in found:
                raise BotSeatError(f"{name}={NO_BOT}: no bot plays {name}; "
                                   + (f"bots play {', '.join(found)}" if found else "no bot plays in this match"))
            del found[name]
            continue
        found[name] = check_kind(ruleset, kind, name)
    for name in found:
        seat = member_seats.get(name)
        if name not in seats and seat in found:
            raise BotSeatError(f"{name}: the {found[seat]} bot plays its whole seat, {seat}, already")
    return found


def bot_rows(record: MatchRecord, adapter: AnySheetAdapter, state: Any, window: Window, seat: str,
             tab: InputTab) -> tuple[dict[str, dict[str, TypedRow]], frozenset[str] | None]:
    """The rows the bots of ``seat`` type for ``window`` (its own bot, or its members' bots), by table and subject,
    stamped for the window; and the subjects they play (None: the whole seat)."""
    if seat in record.bots:  # a seat, or the judge
        plays: dict[str, frozenset[str] | None] = {record.bots[seat]: None}
    else:
        rows = {s for p in tab.tables if p.spec.rows != SEAT_ROWS for s in adapter.rows(state, seat, p.spec)}
        mine = {name: kind for name, kind in record.bots.items()
                if name not in record.seats and name != JUDGE and name in rows}
        plays = {kind: frozenset(n for n, k in mine.items() if k == kind) for kind in set(mine.values())}
    if not plays:
        return {}, frozenset()
    given = bot_input(record, state, seat)
    kinds = bots_of(record.ruleset)
    out: dict[str, dict[str, TypedRow]] = {}
    for kind, subjects in plays.items():
        if kind not in kinds:  # a kind this build no longer has: the seat waits for its GM
            continue
        bot = kinds[kind].make(f"{bot_secret(record.dice_seed, seat).hex()}/{window.key}")
        orders = bot.orders(given.state, seat, given.dice)
        typed = typed_values(adapter, state, window, seat, orders, tab, ready=subjects is None, subjects=subjects)
        for table, by_subject in typed.items():
            for subject, values in by_subject.items():
                out.setdefault(table, {})[subject] = TypedRow(table, subject, 0, window.key, values, "")
    whole = any(s is None for s in plays.values())
    return out, None if whole else frozenset().union(*(s for s in plays.values() if s is not None))


Rows = dict[str, dict[str, TypedRow]]  # by table, then subject
Notes = dict[str, dict[str, str]]  # a kept row's feedback sentence, by table, then subject


def with_bot_rows(kept: Mapping[str, Mapping[str, TypedRow]], notes: Mapping[str, Mapping[str, str]],
                  record: MatchRecord, adapter: AnySheetAdapter, window: Window | None, seat: str, tab: InputTab,
                  typed: MutableSequence[str]) -> tuple[Rows, Notes]:
    """``kept`` (the rows a drawing of ``seat``'s tables for ``record``'s state keeps as typed) and their ``notes``,
    with its bots' rows for ``window`` in place of what they typed before, when the seat acts in ``window``. A
    drawing comes after a resolution (the window it opens, or the one it leaves open: Win or Die's turn that a
    reaction interrupted, whose Ready the bot ticks again), an adjustment or an undo, and at creation: each time
    the state a bot decided from may have changed. ``seat`` is added to ``typed`` when a bot typed."""
    out = {table: dict(rows) for table, rows in kept.items()}
    said = {table: dict(by) for table, by in notes.items()}
    if not record.bots or window is None or seat not in window.seats:
        return out, said
    rows, plays = bot_rows(record, adapter, record.state, window, seat, tab)
    if plays is not None and not plays:
        return out, said
    standing = {p.spec.name for p in tab.tables if p.spec.standing}
    for table in out:
        if table in standing and plays is None:
            continue
        gone = {s for s in out[table] if plays is None or s in plays}
        out[table] = {s: r for s, r in out[table].items() if s not in gone}
        said[table] = {s: n for s, n in said.get(table, {}).items() if s not in gone}
    for table, by_subject in rows.items():
        for subject, row in by_subject.items():
            before = out.setdefault(table, {}).get(subject)
            if table in standing and not row.typed and before is not None and before.typed:
                continue  # a standing row typed before stays (read, answered): a bot's empty row is no typing over it
            out[table][subject] = row
            said.get(table, {}).pop(subject, None)
    typed.append(seat)
    return out, said


def play_bots(settled: SeatSettled, record: MatchRecord, adapter: AnySheetAdapter, window: Window | None, seat: str,
              tab: InputTab, typed: MutableSequence[str]) -> None:
    """A resolution's settling of ``seat``'s rows (``fates.settle_seat``) with its bots' rows for ``window`` (see
    ``with_bot_rows``): kept and shown as typed, the notes of the rows they replace dropped. A typed row they
    replace with other cells (typed in the seat's file since a bot took it) is set aside to the Archive, never
    dropped."""
    kept, shown = with_bot_rows(settled.kept, settled.shown, record, adapter, window, seat, tab, typed)
    if kept == settled.kept:
        return
    settled.bots_over = [row for table, rows in settled.kept.items() for subject, row in rows.items()
                         if row.typed and _replaced(row, kept.get(table, {}).get(subject))]
    settled.set_aside += settled.bots_over
    settled.notes = [n for n in settled.notes if kept.get(n["table"], {}).get(n["subject"]) is
                     settled.kept.get(n["table"], {}).get(n["subject"])]
    settled.kept, settled.shown = kept, shown


def _replaced(row: TypedRow, now: TypedRow | None) -> bool:
    """Whether ``row`` is gone from a drawing that keeps ``now`` in its place: dropped, or typed over with other
    cells."""
    return now is not row and (now is None or cells_text(now.values) != cells_text(row.values))


def whole_bot_seats(record: MatchRecord) -> frozenset[str]:
    """The seats a bot plays whole (not the judge's, nor a member's): nobody sits there to be told anything."""
    return frozenset(name for name in record.bots if name in record.seats)


#: How many bots the status line names one by one: more are counted (a war's 597 armies named in every notice and
#: on the board would be 13,500 characters).
BOTS_NAMED = 6


def bots_phrase(record: MatchRecord) -> str:
    """Which seats bots play, for the status line: ``bots play Bo (skirmisher), red3 (objective)``; past
    ``BOTS_NAMED`` only counted, by kind: ``597 played by bots (commander)``; '' for none. A seat or member out of
    the game (``Ruleset.seats_out``, asked about the bots' own: a destroyed Coalition army is gone from the state) is
    not named nor counted: its bot plays no more; the stand-in judge is no army nor seat, said apart once the bots
    are counted: ``600 played by bots (commander); the judge's results by the commander bot``."""
    out = record.ruleset.seats_out(record.state, record.bots.keys())
    playing = {name: kind for name, kind in record.bots.items() if name not in out}
    if not playing:
        return ""
    if len(playing) <= BOTS_NAMED:
        return "bots play " + ", ".join(f"{name} ({kind})" for name, kind in playing.items())
    judge = playing.pop(JUDGE, "")
    kinds: dict[str, int] = {}
    for kind in playing.values():
        kinds[kind] = kinds.get(kind, 0) + 1
    said = ", ".join(kind if len(kinds) == 1 else f"{count} {kind}" for kind, count in kinds.items())
    return f"{len(playing)} played by bots ({said})" + (f"; the judge's results by the {judge} bot" if judge else "")
