"""The judge's results: checked (a refused result changes nothing and says why), then applied:
losses per slot, victory points, kills (judged or rolled), lost kill squads, sieges, bumps.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from sheets_gm.engine.words import counted, possessive
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board, PlaceError
from sheets_gm.rulesets.coalition.enums import BattleType, EventKind, KillOutcome, Phase, Side
from sheets_gm.rulesets.coalition.forum import battle_title, dice_event
from sheets_gm.rulesets.coalition.orders import ArmyIndex
from sheets_gm.rulesets.coalition.placement import place_around
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import Army, Battle, BattleReport, BattleResult, CoalitionState, Units

#: Said of every result the bot judge enters: where the GM names it (practice, ``[bots] judge``), simulate, demo.
STAND_IN = "result by the automatic stand-in judge (a bot, not a person), not a ruling"


@dataclass(frozen=True, slots=True)
class CheckedResult:
    """A result that fits its battle: the battle, the winning side (None: siege) and the kill's armies."""

    battle: Battle
    result: BattleResult
    winner: Side | None
    killer: str | None
    victim: str | None


def kill_vp(settings: CoalitionSettings, rank: int) -> int:
    """Victory points for killing an army of ``rank``: 5 x rank value; the top rank gives 50."""
    return settings.top_kill_vp if rank == 6 else settings.kill_vp_per_rank * rank


def check_result(board: Board, settings: CoalitionSettings, state: CoalitionState, where: str,
                 result: BattleResult, index: ArmyIndex | None = None) -> CheckedResult | str:
    """The result entered for the battle at ``where``, or why it is refused (naming the row's square).
    ``index``: the state's armies by name, built once for all the results of a window."""
    index = index or ArmyIndex(state)
    try:
        place = board.parse(where)
    except PlaceError as exc:
        return f"result {where!r}: {exc}"
    battle = index.battles.get(place)
    if battle is None:
        open_ = ", ".join(b.at for b in state.battles if b.announced) or "none"
        return f"result {place}: there is no open battle there; the open battles are at {open_}"
    if not battle.announced:
        return f"result {place}: this battle ({battle_title(battle)}) is announced next turn; enter its result then"
    armies = index.by_name
    sides = {n: armies[n].side for n in battle.armies if n in armies}
    present = {s for s in sides.values()}
    for name, losses in result.losses.items():
        if name not in sides:
            return f"result {place}: {name} is not in this battle; its armies are {', '.join(battle.armies)}"
        if len(losses) != 4 or any(not _whole(x) or x < 0 for x in losses):
            return f"result {place}: {possessive(name)} losses are four whole numbers, one per slot, like 100/0/0/0"
        for slot, (lost, have) in enumerate(zip(losses, armies[name].units, strict=True), start=1):
            if lost > have:
                return f"result {place}: {name} loses {lost} in slot {slot}; it has {have} there"
    if result.vp is not None and (not _whole(result.vp) or result.vp < 0):
        return f"result {place}: victory points are a whole number, 0 or more"
    if not _whole(result.kill_bonus) or not _whole(result.escape_bonus):
        return f"result {place}: the kill and escape bonuses are whole numbers (added to a d100)"
    if result.siege:
        if result.winner or result.kill or result.stratless:
            return f"result {place}: a siege has no winner, kill or stratless side; leave them empty"
        return CheckedResult(battle, result, None, None, None)
    winner = _side_of(result.winner, sides) if result.winner else None
    if result.winner and winner is None:
        return (f"result {place}: the winner {result.winner!r} is not in this battle; name one of "
                f"{', '.join(battle.armies)} or a side ({', '.join(sorted(s.value for s in present))})")
    if result.stratless:
        try:
            lazy = Side(result.stratless.strip().lower())
        except ValueError:
            lazy = None
        if lazy is None or lazy not in present:
            return f"result {place}: stratless names the side that sent no strategy: " \
                   f"{' or '.join(sorted(s.value for s in present))}"
        others = present - {lazy}
        if winner is not None and winner is lazy:
            return f"result {place}: {lazy.value} is stratless, so it cannot win"
        winner = winner or (next(iter(others)) if len(others) == 1 else None)
    if winner is None:
        return f"result {place}: name the winner (an army of the battle or a side), or tick siege"
    losers = [n for n in battle.armies if sides.get(n) is not winner]
    for name in result.failed_kill:
        if name not in losers:
            return f"result {place}: failed_kill names losing armies that tried a kill; {name} is not one"
    killer = result.winner if result.winner in sides else next(n for n in battle.armies if sides.get(n) is winner)
    victim = losers[0] if losers else None
    if result.kill:
        try:
            KillOutcome(result.kill.strip().lower())
        except ValueError:
            return f"result {place}: kill {result.kill!r} is not one of killed, escaped, squad_lost or roll"
        left = armies[killer].highest - (result.losses.get(killer, (0, 0, 0, 0))[3])
        if left < settings.kill_squad:
            return (f"result {place}: {killer} would have {counted(left, 'unit')} in its highest slot after its "
                    f"losses; a kill needs {settings.kill_squad} (a kill squad)")
        if victim is None:
            return f"result {place}: there is no losing army to kill"
    return CheckedResult(battle, result, winner, killer, victim)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _side_of(text: str, sides: Mapping[str, Side]) -> Side | None:
    if text in sides:
        return sides[text]
    for name, side in sides.items():
        if name.lower() == text.strip().lower():
            return side
    for side in set(sides.values()):
        if side.value == text.strip().lower():
            return side
    return None


