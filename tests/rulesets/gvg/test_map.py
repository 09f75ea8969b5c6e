"""The default GvG map is fair and well formed; malformed maps are refused with the place named."""

from __future__ import annotations

import pytest

from sheets_gm.engine.grid import Coord, Neighbourhood
from sheets_gm.rulesets.gvg.board import TOKENS, GvgMap, MapError, parse_token
from sheets_gm.rulesets.gvg.enums import Terrain
from tests.paths import GVG_MAP

MAP_PATH = GVG_MAP
TEAMS = (0, 1)


@pytest.fixture(scope="module")
def board() -> GvgMap:
    return GvgMap.from_text(MAP_PATH.read_text(encoding="utf-8"), where=str(MAP_PATH))


def _swap_slot(token: str) -> str:
    terrain, team = parse_token(token)
    if team is None:
        return token.lower()
    return f"{terrain.value}{2 - team}"


def test_default_map_loads(board: GvgMap) -> None:
    assert board.grid.width == 15
    assert board.grid.height == 23
    assert all(len(row) == board.grid.width for row in board.rows)


def test_default_map_round_trips_through_text(board: GvgMap) -> None:
    again = GvgMap.from_text(board.to_text())
    assert again.rows == board.rows


def test_default_map_is_mirror_symmetric(board: GvgMap) -> None:
    h = board.grid.height
    for r in range(h):
        mirrored = [_swap_slot(t) for t in board.rows[h - 1 - r]]
        assert [t.lower() for t in board.rows[r]] == mirrored, f"row {r + 1} vs row {h - r}"


@pytest.mark.parametrize("team", TEAMS)
def test_each_team_has_one_fish_three_bulwarks_a_base_and_three_stairs(board: GvgMap, team: int) -> None:
    assert board.fish[team] is not None
    assert len(board.bulwarks[team]) == 3
    assert len(board.bases[team]) >= 1
    assert len(board.stairs[team]) == 3
    fish_tiles = [c for c, (t, owner) in board.terrain.items() if t is Terrain.FISH and owner == team]
    assert len(fish_tiles) == 1


@pytest.mark.parametrize("team", TEAMS)
def test_base_tiles_touch_only_own_base_own_stairs_or_walls(board: GvgMap, team: int) -> None:
    allowed = {(Terrain.BASE, team), (Terrain.STAIR, team), (Terrain.WALL, None)}
    for tile in board.bases[team]:
        for n in board.grid.neighbours(tile, Neighbourhood.KING):
            assert board.terrain[n] in allowed, f"{tile.label} touches {n.label} ({board.describe(n)})"


@pytest.mark.parametrize("team", TEAMS)
def test_every_stair_leads_out_of_the_base(board: GvgMap, team: int) -> None:
    for stair in board.stairs[team]:
        around = [board.terrain[n] for n in board.grid.neighbours(stair, Neighbourhood.KING)]
        assert (Terrain.BASE, team) in around, stair.label
        assert any(t in (Terrain.OPEN, Terrain.COIN) for t, _ in around), stair.label


def test_two_boss_tiles_on_the_middle_row_one_each_half(board: GvgMap) -> None:
    assert board.grid.height % 2 == 1
    middle = board.grid.height // 2
    assert len(board.boss_tiles) == 2
    assert all(c.row == middle for c in board.boss_tiles)
    half = (board.grid.width - 1) / 2
    left, right = board.boss_tiles  # sorted by column
    assert left.col < half < right.col


def test_coin_tiles_on_both_halves(board: GvgMap) -> None:
    middle = board.grid.height // 2
    top = {c for c in board.coin_tiles if c.row < middle}
    bottom = {c for c in board.coin_tiles if c.row > middle}
    assert top and bottom
    assert len(top) == len(bottom)


@pytest.mark.parametrize("team", TEAMS)
def test_enemy_bulwarks_are_four_to_six_turns_from_the_respawn_tile(board: GvgMap, team: int) -> None:
    respawn = board.respawn_tile(team)
    assert respawn is not None
    dist = board.distances(team, Neighbourhood.KING, respawn)
    for bulwark in board.bulwarks[1 - team]:
        assert bulwark in dist, f"{bulwark.label} unreachable from {respawn.label}"
        assert 14 <= dist[bulwark] <= 21, f"{respawn.label} -> {bulwark.label}: {dist[bulwark]} steps"


def test_both_teams_are_equally_far_from_the_enemy_bulwarks(board: GvgMap) -> None:
    def steps(team: int) -> list[int]:
        respawn = board.respawn_tile(team)
        assert respawn is not None
        dist = board.distances(team, Neighbourhood.KING, respawn)
        return sorted(dist[b] for b in board.bulwarks[1 - team])

    assert steps(0) == steps(1)


@pytest.mark.parametrize("team", TEAMS)
def test_enemy_base_is_not_enterable_and_the_fish_is_reachable(board: GvgMap, team: int) -> None:
    respawn = board.respawn_tile(team)
    assert respawn is not None
    dist = board.distances(team, Neighbourhood.KING, respawn)
    assert not set(board.bases[1 - team]) & set(dist)
    enemy_fish = board.fish[1 - team]
    assert enemy_fish is not None and enemy_fish in dist
    rook = board.distances(team, Neighbourhood.ROOK, respawn)
    assert enemy_fish in rook  # the map is playable with the rook setting too


