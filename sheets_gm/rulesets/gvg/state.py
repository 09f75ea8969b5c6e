"""GvG game state and orders: plain typed data, copied (never mutated) by resolution."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.gvg.enums import Role, Skill, Status, StructureKind


@dataclass(slots=True)
class Player:
    """A player on the board."""

    name: str
    team: int
    role: Role
    at: Coord
    status: Status = Status.ACTIVE
    down_turn: int | None = None  # the turn in which the player was knocked down

    def copy(self) -> Player:
        """An independent copy."""
        return Player(self.name, self.team, self.role, self.at, self.status, self.down_turn)


_KEYS: dict[tuple[StructureKind, Coord], str] = {}  # a structure's name, asked on every battle's log line


@dataclass(slots=True)
class Structure:
    """A bulwark or fish with hit points; at 0 HP it is destroyed and its tile is open."""

    kind: StructureKind
    team: int
    at: Coord
    hp: int
    max_hp: int

    @property
    def destroyed(self) -> bool:
        """Whether the structure has no HP left."""
        return self.hp <= 0

    @property
    def key(self) -> str:
        """The structure's name in scenarios and logs, e.g. ``bulwark@E4``."""
        found = _KEYS.get((self.kind, self.at))
        if found is None:
            found = _KEYS[(self.kind, self.at)] = f"{self.kind.value}@{self.at.label}"
        return found

    def copy(self) -> Structure:
        """An independent copy."""
        return Structure(self.kind, self.team, self.at, self.hp, self.max_hp)


@dataclass(slots=True)
class Tree:
    """A team's tree: where it is, and who carries it (None when it lies on the ground)."""

    team: int
    at: Coord
    carrier: str | None = None

    def copy(self) -> Tree:
        """An independent copy."""
        return Tree(self.team, self.at, self.carrier)


@dataclass(slots=True)
class Boss:
    """A living boss."""

    at: Coord
    hp: int