def apply_results(board: Board, settings: CoalitionSettings, state: CoalitionState,
                  checked: list[CheckedResult], dice: kit.TurnDice) -> tuple[CoalitionState, list[kit.Event]]:
    """The checked results applied in map order; battles without a result stay open. The end of the
    turn is ``endturn``'s."""
    turn = state.turn
    events: list[kit.Event] = []
    armies = state.by_name()
    vp = dict(state.vp)
    open_battles = {b.at: b for b in state.battles}
    reports: list[BattleReport] = []
    dead: set[str] = set()
    to_bump: list[tuple[str, str]] = []  # (army, battle place), in order
    for c in sorted(checked, key=lambda c: board.order[c.battle.at]):
        b, r = c.battle, c.result
        lines: list[str] = []
        title = f"{battle_title(b)}, {b.at}"
        if r.stand_in:
            lines.append(STAND_IN)
            events.append(kit.Event(turn, EventKind.RESULT, f"{title}: {STAND_IN}", {"at": b.at, "stand_in": True}))
        for name in b.armies:
            lost = r.losses.get(name)
            if lost and any(lost):
                a = armies[name]
                armies[name] = _with_units(a, tuple(max(0, u - x) for u, x in zip(a.units, lost, strict=True)))
                lines.append(f"{name} loses {'/'.join(map(str, lost))}")
        if c.winner is None:
            open_battles[b.at] = Battle(BattleType.SIEGE, b.at, b.armies, b.weather, True, b.joint_bump, b.leading)
            lines.append("the battle continues as a siege")
            events.append(kit.Event(turn, EventKind.SIEGE, f"{title}: the battle continues as a siege", {"at": b.at}))
            reports.append(BattleReport(title, "", tuple(lines)))
            continue
        del open_battles[b.at]
        winners = [n for n in b.armies if armies[n].side is c.winner]
        losers = [n for n in b.armies if armies[n].side is not c.winner]
        points = settings.battle_win_vp if r.vp is None else r.vp
        if r.stratless:
            lines.append(f"{r.stratless} sent no strategy (stratless): it loses by default")
        if c.winner.value in vp and points:
            vp[c.winner.value] += points
            lines.append(f"{c.winner.display} +{counted(points, 'victory point')}")
        lazy = f" ({r.stratless} stratless)" if r.stratless else ""
        win = "wins" if len(winners) == 1 else "win"
        events.append(kit.Event(turn, EventKind.RESULT, f"{title}: {' and '.join(winners)} {win}{lazy}",
                                {"at": b.at, "winner": c.winner.value, "armies": winners, "vp": points}))
        if r.kill and c.killer and c.victim:
            killed = _kill(settings, b, r, c.killer, c.victim, armies, dice, lines, events, turn)
            if killed:
                dead.add(c.victim)
                if c.winner.value in vp:
                    gain = kill_vp(settings, armies[c.victim].rank)
                    vp[c.winner.value] += gain
                    lines.append(f"{c.winner.display} +{gain} victory points for the kill")
        _lose_kill_squads(settings, b, r, losers, dead, armies, lines, events, turn)
        to_bump += [(n, b.at) for n in losers if n not in dead]
        stays = _who_stays(b, winners, armies, dice)
        for name in winners:
            if name != stays:
                wanted = dict(b.joint_bump).get(name)
                to_bump.append((name, f"{b.at}>{wanted}" if wanted else b.at))
        reports.append(BattleReport(title, " and ".join(winners), tuple(lines)))
    alive = {n: a for n, a in armies.items() if n not in dead}
    for name in sorted(dead):
        events.append(kit.Event(turn, EventKind.KILL, f"{name} is killed", {"army": name, "rank": armies[name].rank}))
    bump_lines = _bump(board, dice, turn, alive, to_bump, open_battles, events)
    reports = [BattleReport(rep.title, rep.winner, rep.lines + tuple(bump_lines.get(rep.title.rsplit(", ", 1)[1], ())))
               for rep in reports]
    new = state.with_(armies=tuple(alive[a.name] for a in state.armies if a.name in alive),
                      battles=tuple(sorted(open_battles.values(), key=lambda b: board.order[b.at])),
                      vp=vp, outcomes=tuple(reports), phase=Phase.RESULTS)
    return new, events


