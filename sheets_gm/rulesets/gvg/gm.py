"""GM events between turns: archery-duel awards and logged corrections."""

from __future__ import annotations

from sheets_gm.engine.events import Event
from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.rules import GvgRules, carried_tree
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel, GmEvent, GvgState


class GmEventError(ValueError):
    """A GM event that cannot be applied (bad score, unknown player, HP out of range...)."""


def apply_gm_event(rules: GvgRules, state: GvgState, event: GmEvent) -> tuple[GvgState, list[Event]]:
    """Apply an archery duel or an adjustment; the input state is not changed."""
    new = state.copy()
    if isinstance(event, ArcheryDuel):
        return new, [_duel(rules, new, event)]
    return new, _adjust(rules, new, event)


def _duel(rules: GvgRules, state: GvgState, duel: ArcheryDuel) -> Event:
    if duel.winner not in (0, 1):
        raise GmEventError(f"archery duel: the winner must be {state.teams[0]} or {state.teams[1]}")
    if duel.winner_points != 3 or not 0 <= duel.loser_points <= 2:
        raise GmEventError(
            f"archery duel: score {duel.winner_points}-{duel.loser_points} is impossible; "
            "best of 5, the winner has 3 points and the loser 0 to 2"
        )
    reward = rules.settings.duel_reward
    state.coins[duel.winner] += reward
    name = state.teams[duel.winner]
    return Event(state.turn, EventKind.ARCHERY_DUEL,
                 f"{name} wins the archery duel {duel.winner_points}-{duel.loser_points} and gains "
                 f"{counted(reward, 'coin')}.",
                 {"winner": name, "score": [duel.winner_points, duel.loser_points], "reward": reward})


def _adjust(rules: GvgRules, state: GvgState, adj: Adjustment) -> list[Event]:
    if not adj.reason.strip():
        raise GmEventError("an adjustment needs a reason; it is written to the log")
    if adj.coins is None and adj.hp is None and adj.position is None:
        raise GmEventError("an adjustment must change coins, HP or a position")
    events: list[Event] = []
    turn = state.turn
    if adj.coins is not None:
        team, value = adj.coins
        if team not in (0, 1) or value < 0:
            raise GmEventError(f"coins must be 0 or more for {state.teams[0]} or {state.teams[1]}; got {value}")
        before = state.coins[team]
        state.coins[team] = value
        events.append(Event(turn, EventKind.GM_ADJUSTMENT,
                            f"GM sets {state.teams[team]}'s coins from {before} to {value}: {adj.reason}.",
                            {"field": "coins", "team": state.teams[team], "before": before, "after": value,
                             "reason": adj.reason}))
    if adj.hp is not None:
        events.append(_adjust_hp(rules, state, adj.hp[0], adj.hp[1], adj.reason))
    if adj.position is not None:
        name, tile = adj.position
        try:
            player = state.player(name)
        except KeyError:
            names = ", ".join(p.name for p in state.players)
            raise GmEventError(f"there is no player called {name!r}; the players are {names}") from None
        if not rules.board.contains(tile):
            last = rules.board.grid.last
            raise GmEventError(f"{name} cannot stand on {tile.label}: it is off the board (A1 to {last.label})")
        if not rules.board.enterable(player.team, tile):
            raise GmEventError(f"{name} cannot stand on {tile.label}: it is a wall or the enemy base")
        before_tile = player.at
        player.at = tile
        tree = carried_tree(state, name)
        if tree is not None:
            tree.at = tile
        events.append(Event(turn, EventKind.GM_ADJUSTMENT,
                            f"GM moves {name} from {before_tile.label} to {tile.label}: {adj.reason}.",
                            {"field": "position", "player": name, "before": before_tile.label,
                             "after": tile.label, "reason": adj.reason}))
    return events


def _adjust_hp(rules: GvgRules, state: GvgState, tile: Coord, hp: int, reason: str) -> Event:
    """Set the HP of the structure or the living boss on ``tile``; 0 destroys it (no reward)."""
    structure = state.structures.get(tile)
    if structure is not None:
        target, before, top = structure.key, structure.hp, structure.max_hp
        name = f"{state.teams[structure.team]}'s {structure.kind.value} on {tile.label}"
    elif state.boss is not None and state.boss.at == tile:
        target, before, top = f"boss@{tile.label}", state.boss.hp, rules.settings.boss_hp
        name = f"the boss on {tile.label}"
    else:
        targets = [f"{s.at.label} ({state.teams[s.team]}'s {s.kind.value})" for s in state.structures.values()]
        if state.boss is not None:
            targets.append(f"{state.boss.at.label} (the boss)")
        raise GmEventError(f"there is no bulwark, fish or boss on {tile.label}; HP can be set on "
                           f"{', '.join(targets) or 'nothing now'}")
    if not 0 <= hp <= top:
        raise GmEventError(f"{name} can have 0 to {top} HP; got {hp}")
    if structure is not None:
        structure.hp = hp
    elif hp == 0:
        state.boss = None
    else:
        assert state.boss is not None
        state.boss.hp = hp
    return Event(state.turn, EventKind.GM_ADJUSTMENT, f"GM sets {name} from {before} to {hp} HP: {reason}.",
                 {"field": "hp", "target": target, "before": before, "after": hp, "reason": reason})
