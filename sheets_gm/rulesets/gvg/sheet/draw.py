"""Drawing GvG's board tab: the map from A1 (tile G9 is cell G9), each team in its colour, the players
with their role, team and tree, then the players' list below the map. The move rolls, which need the
match's dice, are in the orders tabs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from sheets_gm.engine.grid import Coord
from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import Role, Skill, Status, Terrain
from sheets_gm.rulesets.gvg.rules import GvgRules, carried_tree, next_available_turn, skill_active
from sheets_gm.rulesets.gvg.state import GvgState, Player
from sheets_gm.sheets.layout import ConditionalFill
from sheets_gm.sheets.printed_sizes import lines_needed

#: Light fills for teams named after a colour, so that team "red" is painted red whatever its slot.
TEAM_COLOUR_WORDS = {
    "red": "#F4CCCC", "blue": "#CFE2F3", "green": "#D9EAD3", "yellow": "#FFF2CC", "orange": "#FCE5CD",
    "purple": "#D9D2E9", "violet": "#D9D2E9", "pink": "#EAD1DC", "cyan": "#D0E0E3", "teal": "#D0E0E3",
    "white": "#FFFFFF", "black": "#B7B7B7", "grey": "#D9D9D9", "gray": "#D9D9D9", "brown": "#E6D5C3",
    "gold": "#FFF2CC", "silver": "#EFEFEF",
}

#: The lines of text a tile's cell shows (its height in the layout: ``adapter.TILE_HEIGHT``).
TILE_LINES = 3
#: A tile's width in pixels: a player's name and marks on one line.
TILE_WIDTH = 110
#: Widths in average characters of the default font (sheets.row_fit) of a tile's narrow characters, its other
#: letters and digits, and its signs (⚔, ♥, ▼), measured in the widest font that draws a tile (DejaVu Sans,
#: LibreOffice's stand-in for Calibri and its source of the signs): "☗blue2▲ ☗blue3▲" is one line, with
#: "☗blue22▲" it is two.
NARROW, NARROW_WIDTH, LETTER_WIDTH, SIGN_WIDTH = frozenset(" fijlrt1.,'"), 0.6, 1.08, 1.64

#: The players' list below the map: its header row.
PLAYERS_HEADER = ("Player", "Team", "Role", "Position", "Status", "Carries")


@dataclass(frozen=True, slots=True)
class GvgLook:
    """The signs and colours of ``templates/gvg/layout.yaml`` that the board drawing uses."""

    symbols: Mapping[str, str]
    colours: Mapping[str, str]
    slot_colours: tuple[str, str]

    @classmethod
    def of(cls, spec: kit.SheetSpec) -> GvgLook:
        """The look the layout file gives (a missing sign draws as nothing, a missing colour as white)."""
        seats = spec.colours.seats
        return cls(spec.symbols, spec.colours.extra, (seats[0], seats[1 % len(seats)]))

    def sign(self, name: str) -> str:
        """The sign called ``name`` ('' if the layout gives none)."""
        return self.symbols.get(name, "")

    def colour(self, name: str) -> str:
        """The colour called ``name`` (white if the layout gives none)."""
        return self.colours.get(name, "#FFFFFF")

    def team_mark(self, slot: int) -> str:
        """The mark after a player's name for team slot ``slot`` (0: based on row 1)."""
        return self.sign("team1" if slot == 0 else "team2")

    def team_colour(self, slot: int, name: str) -> str:
        """The fill of team slot ``slot`` called ``name``: its own colour when the name is one, else the slot's.

        >>> look = GvgLook({}, {}, ("#111111", "#222222"))
        >>> look.team_colour(0, "red"), look.team_colour(0, "Blue"), look.team_colour(1, "Lions")
        ('#F4CCCC', '#CFE2F3', '#222222')
        """
        return TEAM_COLOUR_WORDS.get(name.strip().casefold(), self.slot_colours[slot])

    def role(self, role: Role) -> str:
        """The sign of a role."""
        return self.sign({Role.DPS: "dps", Role.TANK: "tank", Role.HEALER: "healer"}[role])


