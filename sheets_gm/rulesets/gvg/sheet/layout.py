"""The tabs of a GvG match, as layouts a backend can apply: headers, colours, dropdowns, protections."""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.enums import Action, Role, Skill, Terrain
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.sheet.positions import (
    ARCHIVE_FIRST_HISTORY_ROW,
    ENGINE_FIRST_HISTORY_ROW,
    ENGINE_KEYS,
    MAX_TEAM_SIZE,
    ORDERS_FIRST_ROW,
    ORDERS_READ_LAST_ROW,
    GvgPositions,
    TeamSheet,
    cells,
)
from sheets_gm.rulesets.gvg.sheet.render import board_legend
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, team_colour
from sheets_gm.sheets.layout import Checkbox, Dropdown, Fill, Grid, Protection, TabLayout

LOG_ROWS = 6000  # room for every event of a 60-turn match: values cannot be written past a tab's last row
ROSTER_ROWS = 2 * MAX_TEAM_SIZE  # player rows of the Roster tab


def _terrain_colour(template: SheetTemplate, terrain: Terrain, owner: int | None, teams: tuple[str, str]) -> str:
    c = template.colours
    if owner is not None:
        return team_colour(template, owner, teams[owner])
    return {Terrain.WALL: c.wall, Terrain.COIN: c.coin, Terrain.BOSS: c.boss}.get(terrain, c.open)


def board_tab(pos: GvgPositions, board: GvgMap) -> TabLayout:
    """The board: the map from A1, one cell per tile (tile G9 is cell G9), coloured by terrain and
    team; right of it the title, the status line and the legend."""
    t = pos.template
    top = t.board_first_row
    teams = (pos.teams[0].team, pos.teams[1].team)
    width, height = board.grid.width, board.grid.height
    info = pos.board_info_col
    legend = board_legend(t, teams)
    fills = [Fill(cells(0, top, width - 1, top + height - 1), t.colours.open, wrap=True),
             Fill(cells(info, 1, info, 3 + len(legend)), t.colours.open, wrap=True),
             Fill(cells(info, 1, info, 2), t.colours.header, bold=True)]
    for tile, (terrain, owner) in board.terrain.items():
        colour = _terrain_colour(t, terrain, owner, teams)
        if colour != t.colours.open:
            fills.append(Fill(cells(tile.col, top + tile.row, tile.col, top + tile.row), colour))
    for slot in (0, 1):
        fills.append(Fill(cells(info, 5 + slot, info, 5 + slot), team_colour(t, slot, teams[slot])))
    return TabLayout(
        name=t.tabs.board, rows=max(top + height - 1, 4 + len(legend)), cols=info + 1, frozen_rows=0,
        values={cells(info, 1, info, 1): [[t.headers.board]], cells(info, 4, info, 4): legend},
        fills=tuple(fills),
        protections=(Protection(None, "Drawn by sheets-gm: only the GM edits"),),
        column_widths={**dict.fromkeys(range(width), 110), width: 20, info: 300},
        row_heights=dict.fromkeys(range(top - 1, top - 1 + height), 56),  # three lines of text a tile
    )


def _simple_tab(name: str, header: list[str], rows: int, colour: str, description: str,
                widths: Mapping[int, int] | None = None) -> TabLayout:
    return TabLayout(
        name=name, rows=rows, cols=len(header), frozen_rows=1,
        values={"A1": [list(header)]},
        fills=(Fill(cells(0, 1, len(header) - 1, 1), colour, bold=True),),
        protections=(Protection(None, description),),
        column_widths=dict(widths or {}),
    )


def public_tabs(pos: GvgPositions, board: GvgMap, players: int) -> list[TabLayout]:
    """The tabs everyone may read: board, players, log, settings."""
    t = pos.template
    h = t.headers
    header = t.colours.header
    return [
        board_tab(pos, board),
        _simple_tab(t.tabs.players, h.players, players + 1, header, "Written by sheets-gm"),
        _simple_tab(t.tabs.log, h.log, LOG_ROWS, header, "Written by sheets-gm", {2: 700}),
        _simple_tab(t.tabs.settings, h.settings, len(GvgSettings.__dataclass_fields__) + 2, header,
                    "Settings of this match: fixed at init", {3: 600}),
    ]


def engine_tab(pos: GvgPositions, settings: GvgSettings) -> TabLayout:
    """The hidden, protected engine tab: key column and history rows."""
    t = pos.template
    rows = ENGINE_FIRST_HISTORY_ROW + settings.max_turns + 5
    keys: Grid = [[k] for k in ENGINE_KEYS]
    return TabLayout(
        name=t.tabs.engine, rows=rows, cols=2, hidden=True,
        values={"A1": [[t.headers.engine]], "A2": keys},
        fills=(Fill("A1:B1", t.colours.engine, bold=True),),
        protections=(Protection(None, "The match's engine: only the GM (sheets-gm) edits"),),
    )


