"""The memory spreadsheet the sync tests run on (``tests/fakes/memory.py``) keeps what a read makes of each tab until
the tab changes: whatever changes it (a write, a person typing, a test changing the cells in place or putting other
cells in), each read gives what a read of a fresh scan gives."""

from __future__ import annotations

import copy
import pickle
from typing import cast

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import CellValue, TabLayout, WorkbookLayout, a1, cell_at
from tests.fakes.memory import MemoryBackend, _filled_rows

TABS = ("Board", "Log")
VALUES = st.sampled_from(["", None, "x", "y", 0, 1, True, "=zz"])
SPOTS = st.tuples(st.sampled_from(TABS), st.integers(0, 5), st.integers(0, 3))
STEP = st.one_of(
    st.tuples(st.just("write"), SPOTS, st.lists(st.lists(VALUES, min_size=1, max_size=3), min_size=1, max_size=3)),
    st.tuples(st.just("type"), SPOTS, VALUES),
    st.tuples(st.just("in place"), SPOTS, VALUES),
    st.tuples(st.just("pop"), SPOTS, st.none()),
    st.tuples(st.just("swap"), SPOTS, st.none()),  # the tabs replaced by a copy held from before (a stale save)
    st.tuples(st.just("plain"), SPOTS, st.none()),  # a tab's cells replaced by a plain dict of them
    st.tuples(st.just("pickle"), SPOTS, st.none()),
)


def _fresh(backend: MemoryBackend, tab: str) -> tuple[object, ...]:
    return _filled_rows(backend.tabs[tab])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(steps=st.lists(STEP, max_size=25))
@example(steps=[("write", ("Board", 1, 0), [["x"]]), ("write", ("Board", 1, 0), [[""]])])  # the last row emptied
def test_each_read_is_the_tab_as_it_is_now(steps: list[tuple[str, tuple[str, int, int], object]]) -> None:
    backend = MemoryBackend("fake")
    backend.apply_layout(WorkbookLayout("fake", tuple(TabLayout(t, 8, 6) for t in TABS)))
    held = copy.deepcopy(backend.tabs)
    for what, (tab, row, col), value in steps:
        cell = cell_at(col, row)
        if what == "write":
            grid = cast(list[list[CellValue]], value if isinstance(value, list) else [[value]])
            last = cell_at(col + max(map(len, grid)) - 1, row + len(grid) - 1)
            backend.write([RangeWrite(a1(tab, f"{cell}:{last}"), grid)])
        elif what == "type":
            backend.type(tab, cell, value)  # type: ignore[arg-type]
        elif what == "in place":
            backend.tabs[tab][(row, col)] = value  # type: ignore[assignment]
        elif what == "pop":
            backend.tabs[tab].pop((row, col), None)
        elif what == "swap":
            backend.tabs, held = held, copy.deepcopy(backend.tabs)
        elif what == "plain":
            backend.tabs[tab] = dict(backend.tabs[tab])
        else:
            backend = pickle.loads(pickle.dumps(backend))
        for name in TABS:
            assert backend._scanned(name) == _fresh(backend, name), (what, name)
        whole = [a1(name, "A1:F8") for name in TABS]
        assert backend.read(whole) == MemoryBackend._grids(_unscanned(backend), whole)


def _unscanned(backend: MemoryBackend) -> MemoryBackend:
    """A backend holding the same cells, none of them scanned yet."""
    fresh = MemoryBackend("fresh")
    fresh.tabs = {name: dict(cells) for name, cells in backend.tabs.items()}
    fresh.sizes = dict(backend.sizes)
    return fresh
