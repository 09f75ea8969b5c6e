"""What ``simulate wesnoth`` counts per player: wins by way of ending, villages taken, kills, recruits,
gold earned, and each seat's faction so win rates can be broken down faction against faction."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.state import WesnothState

LEADER_KILLED = "leader_killed"
CONQUEST = "conquest"
ROUND_LIMIT = "round_limit"


def simulation_spec(max_rounds: int) -> kit.SimulationSpec:
    """Wesnoth's figures; a match ends by a leader's death, a conquest or the round limit (a draw)."""
    return kit.SimulationSpec(
        length_unit="player turns",
        endings=((LEADER_KILLED, "decided by a leader's death"), (CONQUEST, "decided by a conquest"),
                 (ROUND_LIMIT, f"drawn at the round-{max_rounds} limit")),
        figures=(
            kit.FigureSpec("killed_leader", "killed the enemy leader", kit.FigureKind.SHARE),
            kit.FigureSpec("villages", "villages taken, per match"),
            kit.FigureSpec("kills", "enemy units killed, per match"),
            kit.FigureSpec("losses", "own units lost, per match"),
            kit.FigureSpec("recruits", "units recruited, per match"),
            kit.FigureSpec("mercenaries", "  of them mercenaries"),
            kit.FigureSpec("gold_earned", "gold earned (villages, income, kills), per match"),
            kit.FigureSpec("advancements", "advancements bought, per match"),
        ),
        attributes=("faction", "matchup", "faction against faction"),
        grids=("faction against faction",),
        sides_note="players take the roster's slots in order; factions as the sample roster deals them",
        first_seat="player 1 (the first to act)",
    )


def _attributes(state: WesnothState, name: str) -> tuple[str, str, str]:
    """A player's faction; the matchup line, given by the player whose faction sorts first in her pairing alone
    (one line per pairing, her win rate; none for a mirror); and her faction against her enemies' (the grid)."""
    me = next(p for p in state.players if p.name == name)
    enemies = " & ".join(sorted(q.faction for q in state.players if q.team != me.team))
    first = me.faction < enemies
    return me.faction, f"{me.faction} vs {enemies}" if first else "", f"{me.faction} vs {enemies}"


class WesnothTally:
    """Reads each resolution's events into per-player counters."""

    def __init__(self, state: WesnothState) -> None:
        self.names = [p.name for p in state.players]
        self.factions = tuple(_attributes(state, p.name) for p in state.players)
        self.index = {name: i for i, name in enumerate(self.names)}
        n = len(self.names)
        self.counts: dict[str, list[float]] = {key: [0.0] * n for key in (
            "killed_leader", "villages", "kills", "losses", "recruits", "mercenaries", "gold_earned",
            "advancements")}
        self.conquered = False

    def window(self, resolution: kit.Resolution[Any]) -> None:
        """Count one resolution's events."""
        c = self.counts
        for event in resolution.events:
            kind, data = event.kind, event.data
            if kind is EventKind.VILLAGE:
                i = self.index[data["player"]]
                c["villages"][i] += 1
                c["gold_earned"][i] += 1
            elif kind is EventKind.KILLED:
                killer, loser = self.index[data["player"]], self.index[data["owner"]]
                c["kills"][killer] += 1
                c["losses"][loser] += 1
                c["gold_earned"][killer] += data["gold"]
                if data["leader"]:
                    c["killed_leader"][killer] = 1
            elif kind is EventKind.RECRUITED:
                i = self.index[data["player"]]
                c["recruits"][i] += 1
                c["mercenaries"][i] += bool(data["mercenary"])
            elif kind is EventKind.INCOME:
                c["gold_earned"][self.index[data["player"]]] += data["gold"]
            elif kind is EventKind.ADVANCED:
                pass  # counted from the unit's owner below, which the event does not name
            elif kind is EventKind.CONQUERED:
                self.conquered = True
        for event in resolution.events:
            if event.kind is EventKind.ADVANCED:
                owner = next((u.owner for u in resolution.state.units if u.id == event.data["unit"]), None)
                if owner in self.index:
                    c["advancements"][self.index[owner]] += 1

    def finish(self, state: WesnothState) -> kit.MatchSummary:
        """Each player's figures, in the order of ``simulation_spec``."""
        ending = ROUND_LIMIT if state.winner is None else CONQUEST if self.conquered else LEADER_KILLED
        keys = ("killed_leader", "villages", "kills", "losses", "recruits", "mercenaries", "gold_earned",
                "advancements")
        seats = tuple(tuple(self.counts[k][i] for k in keys) for i in range(len(self.names)))
        return kit.MatchSummary(ending, seats, self.factions)