def orders_tab(pos: GvgPositions, team: TeamSheet, emails: Mapping[str, str]) -> TabLayout:
    """A team's orders: a row per player (destination, action, teleport) and the captain's area."""
    t = pos.template
    h = t.headers
    width = pos.orders_width
    first, last = ORDERS_FIRST_ROW, team.last_player_row
    cap = team.captain_row
    cols = pos.captain
    protections = [
        Protection(cells(0, 1, width - 1, 4), "Title and headers"),
        Protection(cells(0, first, 2, last), "Names, turn and rolls: written by sheets-gm"),
        Protection(cells(team.feedback_col, first, team.feedback_col, last), "Feedback: written by sheets-gm"),
        Protection(cells(0, team.captain_header_row, width - 1, team.captain_header_row), "Captain header"),
        Protection(cells(0, cap, 1, cap), "Captain name and turn"),
        Protection(cells(cols.feedback, cap, cols.feedback, cap), "Captain feedback: written by sheets-gm"),
    ]
    for i, name in enumerate(team.players):
        row = team.player_row(i)
        email = emails.get(name)
        protections.append(Protection(cells(3, row, 5, row), f"Order of {name}", (email,) if email else (),
                                      player_input=True))
    captain_email = emails.get(f"captain:{team.team}")
    protections.append(Protection(cells(cols.skills[0], cap, cols.ready, cap), f"Captain of {team.team}",
                                  (captain_email,) if captain_email else (), player_input=True))
    return TabLayout(
        name=team.orders_tab, rows=max(cap + 1, ORDERS_READ_LAST_ROW), cols=width, frozen_rows=4,
        values={
            "A1": [[h.orders_title.format(team=team.team)]],
            "A4": [list(h.orders)],
            f"A{first}": [[name] for name in team.players],
            f"A{team.captain_header_row}": [list(h.captain)],
            f"A{cap}": [[team.team]],
        },
        fills=(
            Fill(cells(0, 1, width - 1, 1), t.colours.header, bold=True),
            Fill(cells(0, 4, width - 1, 4), t.colours.header, bold=True),
            Fill(cells(0, team.captain_header_row, width - 1, team.captain_header_row), t.colours.header, bold=True),
            Fill(cells(0, first, 2, last), t.colours.engine),
            Fill(cells(team.feedback_col, first, team.feedback_col, last), t.colours.engine),
        ),
        dropdowns=(
            Dropdown(cells(4, first, 4, last), tuple(a.value for a in Action)),
            Dropdown(cells(cols.skills[0], cap, cols.skills[-1], cap), tuple(s.display for s in Skill)),
        ),
        checkboxes=(Checkbox(cells(cols.ready, cap, cols.ready, cap)),),
        protections=tuple(protections),
        # Both feedback columns line up in the last column, wide; the inputs are wide enough for
        # their headers ("Destination") and for a skill's name.
        column_widths={0: 120, 1: 80, 2: 90, 3: 110, 4: 110, 5: 110, **dict.fromkeys(cols.skills, 130),
                       cols.ready: 80, team.feedback_col: 500, cols.feedback: 500},
    )


def archive_tab(pos: GvgPositions, team: TeamSheet, settings: GvgSettings) -> TabLayout:
    """A team's archive of consumed orders: the pending area (row 2) and a row per turn."""
    t = pos.template
    rows = ARCHIVE_FIRST_HISTORY_ROW + settings.max_turns + 5
    return TabLayout(
        name=team.archive_tab, rows=rows, cols=len(t.headers.archive), frozen_rows=1,
        values={"A1": [list(t.headers.archive)], "A4": [list(t.headers.archive)]},
        fills=(Fill(cells(0, 1, len(t.headers.archive) - 1, 1), t.colours.header, bold=True),),
        protections=(Protection(None, "Orders consumed by sheets-gm: only the GM edits"),),
    )


def roster_tab(template: SheetTemplate, teams: tuple[str, str]) -> TabLayout:
    """The roster the GM types in the sheet before the match starts: team and role dropdowns, a captain box."""
    h = template.headers.roster
    last = 1 + ROSTER_ROWS
    return TabLayout(
        name=template.tabs.roster, rows=last, cols=len(h), frozen_rows=1,
        values={"A1": [list(h)]},
        fills=(Fill(cells(0, 1, len(h) - 1, 1), template.colours.header, bold=True),),
        dropdowns=(
            Dropdown(cells(1, 2, 1, last), teams),
            Dropdown(cells(2, 2, 2, last), tuple(r.display for r in Role)),
        ),
        checkboxes=(Checkbox(cells(3, 2, 3, last)),),
        protections=(Protection(cells(0, 1, len(h) - 1, 1), "Roster header"),),
        column_widths={0: 160, 4: 260},
    )
