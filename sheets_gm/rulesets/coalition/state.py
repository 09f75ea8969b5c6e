"""The Coalition game's state, orders and judge's results: plain frozen data with JSON codecs.

Positions are place texts (``Dominaria 3A``, see ``board``). Orders are kept as typed (texts),
so a refused order is stored and replayed exactly as the player wrote it; ``orders.read_order``
turns one into a checked ``Move``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.rulesets.coalition.enums import BattleType, Colour, Phase, ResultCode, Side

#: Full slot capacity, slot 1 to slot 4 (slot 4, the largest creatures, is the highest slot).
SLOT_CAPACITY = (5000, 2500, 1500, 1000)
#: Rank values and their names per side, from the top (6) down.
RANK_NAMES = {
    Side.COALITION: {6: "General", 5: "Admiral", 4: "Captain", 3: "Commander", 2: "Lieutenant Commander",
                     1: "Lieutenant"},
    Side.PHYREXIA: {6: "Chief Praetor", 5: "Praetor", 4: "Evincar", 3: "Thane", 2: "Plaguelord", 1: "Centurion"},
}
TOP_RANKS = frozenset({4, 5, 6})
Units = tuple[int, int, int, int]


def rank_name(side: Side, rank: int) -> str:
    """The rank's title on a side (mercenaries use the Coalition's)."""
    return RANK_NAMES.get(side, RANK_NAMES[Side.COALITION])[rank]


def rank_text(side: Side, rank: int) -> str:
    """How an army's rank reads to people: ``Captain (4)``; a mercenary's ``mercenary, rank 2`` (no side's title).

    >>> rank_text(Side.PHYREXIA, 4), rank_text(Side.MERCENARY, 2)
    ('Evincar (4)', 'mercenary, rank 2')
    """
    if side is Side.MERCENARY:
        return f"mercenary, rank {rank}"
    return f"{rank_name(side, rank)} ({rank})"


@dataclass(frozen=True, slots=True)
class Creature:
    """One creature of an army: its size (the larger of power and toughness) decides its slot."""

    name: str
    colours: tuple[Colour, ...]  # empty: colourless (artifacts, Eldrazi)
    size: int
    count: int
    phyrexian: bool = False  # the Phyrexian watermark

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colours": [c.value for c in self.colours], "size": self.size,
                "count": self.count, "phyrexian": self.phyrexian}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Creature:
        return Creature(data["name"], tuple(Colour(c) for c in data["colours"]), data["size"], data["count"],
                        data.get("phyrexian", False))


@dataclass(frozen=True, slots=True)
class Army:
    """An army on the map: a legend and four slots of units."""

    name: str
    side: Side
    rank: int
    at: str
    units: Units
    factions: tuple[Colour, ...] = ()  # Coalition: the army's factions, primary first
    primary: Colour | None = None
    player: str = ""
    legend: str = ""
    creatures: tuple[Creature, ...] = ()
    guards: str | None = None  # a mercenary's structure

    @property
    def total(self) -> int:
        """Units in all four slots."""
        return sum(self.units)

    @property
    def highest(self) -> int:
        """Units in the highest slot (slot 4)."""
        return self.units[3]

    @property
    def colour_bonus(self) -> bool:
        """+1 on all rolls: every creature shares a colour, or every one is colourless (known creatures only)."""
        if not self.creatures:
            return False
        if all(not c.colours for c in self.creatures):
            return True
        shared = set(self.creatures[0].colours)
        for c in self.creatures[1:]:
            shared &= set(c.colours)
        return bool(shared)

    @property
    def title(self) -> str:
        """Rank title and name, for people."""
        return f"{rank_name(self.side, self.rank)} {self.name}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "side": self.side.value, "rank": self.rank, "at": self.at,
                               "units": list(self.units)}
        if self.factions:
            out["factions"] = [c.value for c in self.factions]
        if self.primary is not None:
            out["primary"] = self.primary.value
        if self.player:
            out["player"] = self.player
        if self.legend:
            out["legend"] = self.legend
        if self.creatures:
            out["creatures"] = [c.to_json() for c in self.creatures]
        if self.guards is not None:
            out["guards"] = self.guards
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Army:
        u = data["units"]
        return Army(data["name"], Side(data["side"]), data["rank"], data["at"], (u[0], u[1], u[2], u[3]),
                    tuple(Colour(c) for c in data.get("factions", ())),
                    Colour(data["primary"]) if data.get("primary") else None, data.get("player", ""),
                    data.get("legend", ""), tuple(Creature.from_json(c) for c in data.get("creatures", ())),
                    data.get("guards"))


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle on one square: the first-named army attacks, intercepts or raids the others (vs: nobody)."""

    type: BattleType
    at: str
    armies: tuple[str, ...]  # the first-named side first
    weather: str = ""
    announced: bool = True  # False: made by a bump into an enemy, announced at the next adjudication
    joint_bump: tuple[tuple[str, str], ...] = ()  # (army, place): a joint attacker's "Joint engage bump"
    leading: int = 1  # how many of ``armies`` are first-named (joint attackers), the others their opponents

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type.value, "at": self.at, "armies": list(self.armies),
                               "weather": self.weather}
        if self.leading != 1:
            out["leading"] = self.leading
        if not self.announced:
            out["announced"] = False
        if self.joint_bump:
            out["joint_bump"] = [list(p) for p in self.joint_bump]
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Battle:
        return Battle(BattleType(data["type"]), data["at"], tuple(data["armies"]), data.get("weather", ""),
                      data.get("announced", True), tuple((a, p) for a, p in data.get("joint_bump", ())),
                      data.get("leading", 1))


