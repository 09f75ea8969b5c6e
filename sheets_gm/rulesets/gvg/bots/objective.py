"""The objective bot: plays for the trees, defends its structures and buys command skills; its turn plan, step
by step."""

from __future__ import annotations

import random

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.bots.base import Bot, TeamOrders
from sheets_gm.rulesets.gvg.bots.captain import Captain
from sheets_gm.rulesets.gvg.bots.fights import plan_attacks, plan_defence, protect_structures
from sheets_gm.rulesets.gvg.bots.geometry import RulesCache, reach
from sheets_gm.rulesets.gvg.bots.moves import plan_heals, plan_moves
from sheets_gm.rulesets.gvg.bots.plan import ObjectivePlan
from sheets_gm.rulesets.gvg.bots.skills import buy_damage_skills, buy_movement_skills, plan_teleports
from sheets_gm.rulesets.gvg.enums import Action, Skill
from sheets_gm.rulesets.gvg.rules import (
    GvgRules,
)
from sheets_gm.rulesets.gvg.state import GvgState, Player

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_ACT = Action.ACT
_TREE_SPEED = Skill.TREE_SPEED


class ObjectiveBot(Bot):
    """Plays for the tree: bulwarks, then the fish, then the tree home; defends and buys skills.

    Every turn, from the state alone (plus its random tie-breaks):

    - a carrier heads home by the shortest path (with Tree Speed when the captain can pay),
      escorted by the rest of the team, who aim for the carrier's next tile;
    - up to two players defend: they chase an enemy carrying the team's tree (everyone
      when it would score before the team's own carrier), pick up the team's dropped tree,
      or stand on an own structure an enemy stands on (tanks first);
    - the others attack: the enemy tree when it can be picked up, else the enemy fish once
      unlocked, else one enemy bulwark (nearest and weakest), all on the same one; a jungle
      coin on the way when it costs at most one step;
    - healers revive knocked-down allies who would otherwise respawn five or more steps
      back, else stand next to the tile most allies go to (off a battle tile) and buff;
    - the captain buys Tree Speed for a carrier (and keeps its price in hand when the enemy
      tree is about to be picked up), City Protection when an own structure near its end is
      threatened, Ballista for players waiting on base far from their target (who then
      teleport next to it), Bulwark or Fish Damage for an attack that may fail (fewer than
      three attackers, or enemies within reach of the structure), and Player Speed now and
      then when everyone is far from its target.

    Destinations: among the tiles within reach, those nearest the target by path (the
    engine's distances for the team), ties broken by the bot's generator.

    With ``buys_skills=False`` the captain never buys a command skill (the coins pile up):
    the same play otherwise, to measure what the skills are worth.
    """

    def __init__(self, seed: int | str = 0, *, buys_skills: bool = True) -> None:
        self.rng = random.Random(seed)
        self.buys_skills = buys_skills
        self._cache = RulesCache()

    def orders(self, rules: GvgRules, state: GvgState, team: int, dice: kit.TurnDice) -> TeamOrders:
        """Orders for every active player of ``team``, and the captain's skills."""
        geometry, costs = self._cache.of(rules)
        captain = Captain(rules, state, team, costs, self.buys_skills)
        return plan_turn(ObjectivePlan(self.rng, geometry, captain, dice))


def plan_turn(plan: ObjectivePlan) -> TeamOrders:
    """The team's orders for this turn, step by step: a carrier's Tree Speed, the structures to protect, the
    defenders, the attacks, movement skills and teleports, every player's move, the healers, then damage skills."""
    if not plan.mine:
        return TeamOrders()
    st, team, enemy = plan.state, plan.team, plan.enemy
    their_tree, own_tree = st.trees[enemy], st.trees[team]
    carrier: Player | None = None
    if their_tree is not None and their_tree.carrier is not None:
        carrier = next((p for p in plan.mine if p.name == their_tree.carrier), None)
    foe_carrier: Player | None = None
    if own_tree is not None and own_tree.carrier is not None:
        foe_carrier = next((p for p in plan.foes if p.name == own_tree.carrier), None)

    if carrier is not None and plan.g.home[team].get(carrier.at, 0) > plan.s.carrier_steps:
        plan.captain.buy(_TREE_SPEED)
    elif their_tree is not None and their_tree.carrier is None:
        fish_tile = plan.board.fish[enemy]
        fish = st.structures.get(fish_tile) if fish_tile is not None else None
        if fish is None or fish.hp <= 2 or their_tree.at != fish_tile:
            plan.reserve = plan.captain.costs[_TREE_SPEED]
    protect_structures(plan)
    healers, free = plan.healers, plan.others  # free: the players without a job yet (the plan's list, emptied)
    carrier_dest: Coord | None = None
    if carrier is not None:
        healers, free = [p for p in healers if p is not carrier], [p for p in free if p is not carrier]
        steps = reach(plan.rules, st, carrier, plan.dice, False, plan.captain.on(_TREE_SPEED))
        carrier_dest = plan.g.advance(team, carrier.at, steps, None, plan.rng)
        plan.order(carrier, carrier_dest, _ACT)
    plan_defence(plan, free, foe_carrier, carrier)
    plan_attacks(plan, free, carrier_dest)
    buy_movement_skills(plan)
    plan_teleports(plan)
    plan_moves(plan)
    plan_heals(plan, healers, carrier_dest)
    buy_damage_skills(plan)
    return TeamOrders(plan.players, tuple(plan.captain.skills))
