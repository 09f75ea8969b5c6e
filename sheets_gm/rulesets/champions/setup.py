"""A new match: the players from the roster, each spawning on a different tile, and the first pools."""

from __future__ import annotations

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.board import CAPACITY, board, size_for, tiles
from sheets_gm.rulesets.champions.enums import Phase
from sheets_gm.rulesets.champions.pools import deal_pools
from sheets_gm.rulesets.champions.rules import ChampionsRules
from sheets_gm.rulesets.champions.state import ChampionsState, Player

MAX_PLAYERS = CAPACITY[4]
SAMPLE_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max", "Ned", "Ola",
                "Pia")
#: The dice of set-up (spawns, the first pools) are keyed by turn 0; window n of the match by n.
SETUP_TURN = 0


def sample_roster() -> kit.Roster:
    """Sixteen made-up players, one seat each, spawns drawn."""
    return kit.Roster(SAMPLE_NAMES, tuple(kit.Member(name, name) for name in SAMPLE_NAMES))


def new_match(rules: ChampionsRules, roster: kit.Roster, seed: bytes) -> ChampionsState:
    """Every seat a player with four fresh champions, on a tile of her own (the roster's ``spawn`` column, or
    drawn: ``spawn/<player>``); a pool on every tile. ValueError naming the line for a bad roster."""
    seats = list(roster.seats)
    if not 2 <= len(seats) <= MAX_PLAYERS:
        raise ValueError(f"roster: Champions takes 2 to {MAX_PLAYERS} players, one seat each; got {len(seats)}")
    if len(set(seats)) != len(seats):
        twice = next(s for s in seats if seats.count(s) > 1)
        raise ValueError(f"roster: the player {twice!r} is listed twice")
    size = size_for(len(seats))
    grid = board(size)
    given: dict[str, Coord] = {}
    for line, member in enumerate(roster.members, start=2):
        text = member.fields.get("spawn", "").strip()
        if member.seat not in seats:
            raise ValueError(f"roster line {line}: {member.name} belongs to {member.seat!r}, which is not a player")
        if not text:
            continue
        try:
            tile = grid.parse(text)
        except kit.CoordError as exc:
            raise ValueError(f"roster line {line}: spawn of {member.seat}: {exc}") from None
        if tile in given.values():
            raise ValueError(f"roster line {line}: {member.seat} spawns on {tile}, where another player spawns; "
                             "each player spawns on a different tile")
        given[member.seat] = tile
    dice = kit.TurnDice(seed, SETUP_TURN, die_sides=None)
    free = [t for t in tiles(size) if t not in given.values()]
    players = []
    for name in seats:
        spawn = given.get(name)
        if spawn is None:
            spawn = Coord.parse(dice.pick(f"spawn/{name}", [t.label for t in free]))
            free.remove(spawn)
        players.append(Player(name, spawn))
    return ChampionsState(1, Phase.MOVE, size, tuple(players), deal_pools(rules, dice, size))
