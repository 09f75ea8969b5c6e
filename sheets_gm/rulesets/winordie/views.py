"""What each seat may see. The public board shows exposed units with their damage, hidden ones as
face-down tokens (owner, hex, command tokens on them), terrain is the map, and every legion's
tracks; a player's view adds her own units whatever their side (which unit each of her tokens
is), her barrack and her used abilities. Nothing of the other player's hidden units (card, id,
damage, enhancements) is in it. ``secrets_of`` lists, per player, which unit each of her face-down
tokens is: the conformance test checks that no other view shows them."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.winordie.enums import Phase
from sheets_gm.rulesets.winordie.resolve.turns import start_of_turn
from sheets_gm.rulesets.winordie.rules import WodRules, identity
from sheets_gm.rulesets.winordie.state import Unit, WodState, reading_order


def _exposed(state: WodState, u: Unit) -> dict[str, Any]:
    return {"id": u.id, "owner": u.owner, "card": u.card, "at": u.at.label if u.at else None, "damage": u.damage,
            "health": state.health(u), "enhancements": [e.display for e in u.enhancements], "tokens": u.tokens}


def _token(u: Unit) -> dict[str, Any]:
    # damage dealt to a face-down token lies beside it on the table: public, unlike its health
    return {"token": u.token, "owner": u.owner, "at": u.at.label if u.at else None, "tokens": u.tokens,
            "damage": u.damage}


def _cards(state: WodState, names: set[str]) -> list[dict[str, Any]]:
    """The cards named, as the sheet shows them (stats and abilities)."""
    return [state.cards[name].to_json() for name in sorted(names)]


def _status(state: WodState, seat: str) -> dict[str, Any]:
    legion = state.legions[seat]
    return {"name": seat, "morale": legion.morale, "fatigue": legion.fatigue, "crystals": legion.crystals,
            "tokens": legion.tokens, "wins": legion.wins, "council": list(legion.council),
            "undeployed": sum(1 for u in state.units if u.owner == seat and u.at is None),
            "barrack_size": len(legion.barrack)}


def public_view(state: WodState) -> dict[str, Any]:
    """The public board and status line."""
    board = []
    for u in sorted((u for u in state.units if u.at is not None), key=reading_order):
        board.append(_token(u) if u.hidden else _exposed(state, u))
    return {
        "game": state.game, "turn": state.turn, "phase": state.phase.value,
        "acting": state.acting if not state.finished else None, "first": state.first,
        "players": [_status(state, seat) for seat in state.seats],
        "board": board,
        "dead": [{"id": u.id, "owner": u.owner, "card": u.card} for u in state.dead],
        "cards": _cards(state, {u.card for u in state.units + state.dead if not u.hidden}),
        "pending": [p.to_json() for p in state.pending],
        "games": [{"winner": w, "ending": how.value} for w, how in state.games],
        "winner": state.winner,
    }


def seat_view(state: WodState, seat: str) -> dict[str, Any]:
    """The public board plus the player's own units, barrack and bookkeeping."""
    view = public_view(state)
    mine = []
    for u in state.units:
        if u.owner != seat:
            continue
        entry = _exposed(state, u)
        entry.update({"hidden": u.hidden, "token": u.token, "used": sorted(u.used), "ultimates": sorted(u.ultimates),
                      "speed": state.speed(u), "power": state.power(u), "counter": state.counter_power(u)})
        if u.hidden:
            entry["identity"] = identity(u)
        mine.append(entry)
    view["mine"] = mine
    view["barrack"] = sorted(state.legions[seat].barrack)
    view["cards"] = _cards(state, {u.card for u in state.units + state.dead if not u.hidden or u.owner == seat}
                           | set(state.legions[seat].barrack))
    return view


def secrets_of(state: WodState, seat: str) -> list[str]:
    """Which unit each of ``seat``'s hidden units (deployed or not) is."""
    return [identity(u) for u in state.units if u.owner == seat and u.hidden]


def view_of(rules: WodRules, state: WodState, seat: str | None) -> dict[str, Any]:
    """The public board (``None``) or a player's sheet: never the other player's hidden units. Between two turns
    it shows the acting player's start of turn done (her tokens recovered, mine income), as she plays from it."""
    if state.phase is Phase.ACTIONS and not state.started:
        state = state.copy()
        start_of_turn(rules, state, [])
    return public_view(state) if seat is None else seat_view(state, seat)