def tile_text(look: GvgLook, rules: GvgRules, state: GvgState, tile: Coord, here: list[Player]) -> str:
    """What one board cell shows: terrain, structure and HP, boss, coin, trees, players (one per line)."""
    terrain, _owner = rules.board.terrain[tile]
    if terrain is Terrain.WALL:
        return look.sign("wall")
    heart = look.sign("heart")
    parts: list[str] = []
    if terrain is Terrain.BASE:
        parts.append(look.sign("base"))
    elif terrain is Terrain.STAIR:
        parts.append(look.sign("stair"))
    structure = state.structures.get(tile)
    if structure is not None and not structure.destroyed:
        symbol = look.sign("bulwark" if structure.kind.value == "bulwark" else "fish")
        parts.append(f"{symbol}{heart * structure.hp}")
    if state.boss is not None and state.boss.at == tile:
        parts.append(f"{look.sign('boss')}{heart * state.boss.hp}")
    elif terrain is Terrain.BOSS:
        parts.append(look.sign("lair"))
    if tile in state.jungle:
        parts.append(look.sign("coin"))
    for tree in state.trees:
        if tree is not None and tree.at == tile and tree.carrier is None:
            parts.append(f"{look.sign('tree')} {state.teams[tree.team]}'s tree")
    people = []
    for p in here:
        mark = look.sign("down") if p.status is Status.KNOCKED_DOWN else look.role(p.role)
        carrying = look.sign("tree") if carried_tree(state, p.name) is not None else ""
        people.append(OnTile(mark, p.name, look.team_mark(p.team), carrying))
    return "\n".join(fit_lines([part for part in parts if part], people))


@dataclass(frozen=True, slots=True)
class OnTile:
    """A player as a tile shows her: her role's sign (or the knocked-down sign), her name, her team's mark and
    the tree sign if she carries one."""

    mark: str
    name: str
    team: str
    carrying: str = ""

    @property
    def label(self) -> str:
        """Her whole label, as the legend reads it."""
        return f"{self.mark}{self.name}{self.team}{self.carrying}"


def fit_lines(things: list[str], people: list[OnTile], lines: int = TILE_LINES,
              pixels: int = TILE_WIDTH) -> list[str]:
    """A tile's lines within the ``lines`` its cell shows at ``pixels`` wide, word-wrapping counted: one a thing
    and one a player while they fit; else the things share a line and the players as many to a line as its width
    holds (a team's players on lines of their own where they fit, the things' line shared where nothing else
    does); else, on a tile too crowded for every name, each team's players counted with their signs (``3▼ ⚔⚔☗``;
    the players' list below the map names them), so the attackers and the defenders all stay in sight.

    >>> a, b, c, d = (OnTile(m, n, t) for m, n, t in (("⚔", "a", "▲"), ("☗", "b", "▲"), ("⚔", "c", "▼"),
    ...                                                ("☗", "d", "▼")))
    >>> fit_lines(["♜♥♥"], [a, b, c, d])
    ['♜♥♥', '⚔a▲ ☗b▲', '⚔c▼ ☗d▼']
    >>> fit_lines(["⌂ base"], [a])
    ['⌂ base', '⚔a▲']
    >>> crowd = [OnTile("⚔", f"player{n}", "▼") for n in range(3)] + [OnTile("☗", "defender", "▲")]
    >>> fit_lines(["♜♥"], crowd)
    ['♜♥', '3▼ ⚔⚔⚔', '1▲ ☗']
    """
    head = [" ".join(things)] if things else []
    for candidate in _ways(things, head, people, pixels):
        if sum(tile_lines(line, pixels) for line in candidate) <= lines:
            return candidate
    return [*head, " ".join(_counted(people))]


def _ways(things: list[str], head: list[str], people: list[OnTile], pixels: int) -> Iterator[list[str]]:
    """A tile's ways of laying out its lines, in ``fit_lines``'s order of preference, each made only when the one
    before did not fit (most tiles: the first)."""
    labels = [p.label for p in people]
    yield [*things, *labels]
    yield [*head, *(line for group in _teams(people) for line in _packed([p.label for p in group], pixels))]
    yield [*head, *_packed(labels, pixels)]
    yield _packed([*head, *labels], pixels)
    yield [*head, *_counted(people)]


