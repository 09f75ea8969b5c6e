"""What each seat may see. The public board shows exposed units with their damage, hidden ones as
face-down tokens (owner, hex, command tokens on them), terrain is the map, and every legion's
tracks; a player's view adds her own units whatever their side (which unit each of her tokens
is), her barrack and her used abilities. Nothing of the other player's hidden units (card, id,
damage, enhancements) is in it. ``secrets_of`` lists, per player, which unit each of her face-down
tokens is: the conformance test checks that no other view shows them."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from random import Random
from statistics import median_low
from typing import Any

from sheets_gm.rulesets.winordie.cards import Card
from sheets_gm.rulesets.winordie.enums import Phase
from sheets_gm.rulesets.winordie.resolve.upkeep import start_of_turn
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


#: The card a bot playing a seat takes another player's face-down token for (no card of a line-up has this name).
FACE_DOWN = "face-down token"


def face_down_card(state: WodState, seat: str) -> Card:
    """What ``seat`` may assume of a face-down token of the other player: a unit with the middle figures of her
    own cards (speed, power, counter, health, hits and range), no ability, never flying. Built from her own cards
    alone, so it tells a bot nothing of the other player's."""
    own = [state.cards[name] for name in sorted({u.card for u in state.units + state.dead if u.owner == seat}
                                                | set(state.legions[seat].barrack)) if name in state.cards]
    if not own:
        own = [state.cards[name] for name in sorted(state.cards)]  # a seat with no unit left: every card in sight
    kind = Counter(c.type for c in own).most_common(1)[0][0]

    def middle(field: str) -> int:
        return int(median_low(getattr(c, field) for c in own))

    return Card(FACE_DOWN, "", "", kind, middle("cost"), middle("speed"), middle("power"), middle("counter"),
                middle("health"), middle("hit"), middle("counter_hit"), middle("range"))


def _public_order(unit: Unit) -> tuple[str, int, int, str]:
    """A sort key for another player's face-down unit made of what the table sees of it alone (its owner, its
    hex, its token): never its place in the roster, which would tell which token is her leader."""
    row, col = reading_order(unit)
    return unit.owner, row, col, unit.token


def seat_state(state: WodState, seat: str) -> WodState:
    """The match as ``seat`` knows it, for a bot that plays her: everything of hers, the board as the table sees
    it, and each face-down token of the other player as a ``face_down_card`` unit named after its token (its id,
    card, enhancements and used abilities unknown); the other player's barrack as that many unknown cards, her
    line-up as set up unknown; the cards only those she may see.

    The units come in an order the seat could make herself: hers as they are, then the other player's exposed
    units by id, then her face-down ones by hex and token, so that a bot breaking a tie by the first unit it
    meets learns nothing from the roster's order."""
    known = state.copy()
    stand_in = face_down_card(state, seat)
    renamed: dict[str, str] = {}
    own = [u for u in known.units if u.owner == seat]
    exposed = sorted((u for u in known.units if u.owner != seat and not u.hidden), key=lambda u: (u.owner, u.id))
    hidden = []
    undeployed: Counter[str] = Counter()
    for u in sorted((u for u in known.units if u.owner != seat and u.hidden), key=_public_order):
        if not u.token:
            undeployed[u.owner] += 1
        renamed[u.id] = f"{u.owner}-{u.token or f'undeployed-{undeployed[u.owner]}'}"
        hidden.append(replace(u, id=renamed[u.id], card=FACE_DOWN, enhancements=(), used=set(), ultimates=set(),
                              actions=0, moves=0))
    known.units = [*own, *exposed, *hidden]
    for name, legion in known.legions.items():
        if name != seat:
            legion.barrack = [FACE_DOWN] * len(legion.barrack)
    seen = {u.card for u in state.units + state.dead if not u.hidden or u.owner == seat} | set(
        state.legions[seat].barrack)
    known.cards = {**{name: card for name, card in state.cards.items() if name in seen}, FACE_DOWN: stand_in}
    known.recruits = {name: r for name, r in state.recruits.items() if name == seat}
    known.start_barrack = {name: b for name, b in state.start_barrack.items() if name == seat}
    known.changes = {renamed.get(uid, uid): change for uid, change in state.changes.items()}
    known.pending = [replace(p, source=renamed.get(p.source, p.source)) for p in state.pending]
    return known


#: What moves with a face-down token on the table (its hex, its name, the command tokens and damage beside it,
#: what it did this turn, how far it went): everything of a hidden unit that the other player sees.
_TOKEN_FIELDS = ("at", "token", "tokens", "damage", "actions", "moves", "stepped")


def unseen_twin(state: WodState, seat: str, rng: Random) -> WodState:
    """A match ``seat`` cannot tell from ``state``: the other player's face-down units (deployed or not) dealt
    afresh to her tokens, each taking another's place on the table with its damage and command tokens, the
    roster's order shuffled, her barrack in another order. A unit an effect waiting for the GM or a GM's change
    names keeps its place (the GM's sheet names it)."""
    twin = state.copy()
    named = {p.source for p in state.pending} | set(state.changes)
    for owner in state.seats:
        if owner == seat:
            continue
        movable = [u for u in twin.units if u.owner == owner and u.hidden and u.id not in named]
        places = [tuple(getattr(u, f) for f in _TOKEN_FIELDS) for u in movable]
        rng.shuffle(places)
        for unit, place in zip(movable, places, strict=True):
            for field_name, value in zip(_TOKEN_FIELDS, place, strict=True):
                setattr(unit, field_name, value)
        rng.shuffle(twin.legions[owner].barrack)
    slots = [i for i, u in enumerate(twin.units) if u.owner != seat and u.hidden and u.id not in named]
    moved = [twin.units[i] for i in slots]
    rng.shuffle(moved)
    for i, unit in zip(slots, moved, strict=True):
        twin.units[i] = unit
    return twin
