"""Whatever a player types into any cell of her Win or Die orders tab, reading it never crashes, every
problem names the column it is about, and what is read resolves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.ruleset import Window
from sheets_gm.rulesets.registry import sheet_of
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sheets.tables import TypedRow
from tests.quick import soak_but
from tests.rulesets.winordie.helpers import deployed, rules

RULES = rules()
SHEET = sheet_of(RULES)
STARTED = deployed(RULES, b"cells")
NEW = RULES.new_match(RULES.sample_roster(), b"cells")
WORDS = [u.id for u in STARTED.units] + [u.token for u in STARTED.units] + [
    h.label for h in RULES.rules.board.cells()] + ["move", "attack", "call", "ability", "council", "left", "right",
                                                   "Fire Volley", "Parry", "Iron Wall", "Lancer", "health, movement",
                                                   "any", "near", "surrender", "Z99"]
CELLS: st.SearchStrategy[CellValue] = st.one_of(st.none(), st.booleans(), st.integers(-5, 40),
                                                st.floats(allow_nan=True, allow_infinity=True),
                                                st.sampled_from(WORDS), st.text(max_size=15))
#: How a problem starts: the column it is about, or what keeps a row waiting.
OPENINGS = (*(c.header for t in SHEET.spec.inputs for c in t.columns if c.kind.typed),
            "waiting: ", "every unit is deployed at once", "it is ")


def _rows(window: Window, seat: str, data: st.DataObject) -> dict[str, list[TypedRow]]:
    draw = data.draw
    out: dict[str, list[TypedRow]] = {}
    for table in SHEET.spec.inputs:
        if not table.open_in(window.phase):
            continue
        state = NEW if window.phase == "deploy" else STARTED
        subjects = SHEET.rows(state, seat, table)
        typed = [c for c in table.columns if c.kind.typed]
        out[table.name] = [TypedRow(table.name, s, n, window.key,
                                    {c.key: draw(CELLS) if c.kind is not ColumnKind.READY else draw(st.booleans())
                                     for c in typed}, "")
                           for n, s in enumerate(subjects[:draw(st.integers(0, len(subjects)))])]
    return out


@pytest.mark.parametrize("examples", soak_but([200, 25], 25))
def test_any_cells_read_without_crashing_and_problems_name_their_column(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(data=st.data(), deploy=st.booleans(), acting=st.booleans())
    def walk(data: st.DataObject, deploy: bool,
                                                                            acting: bool) -> None:
        state = NEW if deploy else STARTED
        window = RULES.window(state)
        assert window is not None
        seat = window.seats[0] if acting or deploy else window.seats[1]
        got = SHEET.read_orders(state, window, seat, _rows(window, seat, data))
        for problems in got.problems.values():
            for p in problems:
                assert p.startswith(OPENINGS), p
        orders = RULES.merge_orders({seat: got.orders})
        RULES.resolve(state, orders, RULES.dice(b"cells", state))

    walk()
