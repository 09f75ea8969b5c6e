"""Order checking, separate from resolution: for each order, accepted or not, and why.

The sheet shows these verdicts to players before the deadline; resolution uses only the
accepted orders (``CheckedOrders.accepted``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from sheets_gm.engine.dice import SIDES
from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import Action, Role, Skill, Status, StructureKind, Verdict
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
    Reach,
    movement_reach,
    next_available_turn,
    rolled_reach,
    skill_active,
    tile_name,
)
from sheets_gm.rulesets.gvg.settings import GvgSettings, OwnTreePickup
from sheets_gm.rulesets.gvg.state import GvgState, Player

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_BALLISTA = Skill.BALLISTA
_FISH = StructureKind.FISH
_IMPASSABLE = Verdict.IMPASSABLE
_MATCH_OVER = Verdict.MATCH_OVER
_NOT_A_HEALER = Verdict.NOT_A_HEALER
_NOT_ENOUGH_COINS = Verdict.NOT_ENOUGH_COINS
_NOT_ON_BASE = Verdict.NOT_ON_BASE
_NO_CHARGE = Verdict.NO_CHARGE
_OFF_BOARD = Verdict.OFF_BOARD
_ON_COOLDOWN = Verdict.ON_COOLDOWN
_PLAYER_SPEED = Skill.PLAYER_SPEED
_TOO_FAR = Verdict.TOO_FAR
_TREE_SPEED = Skill.TREE_SPEED
_UNKNOWN_PLAYER = Verdict.UNKNOWN_PLAYER
_UNREACHABLE = Verdict.UNREACHABLE
_VERDICT_KNOCKED_DOWN = Verdict.KNOCKED_DOWN

# Python 3.11 reads a member such as ``Verdict.ACCEPTED`` off its class through EnumType's
# ``__getattr__`` hook, about 0.1 µs each; the per-order code below reads these constants.
_ACCEPTED = Verdict.ACCEPTED
_ACT = Action.ACT
_HEALER = Role.HEALER
_HEALER_ACTIONS = frozenset({Action.BUFF, Action.REVIVE})
_KNOCKED_DOWN = Status.KNOCKED_DOWN
_PICKUP = Action.PICKUP


class OrderCheck(NamedTuple):
    """The verdict on one part of one order: ``subject`` is a player or team, ``part`` what was checked."""

    subject: str
    part: str
    verdict: Verdict
    message: str

    @property
    def accepted(self) -> bool:
        """Whether this part of the order stands (a healer's action typed for another role stands as the rules'
        fallback: she acts normally)."""
        return self.verdict is _ACCEPTED or self.verdict is _NOT_A_HEALER


class CheckedOrders(NamedTuple):
    """The orders that stand, and a verdict for every order given.

    A named tuple rather than a frozen dataclass: one is made every turn, and a frozen dataclass sets each of its
    fields through ``object.__setattr__`` (twice the instructions of the tuple)."""

    accepted: TurnOrders
    checks: list[OrderCheck]
    teleports: frozenset[str]
    reaches: dict[str, Reach]  # how far each accepted move could go, and why
    acting: dict[str, Action]  # each accepted action but a plain act, in roster order

    def for_subject(self, subject: str) -> list[OrderCheck]:
        """The verdicts about one player or team."""
        return [c for c in self.checks if c.subject == subject]

    @property
    def rejected(self) -> list[OrderCheck]:
        """Every verdict that refused an order."""
        return [c for c in self.checks if c.verdict is not _ACCEPTED]


def _coins(n: int) -> str:
    return counted(n, "coin")


def check_skills(
    rules: GvgRules, state: GvgState, orders: TurnOrders
) -> tuple[list[tuple[Skill, ...]], list[OrderCheck]]:
    """The skills each captain may activate this turn (in the order written, while coins last)."""
    s = rules.settings
    accepted: list[tuple[Skill, ...]] = []
    checks: list[OrderCheck] = []
    if not orders.skills[0] and not orders.skills[1]:  # most turns: no skill named, nothing to check
        return [(), ()], checks
    for team in (0, 1):
        team_name = state.teams[team]
        coins = state.coins[team]
        kept: list[Skill] = []
        for skill in orders.skills[team]:
            part = f"skill {skill.display}"
            if skill in kept:
                continue  # the same skill named twice is one activation
            ready = next_available_turn(state, s, team, skill)
            cost = s.cost(skill)
            if state.finished:
                checks.append(OrderCheck(team_name, part, _MATCH_OVER, "the match is over"))
            elif ready > state.turn:
                checks.append(OrderCheck(team_name, part, _ON_COOLDOWN,
                                         f"{skill.display} is on cooldown until turn {ready}"))
            elif cost > coins:
                spent = state.coins[team] - coins
                have = f"{team_name} has {_coins(coins)}" + (f" left after {_coins(spent)} of skills" if spent else "")
                checks.append(OrderCheck(team_name, part, _NOT_ENOUGH_COINS,
                                         f"{have}; {skill.display} costs {cost}"))
            else:
                coins -= cost
                kept.append(skill)
                checks.append(OrderCheck(team_name, part, _ACCEPTED,
                                         f"{skill.display}, activated for {_coins(cost)} this turn"))
        accepted.append(tuple(kept))
    return accepted, checks


def _check_destination(
    rules: GvgRules, state: GvgState, player: Player, tile: Coord, reach: Reach | None
) -> OrderCheck | None:
    """A refusal for moving ``player`` to ``tile`` (``reach`` None: a teleport, any distance), or None if legal."""
    board = rules.board
    part = "move" if reach is not None else "teleport"
    if not board.contains(tile):
        last = board.grid.last.label
        return OrderCheck(player.name, part, _OFF_BOARD, f"{tile.label} is off the board (A1 to {last})")
    if not board.enterable(player.team, tile):
        return OrderCheck(player.name, part, _IMPASSABLE,
                          f"{tile_name(rules, state, tile)} cannot be entered")
    if reach is None:
        return None  # the ballista goes to any tile the player may enter, walled off or not
    distances = board.distances(player.team, rules.settings.movement, player.at)
    distance = distances.get(tile)
    if distance is None:
        return OrderCheck(player.name, part, _UNREACHABLE,
                          f"no path leads from {player.at.label} to {tile.label}")
    if distance > reach.steps:
        plural = "step" if distance == 1 else "steps"
        return OrderCheck(player.name, part, _TOO_FAR,
                          f"{tile.label} is {distance} {plural} away; {reach.explanation}")
    return None


def _in_effect(state: GvgState, settings: GvgSettings, skills: list[tuple[Skill, ...]], skill: Skill) -> list[bool]:
    """For each team, whether ``skill`` is in effect this turn: still running, or activated now."""
    return [skill in skills[t] or skill_active(state, settings, t, skill, state.turn) for t in (0, 1)]


@lru_cache(maxsize=16)
def _reaches_by_roll(speed_bonus: int) -> tuple[Reach, ...]:
    """``rolled_reach`` of each movement roll (1 to 6, at its index; 0 unused) with ``speed_bonus``: one lookup a
    mover."""
    return tuple(rolled_reach(roll, speed_bonus) for roll in range(SIDES + 1))


_MOVES_KEPT = 20_000  # accepted moves remembered before the memory is emptied
_moves: dict[tuple[str, Coord], OrderCheck] = {}


def _move_accepted(name: str, tile: Coord) -> OrderCheck:
    """The verdict accepting ``name``'s move to ``tile``: verdicts are immutable, so equal ones are shared (a turn
    checks about ten moves, and the sentence is read only when a sheet shows it)."""
    found = _moves.get((name, tile))
    if found is None:
        if len(_moves) >= _MOVES_KEPT:
            _moves.clear()
        found = _moves[(name, tile)] = OrderCheck(name, "move", _ACCEPTED, f"move to {tile.label}")
    return found


def _check_move(rules: GvgRules, state: GvgState, player: Player, tile: Coord, reach: Reach) -> OrderCheck:
    """The verdict on moving ``player`` to ``tile`` with ``reach``."""
    board = rules.board
    distance = board.distances(player.team, rules.settings.movement, player.at).get(tile)
    # The common case in one lookup: a tile at a known distance is on the board and reachable.
    if distance is not None and distance <= reach.steps and board.enterable(player.team, tile):
        return _move_accepted(player.name, tile)
    refusal = _check_destination(rules, state, player, tile, reach)
    assert refusal is not None  # the lookup above accepts every legal move
    return refusal


def pickup_note(rules: GvgRules, state: GvgState, player: Player, tile: Coord) -> str:
    """What a pickup on ``tile`` (where ``player`` acts this turn) finds as the turn starts: a tree lying there
    to take, one its standing fish still guards, or none (a tree dropped there in this turn's battles may
    still be taken, so the order stands either way)."""
    for tree in state.trees:
        if tree is None or tree.carrier is not None or tree.at != tile:
            continue
        owner = state.teams[tree.team]
        fish = state.structures.get(tile)
        guarded = fish is not None and fish.kind is _FISH and fish.team == tree.team and not fish.destroyed
        if tree.team != player.team and guarded:
            return (f"pickup on {tile.label}: {owner}'s tree stands on its fish there, to be taken once the fish "
                    "is destroyed (this turn's fight may do it)")
        if tree.team == player.team:
            if rules.settings.own_tree_pickup is OwnTreePickup.RETURN and rules.board.fish[tree.team] is not None:
                return f"pickup on {tile.label}: {owner}'s own tree lies there, sent back to its fish"
            return f"pickup on {tile.label}: only {owner}'s own tree lies there, which {owner} may not pick up"
        return f"pickup on {tile.label}: {owner}'s tree lies there"
    return (f"pickup on {tile.label}: no tree lies there now (only a tree dropped there this turn could be "
            "picked up)")


def _check_teleport(rules: GvgRules, state: GvgState, player: Player, tile: Coord, charges: int) -> OrderCheck:
    """The verdict on ``player``'s ballista teleport to ``tile`` with ``charges`` left to its team."""
    refusal = _check_destination(rules, state, player, tile, None)
    if refusal is None and rules.board.base_owner(player.at) != player.team:
        refusal = OrderCheck(player.name, "teleport", _NOT_ON_BASE,
                             f"only a player who starts the turn on its base can teleport; "
                             f"{player.name} is on {player.at.label}")
    if refusal is None and charges <= 0:
        refusal = OrderCheck(player.name, "teleport", _NO_CHARGE,
                             f"{state.teams[player.team]} has no ballista charge left")
    return refusal or OrderCheck(player.name, "teleport", _ACCEPTED,
                                 f"teleport to {tile.label} (no action this turn)")


