"""Starting a GvG match: the roster placed on its bases, structures at full HP, trees on their fish."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.vocab import parse_choice
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.enums import Role, StructureKind
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState, Player, Structure, Tree

#: The roles of a standard GvG team, five a side: two DPS, two Tanks and a Healer.
STANDARD_ROLES: tuple[str, ...] = ("dps", "dps", "tank", "tank", "healer")


class RosterError(ValueError):
    """A roster that cannot start a match: duplicate or empty names, unknown teams or roles."""


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """One player of the roster as the GM typed it."""

    name: str
    team: str
    role: str


def fresh_structures(board: GvgMap, settings: GvgSettings) -> dict[Coord, Structure]:
    """Every bulwark and fish of the map at full HP."""
    out: dict[Coord, Structure] = {}
    for team in (0, 1):
        for tile in board.bulwarks[team]:
            out[tile] = Structure(StructureKind.BULWARK, team, tile, settings.bulwark_hp, settings.bulwark_hp)
        fish = board.fish[team]
        if fish is not None:
            out[fish] = Structure(StructureKind.FISH, team, fish, settings.fish_hp, settings.fish_hp)
    return out


def fresh_trees(board: GvgMap) -> list[Tree | None]:
    """Each team's tree on its fish tile (None for a team without a fish on this map)."""
    return [None if fish is None else Tree(team, fish) for team, fish in enumerate(board.fish)]


def check_team_names(teams: Sequence[str]) -> tuple[str, str]:
    """Two distinct, non-empty team names."""
    if len(teams) != 2:
        raise RosterError(f"GvG is played by 2 teams; got {len(teams)}: {', '.join(teams) or 'none'}")
    a, b = (str(t).strip() for t in teams)
    if not a or not b or a.lower() == b.lower():
        raise RosterError(f"the two teams need distinct names; got {teams[0]!r} and {teams[1]!r}")
    return a, b


def new_match(
    board: GvgMap, teams: Sequence[str], roster: Sequence[RosterEntry], settings: GvgSettings, *, first_line: int = 1
) -> GvgState:
    """The state before turn 1: every player on a base tile of its team. Refusals name the roster line,
    ``first_line`` being the first entry's (2 in a roster file or tab under its header row)."""
    names = check_team_names(teams)
    players: list[Player] = []
    seen: dict[str, int] = {}
    per_team = [0, 0]
    for line, entry in enumerate(roster, start=first_line):
        name = entry.name.strip()
        if not name:
            raise RosterError(f"roster line {line}: the player has no name")
        if name.lower() in seen:
            raise RosterError(f"roster line {line}: {name!r} is listed twice (first on line {seen[name.lower()]})")
        seen[name.lower()] = line
        lowered = [n.lower() for n in names]
        if entry.team.strip().lower() not in lowered:
            raise RosterError(
                f"roster line {line}: {name} is on team {entry.team!r}; the teams are {names[0]} and {names[1]}"
            )
        team = lowered.index(entry.team.strip().lower())
        try:
            role = parse_choice(Role, entry.role, "role")
        except ValueError as exc:
            raise RosterError(f"roster line {line}: {name}: {exc}") from None
        start = board.start_tile(team, per_team[team])
        if start is None:
            raise RosterError(f"the map has no base for team {team + 1} ({names[team]}), so {name} cannot start")
        per_team[team] += 1
        players.append(Player(name, team, role, start))
    return GvgState(
        turn=1,
        teams=names,
        players=players,
        coins=[0, 0],
        structures=fresh_structures(board, settings),
        trees=fresh_trees(board),
        jungle=set(board.coin_tiles),
    )


def standard_roster(teams: Sequence[str], roles: Sequence[str] = STANDARD_ROLES) -> list[RosterEntry]:
    """Every team playing ``roles`` (by default five a side), its players named ``<team><n>`` from 1."""
    return [RosterEntry(f"{team}{i + 1}", team, role) for team in teams for i, role in enumerate(roles)]


def standard_match(board: GvgMap, settings: GvgSettings, teams: Sequence[str] = ("red", "blue")) -> GvgState:
    """A 5v5 match on ``board`` before turn 1 (the bots' benchmark and simulations play these)."""
    return new_match(board, teams, standard_roster(teams), settings)
