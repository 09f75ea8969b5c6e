"""Drawing the GvG state into cell values: the board, the players, the log, the settings."""

from __future__ import annotations

from collections import defaultdict

from sheets_gm.engine.core.dice import TurnDice
from sheets_gm.engine.core.events import Event
from sheets_gm.engine.core.grid import Coord
from sheets_gm.rulesets.gvg.enums import Role, Status, Terrain
from sheets_gm.rulesets.gvg.rules import GvgRules, carried_tree
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate
from sheets_gm.rulesets.gvg.state import GvgState, Player
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sync.deadline import describe_deadline


def board_legend(template: SheetTemplate, teams: tuple[str, str]) -> Grid:
    """The lines right of the map that say what each colour and sign means."""
    sy = template.symbols
    return [
        ["How to read the board: tile G9 is cell G9 (column letter, row number); type it as your destination."],
        [f"{teams[0]}: players marked {sy.team1}, base and structures in {teams[0]}'s colour (base on row 1)."],
        [f"{teams[1]}: players marked {sy.team2}, base and structures in {teams[1]}'s colour."],
        [f"Players: {sy.dps} DPS, {sy.tank} Tank, {sy.healer} Healer, {sy.down} knocked down, "
         f"{sy.tree} carries a tree."],
        [f"Tiles: {sy.base}, {sy.stair}, {sy.bulwark} bulwark and {sy.fish} with their {sy.heart} HP, {sy.coin}, "
         f"{sy.boss}, {sy.tree} a tree on the ground; dark tiles are walls."],
    ]


def role_symbol(template: SheetTemplate, role: Role) -> str:
    """The sign of a role."""
    sy = template.symbols
    return {Role.DPS: sy.dps, Role.TANK: sy.tank, Role.HEALER: sy.healer}[role]


def tile_text(template: SheetTemplate, rules: GvgRules, state: GvgState, tile: Coord,
              here: list[Player]) -> str:
    """What one board cell shows: terrain, structure and HP, boss, coin, trees, players."""
    sy = template.symbols
    terrain, _owner = rules.board.terrain[tile]
    parts: list[str] = []
    if terrain is Terrain.WALL:
        return sy.wall
    if terrain is Terrain.BASE:
        parts.append(sy.base)
    elif terrain is Terrain.STAIR:
        parts.append(sy.stair)
    structure = state.structures.get(tile)
    if structure is not None and not structure.destroyed:
        symbol = sy.bulwark if structure.kind.value == "bulwark" else sy.fish
        parts.append(f"{symbol}{sy.heart * structure.hp}")
    if state.boss is not None and state.boss.at == tile:
        parts.append(f"{sy.boss}{sy.heart * state.boss.hp}")
    if tile in state.jungle:
        parts.append(sy.coin)
    for tree in state.trees:
        if tree is not None and tree.at == tile and tree.carrier is None:
            parts.append(f"{sy.tree} {state.teams[tree.team]}'s tree")
    for p in here:
        mark = sy.down if p.status is Status.KNOCKED_DOWN else role_symbol(template, p.role)
        carrying = sy.tree if carried_tree(state, p.name) is not None else ""
        parts.append(f"{mark}{p.name}{sy.team(p.team)}{carrying}")
    return "\n".join(part for part in parts if part)


def board_grid(template: SheetTemplate, rules: GvgRules, state: GvgState) -> Grid:
    """The whole map, one cell per tile."""
    by_tile: dict[Coord, list[Player]] = defaultdict(list)
    for p in state.players:
        by_tile[p.at].append(p)
    grid = rules.board.grid
    return [
        [tile_text(template, rules, state, Coord(col, row), by_tile.get(Coord(col, row), []))
         for col in range(grid.width)]
        for row in range(grid.height)
    ]


def status_line(template: SheetTemplate, state: GvgState, max_turns: int, deadline: str) -> str:
    """The line under the board's title: turn, deadline, coins, charges, boss, result."""
    sy = template.symbols
    if state.finished:
        result = "draw" if state.winner is None else f"{state.teams[state.winner]} wins"
        head = f"Match over on turn {state.turn}: {result}"
    else:
        head = (f"Turn {state.turn} of {max_turns} · orders open"
                + (f" until {describe_deadline(deadline)}" if deadline else ""))
    teams = " · ".join(
        f"{name}: {state.coins[i]} coin{'s' if state.coins[i] != 1 else ''}, "
        f"{state.ballista[i]} ballista charge{'s' if state.ballista[i] != 1 else ''}"
        for i, name in enumerate(state.teams)
    )
    boss = f" · boss on {state.boss.at.label} {sy.heart * state.boss.hp}" if state.boss else ""
    return f"{head} · {teams}{boss}"


def move_roll(state: GvgState, dice: TurnDice, p: Player) -> CellValue:
    """The published movement roll of a player for ``state.turn`` ('' if it does not roll)."""
    if state.finished or p.status is not Status.ACTIVE:
        return ""
    if carried_tree(state, p.name) is not None:
        return "carrier"
    return dice.peek(f"move/{p.name}")


def players_rows(state: GvgState, dice: TurnDice) -> Grid:
    """The players tab: name, team, role, position, status, this turn's roll, what it carries."""
    rows: Grid = []
    for p in state.players:
        tree = carried_tree(state, p.name)
        rows.append([
            p.name, state.teams[p.team], p.role.display, p.at.label,
            "knocked down" if p.status is Status.KNOCKED_DOWN else "active",
            move_roll(state, dice, p),
            f"{state.teams[tree.team]}'s tree" if tree is not None else "",
        ])
    return rows


def log_rows(events: list[Event]) -> Grid:
    """Log rows: turn, kind, sentence."""
    return [[e.turn, e.kind.value, e.text] for e in events]


