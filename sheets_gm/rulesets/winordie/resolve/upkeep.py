"""The start and the end of a player's turn: command tokens back, mine income, and what ends the turn."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.ending import check_defeat
from sheets_gm.rulesets.winordie.enums import (
    EventKind,
    ResolveMode,
    Terrain,
)
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.state import WodState


def again(rules: WodRules) -> str:
    """What a row a reaction stopped waits for, and what its player does next."""
    boxes = "Go or Ready" if rules.settings.resolve is ResolveMode.STEP else "Ready"
    return f"; once the GM has applied it, tick {boxes} again"


# -- the turn's frame ----------------------------------------------------------------------
def start_of_turn(rules: WodRules, state: WodState, events: list[kit.Event]) -> None:
    """The acting player's start of turn: command tokens recovered (from her units too), mine income."""
    s = rules.settings
    seat = state.acting
    legion = state.legions[seat]
    legion.tokens = s.first_turn_tokens if state.turn == 1 else s.tokens
    for u in state.units:
        u.actions = 0
        u.moves = 0
        u.stepped = 0
        u.used.clear()
        if u.owner == seat:
            u.tokens = 0
    mines = sorted((u.at for u in state.units if u.owner == seat and u.at is not None
                    and rules.board.terrain[u.at] is Terrain.MINE), key=lambda h: (h.row, h.col))
    state.started = True
    events.append(kit.Event(state.turn, EventKind.TURN_STARTED,
                            f"{seat}'s turn begins: she recovers her command tokens ({legion.tokens}).",
                            {"player": seat, "tokens": legion.tokens}))
    if mines and s.mine_income:
        gain = s.mine_income * len(mines)
        legion.crystals += gain
        events.append(kit.Event(state.turn, EventKind.MINE_INCOME,
                                f"{seat} gains {gain} crystal{'s' if gain != 1 else ''} from the mine"
                                f"{'s' if len(mines) != 1 else ''} on {', '.join(h.label for h in mines)} "
                                f"({legion.crystals} now).",
                                {"player": seat, "gain": gain, "mines": [h.label for h in mines]}))


def end_of_turn(rules: WodRules, state: WodState, events: list[kit.Event]) -> None:
    """Fatigue +1 for the acting player, the defeat check, and the turn passes."""
    seat = state.acting
    legion = state.legions[seat]
    legion.fatigue += 1
    state.changes.clear()  # a change to an action that never resolved lapses with the turn
    events.append(kit.Event(state.turn, EventKind.TURN_ENDED,
                            f"{seat} ends her turn; her fatigue rises to {legion.fatigue} (morale {legion.morale}).",
                            {"player": seat, "fatigue": legion.fatigue, "morale": legion.morale}))
    if check_defeat(rules, state, events):
        return
    state.turn += 1
    state.started = False
