"""The state of a Champions match as plain frozen data, and its JSON.

A player's champions are kept in class order (Gladiator, Rogue, Mage, Healer): her health
tuple and her equipment tuple have one entry per class. Items are named; their dice and
types live in the match's loot table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.champions.enums import CLASS_INDEX, CLASSES, ChampClass, Phase

#: A champion's health at the start, and the cap healing never lifts it above.
MAX_HEALTH: dict[ChampClass, int] = {ChampClass.GLADIATOR: 100, ChampClass.ROGUE: 85, ChampClass.MAGE: 85,
                                     ChampClass.HEALER: 80}
FULL_HEALTH: tuple[int, ...] = tuple(MAX_HEALTH[c] for c in CLASSES)
NO_EQUIPMENT: tuple[tuple[str, ...], ...] = ((), (), (), ())


def champion_id(player: str, cls: ChampClass) -> str:
    """``Ann.gladiator``: how dice keys and reports name a champion."""
    return f"{player}.{cls.value}"


def champion_name(player: str, cls: ChampClass) -> str:
    """``Ann's Gladiator``: how sentences name a champion."""
    return f"{player}'s {cls.display}"


@dataclass(frozen=True, slots=True)
class Player:
    """One player: where she stands, her four champions' health and equipment, her bag."""

    name: str
    at: Coord | None  # None once she is out
    health: tuple[int, ...] = FULL_HEALTH
    equipment: tuple[tuple[str, ...], ...] = NO_EQUIPMENT
    bag: tuple[str, ...] = ()
    out_round: int = 0  # the round she went out in; 0 while she plays

    @property
    def out(self) -> bool:
        """Whether all four champions are dead and she has left the board (a player with no tile is out too)."""
        return self.out_round > 0 or self.at is None

    def hp(self, cls: ChampClass) -> int:
        """The health of her champion of ``cls`` (0: dead)."""
        return self.health[CLASS_INDEX[cls]]

    def items_of(self, cls: ChampClass) -> tuple[str, ...]:
        """What her champion of ``cls`` carries, in equipment order."""
        return self.equipment[CLASS_INDEX[cls]]

    def living(self) -> list[ChampClass]:
        """Her living champions, in class order."""
        return [c for c, hp in zip(CLASSES, self.health, strict=True) if hp > 0]

    def total_health(self) -> int:
        """The sum of her champions' health (the round limit's tie-break)."""
        return sum(self.health)

    def to_json(self) -> dict[str, Any]:
        """The player as JSON-ready data."""
        return {"name": self.name, "at": self.at.label if self.at else None,
                "health": {c.value: hp for c, hp in zip(CLASSES, self.health, strict=True)},
                "equipment": {c.value: list(items) for c, items in zip(CLASSES, self.equipment, strict=True)},
                "bag": list(self.bag), "out_round": self.out_round}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        """The player from ``to_json``'s data."""
        at = data.get("at")
        return cls(str(data["name"]), Coord.parse(at) if at else None,
                   tuple(int(data["health"][c.value]) for c in CLASSES),
                   tuple(tuple(str(i) for i in data["equipment"][c.value]) for c in CLASSES),
                   tuple(str(i) for i in data.get("bag", ())), int(data.get("out_round", 0)))


@dataclass(frozen=True, slots=True)
class BattleReport:
    """One battle's report: its tile, the two players and the text every roll and sum is in."""

    tile: str
    players: tuple[str, str]
    text: str

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {"tile": self.tile, "players": list(self.players), "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BattleReport:
        """The report from ``to_json``'s data."""
        first, second = data["players"]
        return cls(str(data["tile"]), (str(first), str(second)), str(data["text"]))


@dataclass(frozen=True)
class ChampionsState:
    """The match between windows: the round, the open window's phase, the grid, players, pools."""

    round: int
    phase: Phase
    size: int  # the grid is size × size
    players: tuple[Player, ...]  # in roster order
    pools: Mapping[str, tuple[str, ...]]  # tile label → the items left on it
    finished: bool = False
    winners: tuple[str, ...] = ()
    reports: tuple[BattleReport, ...] = ()  # the battles of the last fight window
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update({p.name: i for i, p in enumerate(self.players)})

    def player(self, name: str) -> Player | None:
        """The player called ``name``, or None."""
        i = self._index.get(name)
        return None if i is None else self.players[i]

    def alive(self) -> list[Player]:
        """The players still in, in roster order."""
        return [p for p in self.players if not p.out]

    def on_tile(self, tile: Coord) -> list[Player]:
        """The players still in on ``tile``, in roster order."""
        return [p for p in self.players if not p.out and p.at == tile]

    def with_players(self, players: list[Player] | tuple[Player, ...], **changes: Any) -> ChampionsState:
        """A copy with ``players`` (and any other field changed)."""
        values: dict[str, Any] = {"round": self.round, "phase": self.phase, "size": self.size,
                                  "players": tuple(players), "pools": self.pools, "finished": self.finished,
                                  "winners": self.winners, "reports": self.reports}
        values.update(changes)
        return ChampionsState(**values)

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-ready data."""
        return {"round": self.round, "phase": self.phase.value, "size": self.size,
                "players": [p.to_json() for p in self.players],
                "pools": {tile: list(items) for tile, items in self.pools.items()},
                "finished": self.finished, "winners": list(self.winners),
                "reports": [r.to_json() for r in self.reports]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChampionsState:
        """The state from ``to_json``'s data."""
        return cls(int(data["round"]), Phase(data["phase"]), int(data["size"]),
                   tuple(Player.from_json(p) for p in data["players"]),
                   {str(t): tuple(str(i) for i in items) for t, items in data["pools"].items()},
                   bool(data.get("finished", False)), tuple(str(w) for w in data.get("winners", ())),
                   tuple(BattleReport.from_json(r) for r in data.get("reports", ())))


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A logged GM correction: a champion's health, a player's tile, or an item put in a bag."""

    reason: str
    health: tuple[str, str, int] | None = None  # player, class word, new health
    position: tuple[str, str] | None = None  # player, tile
    give: tuple[str, str] | None = None  # player, item name

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        return {"reason": self.reason, "health": list(self.health) if self.health else None,
                "position": list(self.position) if self.position else None,
                "give": list(self.give) if self.give else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Adjustment:
        """The event from ``to_json``'s data."""
        health = data.get("health")
        position = data.get("position")
        give = data.get("give")
        return cls(str(data.get("reason", "")),
                   (str(health[0]), str(health[1]), int(health[2])) if health else None,
                   (str(position[0]), str(position[1])) if position else None,
                   (str(give[0]), str(give[1])) if give else None)
