"""Where everything sits in the GvG sheets, computed from the template, the roster and the map.

Only this module knows cell addresses; the layout, the reader and the writer all ask it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.engine.core.grid import column_label
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate
from sheets_gm.sheets.layout import a1
from sheets_gm.sheets.layout import cells as cells


def team_pair(seats: tuple[str, ...]) -> tuple[str, str]:
    """A GvG match's two teams from its seats (ValueError when there are not two)."""
    if len(seats) != 2:
        raise ValueError(f"a GvG match has two teams, not {len(seats)}: {', '.join(seats) or '(none)'}")
    return seats[0], seats[1]


ENGINE_KEYS = ("ruleset", "turn", "state", "seed", "seed_hash", "settings", "map", "log_rows", "deadline", "teams",
               "gm_events")
MAX_TEAM_SIZE = 15  # order rows read on every poll are sized for this many players per team
ENGINE_FIRST_HISTORY_ROW = 21
ORDERS_FIRST_ROW = 5
#: 0-based columns of a player row: its turn stamp, and its inputs (destination, action, teleport).
TURN_COLUMN = 1
ORDER_COLUMNS = (3, 4, 5)
ARCHIVE_FIRST_HISTORY_ROW = 5
#: The last row of an orders tab that every poll reads (a full team's captain row): the tab must reach it,
#: or Google refuses the whole read ("exceeds grid limits").
ORDERS_READ_LAST_ROW = ORDERS_FIRST_ROW + MAX_TEAM_SIZE + 2


@dataclass(frozen=True, slots=True)
class TeamSheet:
    """The order tab and archive tab of one team: row numbers of its players and captain."""

    team: str
    players: tuple[str, ...]
    orders_tab: str
    archive_tab: str
    feedback_col: int = 6  # 0-based column of the players' feedback, from the template's header

    def feedback_cell(self, row: int) -> str:
        """The A1 cell (without the tab) of a player row's feedback."""
        return f"{column_label(self.feedback_col)}{row}"

    @property
    def first_row(self) -> int:
        """The row of the team's first player."""
        return ORDERS_FIRST_ROW

    def player_row(self, index: int) -> int:
        """The row of the team's ``index``-th player."""
        return ORDERS_FIRST_ROW + index

    @property
    def last_player_row(self) -> int:
        """The row of the team's last player."""
        return ORDERS_FIRST_ROW + len(self.players) - 1

    @property
    def captain_header_row(self) -> int:
        """The header row of the captain's area."""
        return self.last_player_row + 2

    @property
    def captain_row(self) -> int:
        """The captain's input row."""
        return self.captain_header_row + 1

    def orders_read_range(self, width: int) -> str:
        """Everything of the orders tab a poll reads: title, header, player rows and captain area.

        Sized for the largest roster so it can be read before the roster is known; Google
        trims the empty rows, so a small team reads no more bytes."""
        return a1(self.orders_tab, cells(0, 1, width - 1, ORDERS_READ_LAST_ROW))

    def pending_range(self) -> str:
        """The archive's header and fixed pending area (turn, JSON) read on every poll."""
        return a1(self.archive_tab, "A1:C2")

    def history_row(self, turn: int) -> int:
        """The archive row of a turn."""
        return ARCHIVE_FIRST_HISTORY_ROW + turn - 1

    def history_range(self, turn: int) -> str:
        """The archive cells (turn, consumed orders) of a resolved turn."""
        row = self.history_row(turn)
        return a1(self.archive_tab, f"A{row}:B{row}")

    def pending_cells(self) -> str:
        """The fixed pending area (turn, the consumed orders as JSON) the resolution writes first."""
        return a1(self.archive_tab, "A2:B2")

    def set_aside_cell(self, turn: int) -> str:
        """Column C of a turn's archive row: orders set aside (stale, or displaced by an undo) in that turn."""
        return a1(self.archive_tab, f"C{self.history_row(turn)}")

    @property
    def header_row(self) -> int:
        """The row of the players' column headers."""
        return ORDERS_FIRST_ROW - 1

    def order_cells(self, row: int) -> str:
        """A player row's input cells: destination, action, teleport."""
        return a1(self.orders_tab, cells(ORDER_COLUMNS[0], row, ORDER_COLUMNS[-1], row))

    def turn_and_roll_cells(self) -> str:
        """Every player row's turn stamp and published movement roll."""
        return a1(self.orders_tab, f"B{self.first_row}:C{self.last_player_row}")

    def status_cell(self) -> str:
        """The status line under the orders tab's title."""
        return a1(self.orders_tab, "A2")

    def captain_turn_cell(self) -> str:
        """The captain row's turn stamp."""
        return a1(self.orders_tab, f"B{self.captain_row}")


@dataclass(frozen=True, slots=True)
class CaptainColumns:
    """0-based columns of the captain's row, from the template's captain header."""

    skills: tuple[int, ...]
    ready: int
    feedback: int

    @classmethod
    def from_header(cls, header: list[str]) -> CaptainColumns:
        """Skill columns are those headed ``Skill``; then ``Ready`` and ``Feedback``."""
        return cls(tuple(i for i, h in enumerate(header) if h == "Skill"), header.index("Ready"),
                   header.index("Feedback"))

    def label(self, col: int, row: int) -> str:
        """An A1 cell of the captain's row."""
        return f"{column_label(col)}{row}"

    def cell(self, team: TeamSheet, col: int) -> str:
        """One cell of ``team``'s captain row (its Ready box, its feedback)."""
        return a1(team.orders_tab, self.label(col, team.captain_row))

    def skills_range(self, team: TeamSheet) -> str:
        """The skill cells of ``team``'s captain row."""
        row = team.captain_row
        return a1(team.orders_tab, f"{self.label(self.skills[0], row)}:{self.label(self.skills[-1], row)}")

    def inputs_range(self, team: TeamSheet) -> str:
        """The skill cells and the Ready box of ``team``'s captain row."""
        row = team.captain_row
        return a1(team.orders_tab, f"{self.label(self.skills[0], row)}:{self.label(self.ready, row)}")


