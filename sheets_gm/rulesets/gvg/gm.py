"""GM events between turns: archery-duel awards and logged corrections."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.rules import GvgRules, carried_tree
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel, GmEvent, GvgState


class GmEventError(ValueError):
    """A GM event that cannot be applied (bad score, unknown player, HP out of range...)."""


def apply_gm_event(rules: GvgRules, state: GvgState, event: GmEvent) -> tuple[GvgState, list[kit.Event]]:
    """Apply an archery duel or an adjustment; the input state is not changed."""
    new = state.copy()
    if isinstance(event, ArcheryDuel):
        return new, [_duel(rules, new, event)]
    return new, _adjust(rules, new, event)


def concede(state: GvgState, team: str, reason: str) -> tuple[GvgState, list[kit.Event]]:
    """``team`` concedes: the match ends now, the other team the winner (the input state is not changed)."""
    if state.finished:
        raise GmEventError("the match is over already; nobody can concede")
    if team not in state.teams:
        raise GmEventError(f"there is no team {team!r}; the teams are {state.teams[0]} and {state.teams[1]}")
    new = state.copy()
    loser = state.teams.index(team)
    new.finished, new.winner, new.conceded = True, 1 - loser, team
    winner = state.teams[1 - loser]
    how = f"{team} conceded"
    return new, [kit.Event(state.turn, EventKind.GM_ADJUSTMENT, f"GM: {team} concedes: {reason}.",
                           {"field": "concession", "team": team, "reason": reason}),
                 kit.Event(state.turn, EventKind.MATCH_WON, f"{winner} wins the match: {how}.",
                           {"winner": winner, "how": how})]


def _duel(rules: GvgRules, state: GvgState, duel: ArcheryDuel) -> kit.Event:
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
    return kit.Event(state.turn, EventKind.ARCHERY_DUEL,
                     f"{name} wins the archery duel {duel.winner_points}-{duel.loser_points} and gains "
                     f"{counted(reward, 'coin')}.",
                     {"winner": name, "score": [duel.winner_points, duel.loser_points], "reward": reward})


def _adjust(rules: GvgRules, state: GvgState, adj: Adjustment) -> list[kit.Event]:
    if not adj.reason.strip():
        raise GmEventError("an adjustment needs a reason; it is written to the log")
    if adj.coins is None and adj.hp is None and adj.position is None:
        raise GmEventError("an adjustment must change coins, HP or a position")
    events: list[kit.Event] = []
    turn = state.turn
    if adj.coins is not None:
        team, value = adj.coins
        if team not in (0, 1) or value < 0:
            raise GmEventError(f"coins must be 0 or more for {state.teams[0]} or {state.teams[1]}; got {value}")
        before = state.coins[team]
        state.coins[team] = value
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT,
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
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT,
                                f"GM moves {name} from {before_tile.label} to {tile.label}: {adj.reason}.",
                                {"field": "position", "player": name, "before": before_tile.label,
                                 "after": tile.label, "reason": adj.reason}))
    return events


def _adjust_hp(rules: GvgRules, state: GvgState, tile: Coord, hp: int, reason: str) -> kit.Event:
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
    return kit.Event(state.turn, EventKind.GM_ADJUSTMENT, f"GM sets {name} from {before} to {hp} HP: {reason}.",
                     {"field": "hp", "target": target, "before": before, "after": hp, "reason": reason})


#: The options of ``adjust`` in a GvG match.
OPTIONS = (
    kit.GmOption("coins", "TEAM=N", "set a team's coins"),
    kit.GmOption("hp", "TILE=N", "set the HP of the bulwark, fish or boss on a tile (0 destroys it, no reward)"),
    kit.GmOption("position", "PLAYER=TILE", "move a player (a carrier takes the tree along)"),
    kit.GmOption("duel", "TEAM=W-L", "the archery duel's winner and score (best of 5: 3-0, 3-1 or 3-2)"),
)


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[GmEvent]:
    """Coins, HP and positions (each needs ``reason``), then archery duels, in that order."""
    corrections = [*values.get("coins", ()), *values.get("hp", ()), *values.get("position", ())]
    if not corrections and not values.get("duel"):
        raise ValueError("nothing to change: give --coins TEAM=N, --hp TILE=N, --position PLAYER=TILE "
                         "or --duel TEAM=W-L")
    if corrections and not reason.strip():
        raise ValueError('--reason is required with --coins, --hp and --position, e.g. --reason "duel paid '
                         'twice"; it is written to the log')
    teams = (seats[0], seats[1])
    events: list[GmEvent] = []
    for value in values.get("coins", ()):
        team, count = kit.split_option("--coins", value, "TEAM=COINS", "red=5")
        events.append(Adjustment(reason, coins=(_team("--coins", team, teams),
                                                _number("--coins", count, "coins"))))
    for value in values.get("hp", ()):
        tile, hp = kit.split_option("--hp", value, "TILE=HP", "G7=3")
        events.append(Adjustment(reason, hp=(_tile("--hp", tile), _number("--hp", hp, "HP"))))
    for value in values.get("position", ()):
        name, tile = kit.split_option("--position", value, "PLAYER=TILE", "Ann=H12")
        events.append(Adjustment(reason, position=(name, _tile("--position", tile))))
    for value in values.get("duel", ()):
        team, score = kit.split_option("--duel", value, "TEAM=W-L (the winner and the score)", "red=3-1")
        won, dash, lost = score.partition("-")
        if not dash:
            raise ValueError(f"--duel {value!r}: the score is the winner's points, a dash and the loser's, "
                             "like 3-1")
        events.append(ArcheryDuel(_team("--duel", team, teams), _number("--duel", won, "points"),
                                  _number("--duel", lost, "points")))
    return events

def _team(option: str, name: str, teams: tuple[str, str]) -> int:
    for i, team in enumerate(teams):
        if team.lower() == name.lower():
            return i
    raise ValueError(f"{option}: there is no team {name!r}; the teams are {teams[0]} and {teams[1]}")


def _number(option: str, text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{option}: {what} {text!r} is not a whole number") from None


def _tile(option: str, text: str) -> Coord:
    try:
        return Coord.parse(text)
    except kit.CoordError as exc:
        raise ValueError(f"{option}: {exc}") from None