@lru_cache(maxsize=4096)
def tile_lines(text: str, pixels: int = TILE_WIDTH) -> int:
    """Lines ``text`` takes in a tile's cell, its signs measured wider than its letters (measured once per process
    for each text: a board's tiles repeat their signs and names at every drawing).

    >>> tile_lines("⚔red1▼ ⚔red2▼"), tile_lines("♜♥ ⚔red1▼ ⚔red2▼")
    (1, 2)
    >>> tile_lines("☗blue2▲ ☗blue3▲"), tile_lines("☗blue22▲ ☗blue3▲")
    (1, 2)
    """
    return lines_needed(text, pixels, lambda word: sum(
        NARROW_WIDTH if c in NARROW else LETTER_WIDTH if c.isascii() else SIGN_WIDTH for c in word))


def _packed(labels: list[str], pixels: int) -> list[str]:
    """``labels`` in their order, as many to a line as one line ``pixels`` wide holds."""
    packed: list[str] = []
    for label in labels:
        if packed and tile_lines(f"{packed[-1]} {label}", pixels) == 1:
            packed[-1] = f"{packed[-1]} {label}"
        else:
            packed.append(label)
    return packed


def _counted(people: list[OnTile]) -> list[str]:
    """A line per team on the tile: how many of its players stand there, its mark and their signs."""
    return [f"{len(group)}{group[0].team} {''.join(p.mark + p.carrying for p in group)}" for group in _teams(people)]


def _teams(people: list[OnTile]) -> list[list[OnTile]]:
    """``people`` grouped by team, in the order the teams first appear."""
    teams: dict[str, list[OnTile]] = {}
    for p in people:
        teams.setdefault(p.team, []).append(p)
    return list(teams.values())


def map_grid(look: GvgLook, rules: GvgRules, state: GvgState) -> kit.Grid:
    """The whole map, one cell per tile, from A1."""
    by_tile: dict[Coord, list[Player]] = defaultdict(list)
    for p in state.players:
        by_tile[p.at].append(p)
    grid = rules.board.grid
    return [[tile_text(look, rules, state, Coord(col, row), by_tile.get(Coord(col, row), []))
             for col in range(grid.width)]
            for row in range(grid.height)]


def map_fills(look: GvgLook, rules: GvgRules, teams: tuple[str, ...]) -> list[kit.Fill]:
    """The map's colours: open tiles, walls, the boss's spawn tiles, each team's base and structures (a jungle
    coin's yellow is ``coin_fill``'s: it goes when the coin is taken)."""
    grid = rules.board.grid
    fills = [kit.Fill(kit.cells(0, 1, grid.width - 1, grid.height), look.colour("open"), wrap=True)]
    for tile, (terrain, owner) in sorted(rules.board.terrain.items(), key=lambda kv: (kv[0].row, kv[0].col)):
        if owner is not None:
            colour = look.team_colour(owner, teams[owner])
        elif terrain is Terrain.WALL:
            colour = look.colour("wall")
        elif terrain is Terrain.BOSS:
            colour = look.colour("boss")
        else:
            continue
        fills.append(kit.Fill(kit.cells(tile.col, tile.row + 1, tile.col, tile.row + 1), colour, wrap=True))
    return fills


def coin_fill(look: GvgLook, rules: GvgRules) -> ConditionalFill:
    """The jungle coin's yellow over the map, for the tiles whose text starts with the coin's sign: laid out once,
    it follows the coin, so a tile whose coin was taken is an open tile again (until halftime brings it back)."""
    grid = rules.board.grid
    return ConditionalFill(kit.cells(0, 1, grid.width - 1, grid.height), look.sign("coin"), look.colour("coin"))


def players_rows(state: GvgState) -> kit.Grid:
    """The players' list: name, team, role, position, status, what it carries."""
    rows: kit.Grid = [list(PLAYERS_HEADER)]
    for p in state.players:
        tree = carried_tree(state, p.name)
        rows.append([p.name, state.teams[p.team], p.role.display, p.at.label,
                     "knocked down" if p.status is Status.KNOCKED_DOWN else "active",
                     f"{state.teams[tree.team]}'s tree" if tree is not None else ""])
    return rows


