"""The battles announced with their weather, and each army's move report."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import (
    BattleType,
    EventKind,
    ResultCode,
)
from sheets_gm.rulesets.coalition.forum import announcement
from sheets_gm.rulesets.coalition.orders import forum_line, normalised_line
from sheets_gm.rulesets.coalition.resolve.work import MoveWork, ReadOrders
from sheets_gm.rulesets.coalition.state import (
    Battle,
    CoalitionState,
    MoveReport,
)


def announce_battles(t: MoveWork, state: CoalitionState, turn: int) -> tuple[Battle, ...]:
    """Weather for every battle to announce: this turn's, continuing sieges, and those a bump made last turn."""
    table = t.settings.weather_table
    out: list[Battle] = []
    fresh = set(t.new_battles)
    for place in sorted(t.battles, key=t.board.order.__getitem__):
        b = t.battles[place]
        if place not in fresh and b.type is not BattleType.SIEGE and b.announced:
            continue
        if place not in fresh and not b.announced and not any(x.at == place for x in state.battles):
            continue  # made this turn by a portal placement: announced next turn
        weather = table[t.dice.roll(f"weather/{place}", len(table)) - 1] if len(table) > 1 else (table[0] if table
                                                                                                 else "")
        b = Battle(b.type, b.at, b.armies, weather, True, b.joint_bump, b.leading)
        t.battles[place] = b
        out.append(b)
        t.events.append(kit.Event(turn, EventKind.BATTLE, announcement(b, t.board),
                                  {"type": b.type.value, "at": place, "armies": list(b.armies), "weather": weather}))
    return tuple(out)


def move_reports(t: MoveWork, state: CoalitionState, read: ReadOrders) -> tuple[MoveReport, ...]:
    """A Movement Results line per army that had an order or was moved by another's."""
    out = []
    for army in state.armies:
        name = army.name
        typed = read.typed.get(name)
        move = read.moves.get(name)
        order = ""
        if move is not None:  # accepted: quoted as the forum writes it, however it was typed
            order = normalised_line(t.board, move)
        elif typed is not None:  # refused: quoted as typed, for the side to see what was not read
            order = typed.line.strip() or forum_line(name, typed, t.board, army.at)
        code = t.code[name]
        if move is not None and not move.moves and code is ResultCode.MOVED:
            code = ResultCode.HELD
        out.append(MoveReport(name, army.side, army.at, t.at[name], code, order, t.note.get(name, "")))
    return tuple(out)
