"""Win or Die state: plain typed data, copied (never changed in place) by resolution.

A state is one match: the game being played (advanced mode plays best of three), its turn
and phase, each player's tracks (morale, fatigue, crystals, command tokens, barrack), the
units on the board and the dead, the cards the match uses, the active War Council tactics
and the ability effects waiting for the GM.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.winordie.cards import Card, Recruit
from sheets_gm.rulesets.winordie.enums import Ending, Enhancement, Phase

MORALE_BONUS = 3  # the Morale enhancement
POWER_BONUS = 2  # Attack
COUNTER_BONUS = 4  # Counter-attack
HEALTH_BONUS = 2  # Health
SPEED_BONUS = 2  # Movement


def reading_order(unit: Unit) -> tuple[int, int]:
    """A sort key putting units in the reading order of their hexes (undeployed ones first)."""
    return (unit.at.row, unit.at.col) if unit.at is not None else (-1, -1)


@dataclass(slots=True)
class Unit:
    """A unit of a legion: its card, owner, hex (None before deployment), damage and turn bookkeeping."""

    id: str
    card: str
    owner: str
    at: Hex | None = None
    damage: int = 0
    hidden: bool = True
    enhancements: tuple[Enhancement, ...] = ()
    token: str = ""  # the face-down token's public name, once deployed hidden
    tokens: int = 0  # command tokens on it since its owner's last recovery
    actions: int = 0  # actions it took this turn (the k of its dice keys)
    moves: int = 0  # move actions it took this turn
    used: set[str] = field(default_factory=set)  # action and reaction abilities used this turn
    ultimates: set[str] = field(default_factory=set)  # ultimates used this game
    stepped: int = 0  # hexes its move actions took it this turn (a Charge's "after moving 2 or more hexes")

    def copy(self) -> Unit:
        """An independent copy."""
        return Unit(self.id, self.card, self.owner, self.at, self.damage, self.hidden, self.enhancements, self.token,
                    self.tokens, self.actions, self.moves, set(self.used), set(self.ultimates), self.stepped)

    def has(self, enhancement: Enhancement) -> bool:
        """Whether the unit carries the enhancement."""
        return enhancement in self.enhancements

    def to_json(self) -> dict[str, Any]:
        """The unit as JSON-ready data."""
        return {"id": self.id, "card": self.card, "owner": self.owner, "at": self.at.label if self.at else None,
                "damage": self.damage, "hidden": self.hidden, "enhancements": [e.value for e in self.enhancements],
                "token": self.token, "tokens": self.tokens, "actions": self.actions, "moves": self.moves,
                "used": sorted(self.used), "ultimates": sorted(self.ultimates),
                **({"stepped": self.stepped} if self.stepped else {})}  # saved as before when it did not move

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Unit:
        """Rebuild a unit saved by ``to_json``."""
        return cls(str(data["id"]), str(data["card"]), str(data["owner"]),
                   Hex.parse(data["at"]) if data["at"] else None, int(data["damage"]), bool(data["hidden"]),
                   tuple(Enhancement(e) for e in data["enhancements"]), str(data["token"]), int(data["tokens"]),
                   int(data["actions"]), int(data["moves"]), set(data["used"]), set(data["ultimates"]),
                   int(data.get("stepped", 0)))


@dataclass(slots=True)
class Legion:
    """A player's side of the game: her tracks and her barrack (cards she may still call)."""

    name: str
    slot: int  # 0 or 1: her baseline is base1 or base2
    morale: int = 0
    fatigue: int = 0
    crystals: int = 0
    tokens: int = 0  # command tokens left
    barrack: list[str] = field(default_factory=list)
    calls: int = 0  # units called this match (names <player>-C<n>)
    council: list[str] = field(default_factory=list)  # active War Council tactics
    council_turn: int = 0  # the turn she last convened the council
    wins: int = 0  # games won this match

    def copy(self) -> Legion:
        """An independent copy."""
        return Legion(self.name, self.slot, self.morale, self.fatigue, self.crystals, self.tokens,
                      list(self.barrack), self.calls, list(self.council), self.council_turn, self.wins)

    def to_json(self) -> dict[str, Any]:
        """The legion as JSON-ready data."""
        return {"name": self.name, "slot": self.slot, "morale": self.morale, "fatigue": self.fatigue,
                "crystals": self.crystals, "tokens": self.tokens, "barrack": list(self.barrack),
                "calls": self.calls, "council": list(self.council), "council_turn": self.council_turn,
                "wins": self.wins}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Legion:
        """Rebuild a legion saved by ``to_json``."""
        return cls(str(data["name"]), int(data["slot"]), int(data["morale"]), int(data["fatigue"]),
                   int(data["crystals"]), int(data["tokens"]), [str(c) for c in data["barrack"]],
                   int(data["calls"]), [str(t) for t in data["council"]], int(data["council_turn"]),
                   int(data["wins"]))


