"""The Coalition's Turn report tab: the forum's posts of the turn, ready to paste.

A column per post (Movement Results, Battle Results, Battle Announcements), a line of the post per
row under the column's heading, so the judge selects a column's lines, copies and pastes them on
the forum as they are (a cell per line: a spreadsheet copies one multi-line cell with quotes round
it). The posts describe what the last deadline produced: after the orders deadline the Movement
Results and the Battle Announcements, once the judge's results are in the Battle Results too
(battles with their winner, losses, kills, bumps and points; then structures, healing,
domination and the score). The tab keeps its size all match long: a post longer than its column
is cut with a line saying so (the Log tab has every event).
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import Phase
from sheets_gm.rulesets.coalition.forum import battle_announcements, battle_results, movement_results
from sheets_gm.rulesets.coalition.state import CoalitionState
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sheets.layout import CellValue, Fill, Grid, cells

#: Lines a post may take (its column's rows under the heading).
REPORT_ROWS = 250
POST_WIDTH = 600
POSTS = ("Movement Results", "Battle Results", "Battle Announcements")


def report_posts(state: CoalitionState, board: Board, strategies_to: str = "") -> tuple[list[str], list[str],
                                                                                      list[str]]:
    """The lines of the turn's three posts, in the tab's column order: Movement Results, Battle Results,
    Battle Announcements (a line saying when a post comes, while it has not yet)."""
    if not state.movement and state.phase is Phase.ORDERS and state.turn == 1:
        waiting = "Nothing yet: the first posts come at the turn 1 orders deadline."
        return [waiting], [waiting], [waiting]
    results = (battle_results(state).split("\n") if state.phase is not Phase.RESULTS else
               [f"Battle Results, turn {state.turn}", "", "They come when the judge's results are in."])
    return (movement_results(state).split("\n"), results,
            battle_announcements(state, board, strategies_to).split("\n"))


def _cut(lines: list[str], room: int) -> list[str]:
    if len(lines) <= room:
        return lines
    kept = lines[:room - 1]
    return [*kept, f"… {len(lines) - len(kept)} more lines: the Log tab has every event of the turn."]


def report_drawing(state: CoalitionState, board: Board, colours: Mapping[str, str],
                   strategies_to: str = "") -> BoardDrawing:
    """The Turn report tab for ``state``: a heading row, then each post a line per row in its column."""
    columns = [_cut(lines, REPORT_ROWS) for lines in report_posts(state, board, strategies_to)]
    grid: Grid = [[f"{name}: select the lines under this cell, copy, paste on the forum" for name in POSTS]]
    for i in range(REPORT_ROWS):
        row: list[CellValue] = [col[i] if i < len(col) else "" for col in columns]
        grid.append(row)
    heading = colours.get("posts", "#FFF2CC")
    fills = (Fill(cells(0, 1, len(POSTS) - 1, 1), heading, bold=True, wrap=True),
             Fill(cells(0, 2, len(POSTS) - 1, 1 + REPORT_ROWS), "#FFFFFF", wrap=True))
    legend: Grid = [["The forum posts of the turn"],
                    ["A column per post, a line per row: select a post's lines from its title down, copy, "
                     "paste them on the forum."],
                    ["After the orders deadline: Movement Results (each army's order and result code) and "
                     "Battle Announcements; once the judge's results are in, Battle Results (winners, losses, "
                     "kills, bumps, structures, victory points)."],
                    ["The map: a tab per plane. Every event of every turn: the Log tab."]]
    return BoardDrawing(grid, fills, {i: POST_WIDTH for i in range(len(POSTS))}, {0: 40}, legend)
