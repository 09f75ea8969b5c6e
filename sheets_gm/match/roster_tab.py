"""The Roster tab: the roster typed in the sheet, for a match with no roster file (any ruleset).

The first ``init`` of a match whose ruleset cannot start from the seats alone lays the tab out
in the GM's engine spreadsheet (a roster holds the players' e-mail addresses, and the board is
shared with everybody) and stops; the GM types a row per member and runs ``init`` again, which
reads it with the roster file's checks (``seat_roster``). Its columns are ``name``, the
ruleset's word for a seat, ``email``, then the ruleset's own columns: the fields of its sample
roster (``Ruleset.sample_roster``), the one place a ruleset shows what a member carries.
"""

from __future__ import annotations

from sheets_gm.engine.grid import column_label
from sheets_gm.engine.ruleset import Roster, RulesetTraits
from sheets_gm.match.seat_roster import parse_seat_roster
from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import Dropdown, Fill, Protection, TabLayout, WorkbookLayout, a1, cells
from sheets_gm.sheets.spec import SheetSpec
from sheets_gm.sheets.tables import text_of

#: Member rows laid out with a seat dropdown (a Coalition roster lists every army; Champions seats sixteen
#: players). Rows typed below them are read too: the read is open-ended downwards.
ROSTER_ROWS = 200
#: Columns read: the laid-out ones and any the GM adds (a ruleset's optional columns).
ROSTER_COLS = 26


def roster_columns(ruleset: AnyRuleset) -> tuple[str, ...]:
    """The Roster tab's header: name, the ruleset's seat word, email and the sample roster's own fields in order
    (the reader takes the ruleset's seat word for the seat even where another seat word heads a column:
    Wesnoth's ``team`` is an alliance)."""
    word = ruleset.traits.seat_kind.value
    own = dict.fromkeys(k for m in ruleset.sample_roster().members for k in m.fields)
    return ("name", word, "email", *(k for k in own if k not in ("name", word, "email")))


def roster_example(ruleset: AnyRuleset, columns: tuple[str, ...]) -> str:
    """The sample roster's first member as a row of ``columns`` (``name Ann, player Ann, lineup …``)."""
    members = ruleset.sample_roster().members
    if not members:
        return ""
    first = members[0]
    values = {"name": first.name, columns[1]: first.seat, "email": first.email, **first.fields}
    return ", ".join(f"{c} {values[c]}" for c in columns if values.get(c))


def roster_tab_layout(spec: SheetSpec, columns: tuple[str, ...], seats: tuple[str, ...]) -> TabLayout:
    """The tab to type the roster in: the header row (protected), a dropdown of ``seats`` (and the ruleset's
    roster groups, such as the Coalition's mercenary bands)."""
    last = 1 + ROSTER_ROWS
    return TabLayout(
        # Every column read (to Z) is in the grid: Google refuses a read past a tab's last column.
        name=spec.tabs.roster, rows=last, cols=max(len(columns), ROSTER_COLS), frozen_rows=1,
        values={"A1": [list(columns)]},
        fills=(Fill(cells(0, 1, len(columns) - 1, 1), spec.colours.header, bold=True),),
        dropdowns=(Dropdown(cells(1, 2, 1, last), seats),),
        protections=(Protection(cells(0, 1, len(columns) - 1, 1), "Roster header: sheets-gm reads the columns by it"),),
        column_widths={0: 160, 1: 120, 2: 240, **{i: 180 for i in range(3, len(columns))}})


def read_roster_tab(backend: SheetBackend, spec: SheetSpec, traits: RulesetTraits,
                    seats: tuple[str, ...]) -> Roster | None:
    """The roster typed in the Roster tab of ``backend``, or None when the tab is missing or has no member
    row yet. SeatRosterError names the row of a bad one. Columns the GM added (up to Z) are read too, and rows
    typed below the laid-out ones: a long roster is never cut short without a word."""
    tab = spec.tabs.roster
    if tab not in backend.tab_names():  # never a read of a missing tab: Google answers it with an error
        return None
    (rows,) = backend.read([a1(tab, f"A1:{column_label(ROSTER_COLS - 1)}")])
    if not any(text_of(v) for row in rows[1:] for v in row):
        return None
    return parse_seat_roster(rows, seats, where=f"{backend.name} tab {tab!r}", line_word="row",
                             seat_word=traits.seat_kind.value, groups=traits.roster_groups)


def lay_out_roster_tab(backend: SheetBackend, spec: SheetSpec, columns: tuple[str, ...], seats: tuple[str, ...],
                       title: str) -> None:
    """Lay the Roster tab out in ``backend`` (a typed row in it is kept)."""
    backend.apply_layout(WorkbookLayout(title, (roster_tab_layout(spec, columns, seats),)))
