"""``MatchTabs.orders`` places each input tab once per process for each layout's value, seat and table sizes: equal
layouts share their tabs, a layout of another value never gets them, and the cache keeps no layout alive."""

from __future__ import annotations

import gc
import weakref

from sheets_gm.rulesets.registry import TEMPLATES
from sheets_gm.rulesets.wesnoth.sheet.adapter import batch_spec
from sheets_gm.sheets.spec import SheetSpec, load_sheet_spec
from sheets_gm.sync.match_tabs import MatchTabs

SEATS = ("Ann", "Bo")


def _layout() -> SheetSpec:
    """The Wesnoth layout, read anew: a new object each time, of one value."""
    return load_sheet_spec(TEMPLATES / "wesnoth" / "layout.yaml")


def test_equal_layouts_share_their_placed_tabs_and_another_layout_gets_its_own() -> None:
    first, second = _layout(), _layout()
    assert first is not second and first == second
    tab = MatchTabs(first, SEATS, judge=False).orders("Ann")
    assert MatchTabs(second, SEATS, judge=False).orders("Ann") is tab
    assert MatchTabs(batch_spec(first), SEATS, judge=False).orders("Ann") is MatchTabs(
        batch_spec(second), SEATS, judge=False).orders("Ann")  # Wesnoth's batch layout, made for each adapter
    renamed = first.model_copy(update={"tabs": first.tabs.model_copy(update={"orders": "Moves {seat}"})})
    assert MatchTabs(renamed, SEATS, judge=False).orders("Ann").name == "Moves Ann" != tab.name


def test_a_layout_that_dies_is_not_kept_and_its_id_names_no_other_layout() -> None:
    for i in range(40):  # an id of a dead layout may come back: each layout gets the tab of its own value
        spec = _layout()
        spec = spec.model_copy(update={"tabs": spec.tabs.model_copy(update={"orders": f"Orders {i} {{seat}}"})})
        gone = weakref.ref(spec)
        assert MatchTabs(spec, SEATS, judge=False).orders("Ann").name == f"Orders {i} Ann"
        del spec
        if gone() is not None:  # held in a cycle: only a full collection (half a second in a big worker) frees it
            gc.collect()
        assert gone() is None  # the cache holds no layout
