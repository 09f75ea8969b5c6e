"""A refusal stands with its reason until the row changes (issue 64, item 4), walked over every game.

The property, as ``test_input_lifecycle.check`` asks it after every poll: a row that said ``✘`` and why at the last
check, nothing typed in any row of its seat since, says ``✘`` and a reason still: while its window is open, and
through every window that does not read it (its table closed, a deployment, the opponent's turn, a row kept for her
next turn, an ordered table's row moved up). Only a window of hers that reads the row may answer it anew. And a row
typed in her opponent's turn, which her turn will refuse as it stands, says so at once.

The walk types rows (junk, other seats' names, the bots' rows typed where they do not belong), then moves the match
on without the seat typing again: polls, the GM's force, a deadline, the bots and the judge playing their own
windows, reactions, Ready and Go ticks. The quick run walks one example a game, each chosen to cross the windows
that do not read a refused row; the soak run draws many more.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance.test_input_lifecycle import _games, new_table, run

#: What the walk does: typing, and every step that moves the match on without the seat typing over her rows.
KINDS = ("type", "type", "type", "bot", "poll", "poll", "force", "force", "deadline", "react", "judge", "ready",
         "tick")


@st.composite
def _step(draw: st.DrawFn) -> tuple[str, int, int, int]:
    return draw(st.sampled_from(KINDS)), draw(st.integers(0, 99)), draw(st.integers(0, 99)), draw(st.integers(0, 99))


#: The quick run's walk: the second seat types junk ('zz') in her first row, then the bots play each window and the
#: GM closes it, twice (a deployment, the opponent's turn, a judge's window, the next round). In Wesnoth she types it
#: in her opponent's turn: it said only "Kept for Bo's next turn" until his turn opened.
CROSSING = [("type", 1, 0, 0), ("poll", 0, 0, 0), ("bot", 0, 0, 0), ("force", 0, 0, 0), ("bot", 0, 0, 0),
            ("force", 0, 0, 0)]
#: Win or Die: Bo's action row naming no unit of his ('Ann'), typed in Ann's deployment, through his own deployment
#: and into Ann's turn 1, where a resolution stops at a Charge for the GM and keeps the turn open: his row said only
#: "Kept for Bo's next turn" at that resolution (fates._kept_rows_said did not check a held row), and at every poll
#: of her turn before issue 64's fix (poll.py's held rows).
CROSSINGS = {"winordie": [("type", 1, 9, 0), ("poll", 0, 0, 0), ("bot", 0, 0, 0), ("force", 0, 0, 0),
                          ("bot", 0, 0, 0), ("force", 0, 0, 0), ("bot", 0, 0, 0), ("force", 0, 0, 0)]}


@pytest.mark.parametrize("name", _games())
def test_a_refusal_stands_with_its_reason_until_the_row_changes(name: str) -> None:
    """Each game's crossing of the windows that do not read a refused row: its ✘ and reason stand at every poll."""
    run(new_table(name), CROSSINGS.get(name, CROSSING))


@pytest.mark.soak
@pytest.mark.parametrize("name", _games())
def test_a_refusal_stands_in_random_walks(name: str) -> None:
    """Random walks of typing and windows moving on, in every game: every refusal stands until its row changes."""
    @settings(max_examples=40, deadline=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(steps=st.lists(_step(), min_size=3, max_size=14))
    def walk(steps: list[tuple[str, int, int, int]]) -> None:
        run(new_table(name), steps)

    walk()