def legend(look: GvgLook, teams: tuple[str, ...]) -> kit.Grid:
    """The lines right of the map that say what each colour and sign means."""
    s = look.sign
    return [
        ["How to read the board: tile G9 is cell G9 (column letter, row number); type it as your destination."],
        [f"{teams[0]}: players marked {look.team_mark(0)}, base and structures in {teams[0]}'s colour "
         "(base on row 1)."],
        [f"{teams[1]}: players marked {look.team_mark(1)}, base and structures in {teams[1]}'s colour."],
        [f"Players: {s('dps')} DPS, {s('tank')} Tank, {s('healer')} Healer, {s('down')} knocked down, "
         f"{s('tree')} carries a tree."],
        [f"Tiles: {s('base')}, {s('stair')}, {s('bulwark')} bulwark and {s('fish')} with their {s('heart')} HP, "
         f"{s('tree')} a tree on the ground; dark tiles are walls."],
        [f"{s('coin')}: a jungle coin to take (its tile yellow until it is taken); {s('lair')}: a tile where the "
         f"boss may appear, no team's whatever its shade; {s('boss')} with its {s('heart')} HP: the boss, once it "
         "has."],
        [f"A tile too crowded for every name counts each team's players with their signs (3{s('team1')} "
         f"{s('dps')}{s('dps')}{s('tank')})."],
        ["Below the map: every player. Each team's orders tab shows this turn's move rolls of both teams."],
    ]


def team_panel(rules: GvgRules, state: GvgState, team: int) -> kit.Grid:
    """A team's View panel: its coins and ballista charges, each command skill's cost and when it can be
    activated (what the captain buys from), then its players: role, tile, status, what each carries. Three
    columns, the long texts in the third, the View's wide one: a short panel that reads on screen and paper."""
    settings = rules.settings
    rows: kit.Grid = [["Your team", state.teams[team],
                       f"{counted(state.coins[team], 'coin')}, {counted(state.ballista[team], 'ballista charge')}"],
                      [], ["Command skill", "Cost", "When"]]
    for skill in Skill:
        ready = next_available_turn(state, settings, team, skill)
        cost = settings.cost(skill)
        missing = cost - state.coins[team]
        if state.finished:
            when = ""
        elif ready > state.turn:
            when = f"can be activated on turn {ready}"
        elif missing > 0:
            when = f"off cooldown, but {state.teams[team]} needs {counted(missing, 'coin')} more"
        else:
            when = "can be activated now"
        if skill_active(state, settings, team, skill, state.turn):
            when += f"; in effect this turn (activated on turn {state.cooldowns[team][skill]})"
        rows.append([skill.display, counted(cost, "coin"), when])
    rows += [[], ["Your player", "Role", "Where"]]
    for p in state.players:
        if p.team != team:
            continue
        tree = carried_tree(state, p.name)
        where = f"on {p.at.label}, {'knocked down' if p.status is Status.KNOCKED_DOWN else 'active'}"
        rows.append([p.name, p.role.display, where + (f", carries {state.teams[tree.team]}'s tree" if tree else "")])
    return rows


def status_line(look: GvgLook, state: GvgState, max_turns: int) -> str:
    """Turn, coins and ballista charges per team, the boss; or the result."""
    if state.finished:
        result = "a draw" if state.winner is None else f"{state.teams[state.winner]} wins"
        head = f"Match over on turn {state.turn}: {result}"
    else:
        head = f"Turn {state.turn} of {max_turns} · orders open"
    teams = " · ".join(
        f"{name}: {state.coins[i]} coin{'s' if state.coins[i] != 1 else ''}, "
        f"{state.ballista[i]} ballista charge{'s' if state.ballista[i] != 1 else ''}"
        for i, name in enumerate(state.teams))
    boss = f" · boss on {state.boss.at.label} {look.sign('heart') * state.boss.hp}" if state.boss else ""
    return f"{head} · {teams}{boss}"