@dataclass(frozen=True, slots=True)
class Pending:
    """An ability or tactic whose effect the GM is to apply (the GM's sheet lists them until settled)."""

    id: int
    turn: int
    player: str
    source: str  # the unit id, or "War Council"
    name: str  # the ability or tactic
    text: str
    target: str = ""

    def to_json(self) -> dict[str, Any]:
        """The pending effect as JSON-ready data."""
        return {"id": self.id, "turn": self.turn, "player": self.player, "source": self.source, "name": self.name,
                "text": self.text, "target": self.target}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pending:
        """Rebuild a pending effect saved by ``to_json``."""
        return cls(int(data["id"]), int(data["turn"]), str(data["player"]), str(data["source"]), str(data["name"]),
                   str(data["text"]), str(data.get("target", "")))


@dataclass(frozen=True, slots=True)
class ActionChange:
    """What the GM changed of an action a reaction stopped (a Parry softens it, a Brace counter-attacks first),
    applied when its row resolves: ``cancel`` it, ``dice`` more (or fewer) for its attack, ``less`` damage from
    it, its target's counter-attack rolled before it and none after (``counter_first``). ``against`` is the target
    the stopped row named when the GM took damage off it or gave it the counter first: "that attack deals 1 less
    damage", "I counter-attack first" are that target's, so they lapse if the row attacks another when it
    resumes."""

    cancel: bool = False
    dice: int = 0
    less: int = 0
    reason: str = ""
    against: str = ""
    counter_first: bool = False
    # dice more that count only if the attacker is damaged when it rolls: a Frenzy ruled with the Brace whose
    # counter-attack first may damage it (rulings: "Passives are weighed at the moment they apply")
    damaged_dice: int = 0

    def to_json(self) -> dict[str, Any]:
        """The change as JSON-ready data."""
        return {"cancel": self.cancel, "dice": self.dice, "less": self.less, "reason": self.reason,
                **({"against": self.against} if self.against else {}),
                **({"counter_first": True} if self.counter_first else {}),
                **({"damaged_dice": self.damaged_dice} if self.damaged_dice else {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActionChange:
        """Rebuild a change saved by ``to_json``."""
        return cls(bool(data["cancel"]), int(data["dice"]), int(data["less"]), str(data["reason"]),
                   str(data.get("against", "")), bool(data.get("counter_first", False)),
                   int(data.get("damaged_dice", 0)))


@dataclass(slots=True)
class WodState:
    """Everything that decides the rest of a Win or Die match, except the seed, the map and the settings."""

    seats: tuple[str, str]  # roster order: slot 0 deploys on base1
    legions: dict[str, Legion]
    units: list[Unit]
    cards: dict[str, Card]  # every card the match uses, by name
    tactics: dict[str, str] = field(default_factory=dict)  # the War Council's tactics
    game: int = 1
    turn: int = 0  # player-turns of this game: 1 is the first player's first; 0 while deploying
    phase: Phase = Phase.DEPLOY
    first: str = ""  # the first player of this game
    started: bool = False  # whether the acting player's start of turn has happened
    dead: list[Unit] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    next_pending: int = 1
    recruits: dict[str, tuple[Recruit, ...]] = field(default_factory=dict)  # each legion as set up (next games)
    start_crystals: dict[str, int] = field(default_factory=dict)
    start_barrack: dict[str, tuple[str, ...]] = field(default_factory=dict)
    games: list[tuple[str, Ending]] = field(default_factory=list)  # each finished game's winner and how
    winner: str | None = None  # the match's winner once it is over
    changes: dict[str, ActionChange] = field(default_factory=dict)  # by unit: its stopped action as the GM changed it

    # -- derived ---------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.phase is Phase.OVER

    @property
    def second(self) -> str:
        """The second player of this game."""
        return self.other(self.first)

    @property
    def acting(self) -> str:
        """Whose turn it is (while deploying: who deploys)."""
        if self.phase is Phase.DEPLOY:
            return self.first if self.turn == 0 and not self._first_deployed() else self.second
        return self.first if self.turn % 2 == 1 else self.second

    def _first_deployed(self) -> bool:
        return any(u.at is not None for u in self.units if u.owner == self.first)

    def other(self, seat: str) -> str:
        """The other player."""
        return self.seats[1] if seat == self.seats[0] else self.seats[0]

    def unit(self, uid: str) -> Unit | None:
        """The living unit with this id (exact, then case-insensitive), or None."""
        for u in self.units:
            if u.id == uid:
                return u
        wanted = uid.strip().lower()
        return next((u for u in self.units if u.id.lower() == wanted), None)

    def unit_at(self, h: Hex) -> Unit | None:
        """The living unit on a hex, or None."""
        return next((u for u in self.units if u.at == h), None)

    def card_of(self, unit: Unit) -> Card:
        """A unit's card."""
        return self.cards[unit.card]

    def dice_turn(self) -> int:
        """The turn number the open window's dice are keyed by: unique across the games of a match."""
        return (self.game - 1) * 100 + self.turn

    # -- stats -----------------------------------------------------------------------------
    def morale_of(self, unit: Unit) -> int:
        """The morale a unit gives its legion (and takes away when it dies)."""
        return self.card_of(unit).morale + (MORALE_BONUS if unit.has(Enhancement.MORALE) else 0)

    def power(self, unit: Unit) -> int:
        """Dice of the unit's attack before adjacent allies."""
        return self.card_of(unit).power + (POWER_BONUS if unit.has(Enhancement.ATTACK) else 0)

    def counter_power(self, unit: Unit) -> int:
        """Dice of the unit's counter-attack before adjacent allies."""
        return self.card_of(unit).counter + (COUNTER_BONUS if unit.has(Enhancement.COUNTER_ATTACK) else 0)

    def health(self, unit: Unit) -> int:
        """The damage that kills the unit."""
        return self.card_of(unit).health + (HEALTH_BONUS if unit.has(Enhancement.HEALTH) else 0)

    def speed(self, unit: Unit) -> int:
        """Hexes the unit may move in one move action."""
        return self.card_of(unit).speed + (SPEED_BONUS if unit.has(Enhancement.MOVEMENT) else 0)

    # -- copies and JSON -------------------------------------------------------------------
    def copy(self) -> WodState:
        """A deep copy of everything that changes (cards and recruits are immutable)."""
        return WodState(
            seats=self.seats, legions={k: v.copy() for k, v in self.legions.items()},
            units=[u.copy() for u in self.units], cards=self.cards, tactics=self.tactics, game=self.game,
            turn=self.turn, phase=self.phase, first=self.first, started=self.started,
            dead=[u.copy() for u in self.dead], pending=list(self.pending), next_pending=self.next_pending,
            recruits=self.recruits, start_crystals=self.start_crystals, start_barrack=self.start_barrack,
            games=list(self.games), winner=self.winner, changes=dict(self.changes),
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-ready data (the engine tab stores it)."""
        return {
            "seats": list(self.seats), "game": self.game, "turn": self.turn, "phase": self.phase.value,
            "first": self.first, "started": self.started,
            "legions": [self.legions[s].to_json() for s in self.seats],
            "units": [u.to_json() for u in self.units], "dead": [u.to_json() for u in self.dead],
            "cards": [c.to_json() for c in sorted(self.cards.values(), key=lambda c: c.name)],
            "tactics": dict(sorted(self.tactics.items())),
            "pending": [p.to_json() for p in self.pending], "next_pending": self.next_pending,
            "recruits": {s: [{"id": r.id, "card": r.card, "enhancements": [e.value for e in r.enhancements]}
                             for r in rs] for s, rs in sorted(self.recruits.items())},
            "start_crystals": dict(sorted(self.start_crystals.items())),
            "start_barrack": {s: list(b) for s, b in sorted(self.start_barrack.items())},
            "games": [[w, how.value] for w, how in self.games], "winner": self.winner,
            **({"changes": {u: c.to_json() for u, c in sorted(self.changes.items())}} if self.changes else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WodState:
        """Rebuild a state saved by ``to_json``."""
        legions = [Legion.from_json(x) for x in data["legions"]]
        return cls(
            seats=(str(data["seats"][0]), str(data["seats"][1])), legions={x.name: x for x in legions},
            units=[Unit.from_json(u) for u in data["units"]], cards={c["name"]: Card.from_json(c)
                                                                     for c in data["cards"]},
            tactics={str(k): str(v) for k, v in data["tactics"].items()}, game=int(data["game"]),
            turn=int(data["turn"]), phase=Phase(data["phase"]), first=str(data["first"]),
            started=bool(data["started"]), dead=[Unit.from_json(u) for u in data["dead"]],
            pending=[Pending.from_json(p) for p in data["pending"]], next_pending=int(data["next_pending"]),
            recruits={s: tuple(Recruit(str(r["id"]), str(r["card"]),
                                       tuple(Enhancement(e) for e in r["enhancements"])) for r in rs)
                      for s, rs in data["recruits"].items()},
            start_crystals={s: int(n) for s, n in data["start_crystals"].items()},
            start_barrack={s: tuple(str(c) for c in b) for s, b in data["start_barrack"].items()},
            games=[(str(w), Ending(how)) for w, how in data["games"]], winner=data["winner"],
            changes={str(u): ActionChange.from_json(c) for u, c in data.get("changes", {}).items()},
        )