@dataclass(frozen=True, slots=True)
class GvgPositions:
    """Every address of a GvG match's sheets."""

    template: SheetTemplate
    teams: tuple[TeamSheet, TeamSheet]
    map_width: int
    map_height: int

    @classmethod
    def build(cls, template: SheetTemplate, teams: tuple[str, str], players: tuple[tuple[str, ...], tuple[str, ...]],
              map_width: int, map_height: int) -> GvgPositions:
        """The positions for two teams' rosters (names in roster order) on a map of the given size."""
        feedback = template.headers.orders.index("Feedback")
        sheets = tuple(
            TeamSheet(team, players[i], template.tabs.orders.format(team=team),
                      template.tabs.archive.format(team=team), feedback)
            for i, team in enumerate(teams)
        )
        return cls(template, (sheets[0], sheets[1]), map_width, map_height)

    @property
    def tabs(self) -> SheetTemplate:
        """The template (for tab names and headers)."""
        return self.template

    @property
    def captain(self) -> CaptainColumns:
        """The columns of the captain's row."""
        return CaptainColumns.from_header(self.template.headers.captain)

    @property
    def orders_width(self) -> int:
        """Columns of an orders tab: the wider of the player and captain headers."""
        return max(len(self.template.headers.orders), len(self.template.headers.captain))

    # -- engine ------------------------------------------------------------------------------
    def engine_read_range(self) -> str:
        """The engine's header and key cells, read on every poll (fixed size)."""
        return a1(self.template.tabs.engine, f"A1:B{1 + len(ENGINE_KEYS)}")

    def engine_value_range(self) -> str:
        """The engine's value cells (B2 down), written as one column."""
        return a1(self.template.tabs.engine, f"B2:B{1 + len(ENGINE_KEYS)}")

    def engine_history_range(self, turn: int) -> str:
        """The engine's history row of a resolved turn."""
        row = ENGINE_FIRST_HISTORY_ROW + turn - 1
        return a1(self.template.tabs.engine, f"A{row}:B{row}")

    def engine_history_all(self, last_turn: int) -> str:
        """Every history row up to ``last_turn`` (for undo, export and verify; never on a poll)."""
        last = ENGINE_FIRST_HISTORY_ROW + max(last_turn, 1) - 1
        return a1(self.template.tabs.engine, f"A{ENGINE_FIRST_HISTORY_ROW}:B{last}")

    # -- board spreadsheet -----------------------------------------------------------------------
    def board_range(self) -> str:
        """The drawn map."""
        top = self.template.board_first_row
        return a1(self.template.tabs.board, cells(0, top, self.map_width - 1, top + self.map_height - 1))

    @property
    def board_info_col(self) -> int:
        """The 0-based column right of the map (after one empty column) with title, status and legend."""
        return self.map_width + 1

    def board_status_range(self) -> str:
        """Title and status line of the board."""
        col = self.board_info_col
        return a1(self.template.tabs.board, cells(col, 1, col, 2))

    def board_title_row(self) -> str:
        """Row 1 of the board, which holds the title wherever the map's width puts it (read every poll)."""
        return a1(self.template.tabs.board, "1:1")

    def players_range(self, count: int) -> str:
        """The players tab rows under its header."""
        width = len(self.template.headers.players)
        return a1(self.template.tabs.players, cells(0, 2, width - 1, 1 + max(count, 1)))

    def log_range(self, first_index: int, count: int) -> str:
        """Log rows for events ``first_index`` .. ``first_index + count - 1`` (0-based, row 2 is event 0)."""
        width = len(self.template.headers.log)
        return a1(self.template.tabs.log, cells(0, 2 + first_index, width - 1, 1 + first_index + count))

    def settings_range(self) -> str:
        """The settings tab, header and every setting row (for the export)."""
        return a1(self.template.tabs.settings, "A1:D60")

    def export_ranges(self, players: int, log_rows: int, log_limit: int) -> list[tuple[str, str]]:
        """(tab, range) of every tab of the board spreadsheet as the export writes it to CSV: the
        board with its title and legend, the players, the log (at most ``log_limit`` rows), the settings."""
        t, h = self.template.tabs, self.template.headers
        board_rows = self.template.board_first_row + self.map_height - 1
        return [
            (t.board, a1(t.board, cells(0, 1, self.board_info_col, board_rows))),
            (t.players, a1(t.players, cells(0, 1, len(h.players) - 1, 1 + players))),
            (t.log, a1(t.log, cells(0, 1, len(h.log) - 1, min(1 + log_rows, log_limit)))),
            (t.settings, self.settings_range()),
        ]

    def orders_export_range(self, team: TeamSheet) -> str:
        """A team's orders tab, title to captain row, as the export writes it to CSV."""
        return a1(team.orders_tab, cells(0, 1, self.orders_width - 1, team.captain_row))

    def header_checks(self) -> list[tuple[str, list[str]]]:
        """(range, expected texts) for the header cells of the board spreadsheet's tabs (the board's
        title is checked apart: see ``board_title_row``)."""
        h, t = self.template.headers, self.template.tabs
        return [
            (a1(t.players, cells(0, 1, len(h.players) - 1, 1)), h.players),
            (a1(t.log, cells(0, 1, len(h.log) - 1, 1)), h.log),
            (a1(t.settings, cells(0, 1, len(h.settings) - 1, 1)), h.settings),
        ]