@dataclass(slots=True)
class GvgState:
    """Everything that decides the rest of a GvG match, except the seed and the map."""

    turn: int  # the turn about to be resolved
    teams: tuple[str, str]
    players: list[Player]
    coins: list[int]
    structures: dict[Coord, Structure]
    trees: list[Tree | None]  # per owning team; None when the map has no fish for it
    boss: Boss | None = None
    jungle: set[Coord] = field(default_factory=set)
    ballista: list[int] = field(default_factory=lambda: [0, 0])
    cooldowns: list[dict[Skill, int]] = field(default_factory=lambda: [{}, {}])  # last activation turn
    finished: bool = False
    winner: int | None = None  # None with finished=True is a draw
    conceded: str = ""  # the team whose concession ended the match ('' for none): the winner line says so

    def copy(self, *, share_structures: bool = False) -> GvgState:
        """A deep copy, cheap enough for every turn. With ``share_structures`` the copy holds the same structures (a
        turn's resolution, which puts a copy of a structure in place before changing it: most turns change none)."""
        boss = self.boss
        return GvgState(  # positional, in the fields' order: keywords cost a dictionary a call
            self.turn,
            self.teams,
            # each ``copy`` spelled out: a method call a player and structure is a tenth of the copy
            [Player(p.name, p.team, p.role, p.at, p.status, p.down_turn) for p in self.players],
            list(self.coins),
            (dict(self.structures) if share_structures else
             {k: Structure(s.kind, s.team, s.at, s.hp, s.max_hp) for k, s in self.structures.items()}),
            [None if t is None else Tree(t.team, t.at, t.carrier) for t in self.trees],
            None if boss is None else Boss(boss.at, boss.hp),
            set(self.jungle),
            list(self.ballista),
            list(map(dict, self.cooldowns)),  # no comprehension: it is a call on Python 3.11
            self.finished,
            self.winner,
            self.conceded,
        )

    def player(self, name: str) -> Player:
        """The player called ``name`` (KeyError if none)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def team_index(self, name: str) -> int:
        """0 or 1 for a team name (ValueError if unknown)."""
        return self.teams.index(name)

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-ready data (the engine tab stores it)."""
        return {
            "turn": self.turn,
            "teams": list(self.teams),
            "players": [
                {"name": p.name, "team": p.team, "role": p.role.value, "at": p.at.label,
                 "status": p.status.value, "down_turn": p.down_turn}
                for p in self.players
            ],
            "coins": list(self.coins),
            "structures": [
                {"kind": s.kind.value, "team": s.team, "at": s.at.label, "hp": s.hp, "max_hp": s.max_hp}
                for s in self.structures.values()
            ],
            "trees": [None if t is None else {"team": t.team, "at": t.at.label, "carrier": t.carrier}
                      for t in self.trees],
            "boss": None if self.boss is None else {"at": self.boss.at.label, "hp": self.boss.hp},
            "jungle": sorted(c.label for c in self.jungle),
            "ballista": list(self.ballista),
            "cooldowns": [{s.value: t for s, t in sorted(c.items())} for c in self.cooldowns],
            "finished": self.finished,
            "winner": self.winner,
            **({"conceded": self.conceded} if self.conceded else {}),  # a state with none is saved as before
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GvgState:
        """Rebuild a state saved by ``to_json``."""
        return cls(
            turn=int(data["turn"]),
            teams=(str(data["teams"][0]), str(data["teams"][1])),
            players=[
                Player(p["name"], int(p["team"]), Role(p["role"]), Coord.parse(p["at"]),
                       Status(p["status"]), p["down_turn"])
                for p in data["players"]
            ],
            coins=[int(c) for c in data["coins"]],
            structures={
                Coord.parse(s["at"]): Structure(StructureKind(s["kind"]), int(s["team"]), Coord.parse(s["at"]),
                                                int(s["hp"]), int(s["max_hp"]))
                for s in data["structures"]
            },
            trees=[None if t is None else Tree(int(t["team"]), Coord.parse(t["at"]), t["carrier"])
                   for t in data["trees"]],
            boss=None if data["boss"] is None else Boss(Coord.parse(data["boss"]["at"]), int(data["boss"]["hp"])),
            jungle={Coord.parse(c) for c in data["jungle"]},
            ballista=[int(b) for b in data["ballista"]],
            cooldowns=[{Skill(s): int(t) for s, t in c.items()} for c in data["cooldowns"]],
            finished=bool(data["finished"]),
            winner=data["winner"],
            conceded=str(data.get("conceded", "")),
        )


@dataclass(frozen=True, slots=True)
class ArcheryDuel:
    """A GM-recorded archery duel: best of 5, first to 3; the winner's team gains coins."""

    winner: int
    winner_points: int = 3
    loser_points: int = 0


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A GM correction, always with a reason: set a team's coins, a structure's HP or a position."""

    reason: str
    coins: tuple[int, int] | None = None  # (team, new count)
    hp: tuple[Coord, int] | None = None  # (structure tile, new HP)
    position: tuple[str, Coord] | None = None  # (player, tile)


GmEvent = ArcheryDuel | Adjustment


def gm_event_to_json(event: GmEvent) -> dict[str, Any]:
    """A GM event as JSON-ready data (pending in the engine tab, then in the turn's history and the replay)."""
    if isinstance(event, ArcheryDuel):
        return {"kind": "archery_duel", "winner": event.winner, "winner_points": event.winner_points,
                "loser_points": event.loser_points}
    return {
        "kind": "adjustment", "reason": event.reason,
        "coins": list(event.coins) if event.coins is not None else None,
        "hp": [event.hp[0].label, event.hp[1]] if event.hp is not None else None,
        "position": [event.position[0], event.position[1].label] if event.position is not None else None,
    }


def gm_event_from_json(data: Mapping[str, Any]) -> GmEvent:
    """Rebuild a GM event saved by ``gm_event_to_json`` (KeyError, ValueError or TypeError if malformed)."""
    if data["kind"] == "archery_duel":
        return ArcheryDuel(int(data["winner"]), int(data["winner_points"]), int(data["loser_points"]))
    if data["kind"] != "adjustment":
        raise ValueError(f"unknown GM event kind {data['kind']!r}")
    coins, hp, position = data.get("coins"), data.get("hp"), data.get("position")
    return Adjustment(
        reason=str(data["reason"]),
        coins=(int(coins[0]), int(coins[1])) if coins is not None else None,
        hp=(Coord.parse(hp[0]), int(hp[1])) if hp is not None else None,
        position=(str(position[0]), Coord.parse(position[1])) if position is not None else None,
    )
