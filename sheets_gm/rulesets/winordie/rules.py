"""One match's fixed part (map, settings, the GM's tables) and the small rules every module shares:
how a unit is named in the public log, revealing and dying (how a game ends: ``ending.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.board import WodMap
from sheets_gm.rulesets.winordie.cards import CardTables
from sheets_gm.rulesets.winordie.enums import EventKind, Mode
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Unit, WodState


@dataclass(frozen=True, slots=True)
class WodRules:
    """The rules of one match: its map, its settings and the cards, line-ups and tactics tables.
    ``one_game`` stops play when the current game ends, the next game of a best of three not begun
    (a scenario plays one game, so that ``expect`` sees the state at its end)."""

    board: WodMap
    settings: WodSettings
    tables: CardTables
    one_game: bool = False

    @property
    def games_to_win(self) -> int:
        """Games a player must win to win the match: more than half of ``best_of`` in advanced mode, else 1."""
        return self.settings.best_of // 2 + 1 if self.settings.mode is Mode.ADVANCED else 1


def public_name(state: WodState, unit: Unit) -> str:
    """How the public log names a unit: its face-down token while hidden, else its id and card."""
    if unit.hidden:
        return f"{unit.token or unit.owner + ' (face down)'}"
    return f"{unit.id} ({unit.card})"


def identity(unit: Unit) -> str:
    """A hidden unit's secret: which unit its face-down token is (only its owner may read it)."""
    return f"{unit.token or 'undeployed'}: {unit.id} ({unit.card})"


def face_down_named(state: WodState, text: str, but: Unit | None = None) -> Unit | None:
    """The face-down unit (other than ``but``) that ``text`` names by its id, if any: a text the public Log prints
    word for word (the GM's reason, a player's Aim) must not tell which unit a token is.

    >>> from sheets_gm.rulesets.winordie.state import Legion
    >>> u = Unit("Kwame-2", "Bone Thrower", "Kwame", token="Kwame token 2")
    >>> state = WodState(("Ann", "Kwame"), {}, [u], {})
    >>> face_down_named(state, "my hidden Kwame-2 follows up").id, face_down_named(state, "Kwame-22 on E5")
    ('Kwame-2', None)
    """
    for unit in state.units:
        if unit is not but and unit.hidden and unit.token and re.search(
                rf"(?<![\w-]){re.escape(unit.id)}(?![\w-])", text, re.IGNORECASE):
            return unit
    return None


def reveal(state: WodState, unit: Unit, events: list[kit.Event], why: str) -> None:
    """Turn a hidden unit face up, with a public event saying which unit the token was."""
    if not unit.hidden:
        return
    token = unit.token
    unit.hidden = False
    events.append(kit.Event(state.turn, EventKind.REVEALED, f"{token} is revealed ({why}): {unit.id} ({unit.card}).",
                            {"token": token, "unit": unit.id, "card": unit.card}))


def kill(state: WodState, unit: Unit, events: list[kit.Event], why: str) -> None:
    """Remove a dead unit; its legion loses the unit's morale."""
    unit.hidden = False
    state.units.remove(unit)
    state.dead.append(unit)
    legion = state.legions[unit.owner]
    loss = state.morale_of(unit)
    legion.morale -= loss
    morale = (f"{unit.owner}'s morale falls by {loss} to {legion.morale}" if loss else
              f"{unit.owner}'s morale stays at {legion.morale} (the unit gives no morale)")
    events.append(kit.Event(state.turn, EventKind.DIED, f"{unit.id} ({unit.card}) dies ({why}); {morale}.",
                            {"unit": unit.id, "card": unit.card, "owner": unit.owner, "morale_lost": loss}))
    card = state.card_of(unit)
    for p in list(state.pending):  # its own passive waiting on its attack: that attack will not be made
        ability = card.ability(p.name) if p.source == unit.id else None
        if ability is not None and ability.before is not None:
            state.pending.remove(p)
            events.append(kit.Event(
                state.turn, EventKind.PASSIVE,
                f"{unit.id}'s {p.name} (#{p.id}) leaves the GM's list: {unit.id} has fallen, so the "
                "attack it was weighed for is not made.",
                {"unit": unit.id, "ability": p.name, "pending": p.id, "dropped": True}))
