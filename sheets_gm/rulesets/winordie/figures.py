"""What ``simulate`` counts in a Win or Die match: how it ended (morale, fatigue, surrender), and per
player the units lost, damage dealt, calls, reactions fired, abilities used and turns played first."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.enums import Ending, EventKind
from sheets_gm.rulesets.winordie.state import WodState

FIGURES = ("glorious", "triumph", "first", "lost", "damage", "calls", "reactions", "abilities")


def simulation_spec() -> kit.SimulationSpec:
    """Win or Die's figures."""
    return kit.SimulationSpec(
        length_unit="windows (deployments and player-turns)",
        endings=((Ending.MORALE.value, "a legion's morale fell to its fatigue"),
                 (Ending.FATIGUE.value, "a legion's fatigue reached the limit"),
                 (Ending.SURRENDER.value, "a surrender")),
        figures=(
            kit.FigureSpec("glorious", "won by the enemy's morale (glorious victory)", kit.FigureKind.SHARE),
            kit.FigureSpec("triumph", "won by the enemy's fatigue (battle triumph)", kit.FigureKind.SHARE),
            kit.FigureSpec("first", "played first in the last game", kit.FigureKind.SHARE),
            kit.FigureSpec("lost", "own units lost, per match"),
            kit.FigureSpec("damage", "damage dealt by attacks and counters, per match"),
            kit.FigureSpec("calls", "allies called, per match"),
            kit.FigureSpec("reactions", "reactions fired, per match"),
            kit.FigureSpec("abilities", "abilities and tactics used, per match"),
        ),
        attributes=("faction",),
        sides_note="bot A plays the roster's first player in even-numbered matches, the second in odd ones",
        first_seat="the roster's first player (Ann)",
    )


class WodTally:
    """Reads every window's events into per-player counters."""

    __slots__ = ("counts", "factions", "owner", "seats")

    def __init__(self, start: WodState) -> None:
        self.seats = start.seats
        self.owner = {u.id: u.owner for u in start.units}
        self.counts = {s: {k: 0 for k in FIGURES[3:]} for s in start.seats}
        self.factions = tuple(next((start.cards[u.card].faction for u in start.units if u.owner == s), "")
                              for s in start.seats)

    def window(self, resolution: kit.Resolution[Any]) -> None:
        """Count one window's events."""
        for event in resolution.events:
            kind, data = event.kind, event.data
            if kind is EventKind.ATTACK or kind is EventKind.COUNTER:
                owner = self._owner(resolution.state, data["unit"])
                if owner:
                    self.counts[owner]["damage"] += data["damage"]
            elif kind is EventKind.DIED:
                self.counts[data["owner"]]["lost"] += 1
            elif kind is EventKind.CALLED:
                self.counts[data["player"]]["calls"] += 1
            elif kind is EventKind.REACTION:
                self.counts[data["player"]]["reactions"] += 1
            elif kind is EventKind.ABILITY:
                owner = self._owner(resolution.state, data["unit"])
                if owner:
                    self.counts[owner]["abilities"] += 1
            elif kind is EventKind.COUNCIL:
                self.counts[data["player"]]["abilities"] += 1

    def _owner(self, state: WodState, uid: str) -> str:
        found = self.owner.get(uid)
        if found is None:
            unit = state.unit(uid) or next((u for u in state.dead if u.id == uid), None)
            found = self.owner[uid] = unit.owner if unit else ""
        return found

    def finish(self, state: WodState) -> kit.MatchSummary:
        """Each player's figures, in the order of ``simulation_spec``."""
        ending = state.games[-1][1].value if state.games else Ending.FATIGUE.value
        rows = []
        for s in self.seats:
            won = state.winner == s
            last = state.games[-1][1] if state.games else None
            rows.append((float(won and last is Ending.MORALE), float(won and last is Ending.FATIGUE),
                         float(state.first == s), *(float(self.counts[s][k]) for k in FIGURES[3:])))
        return kit.MatchSummary(ending, tuple(rows), tuple((f,) for f in self.factions))