def _unknown_players(state: GvgState, given: Mapping[str, PlayerOrder]) -> list[OrderCheck]:
    """A refusal for each order that names no player of the match, in the orders' order."""
    names = {p.name for p in state.players}
    return [OrderCheck(name, "player", _UNKNOWN_PLAYER, f"there is no player called {name!r}")
            for name in given if name not in names]


def check_orders(rules: GvgRules, state: GvgState, orders: TurnOrders, dice: kit.TurnDice) -> CheckedOrders:
    """Check every order of a turn against the state; never raises for bad orders."""
    skills, checks = check_skills(rules, state, orders)
    s = rules.settings
    charges = list(state.ballista)
    for team in (0, 1) if skills[0] or skills[1] else ():
        if _BALLISTA in skills[team]:
            charges[team] += s.ballista_charges
    speed, tree_speed = _in_effect(state, s, skills, _PLAYER_SPEED), _in_effect(state, s, skills, _TREE_SPEED)
    rolled = (_reaches_by_roll(s.player_speed_bonus if speed[0] else 0),
              _reaches_by_roll(s.player_speed_bonus if speed[1] else 0))
    carriers = {tree.carrier for tree in state.trees if tree is not None and tree.carrier is not None}
    distances, enterable, mode = rules.board.distances, rules.board.enterable, s.movement
    tables = (rules.board.distance_table(0, mode), rules.board.distance_table(1, mode))

    accepted: dict[str, PlayerOrder] = {}
    teleports: set[str] = set()
    reaches: dict[str, Reach] = {}
    acting: dict[str, Action] = {}
    given = orders.players
    unknown_at = len(checks)  # the orders for no player are told before the players' own
    known = 0
    finished, d6, verdict_of = state.finished, dice.d6, checks.append  # read once, not once a player
    for player in state.players:  # roster order decides who gets the last ballista charge
        name = player.name
        order = given.get(name)
        if order is None:
            continue
        known += 1
        if finished or player.status is _KNOCKED_DOWN:
            verdict_of(_refused_player(state, player))
            continue
        move: Coord | None = None
        teleport: Coord | None = None
        if order.teleport is not None:
            verdict = _check_teleport(rules, state, player, order.teleport, charges[player.team])
            verdict_of(verdict)
            if verdict.verdict is _ACCEPTED:
                charges[player.team] -= 1
                teleport = order.teleport
                teleports.add(name)
        tile = order.move
        if tile is not None and teleport is None:
            team, at = player.team, player.at
            if name in carriers:
                reach = movement_reach(rules, state, player, dice, speed[team], tree_speed[team])
            else:  # ``movement_reach`` of a player who rolls, without looking for the tree again
                reach = rolled[team][d6("move/" + name)]
            asked = tables[team].get(at)  # ``distances`` without a call, once asked from that tile
            distance = (asked if asked is not None else distances(team, mode, at)).get(tile)
            # ``_check_move``'s test; a tile a step or more away is enterable, or the search would not have reached it
            if distance is not None and distance <= reach.steps and (distance or enterable(team, tile)):
                move = tile
                reaches[name] = reach
                shared = _moves.get((name, tile))  # ``_move_accepted``'s memory read without a call
                verdict_of(shared if shared is not None else _move_accepted(name, tile))
            else:
                verdict_of(_check_move(rules, state, player, tile, reach))
        action = order.action
        if action is not _ACT:  # ``_check_action`` accepts a plain act without a verdict: no call for it
            action = _check_action(rules, state, player, action, move, teleport, checks)
            if action is not _ACT:
                acting[name] = action
        if move is tile and action is order.action and teleport is order.teleport:
            accepted[name] = order  # unchanged (what stands is the order's own): orders are immutable
        else:
            accepted[name] = PlayerOrder(move=move, action=action, teleport=teleport)
    if known < len(given):
        checks[unknown_at:unknown_at] = _unknown_players(state, given)
    return CheckedOrders(TurnOrders(accepted, (skills[0], skills[1])), checks, frozenset(teleports), reaches, acting)


