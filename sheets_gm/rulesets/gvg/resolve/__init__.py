"""Resolving one GvG turn: a pure function from (state, orders, dice) to (new state, log).

Order of a turn (rulings/gvg.md): command skills → scheduled events (halftime, boss) →
movement (simultaneous) → action phase (every tile at once) → knock-down bookkeeping →
win check. The input state is never changed.

One module per phase: ``commands``, ``schedule``, ``movement``, the action phase's ``tiles`` (with the
``fights``, ``neutral`` objectives and ``pickups``), then ``upkeep``; the turn being resolved is a ``work.Turn``
passed to each.
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.check import CheckedOrders, check_orders, verdicts_of
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.enums import Verdict as OrderVerdict
from sheets_gm.rulesets.gvg.orders import TurnOrders
from sheets_gm.rulesets.gvg.resolve.commands import command_phase
from sheets_gm.rulesets.gvg.resolve.movement import carrier_home, movement_phase
from sheets_gm.rulesets.gvg.resolve.schedule import scheduled_events
from sheets_gm.rulesets.gvg.resolve.tiles import action_phase
from sheets_gm.rulesets.gvg.resolve.upkeep import bookkeeping, turn_limit
from sheets_gm.rulesets.gvg.resolve.work import Turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.state import GvgState

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_ORDER_REJECTED = EventKind.ORDER_REJECTED
_ACCEPTED = OrderVerdict.ACCEPTED


class MatchOverError(ValueError):
    """A turn was asked of a match that has already ended."""


class _TurnResolution(kit.Resolution[GvgState]):
    """A resolved turn whose verdicts (``Resolution.verdicts``) are made from its checked orders when first read:
    a simulation never reads them, and making them was a tenth of a turn's resolution."""

    def __init__(self, state: GvgState, events: list[kit.Event], unused: Mapping[str, Mapping[str, str]] | None = None,
                 verdicts: list[kit.Verdict] | None = None,
                 made_from: tuple[GvgState, CheckedOrders] | None = None) -> None:
        # the fields in ``Resolution``'s order, so that ``dataclasses.replace`` makes one as it makes the base
        self.state = state
        self.events = events
        self.unused = {} if unused is None else dict(unused)
        self._made = verdicts
        self._from = made_from

    @property
    def verdicts(self) -> list[kit.Verdict]:
        """The core's verdicts of the turn's checked orders (``check.verdicts_of``), made once."""
        if self._made is None:
            self._made = verdicts_of(*self._from) if self._from is not None else []
        return self._made

    @verdicts.setter
    def verdicts(self, value: list[kit.Verdict]) -> None:
        self._made = value


def resolve_turn(rules: GvgRules, state: GvgState, orders: TurnOrders, dice: kit.TurnDice) -> kit.Resolution[GvgState]:
    """Resolve ``state.turn`` with ``orders`` (checked first; refused orders are logged, not used): the new state,
    the log, and a verdict per order part (``Resolution.verdicts``); the dice keep every die rolled."""
    if state.finished:
        raise MatchOverError(f"the match ended on turn {state.turn}; there is no turn to resolve")
    if dice.turn != state.turn:
        raise ValueError(f"dice are for turn {dice.turn} but the state is at turn {state.turn}")
    checked = check_orders(rules, state, orders, dice)
    work = Turn(rules, state.copy(share_structures=True), checked, dice)  # fights.py copies a structure it damages
    _run(work)
    return _TurnResolution(work.state, work.events, made_from=(state, checked))


def _run(work: Turn) -> None:
    for check in work.checked.checks:  # ``CheckedOrders.rejected`` without its list: most turns refuse nothing
        if check.verdict is _ACCEPTED:
            continue
        work.log(_ORDER_REJECTED, f"{check.subject}: {check.part} refused — {check.message}.",
                 subject=check.subject, part=check.part, verdict=check.verdict.value)
    command_phase(work)
    scheduled_events(work)
    movement_phase(work)
    if carrier_home(work):
        return
    action_phase(work)
    bookkeeping(work)
    turn_limit(work)
    if not work.state.finished:
        work.state.turn += 1
