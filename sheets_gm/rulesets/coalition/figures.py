"""What ``simulate`` counts in a Coalition match: battles won, kills, raids, structures destroyed and
victory points per side, and how the round ended (structures, kills, victory points, turn limit)."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import EventKind
from sheets_gm.rulesets.coalition.resolve.upkeep import ENDINGS
from sheets_gm.rulesets.coalition.setup import SEATS
from sheets_gm.rulesets.coalition.state import CoalitionState

_LABELS = {"structures": "decided by destroying every enemy structure",
           "kills": "decided by killing the enemy's top three ranks",
           "vp": "decided by victory points", "turn_limit": "decided at the turn limit"}


def simulation_spec(max_turns: int) -> kit.SimulationSpec:
    """The Coalition's figures (the judge's seat, played by the stand-in judge, counts nothing)."""
    return kit.SimulationSpec(
        length_unit="windows (orders and results)",
        endings=tuple((e, _LABELS[e].replace("the turn limit", f"turn {max_turns}")) for e in ENDINGS),
        figures=(
            kit.FigureSpec("battles_won", "battles won, per match"),
            kit.FigureSpec("kills", "enemy armies killed, per match"),
            kit.FigureSpec("raids", "raids made, per match"),
            kit.FigureSpec("destroyed", "enemy structures destroyed, per match"),
            kit.FigureSpec("vp", "victory points at the end"),
            kit.FigureSpec("won_by_vp", "wins on victory points", kit.FigureKind.SHARE),
        ),
        sides_note="bots are dealt to the seats coalition and phyrexia in turn; the judge's results are "
                   "entered by the automatic stand-in judge whatever the bot",
        first_seat="the Coalition",
    )


class CoalitionTally:
    """Reads each window's events into per-side counters."""

    __slots__ = ("battles", "destroyed", "kills", "raids", "side_of")

    def __init__(self, state: CoalitionState) -> None:
        self.side_of = {a.name: a.side.value for a in state.armies}
        self.battles = {s: 0 for s in SEATS}
        self.kills = {s: 0 for s in SEATS}
        self.raids = {s: 0 for s in SEATS}
        self.destroyed = {s: 0 for s in SEATS}

    def window(self, resolution: kit.Resolution[Any]) -> None:
        """Count one window's events."""
        for event in resolution.events:
            kind, data = event.kind, event.data
            if kind is EventKind.RESULT and "winner" in data and data["winner"] in self.battles:
                self.battles[data["winner"]] += 1
            elif kind is EventKind.KILL and "army" in data:
                victim = self.side_of.get(data["army"], "")
                killer = "phyrexia" if victim == "coalition" else "coalition" if victim == "phyrexia" else ""
                if killer:
                    self.kills[killer] += 1
            elif kind is EventKind.RAID:
                side = self.side_of.get(data["raider"], "")
                if side in self.raids:
                    self.raids[side] += 1
            elif kind is EventKind.DESTROYED and data.get("side") in self.destroyed:
                self.destroyed[data["side"]] += 1

    def finish(self, state: CoalitionState) -> kit.MatchSummary:
        """Each seat's figures, in the order of ``simulation_spec``."""
        ending = state.ending or "turn_limit"
        seats = []
        for s in SEATS:
            won_vp = float(ending == "vp" and state.winner == s)
            seats.append((float(self.battles[s]), float(self.kills[s]), float(self.raids[s]),
                          float(self.destroyed[s]), float(state.vp.get(s, 0)), won_vp))
        return kit.MatchSummary(ending, tuple(seats))