# -- malformed maps ----------------------------------------------------------------------------

def test_unknown_token_names_the_tile_and_the_token() -> None:
    text = "base1 stair1 .\n. dragon .\n. . fish2\n"
    with pytest.raises(MapError) as info:
        GvgMap.from_text(text, where="my-map.txt")
    message = str(info.value)
    assert "my-map.txt" in message
    assert "B2" in message
    assert "'dragon'" in message
    assert "wall" in message  # the accepted tokens are listed


@pytest.mark.parametrize("token", ["base3", "base0", "fish", "bulwark12", "Wal"])
def test_near_miss_tokens_are_unknown(token: str) -> None:
    with pytest.raises(MapError) as info:
        GvgMap.from_text(f". . .\n. . {token}\n")
    assert "C2" in str(info.value)
    assert repr(token) in str(info.value)


def test_tokens_are_case_insensitive() -> None:
    board = GvgMap.from_text("BASE1 Stair1 WALL\n. Coin fish2\n")
    assert board.bases[0] == [Coord.parse("A1")]
    assert board.fish[1] == Coord.parse("C2")


def test_every_listed_token_parses() -> None:
    for token in TOKENS:
        parse_token(token)


def test_ragged_rows_name_the_row() -> None:
    text = ". . .\n. . .\n. .\n"
    with pytest.raises(MapError) as info:
        GvgMap.from_text(text, where="ragged.txt")
    message = str(info.value)
    assert "ragged.txt" in message
    assert "row 3" in message
    assert "2" in message and "3" in message


@pytest.mark.parametrize("text", ["", "\n\n", "   \n", "# only a comment\n"])
def test_empty_map_is_refused(text: str) -> None:
    with pytest.raises(MapError) as info:
        GvgMap.from_text(text, where="empty.txt")
    assert "empty.txt" in str(info.value)
    assert "empty" in str(info.value)


def test_empty_rows_sequence_is_refused() -> None:
    with pytest.raises(MapError):
        GvgMap([])
    with pytest.raises(MapError):
        GvgMap([[]])


@pytest.mark.parametrize("team", [1, 2])
def test_two_fish_for_a_team_are_refused_with_both_tiles(team: int) -> None:
    text = f"fish{team} . .\n. . fish{team}\n"
    with pytest.raises(MapError) as info:
        GvgMap.from_text(text, where="fishy.txt")
    message = str(info.value)
    assert "fishy.txt" in message
    assert f"team {team}" in message
    assert "A1" in message and "C2" in message


def test_one_fish_per_team_is_fine() -> None:
    board = GvgMap.from_text("fish1 . fish2\n")
    assert board.fish == (Coord.parse("A1"), Coord.parse("C1"))


def test_map_error_is_a_value_error() -> None:
    assert issubclass(MapError, ValueError)


@pytest.mark.parametrize("mode", list(Neighbourhood))
def test_filled_path_tables_are_those_asked_one_start_at_a_time(mode: Neighbourhood) -> None:
    """``fill_paths`` (a simulation's parent makes every table before forking its workers) makes, for every start
    either team may stand on, the same distances, in the same order, and the same ``within`` and ``ring`` as a board
    asked one start at a time."""
    text = MAP_PATH.read_text(encoding="utf-8")
    filled, asked = GvgMap.from_text(text), GvgMap.from_text(text)
    filled.fill_paths(mode)
    for team in TEAMS:
        starts = [c for c in filled.grid.tiles() if filled.enterable(team, c)]
        assert len(filled.distance_table(team, mode)) == len(starts)  # every start made, before any is asked
        for start in starts:
            dist = asked.distances(team, mode, start)
            assert list(filled.distances(team, mode, start).items()) == list(dist.items())
            assert list(dist.values()) == sorted(dist.values())  # nearest first
            nearest = filled.within(team, mode, start, len(dist))
            assert nearest == sorted(dist, key=lambda c: (dist[c], c.row, c.col))  # then in reading order
            for steps in range(max(dist.values()) + 2):
                assert filled.within(team, mode, start, steps) == asked.within(team, mode, start, steps)
                assert filled.ring(team, mode, start, steps) == asked.ring(team, mode, start, steps)


def test_distances_from_a_start_off_the_board_are_the_tile_by_tile_search() -> None:
    """A start off the board (no one stands there, but the lookup is total) is stepped from onto the board's tiles,
    its tables nearest first, then in reading order, as from any start."""
    board = GvgMap.from_text(MAP_PATH.read_text(encoding="utf-8"))
    blocked = {c for c in board.grid.tiles() if not board.enterable(0, c)}
    start = Coord(-1, 3)
    dist = board.distances(0, Neighbourhood.KING, start)
    assert dist == board.grid.distances_from(start, Neighbourhood.KING, lambda c: c not in blocked)
    assert board.within(0, Neighbourhood.KING, start, 99) == sorted(dist, key=lambda c: (dist[c], c.row, c.col))
