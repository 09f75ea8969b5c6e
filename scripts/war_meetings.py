"""Turn 2 of the war by mail (``rehearse_war_by_mail.py``): whether each pair that held in turn 1 met as its mail
asked, and for a pair that did not, the rule that kept it apart.

The rules promise the meeting unless one of the pair was already held by a battle when turn 2's movement began: a
loser of turn 1 with no free square around its battle is bumped into an enemy's square, and the two fight an
*intercepts* battle next turn (rulings, "Battles": after the results). An army in battle takes no order until the
battle ends, so the move its player mailed before the bump is void. Any other pair that did not meet has nothing in
the rules to explain it (an order lost, misread or refused wrongly): the check fails on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.rulesets.coalition.enums import BattleType
from sheets_gm.rulesets.coalition.state import Battle, CoalitionState


@dataclass(frozen=True)
class Meeting:
    """One held pair after turn 2's movement: its two armies, whether they met in a battle announced, and when they
    did not, why by the rules (``why`` empty: nothing in the rules explains it)."""

    coalition: str
    phyrexia: str
    met: bool
    why: str = ""


def meetings(state: CoalitionState, pairs: Sequence[tuple[str, str]]) -> list[Meeting]:
    """Each pair of ``pairs`` (Coalition army, Phyrexian army) as turn 2's movement left it in ``state``."""
    fighting = {name: b for b in state.battles if b.announced for name in b.armies}
    out = []
    for coalition, phyrexia in pairs:
        battle = fighting.get(coalition)
        met = battle is not None and phyrexia in battle.armies
        out.append(Meeting(coalition, phyrexia, met, "" if met else _kept_apart(state, (coalition, phyrexia))))
    return out


def bumped_onto(state: CoalitionState, battle: Battle) -> str:
    """The army that a turn-1 bump put on an enemy's square to make ``battle`` (an intercepts battle whose two
    enemies both stood on its square when turn 2's movement began), or ``""``."""
    if battle.type is not BattleType.INTERCEPTS or len(battle.armies) != 2:
        return ""
    armies = state.by_name()
    holder, bumped = battle.armies  # the army bumped onto is named first, the bumped one second
    sides = {armies[n].side for n in battle.armies if n in armies}
    started = {state.turn_start.get(n) for n in battle.armies}
    return bumped if len(sides) == 2 and started == {battle.at} and holder in armies else ""


def _kept_apart(state: CoalitionState, pair: tuple[str, str]) -> str:
    """Why by the rules ``pair`` did not meet: one of them held by a turn-1 loser bumped onto it; ``""`` when no
    rule explains it."""
    for name in pair:
        for battle in (b for b in state.battles if name in b.armies):
            bumped = bumped_onto(state, battle)
            if bumped and bumped not in pair:
                return (f"{bumped}, a loser of turn 1 bumped onto {name} at {battle.at} (no free square around its "
                        f"battle), holds it in an intercepts battle (an army in battle takes no order) "
                        f"[{_told(state, pair)}]")
    return ""


def summary(state: CoalitionState, found: Sequence[Meeting]) -> list[str]:
    """The check's lines: the battles announced by kind, the pairs met, kept apart by the rules (each with why) and
    unexplained (each with the engine's report)."""
    announced = [b for b in state.battles if b.announced]
    met = sum(m.met for m in found)
    kept = [m for m in found if not m.met and m.why]
    lost = [m for m in found if not m.met and not m.why]
    bumps = sum(1 for b in announced if bumped_onto(state, b))
    other = len(announced) - met - bumps
    lines = [f"{len(announced)} battles announced: {met} the meetings of the {len(found)} pairs that held in turn 1, "
             f"{bumps} intercepts of turn 1's losers bumped onto an enemy{f', {other} other' if other else ''}; "
             f"of the pairs, {met} met, {len(kept)} kept "
             f"apart by the rules, {len(lost)} not met with nothing in the rules to explain it"]
    lines += [f"  {m.coalition} and {m.phyrexia} kept apart: {m.why}" for m in kept]
    lines += [f"  {m.coalition} and {m.phyrexia} did NOT meet: {_told(state, (m.coalition, m.phyrexia))}" for m in lost]
    return lines


def _told(state: CoalitionState, pair: tuple[str, str]) -> str:
    """What the engine reported of the pair's moves (an order lost shows as held: no order read)."""
    moves = {m.army: m for m in state.movement}
    return "; ".join(f"{n}: {m.code.value} {m.start} -> {m.end}{' (' + m.note + ')' if m.note else ''}"
                     if (m := moves.get(n)) is not None else f"{n}: no move reported"
                     for n in pair)
