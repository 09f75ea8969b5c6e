"""The end of a turn: revives, knock-down bookkeeping, the turn limit and the match's end."""

from __future__ import annotations

from sheets_gm.rulesets.gvg.enums import EventKind, Skill
from sheets_gm.rulesets.gvg.resolve.work import _ACTIVE, _HEALER, _KNOCKED_DOWN, _REVIVE, Turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import TurnLimitRule
from sheets_gm.rulesets.gvg.state import GvgState

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_HEALING_REDUCTION = Skill.HEALING_REDUCTION
_MATCH_DRAWN = EventKind.MATCH_DRAWN
_MATCH_WON = EventKind.MATCH_WON
_RESPAWNED = EventKind.RESPAWNED
_REVIVED = EventKind.REVIVED


def finish(work: Turn, winner: int | None, how: str) -> None:
    """End the match with ``winner`` (None: a draw), saying how."""
    st = work.state
    st.finished = True
    st.winner = winner
    if winner is None:
        work.log(_MATCH_DRAWN, f"The match is a draw ({how}).", how=how)
    else:
        work.log(_MATCH_WON, f"{work.team(winner)} wins the match: {how}.",
                 winner=work.team(winner), how=how)


def revives(work: Turn) -> None:
    """Healers who chose to revive stand a knocked-down teammate in reach back up."""
    if _REVIVE not in work.checked.acting.values():  # most turns: no healer revives
        return
    st = work.state
    mode = work.s.movement
    for healer in st.players:
        if (healer.role is not _HEALER or healer.status is not _ACTIVE  # accepted revives: healers only
                or work.action(healer) is not _REVIVE or not work.can_act(healer)):
            continue
        if work.s.healing_reduction_blocks_revive and _HEALING_REDUCTION in work.active[1 - healer.team]:
            work.log(_REVIVED, f"{healer.name}'s revive is blocked by Healing Reduction.",
                     healer=healer.name, revived=[])
            continue
        reach = work.board.reach_of(healer.at, mode)
        raised = [p.name for p in st.players
                  if p.team == healer.team and p.status is _KNOCKED_DOWN and p.at in reach
                  and p.name not in work.revived]
        work.revived.update(raised)
        if raised:
            work.log(_REVIVED, f"{healer.name} revives {', '.join(raised)}.",
                     healer=healer.name, revived=raised)


def bookkeeping(work: Turn) -> None:
    """The knock-downs take effect: those knocked down this turn are down; those down since before stand up again,
    at base unless a healer revived them where they lay."""
    for p in work.state.players:
        if p.name in work.knocked:
            p.status = _KNOCKED_DOWN
            p.down_turn = work.turn
        elif p.status is _KNOCKED_DOWN:
            p.status = _ACTIVE
            p.down_turn = None
            if p.name not in work.revived:
                home = work.board.respawn_tile(p.team)
                if home is not None:
                    p.at = home
                work.log(_RESPAWNED, f"{p.name} respawns at base on {p.at.label}.",
                         player=p.name, at=p.at.label)


def turn_limit(work: Turn) -> None:
    """At the last turn, the match ends by the turn-limit rule (the farthest captured tree wins, or a draw)."""
    if work.state.finished or work.turn < work.s.max_turns:
        return
    st = work.state
    winner = decide_turn_limit(work.rules, st)
    reach = [tree_distance(work.rules, st, t) for t in (0, 1)]
    how = (f"turn {work.turn} reached; captured trees stand {reach[0]} ({work.team(0)}) and "
           f"{reach[1]} ({work.team(1)}) steps from their fish")
    finish(work, winner, how)


def decide_turn_limit(rules: GvgRules, state: GvgState) -> int | None:
    """The winner under the turn-limit rule: the team whose captured tree stands farthest from its fish."""
    if rules.settings.turn_limit_rule is TurnLimitRule.DRAW:
        return None
    reach = [tree_distance(rules, state, team) for team in (0, 1)]
    if reach[0] == reach[1]:
        return None
    return 0 if reach[0] > reach[1] else 1


def tree_distance(rules: GvgRules, state: GvgState, team: int) -> int:
    """Path steps from the enemy's fish tile to where the enemy tree stands (what ``team`` captured)."""
    enemy = 1 - team
    tree = state.trees[enemy]
    fish = rules.board.fish[enemy]
    if tree is None or fish is None:
        return 0
    return rules.board.distances(team, rules.settings.movement, fish).get(tree.at, 0)