@dataclass(frozen=True, slots=True)
class MoveReport:
    """One army's line of the Movement Results post: what it was ordered, where it ended, its result code."""

    army: str
    side: Side
    start: str
    end: str
    code: ResultCode
    order: str  # the order as the forum wrote it ("3A > 3B > 3C - engage Jeff")
    note: str = ""  # why, for a refused, bounced or partial order

    def to_json(self) -> dict[str, Any]:
        return {"army": self.army, "side": self.side.value, "start": self.start, "end": self.end,
                "code": self.code.value, "order": self.order, "note": self.note}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> MoveReport:
        return MoveReport(data["army"], Side(data["side"]), data["start"], data["end"], ResultCode(data["code"]),
                          data["order"], data.get("note", ""))


@dataclass(frozen=True, slots=True)
class BattleReport:
    """One battle's entry of the Battle Results post."""

    title: str  # "Frank attacks Jeff, Dominaria 3C"
    winner: str  # the winning side's armies, "" for a siege
    lines: tuple[str, ...]  # losses, kill, bumps, victory points, in order

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "winner": self.winner, "lines": list(self.lines)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> BattleReport:
        return BattleReport(data["title"], data["winner"], tuple(data["lines"]))


def _sides_map(data: Mapping[str, Any] | None) -> dict[str, int]:
    return {s.value: int((data or {}).get(s.value, 0)) for s in (Side.COALITION, Side.PHYREXIA)}