def _lose_kill_squads(settings: CoalitionSettings, b: Battle, r: BattleResult, losers: list[str], dead: set[str],
                      armies: dict[str, Army], lines: list[str], events: list[kit.Event], turn: int) -> None:
    """Every living army that tried a kill and lost (a raider that lost its raid among them) loses its kill squad,
    told in ``lines`` (the battle report) and ``events``."""
    tried = set(r.failed_kill) | ({b.armies[0]} if b.type is BattleType.RAID and b.armies[0] in losers else set())
    for name in sorted(tried):
        if name not in dead:
            armies[name] = _lose_squad(armies[name], settings.kill_squad)
            lines.append(f"{name} tried a kill and lost: its kill squad is lost")
            events.append(kit.Event(turn, EventKind.SQUAD, f"{name} loses its kill squad", {"army": name}))


def _bump(board: Board, dice: kit.TurnDice, turn: int, alive: dict[str, Army], to_bump: list[tuple[str, str]],
          open_battles: dict[str, Battle], events: list[kit.Event]) -> dict[str, list[str]]:
    """The armies of ``to_bump`` (each with its battle's place, ``place>wanted`` for a joint engage's chosen square)
    bumped one after the other, so two armies never share a square; one onto an enemy opens an intercept battle.
    Updates ``alive``, ``open_battles`` and ``events``; returns the bump lines by battle place."""
    occupants: dict[str, list[tuple[str, Side]]] = defaultdict(list)
    for a in alive.values():
        occupants[a.at].append((a.name, a.side))
    bump_lines: dict[str, list[str]] = defaultdict(list)
    for name, origin in to_bump:
        a = alive[name]
        centre, _, wanted = origin.partition(">")
        occupants[a.at].remove((name, a.side))
        battles = set(open_battles)
        if wanted and not occupants.get(wanted) and wanted not in battles:
            spot, enemy = wanted, None
        else:
            spot, enemy = place_around(board, dice, f"bump/{name}", a.side, wanted or centre, occupants, battles)
        alive[name] = replace(a, at=spot)
        occupants[spot].append((name, a.side))
        text = f"{name} is bumped to {spot}"
        if enemy is not None:
            open_battles[spot] = Battle(BattleType.INTERCEPTS, spot, (enemy, name), announced=False)
            text += f", onto {enemy}: {enemy} intercepts {name} next turn"
        bump_lines[centre].append(text)
        events.append(kit.Event(turn, EventKind.BUMP, text, {"army": name, "to": spot, "enemy": enemy}))
    return bump_lines


