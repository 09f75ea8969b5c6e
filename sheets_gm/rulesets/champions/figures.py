"""What ``simulate champions`` counts: per player, rounds survived, items looted, battles fought,
champions lost and whether she was knocked out; how the match ended; and two attributes to break
win rates down by: the class of her spawn tile (corner, edge, centre) and how she equipped.

"How she equipped" is read from her final equipment: ``affinity`` when every attack, heal and
support item sits on a champion with an affinity for it, ``off-affinity`` when some do not,
``bare`` when she ended with no such item on a champion. Bots of different equipment strategies
(``--bots affinity,stack,random``) are also compared directly by their win rates."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import tile_class
from sheets_gm.rulesets.champions.enums import CLASSES, HAND_TYPES, EventKind
from sheets_gm.rulesets.champions.equipment import AFFINITY
from sheets_gm.rulesets.champions.items import LootTable
from sheets_gm.rulesets.champions.state import ChampionsState, Player

LAST_STANDING = "last_standing"
FELL_TOGETHER = "fell_together"
ROUND_LIMIT = "round_limit"


def simulation_spec(max_rounds: int) -> kit.SimulationSpec:
    """Champions' figures, with the round limit of the variant in their labels."""
    return kit.SimulationSpec(
        length_unit="windows (two a round)",
        endings=((LAST_STANDING, "won by the last player standing"),
                 (FELL_TOGETHER, "the last players fell together (shared win)"),
                 (ROUND_LIMIT, f"decided by total health after round {max_rounds}")),
        figures=(
            kit.FigureSpec("knocked_out", "knocked out", kit.FigureKind.SHARE),
            kit.FigureSpec("rounds", "rounds survived, per match"),
            kit.FigureSpec("looted", "items looted, per match"),
            kit.FigureSpec("battles", "battles fought, per match"),
            kit.FigureSpec("champions_lost", "champions lost, per match"),
        ),
        attributes=("spawn tile class", "equipment"),
        sides_note="the sixteen seats are dealt to the bots in turn, starting one seat further each match",
        first_seat="the first player",
        bots_by_kind=True,
    )


def equipment_style(table: LootTable, p: Player) -> str:
    """``affinity``, ``off-affinity`` or ``bare``, from what her champions carry."""
    placed = [(c, item) for c, names in zip(CLASSES, p.equipment, strict=True) for n in names
              if (item := table.get(n)) is not None and item.type in HAND_TYPES]
    if not placed:
        return "bare"
    return "affinity" if all(item.type in AFFINITY[c] for c, item in placed) else "off-affinity"


class ChampionsTally:
    """Reads every window's events into per-player counters."""

    __slots__ = ("battles", "index", "looted", "lost", "spawn", "table")

    def __init__(self, table: LootTable, start: ChampionsState) -> None:
        self.table = table
        self.index = {p.name: i for i, p in enumerate(start.players)}
        self.spawn = [tile_class(start.size, p.at).value if p.at else "none" for p in start.players]
        n = len(start.players)
        self.looted = [0] * n
        self.battles = [0] * n
        self.lost = [0] * n

    def window(self, resolution: kit.Resolution[Any]) -> None:
        """Count one window's events."""
        for event in resolution.events:
            kind = event.kind
            if kind is EventKind.LOOTED:
                self.looted[self.index[event.data["player"]]] += 1
            elif kind is EventKind.BATTLE:
                for who in event.data["players"]:
                    self.battles[self.index[who]] += 1
            elif kind is EventKind.CHAMPION_DIED:
                self.lost[self.index[event.data["player"]]] += 1

    def finish(self, state: ChampionsState) -> kit.MatchSummary:
        """Each player's figures and attributes, in seat order."""
        alive = state.alive()
        if not alive:
            ending = FELL_TOGETHER
        elif len(alive) == 1:
            ending = LAST_STANDING
        else:
            ending = ROUND_LIMIT
        figures = []
        attributes = []
        for i, p in enumerate(state.players):
            rounds = p.out_round if p.out else state.round
            figures.append((float(p.out), float(rounds), float(self.looted[i]), float(self.battles[i]),
                            float(self.lost[i])))
            attributes.append((self.spawn[i], equipment_style(self.table, p)))
        return kit.MatchSummary(ending, tuple(figures), tuple(attributes))
