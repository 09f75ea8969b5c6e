"""A new match from a roster: each player's team, faction and leader on her keep, 15 gold each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.ruleset import SeatCountError
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Player, Unit, WesnothState
from sheets_gm.rulesets.wesnoth.tables import TEMPLATE_DIR


class RosterError(ValueError):
    """A roster that cannot start a match: the message names the row and what is accepted."""


def maps_for(players: int) -> str:
    """Which shipped maps have a keep for each of ``players`` (Wesnoth names its maps ``4p_…`` for four players),
    as the end of a sentence: ``. The shipped maps for 4: 4p_Hamlets, 4p_King_of_the_Hill (map = "4p_Hamlets" in
    the config)``; '' when none has."""
    fit = sorted(p.stem for p in (TEMPLATE_DIR / "maps").glob("*p_*.txt")
                 if p.stem.split("p_", 1)[0].isdecimal() and int(p.stem.split("p_", 1)[0]) >= players)
    if not fit or players < 2:
        return ""
    return f". The shipped maps for {players}: {', '.join(fit)} (map = \"{fit[0]}\" in the config)"


@dataclass(frozen=True, slots=True)
class Entry:
    """One roster row as the engine needs it (``leader``: a type, or empty for the faction's first)."""

    name: str
    team: str
    faction: str
    leader: str = ""


def leader_id(player: str) -> str:
    """The id of a player's leader."""
    return f"{player}-L"


def check_entries(rules: WesnothRules, entries: Sequence[Entry]) -> list[tuple[Entry, int, str, str]]:
    """Each row with its team number, faction and leader type; RosterError naming the row otherwise."""
    board = rules.board
    if not 2 <= len(entries) <= board.players:
        raise SeatCountError(f"{len(entries)} players; this map has keeps for 2 to {board.players}"
                             f"{maps_for(len(entries))}")
    out = []
    teams: dict[str, int] = {}
    seen: set[str] = set()
    for i, e in enumerate(entries, 1):
        if not e.name.strip() or e.name in seen:
            raise RosterError(f"roster row {i}: the player needs a name of her own, got {e.name!r}")
        seen.add(e.name)
        faction = rules.tables.faction(e.faction)
        if faction is None:
            raise RosterError(f"roster row {i} ({e.name}): unknown faction {e.faction!r}; the factions are "
                              f"{', '.join(rules.tables.factions)}")
        leader = faction.leaders[0]
        if e.leader.strip():
            found = rules.tables.unit(e.leader)
            if found is None or found.name not in faction.leaders:
                raise RosterError(f"roster row {i} ({e.name}): {e.leader!r} is not a {faction.name} leader; choose "
                                  f"one of {', '.join(faction.leaders)}")
            leader = found.name
        team_key = e.team.strip() or str(i)
        team = teams.setdefault(team_key, int(team_key) if team_key.isdecimal() else len(teams) + 1)
        out.append((e, team, faction.name, leader))
    if len({t for _, t, _, _ in out}) < 2:
        raise RosterError("roster: every player is on one team; a match needs at least two teams")
    return out


def seat_slots(groups: Sequence[frozenset[int]], teams: Sequence[int]) -> list[int]:
    """The keep slot of each player (``teams``: each player's team, in roster order): the first free slot whose
    castle no enemy shares (a castle shared by allies only, or one of her own), else the first free slot of the
    castle fewest players share. A map whose keeps share no castle keeps the roster order.

    >>> hamlets = [frozenset({1, 4}), frozenset({2, 3})]
    >>> seat_slots(hamlets, [1, 2, 1, 2]), seat_slots(hamlets, [1, 2]), seat_slots(hamlets, [1, 2, 3])
    ([1, 2, 4, 3], [1, 2], [1, 2, 3])
    """
    group_of = {slot: g for g in groups for slot in g}
    taken: dict[int, int] = {}  # slot -> team
    out = []
    for team in teams:
        free = sorted(s for s in group_of if s not in taken)
        apart = [s for s in free if all(taken[o] == team for o in group_of[s] if o in taken)]
        slot = apart[0] if apart else min(free, key=lambda s: (sum(o in taken for o in group_of[s]), s))
        taken[slot] = team
        out.append(slot)
    return out


def shared_with_enemies(rules: WesnothRules, state: WesnothState) -> list[str]:
    """Init's word on a map whose castles put enemies together (a 3-player match on 4p_Hamlets): which seat counts
    the map suits, and who shares a castle with whom; nothing when every castle holds allies only."""
    shared = []
    for group in rules.board.castle_groups:
        inside = [p for p in state.players if p.slot in group]
        if len({p.team for p in inside}) > 1:
            shared.append(" and ".join(p.name for p in inside))
    if not shared:
        return []
    return [f"the map suits {rules.board.seat_counts()}: {'; '.join(shared)} share a castle though not allies "
            "(give them one team, or choose another map)"]


def new_match(rules: WesnothRules, entries: Sequence[Entry]) -> WesnothState:
    """Round 1, dawn, the first player to act; each player on a keep of the map (``seat_slots``: apart from her
    enemies where the map's castles allow), leader on her keep."""
    players = []
    units = []
    names: dict[int, str] = {}
    checked = check_entries(rules, entries)
    slots = seat_slots(rules.board.castle_groups, [team for _, team, _, _ in checked])
    for slot, (entry, team, faction, leader) in zip(slots, checked, strict=True):
        players.append(Player(entry.name, team, faction, slot, rules.settings.start_gold))
        units.append(Unit(leader_id(entry.name), leader, entry.name, rules.board.keeps[slot], leader=True))
        if entry.team.strip() and not entry.team.strip().isdecimal():
            names.setdefault(team, entry.team.strip())
    return WesnothState(round=1, turn=1, acting=0, players=tuple(players), units=tuple(units),
                        team_names=tuple(sorted(names.items())))