@dataclass(frozen=True, slots=True)
class CoalitionState:
    """The whole match between two windows."""

    turn: int
    phase: Phase
    armies: tuple[Army, ...]
    battles: tuple[Battle, ...] = ()  # open battles
    announced: tuple[Battle, ...] = ()  # what the last adjudication announced
    vp: Mapping[str, int] = field(default_factory=lambda: _sides_map(None))
    counters: Mapping[str, int] = field(default_factory=dict)  # turns counted in the army's structure
    mercenary_turns: Mapping[str, int] = field(default_factory=dict)
    destroyed: tuple[str, ...] = ()  # structure names
    control: Mapping[str, str] = field(default_factory=dict)  # feature name -> side, when controlled
    dominates: Mapping[str, str] = field(default_factory=dict)  # plane -> side, when dominated
    movement: tuple[MoveReport, ...] = ()  # the last adjudication's results
    outcomes: tuple[BattleReport, ...] = ()  # the last results applied
    notes: tuple[str, ...] = ()  # the last end of turn: structures, healing, victory points
    turn_start: Mapping[str, str] = field(default_factory=dict)  # army -> place at the turn's start
    fought: tuple[str, ...] = ()  # armies in a battle this turn
    heal_requests: tuple[str, ...] = ()  # armies that asked to heal this turn
    changes: Mapping[str, tuple[Creature, ...]] = field(default_factory=dict)  # army changes the judge entered
    top_ranks_at_start: tuple[str, ...] = ()  # sides that began with an army of the top three ranks
    winner: str | None = None  # a side, or "draw"
    ending: str | None = None  # how the round ended: structures, kills, vp, turn_limit

    @property
    def finished(self) -> bool:
        """Whether the round is over."""
        return self.phase is Phase.OVER

    def army(self, name: str) -> Army | None:
        """The army called ``name`` (exact), or None."""
        for a in self.armies:
            if a.name == name:
                return a
        return None

    def by_name(self) -> dict[str, Army]:
        """Every army by name."""
        return {a.name: a for a in self.armies}

    def battle_at(self, place: str) -> Battle | None:
        """The open battle on ``place``, or None."""
        for b in self.battles:
            if b.at == place:
                return b
        return None

    def in_battle(self) -> set[str]:
        """The armies in an open battle."""
        return {name for b in self.battles for name in b.armies}

    def with_(self, **changes: Any) -> CoalitionState:
        """A copy with ``changes``."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase.value, "armies": [a.to_json() for a in self.armies],
            "battles": [b.to_json() for b in self.battles], "announced": [b.to_json() for b in self.announced],
            "vp": dict(self.vp), "counters": dict(sorted(self.counters.items())),
            "mercenary_turns": dict(sorted(self.mercenary_turns.items())), "destroyed": list(self.destroyed),
            "control": dict(sorted(self.control.items())), "dominates": dict(sorted(self.dominates.items())),
            "movement": [m.to_json() for m in self.movement], "outcomes": [o.to_json() for o in self.outcomes],
            "notes": list(self.notes), "turn_start": dict(sorted(self.turn_start.items())),
            "fought": list(self.fought), "heal_requests": list(self.heal_requests),
            "changes": {n: [c.to_json() for c in cs] for n, cs in sorted(self.changes.items())},
            "top_ranks_at_start": list(self.top_ranks_at_start), "winner": self.winner, "ending": self.ending,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CoalitionState:
        return CoalitionState(
            turn=data["turn"], phase=Phase(data["phase"]),
            armies=tuple(Army.from_json(a) for a in data["armies"]),
            battles=tuple(Battle.from_json(b) for b in data.get("battles", ())),
            announced=tuple(Battle.from_json(b) for b in data.get("announced", ())),
            vp=_sides_map(data.get("vp")), counters=dict(data.get("counters", {})),
            mercenary_turns=dict(data.get("mercenary_turns", {})), destroyed=tuple(data.get("destroyed", ())),
            control=dict(data.get("control", {})), dominates=dict(data.get("dominates", {})),
            movement=tuple(MoveReport.from_json(m) for m in data.get("movement", ())),
            outcomes=tuple(BattleReport.from_json(o) for o in data.get("outcomes", ())),
            notes=tuple(data.get("notes", ())), turn_start=dict(data.get("turn_start", {})),
            fought=tuple(data.get("fought", ())), heal_requests=tuple(data.get("heal_requests", ())),
            changes={n: tuple(Creature.from_json(c) for c in cs) for n, cs in data.get("changes", {}).items()},
            top_ranks_at_start=tuple(data.get("top_ranks_at_start", ())), winner=data.get("winner"),
            ending=data.get("ending"),
        )


# -- orders ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ArmyOrder:
    """One army's order as typed: fields of the orders row, or the forum line in one cell (``line``)."""

    start: str = ""
    via: tuple[str, ...] = ()  # squares between the start and the end (the route), optional
    to: str = ""  # the end square; empty for orders that do not move
    word: str = ""  # engage, replace, intercept, raid, support, transfer, garrison, heal or none
    target: str = ""  # the target army
    units: tuple[int, ...] = ()  # transfer: units sent per slot
    bump: str = ""  # "Joint engage bump": the square this joint attacker leaves to if it wins
    line: str = ""  # "Army: Plane; Start > Next > End - order Target"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("start", "to", "word", "target", "bump", "line"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.via:
            out["via"] = list(self.via)
        if self.units:
            out["units"] = list(self.units)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ArmyOrder:
        def text(key: str) -> str:
            return str(data.get(key) or "")
        return ArmyOrder(text("start"), tuple(str(v) for v in data.get("via") or ()), text("to"), text("word"),
                         text("target"), tuple(data.get("units") or ()), text("bump"), text("line"))


