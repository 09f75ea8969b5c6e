"""The one loop every scenario runs on: GM events, then each window's orders resolved with pinned dice.

A game's codec only describes its shapes: it reads the file into a ``Scenario`` (``rulesets.parts.scenario``:
the engine rules, the given state, one ``Entry`` per item of ``turns``, and how to compare ``expect``). This
module resolves it through the engine's own ``Ruleset`` methods (``apply_gm_event``, ``window``, ``dice``, ``check``,
``resolve``), the same ones the sync calls, so a scenario proves what a match would do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from sheets_gm.engine.dice import PinnedDieError, TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.gm_events import apply_gm
from sheets_gm.engine.ruleset import Resolution, Ruleset, Verdict
from sheets_gm.rulesets.parts.fields import Fields
from sheets_gm.rulesets.parts.scenario import Entry, Scenario

#: The seed a scenario's unpinned dice roll from: fixed, so a scenario gives the same result every run.
SCENARIO_SEED = b"sheets-gm scenario"

StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")


@dataclass(slots=True)
class ScenarioRun:
    """What running a scenario found: the log, each unmet expectation, dice pinned in vain."""

    events: list[Event]
    differences: list[str]  # "path: expected X, got Y", in the order of ``expect``
    unused_pins: list[str] = field(default_factory=list)


def play(scenario: Scenario[StateT, OrdersT], fields: Fields) -> ScenarioRun:
    """Run every entry of ``scenario`` and compare ``expect``; ScenarioError naming the line for an entry
    the game cannot take (a turn after the end, the wrong seat's turn, a pin on a die of another size)."""
    rules, state = scenario.rules, scenario.state
    events: list[Event] = []
    verdicts: list[Verdict] = []
    unused: list[str] = []
    for entry in scenario.entries:
        for gm_event in entry.gm:
            try:
                applied = apply_gm(rules, state, gm_event)
            except ValueError as exc:
                return ScenarioRun(events, [f"GM event refused: {exc}"])
            state, events = applied.state, events + applied.events
        window = rules.window(state)
        if window is None or scenario.over(state):
            if scenario.skip_after_the_end:
                continue
            outcome = rules.outcome(state)
            raise fields.fail(entry.line, f"{entry.label}: the game is already over before it"
                                          + (f" ({outcome.text})" if outcome else ""))
        if entry.seat is not None and entry.seat not in window.seats:
            raise fields.fail(entry.line, f"{entry.label} is {entry.seat}'s, but the open window is "
                                          f"{' and '.join(window.seats)}'s (turns follow the players' order)")
        state, pins = _play_entry(rules, state, entry, fields, events, verdicts)
        unused += [f"{entry.label} {key}" for key in pins]
    return ScenarioRun(events, scenario.compare(state, verdicts), unused)


def _play_entry(rules: Ruleset[StateT, OrdersT, Any], state: StateT, entry: Entry[StateT, OrdersT], fields: Fields,
                events: list[Event], verdicts: list[Verdict]) -> tuple[StateT, list[str]]:
    """The entry's windows resolved in turn (appending to ``events`` and ``verdicts``) until it has no more
    (rows typed after the game ended are still answered, as the sync answers them); the new state and the
    keys pinned in it that no window rolled or drew."""
    pinned: dict[str, None] = {}
    used: set[str] = set()
    last: Resolution[StateT] | None = None
    played = 0
    while (step := entry.next_play(state, last, played)) is not None:
        pinned.update(dict.fromkeys(step.pins))
        try:
            dice = rules.dice(SCENARIO_SEED, state, step.pins)
            last = rules.resolve(state, step.orders, dice)
        except PinnedDieError as exc:
            raise fields.fail(entry.line, f"{entry.label}: {exc}") from None
        said = last.verdicts or rules.check(state, step.orders, rules.dice(SCENARIO_SEED, state, step.pins))
        refused = [v for v in said if not v.accepted]
        if refused and step.refusal_is_error:
            raise fields.fail(entry.line, f"{entry.label}: {refused[0].subject} is refused: {refused[0].message}")
        used |= _used(dice)
        verdicts += said
        events += last.events
        state = last.state
        played += 1
    return state, [key for key in pinned if key not in used]


def _used(dice: TurnDice) -> set[str]:
    """The keys a window's dice rolled or drew."""
    return set(dice.rolled) | set(dice.drawn)
