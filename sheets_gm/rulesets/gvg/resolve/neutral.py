"""The neutral objectives: a jungle tile's buff and the boss fight."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets.gvg.combat import Side
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.resolve.fights import _NOBODY, join_fight
from sheets_gm.rulesets.gvg.resolve.work import Turn
from sheets_gm.rulesets.gvg.state import Player

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_BATTLE = EventKind.BATTLE
_BOSS_HIT = EventKind.BOSS_HIT
_BOSS_KILLED = EventKind.BOSS_KILLED
_COIN_TAKEN = EventKind.COIN_TAKEN


def jungle(work: Turn, tile: Coord, people: list[Player], contested: bool, winner: int | None) -> None:
    """A jungle tile taken this turn (by its only team, or the winner of the fight there) gives its team a coin."""
    taker: int | None = None
    if not contested:
        if any(work.can_act(p) for p in people):
            taker = people[0].team
    elif winner is not None:
        taker = winner
    if taker is None:
        return
    work.state.jungle.discard(tile)
    work.state.coins[taker] += 1
    work.log(_COIN_TAKEN,
             f"{work.team(taker)} takes the jungle coin on {tile.label} "
             f"({counted(work.state.coins[taker], 'coin')}).",
             team=work.team(taker), at=tile.label, coins=work.state.coins[taker])


def boss_fight(work: Turn, tile: Coord, people: list[Player]) -> None:
    """Each team on the boss's tile attacks it; the higher total hurts it (a tie rolls again), and the team whose blow
    kills it takes the reward."""
    boss = work.state.boss
    assert boss is not None
    attempts: list[tuple[int, int, int]] = []  # (team, total, boss roll)
    for team in (0, 1):
        side = Side(team, work.team(team))
        join_fight(work, (side, side), [p for p in people if p.team == team], False, _NOBODY)
        if not any(c.roll is not None for c in side.contributions):
            continue
        key = f"boss/{work.team(team)}"
        boss_roll = work.dice.d6(key)
        hit = side.total >= boss_roll
        work.log(_BATTLE,
                 f"{work.team(team)} against the boss on {tile.label}: {side.describe()} vs the boss's "
                 f"{boss_roll} [{work.dice.message(key)}]: {'hit' if hit else 'miss'}.",
                 tile=tile.label, kind="boss", pvp=False, sides=[side],
                 boss_roll=boss_roll, key=key, outcome="hit" if hit else "miss")
        if hit:
            attempts.append((team, side.total, boss_roll))
    if len(attempts) == 2 and attempts[0][1] == attempts[1][1]:
        tie_roll = work.dice.d6("final-blow")
        first = 0 if tie_roll <= 3 else 1
        attempts.sort(key=lambda a: a[0] != first)
        work.log(_BATTLE, f"Equal totals against the boss: the final-blow die rolls {tie_roll} "
                 f"[{work.dice.message('final-blow')}] (1-3: {work.team(0)} strikes first, 4-6: {work.team(1)}).",
                 tile=tile.label, kind="boss-tie", roll=tie_roll, key="final-blow", first=work.team(first))
    else:
        attempts.sort(key=lambda a: -a[1])
    for team, _total, _roll in attempts:
        if boss.hp <= 0:
            break
        boss.hp -= 1
        work.log(_BOSS_HIT, f"{work.team(team)} hits the boss ({boss.hp} HP left).",
                 team=work.team(team), hp=boss.hp)
        if boss.hp == 0:
            work.state.coins[team] += work.s.boss_reward
            work.log(_BOSS_KILLED,
                     f"{work.team(team)} lands the final blow on the boss and gains "
                     f"{counted(work.s.boss_reward, 'coin')}.",
                     team=work.team(team), reward=work.s.boss_reward)
            work.state.boss = None
