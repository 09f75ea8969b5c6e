"""What resolving a Win or Die window did, in the detail the check and the scenario runner need."""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.state import WodState


@dataclass(slots=True)
class TurnResult:
    """What resolving a window did: the new state, the log, a verdict per row, how many rows of the
    acting player were used up (resolved or refused) before a reaction stopped them, which reaction
    (``Bo's Bo-3 (Parry)``), and the rows refused or stopped (by row subject, each with why: while her
    turn stays open they stay on her sheet for the next sync)."""

    state: WodState
    events: list[kit.Event] = field(default_factory=list)
    verdicts: list[kit.Verdict] = field(default_factory=list)
    done: int = 0
    stopped_by: str = ""
    stopped_verb: str = "reacted before"  # what stopped the rows did: a reaction reacts, a passive stops
    unused: dict[str, str] = field(default_factory=dict)
    goes_on: bool = False  # the stand-in GM settles the stop: the rows go on at the next sync, no tick again

    @property
    def stopped(self) -> bool:
        """Whether a reaction stopped the acting player's rows."""
        return bool(self.stopped_by)
