"""Logged GM corrections: set a champion's health, put a player on a tile, put an item in a bag."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets_gm.engine.vocab import VocabularyError, parse_choice
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import board
from sheets_gm.rulesets.champions.enums import CLASS_INDEX, ChampClass, EventKind
from sheets_gm.rulesets.champions.resolve import last_standing_wins, window_turn
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import MAX_HEALTH, Adjustment, ChampionsState, Player, champion_name

GM_OPTIONS = (
    kit.GmOption("health", "PLAYER.CLASS=N", "set a champion's health (0 kills it; at most its starting health)"),
    kit.GmOption("move", "PLAYER=TILE", "put a Champions player on a tile of the current grid"),
    kit.GmOption("give", "PLAYER=ITEM", "put an item of the loot table in a player's bag"),
)


class GmEventError(ValueError):
    """A GM event that does not fit the match: an unknown player, item or tile, a health out of range."""


def _split(option: str, value: str, form: str, example: str) -> tuple[str, str]:
    key, sep, rest = value.partition("=")
    if not sep or not key.strip() or not rest.strip():
        raise ValueError(f"{option} {value!r}: write {form}, like {example}")
    return key.strip(), rest.strip()


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[Adjustment]:
    """The adjustments of ``adjust``'s options; ValueError naming the option and what it accepts."""
    if not any(values.get(o.flag) for o in GM_OPTIONS):
        raise ValueError("nothing to change: give --health PLAYER.CLASS=N, --move PLAYER=TILE or --give "
                         "PLAYER=ITEM")
    if not reason.strip():
        raise ValueError('--reason is required, e.g. --reason "healed twice"; it is written to the log')
    out: list[Adjustment] = []
    named: set[tuple[str, str]] = set()
    for value in values.get("health", ()):
        who, number = _split("--health", value, "PLAYER.CLASS=N", "Ann.mage=40")
        player, dot, cls = who.rpartition(".")
        if not dot:
            raise ValueError(f"--health {value!r}: name the champion as PLAYER.CLASS, like Ann.mage=40")
        try:
            hp = int(number)
        except ValueError:
            raise ValueError(f"--health {value!r}: {number!r} is not a whole number") from None
        if (player.casefold(), cls.casefold()) in named:
            raise ValueError(f"--health {value!r}: {who} is named twice; give each champion's health once")
        named.add((player.casefold(), cls.casefold()))
        out.append(Adjustment(reason, health=(player, cls, hp)))
    # Healths are set as one change: those that keep a champion alive first, so that a player goes out only if all
    # four of hers end at 0, never on the way (a dead champion revived while the last living one is set to 0).
    out.sort(key=lambda adj: adj.health is not None and adj.health[2] == 0)
    for value in values.get("move", ()):
        out.append(Adjustment(reason, position=_split("--move", value, "PLAYER=TILE", "Ann=B2")))
    for value in values.get("give", ()):
        out.append(Adjustment(reason, give=_split("--give", value, "PLAYER=ITEM", "Ann=Iron Sword")))
    return out


def apply_gm_event(rules: ChampionsRules, state: ChampionsState, adj: Adjustment) -> kit.Resolution[ChampionsState]:
    """The adjustment applied (the input is not changed), with its logged event; GmEventError if it does not fit."""
    if not adj.reason.strip():
        raise GmEventError("an adjustment needs a reason; it is written to the log")
    turn = window_turn(state)
    players = list(state.players)
    names = {p.name: i for i, p in enumerate(players)}

    def find(name: str) -> tuple[int, Player]:
        if name not in names:
            raise GmEventError(f"there is no player {name!r}; the players: {', '.join(names)}")
        i = names[name]
        return i, players[i]

    events: list[kit.Event] = []
    if adj.health is not None:
        name, word, hp = adj.health
        i, p = find(name)
        try:
            cls = parse_choice(ChampClass, word, "champion")
        except VocabularyError as exc:
            raise GmEventError(str(exc)) from None
        if not 0 <= hp <= MAX_HEALTH[cls]:
            raise GmEventError(f"a {cls.display}'s health is 0 to {MAX_HEALTH[cls]}; got {hp}")
        if p.out:
            raise GmEventError(f"{name} is out; {name}'s champions cannot be changed")
        health = list(p.health)
        before = health[CLASS_INDEX[cls]]
        health[CLASS_INDEX[cls]] = hp
        players[i] = Player(p.name, p.at, tuple(health), p.equipment, p.bag, p.out_round)
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT,
                                f"GM sets {champion_name(name, cls)}'s health from {before} to {hp}: {adj.reason}.",
                                {"field": "health", "player": name, "class": cls.value, "before": before, "after": hp,
                                 "reason": adj.reason}, audience=frozenset({name})))
        if not any(value > 0 for value in health):  # her last champion: she is out now, as after a battle
            players[i] = Player(p.name, None, tuple(health), p.equipment, p.bag, state.round)
            events.append(kit.Event(turn, EventKind.PLAYER_OUT, f"{name} is out: all four champions are dead.",
                                    {"player": name, "round": state.round}))
            now = state.with_players(players)
            return last_standing_wins(now, turn, events) if len(now.alive()) == 1 else kit.Resolution(now, events)
    if adj.position is not None:
        name, text = adj.position
        i, p = find(name)
        try:
            tile = board(state.size).parse(text)
        except kit.CoordError as exc:
            raise GmEventError(str(exc)) from None
        if p.out:
            raise GmEventError(f"{name} is out and has no tile")
        players[i] = Player(p.name, tile, p.health, p.equipment, p.bag, p.out_round)
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT, f"GM moves {name} from {p.at} to {tile}: {adj.reason}.",
                                {"field": "position", "player": name, "before": p.at, "after": tile,
                                 "reason": adj.reason}))
    if adj.give is not None:
        name, item = adj.give
        i, p = find(name)
        if rules.table.get(item) is None:
            raise GmEventError(f"there is no item {item!r} in the loot table")
        players[i] = Player(p.name, p.at, p.health, p.equipment, (*p.bag, item), p.out_round)
        events.append(kit.Event(turn, EventKind.GM_ADJUSTMENT, f"GM puts {item} in {name}'s bag: {adj.reason}.",
                                {"field": "bag", "player": name, "item": item, "reason": adj.reason},
                                audience=frozenset({name})))
    if not events:
        raise GmEventError("an adjustment must change a health, a position or a bag")
    return kit.Resolution(state.with_players(players), events)



def concede(state: ChampionsState, name: str, reason: str) -> kit.Resolution[ChampionsState]:
    """``name`` concedes: she is out, as when her last champion dies (her champions keep their health); the
    last player standing wins."""
    if state.finished:
        raise GmEventError("the match is over already; nobody can concede")
    turn = window_turn(state)
    players = list(state.players)
    i = next((i for i, p in enumerate(players) if p.name == name), None)
    if i is None:
        raise GmEventError(f"there is no player {name!r}; the players: {', '.join(p.name for p in players)}")
    p = players[i]
    if p.out:
        raise GmEventError(f"{name} is out already")
    players[i] = Player(p.name, None, p.health, p.equipment, p.bag, state.round)
    events = [kit.Event(turn, EventKind.PLAYER_OUT, f"{name} concedes and is out: {reason}.",
                        {"player": name, "round": state.round, "concession": True, "reason": reason})]
    now = state.with_players(players)
    return last_standing_wins(now, turn, events) if len(now.alive()) == 1 else kit.Resolution(now, events)
