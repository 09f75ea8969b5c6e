"""The forum's posts as pure functions of the state: Battle Announcements, Movement Results and
Battle Results, ready to paste (the judge's sheet and the turn report tab show them).
"""

from __future__ import annotations

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import BattleType, EventKind, Phase, ResultCode, Side
from sheets_gm.rulesets.coalition.state import Battle, CoalitionState

_PLURAL = {"attacks": "attack", "raids": "raid", "intercepts": "intercept", "besieges": "besiege"}


def reported_turn(state: CoalitionState) -> int:
    """The turn the posts describe: the one waiting for results, else the one just ended."""
    return max(1, state.turn - 1) if state.phase is Phase.ORDERS else state.turn


def battle_title(b: Battle) -> str:
    """``Frank attacks Jeff``; a joint battle names each side's armies: ``Ann and Bo attack Cy``.

    >>> battle_title(Battle(BattleType.ATTACKS, "Dominaria 3C", ("Ann", "Bo", "Cy"), leading=2))
    'Ann and Bo attack Cy'
    >>> battle_title(Battle(BattleType.VS, "Dominaria 3C", ("Ann", "Cy")))
    'Ann vs. Cy'
    """
    if b.type is BattleType.VS:
        return " vs. ".join(b.armies)
    first, rest = list(b.armies[:b.leading]), list(b.armies[b.leading:])
    verb = b.type.verb if len(first) == 1 else _PLURAL[b.type.verb]
    return f"{' and '.join(first)} {verb} {' and '.join(rest)}"


def announcement(b: Battle, board: Board) -> str:
    """One line of the Battle Announcements post: ``Frank attacks Jeff, Dominaria 3C, forest (Light rain)``."""
    return f"{battle_title(b)}, {b.at}, {board.terrain_of(b.at).value} ({b.weather or 'weather to roll'})"


def battle_announcements(state: CoalitionState, board: Board, strategies_to: str = "") -> str:
    """The Battle Announcements post of the turn: every battle announced, a line each, then where the sides send
    their strategies (the ``strategies_to`` setting) and by when."""
    head = f"Battle Announcements, turn {reported_turn(state)}"
    if not state.announced:
        return f"{head}\n\nNo battles this turn."
    lines = [announcement(b, board) for b in state.announced]
    tail = (f"\n\nSend your battle strategies to {strategies_to} before the turn {state.turn} results deadline "
            "(the status line says when)." if strategies_to else "")
    return f"{head}\n\n" + "\n".join(lines) + tail


def movement_results(state: CoalitionState) -> str:
    """The Movement Results post: each side's orders with where the army ended and its result code."""
    out = [f"Movement Results, turn {reported_turn(state)}"]
    for side in ("coalition", "phyrexia", "mercenary"):
        rows = [m for m in state.movement if m.side.value == side and (m.order or m.code is not ResultCode.HELD)]
        if not rows:
            continue
        out += ["", side.capitalize()]
        for m in rows:
            where = f" -> {m.end}" if m.end != m.start else ""
            note = f" ({m.note})" if m.note else ""
            idle = "a mercenary, moved by the engine" if m.side is Side.MERCENARY else "(no order)"
            order = m.order or f"{m.army}: {idle}"
            out.append(f"{order} [{m.code.value}{where}]{note}")
    if len(out) == 1:
        out.append("\nNo orders this turn.")
    return "\n".join(out)


def battle_results(state: CoalitionState) -> str:
    """The Battle Results post: per battle the winner, losses, kills, bumps and victory points; then the
    end of the turn (structures, healing, domination) and the score."""
    out = [f"Battle Results, turn {reported_turn(state)}"]
    for rep in state.outcomes:
        verb = "win" if " and " in rep.winner else "wins"
        out += ["", rep.title + (f": {rep.winner} {verb}" if rep.winner else "")]
        out += [f"- {line}" for line in rep.lines]
    if state.notes:
        out += ["", "End of turn"] + [f"- {n}" for n in state.notes]
    out += ["", f"Victory points: Coalition {state.vp.get('coalition', 0)}, Phyrexia {state.vp.get('phyrexia', 0)}"]
    return "\n".join(out)


def dice_event(turn: int, dice: TurnDice) -> Event | None:
    """One log line with every die rolled and every draw made (key, value or order), or None if none was."""
    if not dice.rolled and not dice.drawn:
        return None
    rolled, drawn = dict(dice.rolled), {k: list(v) for k, v in dice.drawn.items()}

    def text() -> str:
        parts = [f"{k} = {v}" for k, v in rolled.items()] + [f"{k}: {', '.join(v)}" for k, v in drawn.items()]
        return "Dice and draws: " + "; ".join(parts)
    return Event(turn, EventKind.DICE, text, {"rolled": rolled, "drawn": drawn})
