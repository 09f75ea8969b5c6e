"""Sum-versus-sum battles: each side's rolls and named bonuses, the totals, the outcome."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.gvg.enums import Outcome
from sheets_gm.rulesets.gvg.state import Player

_ATTACKERS_WIN, _DEFENDERS_WIN = Outcome.ATTACKERS_WIN, Outcome.DEFENDERS_WIN  # read off the class once (Python 3.11)


class Contribution:
    """One player's part of a side's total: its roll (with the die's key) and named bonuses.

    A plain class with slots rather than a dataclass: a turn makes a few of them, and the generated ``__init__``
    with its ``__post_init__`` was most of their cost. ``total`` is the roll plus the bonuses (0 for a player who
    does not roll)."""

    __slots__ = ("bonuses", "key", "player", "roll", "total")

    def __init__(self, player: Player, roll: int | None, key: str | None,
                 bonuses: list[tuple[str, int]] | None = None) -> None:
        self.player = player
        self.roll = roll  # None: present but not rolling (buffing healer, teleporter)
        self.key = key
        self.bonuses: list[tuple[str, int]] = [] if bonuses is None else bonuses
        total = 0
        if roll is not None:
            total = roll
            for _, value in self.bonuses:  # a loop: a comprehension is a call on Python 3.11
                total += value
        self.total = total

    def describe(self) -> str:
        """``Ann (DPS) rolls 2 [12/combat/Ann] + 2 (DPS) = 4``, or ``Cy (Healer) does not roll``.

        The die's whole message (``TurnDice.message``) is shown so that a player can recompute the roll from the
        revealed seed."""
        who = f"{self.player.name} ({self.player.role.display})"
        if self.roll is None:
            return f"{who} does not roll"
        key = f" [{self.key}]" if self.key else ""
        bonus_text = "".join(f" {'+' if v >= 0 else '-'} {abs(v)} ({name})" for name, v in self.bonuses)
        return f"{who} rolls {self.roll}{key}{bonus_text}" + (f" = {self.total}" if self.bonuses else "")


class Side:
    """One side of a battle: a team's players on the tile, flat bonuses, and the total.

    A plain class with slots rather than a dataclass, as ``Contribution``: a battle makes two, and the generated
    ``__init__`` called a factory for each list."""

    __slots__ = ("contributions", "flat", "label", "team")

    def __init__(self, team: int, label: str, contributions: list[Contribution] | None = None,
                 flat: list[tuple[str, int]] | None = None) -> None:
        self.team = team
        self.label = label
        self.contributions: list[Contribution] = [] if contributions is None else contributions
        self.flat: list[tuple[str, int]] = [] if flat is None else flat

    def __repr__(self) -> str:
        return f"Side(team={self.team!r}, label={self.label!r}, total={self.total})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Side) and ((self.team, self.label, self.contributions, self.flat)
                                            == (other.team, other.label, other.contributions, other.flat))

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    @property
    def total(self) -> int:
        """The sum of every contribution and flat bonus."""
        total = 0
        for c in self.contributions:  # loops: a comprehension is a call on Python 3.11, and ``decide`` asks twice
            total += c.total
        for _, value in self.flat:
            total += value
        return total

    @property
    def players(self) -> list[Player]:
        """The side's players on the tile (rolling or not)."""
        return [c.player for c in self.contributions]

    def describe(self) -> str:
        """The side's arithmetic as a phrase."""
        parts = [c.describe() for c in self.contributions]
        parts += [f"{'+' if v >= 0 else '-'} {abs(v)} ({name})" for name, v in self.flat]
        return f"{self.label}: " + ", ".join(parts) + f" — total {self.total}"

    def to_json(self) -> dict[str, Any]:
        """Every roll with its key, every bonus by name, and the total."""
        return {
            "team": self.team,
            "label": self.label,
            "players": [
                {"name": c.player.name, "role": c.player.role.value, "roll": c.roll, "key": c.key,
                 "bonuses": [{"name": n, "value": v} for n, v in c.bonuses], "total": c.total}
                for c in self.contributions
            ],
            "flat": [{"name": n, "value": v} for n, v in self.flat],
            "total": self.total,
        }


def decide(attack: Side, defence: Side, tie: Outcome) -> Outcome:
    """Higher total wins; an equal total gives ``tie``."""
    attack_total, defence_total = attack.total, defence.total
    if attack_total > defence_total:
        return _ATTACKERS_WIN
    if attack_total < defence_total:
        return _DEFENDERS_WIN
    return tie
