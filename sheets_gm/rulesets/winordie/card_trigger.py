"""When a reaction ability's card lets it fire, read from its text ("Before an enemy attack on me", "Before an enemy
action next to me", "Before an enemy moves within 2 hexes of me"). A standing reaction's row narrows this, never
widens it (rulings, "A reaction fires only where its card says"): the engine fires a row only where both hold."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sheets_gm.rulesets.winordie.enums import ActionKind, Trigger
from sheets_gm.rulesets.winordie.orders import Reaction

_BEFORE = re.compile(r"before (?:an |any )?enem(?:y|ies)(?:'s)? (attacks?|moves?|actions?)(?: on me)?"
                     r"(?: (next to me|within (\d+) hex(?:es)? of me))?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CardTrigger:
    """What a reaction card's text asks of the enemy action before which it fires: the kind of action (``None``:
    any), whether it is an attack on the reacting unit, and how near the acting unit must be (``None``: anywhere)."""

    kind: ActionKind | None = None
    on_me: bool = False
    within: int | None = None

    def words(self, unit: str) -> str:
        """The trigger in a player's words: ``before an enemy attack on Bo-3``."""
        if self.on_me:
            return f"before an enemy attack on {unit}"
        what = f"an enemy {self.kind.value}" if self.kind is not None else "an enemy action"
        if self.within is None:
            return f"before {what}"
        return f"before {what} by a unit {'next to' if self.within == 1 else f'within {self.within} of'} {unit}"


def card_trigger(text: str) -> CardTrigger | None:
    """The trigger the ability text names (its first "Before an enemy …"), or None where it names none (then the
    row's own trigger stands alone).

    >>> card_trigger("Before an enemy attack on me: I counter-attack first.")
    CardTrigger(kind=<ActionKind.ATTACK: 'attack'>, on_me=True, within=None)
    >>> card_trigger("Before an enemy action next to me: that enemy's legion loses 1 morale.")
    CardTrigger(kind=None, on_me=False, within=1)
    >>> card_trigger("Before an enemy moves within 2 hexes of me: its move stops after 1 hex.").within
    2
    """
    found = _BEFORE.search(text)
    if found is None:
        return None
    verb = found.group(1).lower()
    kind = ActionKind.ATTACK if verb.startswith("attack") else ActionKind.MOVE if verb.startswith("move") else None
    on_me = kind is ActionKind.ATTACK and " on me" in found.group(0).lower()
    near = found.group(2)
    within = None if near is None else 1 if near.lower() == "next to me" else int(found.group(3))
    return CardTrigger(kind, on_me, within)


def _of_row(row: Reaction) -> CardTrigger:
    """The row's own trigger in the card's terms."""
    if row.when is Trigger.ATTACKED:
        return CardTrigger(ActionKind.ATTACK, True)
    return CardTrigger(within=row.within if row.when is Trigger.NEAR else None)


def _both(card: CardTrigger, row: CardTrigger) -> CardTrigger | None:
    """The trigger both ask (None: no action meets both)."""
    if card.kind is not None and row.kind is not None and card.kind is not row.kind:
        return None
    within = min((w for w in (card.within, row.within) if w is not None), default=None)
    return CardTrigger(card.kind or row.kind, card.on_me or row.on_me, within)


def narrowed(card: CardTrigger | None, row: Reaction) -> str:
    """What the card takes from what the row says, in the row's words ('' when the row asks no more than its card
    lets it): the player reads where the row fires, and that it never does where its card says no.

    >>> narrowed(card_trigger("Before an enemy action next to me: …"), Reaction("Bo-3", "Drum of Dread",
    ...          Trigger.ANY))
    'it fires only before an enemy action by a unit next to Bo-3, as its card says'
    """
    if card is None:
        return ""
    own = _of_row(row)
    both = _both(card, own)
    if both is None:
        return (f"it can never fire: its card says {card.words(row.unit)}, the row says "
                f"{row.trigger_words()}")
    return "" if both == own else f"it fires only {both.words(row.unit)}, as its card says"


def card_allows(card: CardTrigger | None, kind: ActionKind, attacked: bool, distance: int | None) -> bool:
    """Whether an enemy action of ``kind`` (an attack on the reacting unit when ``attacked``), by a unit
    ``distance`` hexes from the reacting unit (``None``: no acting unit on the board), meets the card's trigger."""
    if card is None:
        return True
    if card.kind is not None and kind is not card.kind:
        return False
    if card.on_me and not attacked:
        return False
    return card.within is None or (distance is not None and distance <= card.within)
