"""The deployment windows: each player's face-down tokens placed on her own deployment hexes."""

from __future__ import annotations

from dataclasses import replace

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.enums import (
    EventKind,
    Phase,
)
from sheets_gm.rulesets.winordie.orders import Placement, WodOrders
from sheets_gm.rulesets.winordie.resolve.result import TurnResult
from sheets_gm.rulesets.winordie.rules import (
    WodRules,
    identity,
)
from sheets_gm.rulesets.winordie.state import Unit, WodState


# -- deployment ----------------------------------------------------------------------------
def deploy(rules: WodRules, state: WodState, orders: WodOrders, result: TurnResult) -> None:
    """The deploying player's placements: all legal, or nothing changes. Its verdicts are told in her rows before
    it resolves (``Verdict.shown_early``): they are of her own units on her own baseline, and hide nothing."""
    seat = state.acting
    placements = orders.deploy.get(seat, ())
    if not placements:
        return
    legion = state.legions[seat]
    allowed = set(rules.board.deploy_hexes(legion.slot))
    waiting = {u.id: u for u in state.units if u.owner == seat and u.at is None}
    taken: dict[Hex, str] = {u.at: u.id for u in state.units if u.at is not None}
    chosen: dict[str, Hex] = {}
    refused = False
    # A placement is named by its unit, whose row the player sees in the deployment table (its place among the
    # placements read is not the table's row she sees: a row left empty above it is skipped).
    for p in placements:
        problem = _placement_problem(rules, state, seat, p, waiting, chosen, taken, allowed)
        if problem:
            refused = True
            result.verdicts.append(kit.Verdict(seat, p.unit, "deploy", False, f"{p.unit} (on {p.at}): {problem}",
                                               shown_early=True))
            continue
        unit = state.unit(p.unit)
        assert unit is not None
        at = rules.board.parse(p.at)
        chosen[unit.id] = at
        taken[at] = unit.id
        result.verdicts.append(kit.Verdict(seat, unit.id, "deploy", True, f"{unit.id} deploys on {at.label}.",
                                           shown_early=True))
    for uid in waiting:
        if uid not in chosen and not any(v.subject == uid for v in result.verdicts):
            refused = True
            result.verdicts.append(kit.Verdict(seat, uid, "deploy", False,
                                               f"{uid} is not placed: place every unit of the legion on a plain in or "
                                               f"next to your baseline", shown_early=True))
    if refused:  # nothing is deployed: a row that could be is not carried out either, and says so
        result.verdicts[:] = [_not_deployed(v) if v.seat == seat and v.part == "deploy" and v.accepted else v
                              for v in result.verdicts]
        return
    mine = sorted(chosen.items(), key=lambda item: (item[1].row, item[1].col))
    for n, (uid, at) in enumerate(mine, start=1):
        unit = state.unit(uid)
        assert unit is not None
        unit.at = at
        unit.hidden = True
        unit.token = f"{seat} token {n}"
    result.events.append(kit.Event(state.turn, EventKind.DEPLOYED,
                                   f"{seat} deploys {len(mine)} face-down tokens on "
                                   f"{', '.join(at.label for _, at in mine)}.",
                                   {"player": seat, "hexes": [at.label for _, at in mine]}))
    result.events.append(kit.Event(
        state.turn, EventKind.DEPLOYED,
        "Your tokens: " + "; ".join(identity(u) for u in state.units if u.owner == seat) + ".",
        {"player": seat}, audience=frozenset({seat})))
    if seat == state.second:  # each player gets her command tokens; the first player's first turn has fewer
        state.phase = Phase.ACTIONS
        state.turn = 1
        state.started = False
        for legion in state.legions.values():
            legion.tokens = rules.settings.tokens


def _not_deployed(verdict: kit.Verdict) -> kit.Verdict:
    """A placement that was legal, refused with the deployment it belongs to (all of a legion's units or none)."""
    return replace(verdict, accepted=False, message=f"{verdict.subject} is not deployed, as no unit is while another "
                                                    "row is refused: a legion deploys all its units at once")


def _placement_problem(rules: WodRules, state: WodState, seat: str, p: Placement, waiting: dict[str, Unit],
                       chosen: dict[str, Hex], taken: dict[Hex, str], allowed: set[Hex]) -> str | None:
    unit = state.unit(p.unit)
    if unit is None or unit.owner != seat:
        return f"you have no unit {p.unit!r}; your units are {', '.join(waiting) or 'all deployed'}"
    if unit.id not in waiting or unit.id in chosen:
        return f"{unit.id} is placed already"
    if not rules.board.is_hex(p.at):
        return f"{p.at!r} is not a hex of the map (a column letter and a row number, like C3)"
    at = rules.board.parse(p.at)
    refusal = rules.board.deploy_refusal(at, state.legions[seat].slot)
    if refusal is not None:
        return (f"{refusal}; deploy on a plain in or next to your baseline "
                f"({', '.join(h.label for h in sorted(allowed, key=lambda h: (h.row, h.col)))})")
    if at in taken:
        return f"{at.label} is taken"
    return None
