"""The Coalition's Turn report tab: the forum's posts of the turn, ready to paste.

A column per post (Movement Results, Battle Results, Battle Announcements), a line of the post per
row under the column's heading, so the judge selects a part's lines, copies and pastes them on
the forum as they are (a cell per line: a spreadsheet copies one multi-line cell with quotes round
it). A post longer than a forum post may be is written in parts (``forum.in_parts``), one under the
other with a blank row between them: each is a whole post, numbered in its title (``Battle Results,
turn 4 (part 2 of 6)``), and the heading says how many there are. The posts describe what the last
deadline produced: after the orders deadline the Movement Results and the Battle Announcements, once
the judge's results are in the Battle Results too.

The tab keeps one size all match long, set by the map (:func:`report_rows`): room for every part of a
war on every square of it. A match laid out before the posts came in parts has 250 rows: its Turn
report tab's title says so (the sync asks for ``repair``, which lays it out again and keeps the match).
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import Phase
from sheets_gm.rulesets.coalition.forum import announcement_parts, movement_parts, results_parts
from sheets_gm.rulesets.coalition.state import CoalitionState

#: Lines a post may take at least (its column's rows under the heading): a small map's tab.
REPORT_ROWS = 250
#: Lines a post may take per square of the map: every army's order, battle lines, losses, bump and healing.
ROWS_PER_SQUARE = 4
POST_WIDTH = 600
POSTS = ("Movement Results", "Battle Results", "Battle Announcements")
Parts = list[list[str]]


def report_rows(board: Board) -> int:
    """The rows under the heading of each post's column: :data:`REPORT_ROWS`, or more for a large map."""
    return max(REPORT_ROWS, ROWS_PER_SQUARE * sum(1 for _ in board.places()))


def report_posts(state: CoalitionState, board: Board, strategies_to: str = "",
                 deadline: str = "") -> tuple[Parts, Parts, Parts]:
    """The turn's three posts, each in its forum-sized parts, in the tab's column order: Movement Results, Battle
    Results, Battle Announcements (a line saying when a post comes, while it has not yet)."""
    if not state.movement and state.phase is Phase.ORDERS and state.turn == 1:
        waiting = [["Nothing yet: the first posts come at the turn 1 orders deadline."]]
        return waiting, waiting, waiting
    results = (results_parts(state) if state.phase is not Phase.RESULTS else
               [[f"Battle Results, turn {state.turn}", "", "They come when the judge's results are in."]])
    return movement_parts(state), results, announcement_parts(state, board, strategies_to, deadline)


def stacked(parts: Parts, room: int) -> list[str]:
    """A post's parts one under the other, a blank row between two; past ``room`` rows, the last row says how
    many lines are left out (the Log tab has every event)."""
    lines = [line for n, part in enumerate(parts) for line in ([""] if n else []) + part]
    if len(lines) <= room:
        return lines
    kept = lines[:room - 1]
    return [*kept, f"… {len(lines) - len(kept)} more lines: the Log tab has every event of the turn."]


def _heading(name: str, parts: Parts) -> str:
    if len(parts) == 1:
        return f"{name}: select the lines under this cell, copy, paste on the forum"
    return (f"{name}: {len(parts)} parts, each a forum post of its own: select a part from its title (part 1 of "
            f"{len(parts)}…) down to the blank row under it, copy, paste on the forum, then the next")


def report_drawing(state: CoalitionState, board: Board, colours: Mapping[str, str],
                   strategies_to: str = "", deadline: str = "") -> kit.BoardDrawing:
    """The Turn report tab for ``state``: a heading row, then each post's parts a line per row in its column."""
    room = report_rows(board)
    posts = report_posts(state, board, strategies_to, deadline)
    columns = [stacked(parts, room) for parts in posts]
    grid: kit.Grid = [[_heading(name, parts) for name, parts in zip(POSTS, posts, strict=True)]]
    padded: list[list[kit.CellValue]] = [[*col[:room], *[""] * (room - len(col))] for col in columns]
    grid += [list(row) for row in zip(*padded, strict=True)]  # a row per line: the columns side by side
    heading = colours.get("posts", "#FFF2CC")
    # Only the heading row is formatted: a row with nothing in it is no part of the printed page.
    fills = (kit.Fill(kit.cells(0, 1, len(POSTS) - 1, 1), heading, bold=True, wrap=True),)
    legend: kit.Grid = [["The forum posts of the turn"],
                        ["A column per post, a line per row: select a post's lines from its title down, copy, "
                         "paste them on the forum. A long post is in numbered parts, each a post of its own."],
                        ["After the orders deadline: Movement Results (each army's order and result code) and "
                         "Battle Announcements; once the judge's results are in, Battle Results (winners, losses, "
                         "kills, bumps, structures, victory points)."],
                        ["The map: a tab per plane. Every event of every turn: the Log tab."]]
    # printed at its own size, a post a page across (fit to pages wide, its first post was repeated on each page as
    # if it named the rows, and the three shrunk to 7 pt over three pages); each post's title over its column on
    # every printed page
    return kit.BoardDrawing(grid, fills, {i: POST_WIDTH for i in range(len(POSTS))}, {0: 40}, legend,
                            print_pages_wide=0, print_title_rows=1)
