"""What ``simulate`` counts in a GvG match: coins earned and spent per skill, knock-downs, tree
pickups and captures, and whether it ended by a capture or at the turn limit.

The tally reads every turn's log events as they are made (no state is kept), so a
simulation of thousands of matches pays only for a few dictionary updates a turn.
"""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import EventKind, Skill
from sheets_gm.rulesets.gvg.state import GvgState

#: The skills in the order of their "spent on" figures.
SKILLS: tuple[Skill, ...] = tuple(Skill)
_SKILL_INDEX = {skill.value: i for i, skill in enumerate(SKILLS)}

# Python 3.11 reads a member such as ``EventKind.MOVED`` off its class through EnumType's ``__getattr__`` hook
# (several times a plain attribute's cost): the tally reads these for every event of every turn.
_MOVED, _BATTLE, _COIN_TAKEN = EventKind.MOVED, EventKind.BATTLE, EventKind.COIN_TAKEN
_KNOCKED_DOWN, _SKILL_ACTIVATED, _BOSS_KILLED = EventKind.KNOCKED_DOWN, EventKind.SKILL_ACTIVATED, EventKind.BOSS_KILLED
_TREE_PICKED_UP, _TREE_RETURNED = EventKind.TREE_PICKED_UP, EventKind.TREE_RETURNED

CAPTURE = "capture"
TURN_LIMIT = "turn_limit"


def simulation_spec(max_turns: int) -> kit.SimulationSpec:
    """GvG's figures, with the turn limit of the default variant in their labels."""
    limit = f"turn-{max_turns}"
    return kit.SimulationSpec(
        length_unit="turns",
        endings=((CAPTURE, "decided by a tree capture"), (TURN_LIMIT, f"{limit} decisions")),
        figures=(
            kit.FigureSpec("captures", "tree captures (enemy tree carried home)", kit.FigureKind.SHARE),
            kit.FigureSpec("turn_limit_wins", f"{limit} wins", kit.FigureKind.SHARE),
            kit.FigureSpec("pickups", "enemy tree picked up, per match"),
            kit.FigureSpec("knocked_down", "own players knocked down, per match"),
            kit.FigureSpec("coins_earned", "coins earned, per match"),
            kit.FigureSpec("coins_spent", "coins spent, per match"),
            *(kit.FigureSpec(f"spent_{skill.value}", f"  on {skill.display}") for skill in SKILLS),
        ),
        sides_note="team A plays slot 1 (red) in even-numbered matches and slot 2 (blue) in odd-numbered ones",
        first_seat="slot 1 (red)",
    )


class GvgTally:
    """Reads every turn's events into per-team counters."""

    __slots__ = ("captured", "earned", "knocked", "pickups", "slot_of_player", "slot_of_team", "spent")

    def __init__(self, state: GvgState) -> None:
        self.slot_of_team = {name: i for i, name in enumerate(state.teams)}
        self.slot_of_player = {p.name: p.team for p in state.players}
        self.earned = [0, 0]
        self.spent = ([0] * len(SKILLS), [0] * len(SKILLS))
        self.pickups = [0, 0]
        self.knocked = [0, 0]
        self.captured = [False, False]

    def window(self, resolution: kit.Resolution[Any]) -> None:
        """Count one turn's events."""
        for event in resolution.events:
            kind = event.kind
            if kind is _MOVED or kind is _BATTLE:
                continue  # the most frequent kinds, of no interest here
            data = event.data
            if kind is _COIN_TAKEN:
                self.earned[self.slot_of_team[data["team"]]] += 1
            elif kind is _KNOCKED_DOWN:
                self.knocked[self.slot_of_player[data["player"]]] += 1
            elif kind is _SKILL_ACTIVATED:
                self.spent[self.slot_of_team[data["team"]]][_SKILL_INDEX[data["skill"]]] += data["cost"]
            elif kind is _BOSS_KILLED:
                self.earned[self.slot_of_team[data["team"]]] += data["reward"]
            elif kind is _TREE_PICKED_UP:
                self.pickups[self.slot_of_player[data["player"]]] += 1
            elif kind is _TREE_RETURNED:
                slot = self.slot_of_player[data["player"]]
                if self.slot_of_team[data["tree"]] != slot:  # not a team returning its own tree
                    self.captured[slot] = True

    def finish(self, state: GvgState) -> kit.MatchSummary:
        """Each team's figures, in the order of ``simulation_spec``."""
        ending = CAPTURE if any(self.captured) else TURN_LIMIT
        seats = []
        for slot in (0, 1):
            spent = self.spent[slot]
            won_at_limit = ending == TURN_LIMIT and state.winner == slot
            seats.append((float(self.captured[slot]), float(won_at_limit), float(self.pickups[slot]),
                          float(self.knocked[slot]), float(self.earned[slot]), float(sum(spent)),
                          *(float(x) for x in spent)))
        return kit.MatchSummary(ending, tuple(seats))