@dataclass(frozen=True, slots=True)
class BattleResult:
    """The judge's result of one battle, as entered (checked by ``results.check_results``)."""

    winner: str = ""  # an army of the battle, or a side; empty for a siege
    losses: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # army -> losses per slot
    vp: int | None = None  # None: the setting battle_win_vp
    siege: bool = False
    kill: str = ""  # killed, escaped, squad_lost or roll; empty: no kill strategy
    kill_bonus: int = 0
    escape_bonus: int = 0
    failed_kill: tuple[str, ...] = ()  # losers that attempted a kill (raiders always count)
    stratless: str = ""  # the side that sent no strategy
    stand_in: bool = False  # entered by the automatic stand-in judge (a bot)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "losses": {k: list(v) for k, v in sorted(self.losses.items())}}
        if self.vp is not None:
            out["vp"] = self.vp
        for key in ("siege", "kill", "kill_bonus", "escape_bonus", "stratless", "stand_in"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.failed_kill:
            out["failed_kill"] = list(self.failed_kill)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> BattleResult:
        return BattleResult(data.get("winner", ""), {k: tuple(v) for k, v in data.get("losses", {}).items()},
                            data.get("vp"), data.get("siege", False), data.get("kill", ""), data.get("kill_bonus", 0),
                            data.get("escape_bonus", 0), tuple(data.get("failed_kill", ())),
                            data.get("stratless", ""), data.get("stand_in", False))


@dataclass(frozen=True, slots=True)
class CoalitionOrders:
    """One window's input: each side's orders by army (orders window), the judge's results by square."""

    orders: Mapping[str, Mapping[str, ArmyOrder]] = field(default_factory=dict)  # seat -> army -> order
    results: Mapping[str, BattleResult] = field(default_factory=dict)  # battle square -> result

    def to_json(self) -> dict[str, Any]:
        return {"orders": {seat: {army: o.to_json() for army, o in sorted(part.items())}
                           for seat, part in sorted(self.orders.items())},
                "results": {at: r.to_json() for at, r in sorted(self.results.items())}}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CoalitionOrders:
        return CoalitionOrders(
            {seat: {army: ArmyOrder.from_json(o) for army, o in part.items()}
             for seat, part in data.get("orders", {}).items()},
            {at: BattleResult.from_json(r) for at, r in data.get("results", {}).items()})


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A logged GM correction: victory points, an army's position or units; or an army change the
    judge enters (new creatures, applied once the army has counted its turns where it heals)."""

    reason: str
    vp: tuple[str, int] | None = None
    position: tuple[str, str] | None = None
    units: tuple[str, Units] | None = None
    change: tuple[str, str] | None = None  # (army, creatures as text)
    concede: str | None = None  # the side that concedes: the round ends, the other side the winner

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "vp": list(self.vp) if self.vp else None,
                "position": list(self.position) if self.position else None,
                "units": [self.units[0], list(self.units[1])] if self.units else None,
                "change": list(self.change) if self.change else None,
                **({"concede": self.concede} if self.concede else {})}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Adjustment:
        vp, pos, units, change = data.get("vp"), data.get("position"), data.get("units"), data.get("change")
        u = units[1] if units else None
        return Adjustment(data.get("reason", ""), (vp[0], vp[1]) if vp else None, (pos[0], pos[1]) if pos else None,
                          (units[0], (u[0], u[1], u[2], u[3])) if units and u else None,
                          (change[0], change[1]) if change else None, data.get("concede"))