def _kill(settings: CoalitionSettings, b: Battle, r: BattleResult, killer: str, victim: str,
          armies: dict[str, Army], dice: kit.TurnDice, lines: list[str], events: list[kit.Event], turn: int) -> bool:
    """The kill strategy's outcome: True when the victim is killed."""
    outcome = KillOutcome(r.kill.strip().lower())
    if outcome is KillOutcome.ROLL:
        raid = settings.raid_kill_bonus if b.type is BattleType.RAID and b.armies[0] == killer else 0
        kill = dice.roll(f"kill/{killer}", 100) + r.kill_bonus + raid
        escape = dice.roll(f"escape/{victim}", 100) + r.escape_bonus
        text = f"kill roll {killer} {kill} against escape {victim} {escape}"
        if kill > escape:
            outcome = KillOutcome.KILLED
        else:
            squad = dice.roll(f"squad/{killer}", 100)
            outcome = KillOutcome.SQUAD_LOST if squad <= settings.squad_loss_chance else KillOutcome.ESCAPED
            text += f"; squad roll {squad} (lost at {settings.squad_loss_chance} or under)"
        lines.append(text)
        events.append(kit.Event(turn, EventKind.KILL, text, {"killer": killer, "victim": victim, "kill": kill,
                                                          "escape": escape}))
    if outcome is KillOutcome.KILLED:
        lines.append(f"{killer} kills {victim}")
        return True
    lines.append(f"{victim} escapes {possessive(killer)} kill squad")
    if outcome is KillOutcome.SQUAD_LOST:
        armies[killer] = _lose_squad(armies[killer], settings.kill_squad)
        lines.append(f"{possessive(killer)} kill squad is lost")
        events.append(kit.Event(turn, EventKind.SQUAD, f"{killer} loses its kill squad", {"army": killer}))
    return False


def _who_stays(b: Battle, winners: list[str], armies: Mapping[str, Army], dice: kit.TurnDice) -> str:
    """Among joint winners: not the one that asked to leave; the larger, then higher-ranked; equal: drawn."""
    asked = dict(b.joint_bump)
    pool = [n for n in winners if n not in asked] or winners
    if len(pool) == 1:
        return pool[0]
    best = max((armies[n].total, armies[n].rank) for n in pool)
    tied = sorted(n for n in pool if (armies[n].total, armies[n].rank) == best)
    return tied[0] if len(tied) == 1 else dice.pick(f"stay/{b.at}", tied)


def _with_units(a: Army, units: tuple[int, ...]) -> Army:
    u: Units = (units[0], units[1], units[2], units[3])
    return replace(a, units=u)


def _lose_squad(a: Army, squad: int) -> Army:
    return _with_units(a, (*a.units[:3], max(0, a.units[3] - squad)))


def resolve_results(board: Board, settings: CoalitionSettings, state: CoalitionState,
                    results: Mapping[str, BattleResult], dice: kit.TurnDice,
                    ) -> tuple[CoalitionState, list[kit.Event], list[str]]:
    """The results window: each result checked (the refused ones listed, with why), the others applied,
    then the end of the turn. A battle without an accepted result stays open."""
    from sheets_gm.rulesets.coalition.resolve.upkeep import end_turn  # the end of turn follows the results

    index = ArmyIndex(state)
    checked: list[CheckedResult] = []
    refused: list[str] = []
    seen: set[str] = set()
    for where, result in results.items():
        c = check_result(board, settings, state, where, result, index)
        if isinstance(c, str):
            refused.append(c)
        elif c.battle.at in seen:
            refused.append(f"result {where}: a second result for the battle at {c.battle.at}; one result a battle")
        else:
            checked.append(c)
            seen.add(c.battle.at)
    new, events = apply_results(board, settings, state, checked, dice)
    logged = dice_event(state.turn, dice)
    ended, more = end_turn(board, settings, new)
    return ended, events + ([logged] if logged else []) + more, refused
