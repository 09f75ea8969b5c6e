"""A Wesnoth match as plain data: players, units, villages, the round and whose turn it is."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.engine.hexgrid import Hex

#: The time of day, round 1 first, then cycling.
TIMES_OF_DAY = ("dawn", "morning", "afternoon", "dusk", "first watch", "second watch")
DAY = frozenset({"morning", "afternoon"})
NIGHT = frozenset({"first watch", "second watch"})


def time_of_day(round_number: int) -> str:
    """The time of day of a round: 1 dawn, 2 morning, 3 afternoon, 4 dusk, 5 first watch, 6 second watch, 7 dawn…"""
    return TIMES_OF_DAY[(round_number - 1) % len(TIMES_OF_DAY)]


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: its id, type, owner, hex and wounds.

    ``advance`` is the owner's standing choice for a final blow dealt in a counter-attack
    ("" none, "true" the first advancement, or a class); ``fresh`` marks a unit recruited this turn."""

    id: str
    type: str
    owner: str
    at: Hex
    wounds: int = 0
    leader: bool = False
    advance: str = ""
    fresh: bool = False

    def moved_to(self, at: Hex) -> Unit:
        """The unit standing on ``at`` (``dataclasses.replace`` is slow for the moves of a simulated match)."""
        return Unit(self.id, self.type, self.owner, at, self.wounds, self.leader, self.advance, self.fresh)

    def with_wounds(self, wounds: int) -> Unit:
        """The unit with ``wounds`` wounds."""
        return Unit(self.id, self.type, self.owner, self.at, wounds, self.leader, self.advance, self.fresh)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type, "owner": self.owner, "at": self.at.label,
                               "wounds": self.wounds}
        if self.leader:
            out["leader"] = True
        if self.advance:
            out["advance"] = self.advance
        if self.fresh:
            out["fresh"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Unit:
        return cls(str(data["id"]), str(data["type"]), str(data["owner"]), Hex.parse(str(data["at"])),
                   int(data.get("wounds", 0)), bool(data.get("leader", False)), str(data.get("advance", "")),
                   bool(data.get("fresh", False)))


@dataclass(frozen=True, slots=True)
class Player:
    """A player: team number, faction, castle slot (her keep), gold, recruits made so far, whether she has been
    conquered (out of the game), and whether she left it by conceding (saved only when she did, so a state with
    no concession is saved as before)."""

    name: str
    team: int
    faction: str
    slot: int
    gold: int
    recruits: int = 0
    out: bool = False
    conceded: bool = False

    def with_gold(self, gold: int) -> Player:
        """The player with ``gold`` gold."""
        return replace(self, gold=gold)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "team": self.team, "faction": self.faction, "slot": self.slot,
                "gold": self.gold, "recruits": self.recruits, "out": self.out,
                **({"conceded": True} if self.conceded else {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(str(data["name"]), int(data["team"]), str(data["faction"]), int(data["slot"]),
                   int(data["gold"]), int(data.get("recruits", 0)), bool(data.get("out", False)),
                   bool(data.get("conceded", False)))


def teams_by_name(players: Iterable[Player]) -> dict[str, int]:
    """Each player's team by name, as ``WesnothRules.team_of`` reads it: the first player of a name (a name that
    is no player's has none: read it with ``.get(name, 0)``)."""
    teams: dict[str, int] = {}
    for p in players:
        teams.setdefault(p.name, p.team)
    return teams


@dataclass(frozen=True)
class WesnothState:
    """The match between two resolutions.

    ``turn`` counts player turns from 1 (it keys the dice); ``acting`` is the index of the player
    whose turn it is; ``acted`` the units that have acted in this turn (step mode resolves a turn's
    rows over several syncs); ``tod_override`` a time of day set for the current round only."""

    round: int
    turn: int
    acting: int
    players: tuple[Player, ...]
    units: tuple[Unit, ...]
    villages: tuple[tuple[Hex, str], ...] = ()  # owned villages, in reading order
    acted: tuple[str, ...] = ()
    tod_override: str = ""
    finished: bool = False
    winner: int | None = None  # the winning team; None with ``finished`` is a draw
    team_names: tuple[tuple[int, str], ...] = ()  # the roster's names of teams it did not number (north, south)
    _index: dict[str, Unit] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update({u.id: u for u in self.units})

    @property
    def acting_player(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.acting]

    @property
    def time_of_day(self) -> str:
        """This round's time of day."""
        return self.tod_override or time_of_day(self.round)

    def unit(self, uid: str) -> Unit | None:
        """The unit with this id, or None."""
        return self._index.get(uid)

    def player(self, name: str) -> Player | None:
        """The player called ``name``, or None."""
        return next((p for p in self.players if p.name == name), None)

    def team_label(self, team: int) -> str:
        """A team as players know it: the roster's name (``north``), or ``team 2`` for a numbered one."""
        return next((name for number, name in self.team_names if number == team), f"team {team}")

    def team_and_players(self, team: int) -> str:
        """A team as the end of a game names it: its label and its players (``north (Ann, Cy)``)."""
        return f"{self.team_label(team)} ({', '.join(p.name for p in self.players if p.team == team)})"

    def village_owner(self, h: Hex) -> str | None:
        """Who owns the village on ``h`` (None: nobody)."""
        return next((owner for v, owner in self.villages if v == h), None)

    def evolve(self, **changes: Any) -> WesnothState:
        """A copy with ``changes``."""
        return replace(self, _index={}, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "turn": self.turn, "acting": self.acting,
            "players": [p.to_json() for p in self.players], "units": [u.to_json() for u in self.units],
            "villages": {h.label: owner for h, owner in self.villages}, "acted": list(self.acted),
            "tod_override": self.tod_override, "finished": self.finished, "winner": self.winner,
            **({"team_names": {str(n): name for n, name in self.team_names}} if self.team_names else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WesnothState:
        return cls(
            round=int(data["round"]), turn=int(data["turn"]), acting=int(data["acting"]),
            players=tuple(Player.from_json(p) for p in data["players"]),
            units=tuple(Unit.from_json(u) for u in data["units"]),
            villages=tuple((Hex.parse(h), str(o)) for h, o in dict(data.get("villages", {})).items()),
            acted=tuple(str(a) for a in data.get("acted", ())), tod_override=str(data.get("tod_override", "")),
            finished=bool(data.get("finished", False)),
            winner=None if data.get("winner") is None else int(data["winner"]),
            team_names=tuple((int(n), str(name)) for n, name in dict(data.get("team_names", {})).items()),
        )