def _refused_player(state: GvgState, player: Player) -> OrderCheck:
    """The refusal of every order of ``player`` when the match is over or she is knocked down."""
    if state.finished:
        return OrderCheck(player.name, "order", _MATCH_OVER, "the match is over")
    return OrderCheck(player.name, "order", _VERDICT_KNOCKED_DOWN,
                      f"{player.name} is knocked down and skips turn {state.turn}")


def _check_action(rules: GvgRules, state: GvgState, player: Player, action: Action, move: Coord | None,
                  teleport: Coord | None, checks: list[OrderCheck]) -> Action:
    """The action ``player`` will take, its verdict appended to ``checks``: a healer's action typed for another
    role acts normally; a pickup names what it finds where she ends up; no action while teleporting."""
    if action in _HEALER_ACTIONS and player.role is not _HEALER:
        checks.append(OrderCheck(player.name, "action", _NOT_A_HEALER,
                                 f"{player.name} is a {player.role.display}, and only healers {action.value}: "
                                 f"{player.name} acts normally instead, as the rules say"))
        return _ACT
    if action is _ACT:
        return action
    if teleport is not None:
        note = f"{action.value} (no action this turn: teleporting)"
        checks.append(OrderCheck(player.name, "action", _ACCEPTED, note))
    elif action is _PICKUP:
        note = pickup_note(rules, state, player, move or player.at)
        checks.append(OrderCheck(player.name, "action", _ACCEPTED, note))
    else:
        checks.append(_action_accepted(player.name, action))
    return action


_actions: dict[tuple[str, Action], OrderCheck] = {}


def _action_accepted(name: str, action: Action) -> OrderCheck:
    """The verdict accepting ``name``'s ``action`` (not a pickup), shared as ``_move_accepted``'s: a turn checks a
    healer's buff or revive or two."""
    found = _actions.get((name, action))
    if found is None:
        if len(_actions) >= _MOVES_KEPT:
            _actions.clear()
        found = _actions[(name, action)] = OrderCheck(name, "action", _ACCEPTED, action.value)
    return found


def verdicts_of(state: GvgState, checked: CheckedOrders) -> list[kit.Verdict]:
    """The core's verdicts of ``checked``: a player's seat is its team, a team's skills are the team's own."""
    team_of = {p.name: state.teams[p.team] for p in state.players}
    return [kit.Verdict(team_of.get(c.subject, c.subject), c.subject, c.part, c.accepted, c.message)
            for c in checked.checks]
