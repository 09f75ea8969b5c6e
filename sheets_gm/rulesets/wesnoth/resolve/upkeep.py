"""The end of a turn, a round and the match: conquest, the last team standing, income and healing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.resolve.work import TurnWork
from sheets_gm.rulesets.wesnoth.state import Unit


def conquest(work: TurnWork, unit: Unit) -> None:
    """Remove the player whose keep the unit stands on, with her units and villages."""
    rules = work.rules
    owner = rules.keep_owner(work.state(), unit.at)
    if owner is None or work.team(owner) == work.team(unit.owner):
        work.verdict(unit, unit.id, "conquest", False, f"{unit.at.label} is not an enemy keep; conquest is made "
                                                       "from the keep of an enemy still in the game")
        return
    work.acted.append(unit.id)
    i, loser = work.player(owner)
    work.players[i] = replace(loser, out=True)
    gone = [u.id for u in work.units.values() if u.owner == owner]
    for uid in gone:
        del work.units[uid]
    lost = [h for h, o in work.villages.items() if o == owner]
    for h in lost:
        del work.villages[h]
    work.verdict(unit, unit.id, "conquest", True, f"conquered {owner}'s castle")
    work.event(EventKind.CONQUERED, f"{unit.id} conquers {owner}'s keep on {unit.at.label}: {owner} leaves the "
               f"game with {len(gone)} unit{'s' if len(gone) != 1 else ''}; {len(lost)} village"
               f"{'s' if len(lost) != 1 else ''} unowned", player=owner, by=unit.owner, units=gone)
    check_end(work)


def check_end(work: TurnWork) -> None:
    """The game ends when the living leaders all belong to one team (a draw if none lives)."""
    if work.finished:
        return
    ended = leaders_end({work.team(u.owner) for u in work.units.values() if u.leader}, work.start.team_and_players)
    if ended is None:
        return
    work.finished = True
    work.winner, text = ended
    work.event(EventKind.GAME_OVER, text, winner=work.winner)


def leaders_end(teams: set[int], label: Callable[[int], str]) -> tuple[int | None, str] | None:
    """The end the rules give when the living leaders belong to ``teams`` (None while two or more teams have
    one): the winning team (None for a draw, no leader left) and the Log's line. A resolution and a GM's change
    (``gm.apply_gm_event``, a concession) end a game by this one check.

    >>> leaders_end({1, 2}, lambda t: f"team {t}") is None
    True
    >>> leaders_end({2}, lambda t: f"team {t}")
    (2, 'The game is over: won by team 2')
    """
    if len(teams) > 1:
        return None
    winner = next(iter(teams)) if teams else None
    text = f"won by {label(winner)}" if winner is not None else "no leader is left: a draw"
    return winner, f"The game is over: {text}"


def end_turn(work: TurnWork) -> None:
    """Pass the turn to the next player in roster order who is still in the game and has units."""
    acting = work.players[work.acting].name
    for uid, u in list(work.units.items()):
        if u.owner == acting and u.fresh:
            work.units[uid] = replace(u, fresh=False)
    work.acted = []
    work.event(EventKind.TURN_ENDED, f"{acting} ends her turn", player=acting)
    work.turn += 1
    count = len(work.players)
    for _ in range(count):
        work.acting += 1
        if work.acting >= count:
            work.acting = 0
            new_round(work)
            if work.finished:
                return
        p = work.players[work.acting]
        if not p.out and any(u.owner == p.name for u in work.units.values()):
            return
    check_end(work)


def new_round(work: TurnWork) -> None:
    """The next round: the round limit, the time of day, and the dawn and dusk income."""
    settings = work.rules.settings
    if work.round >= settings.max_rounds:
        work.finished = True
        work.winner = None
        work.event(EventKind.GAME_OVER, f"The game is over: round {work.round} was the last, a draw",
                   winner=None)
        return
    work.round += 1
    work.tod_override = ""
    tod = work.tod
    work.event(EventKind.ROUND, f"Round {work.round} begins: {tod}", round=work.round, time_of_day=tod)
    if tod not in ("dawn", "dusk"):
        return
    counts = {p.name: 0 for p in work.players if not p.out}
    for owner in work.villages.values():
        if owner in counts:
            counts[owner] += 1
    most = max(counts.values(), default=0)
    if most == 0:
        return
    for name, n in counts.items():
        if n == most:
            total = work.gold(name, settings.income_gold)
            work.event(EventKind.INCOME, f"{name} holds the most villages ({n}) at {tod}: "
                       f"{settings.income_gold} gold ({total} gold)", player=name, gold=settings.income_gold)
