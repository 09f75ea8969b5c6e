"""The layout types: a conditional fill refuses a prefix no backend could match as text."""

from __future__ import annotations

import dataclasses

import pytest

from sheets_gm.sheets.layout import ConditionalFill, TabLayout


def test_a_conditional_fill_is_frozen_data_a_tab_carries() -> None:
    fill = ConditionalFill("A3:F20", "●", "#F4CCCC", bold=True)
    assert (fill.range, fill.prefix, fill.colour, fill.bold) == ("A3:F20", "●", "#F4CCCC", True)
    assert not ConditionalFill("A1", "■ Bo", "#CFE2F3").bold
    with pytest.raises(dataclasses.FrozenInstanceError):
        fill.prefix = "■"  # type: ignore[misc]
    assert TabLayout("Board", 20, 6).conditional_fills == ()
    assert TabLayout("Board", 20, 6, conditional_fills=(fill,)).conditional_fills == (fill,)


@pytest.mark.parametrize("prefix", ["", "=A1", "+1", "'quoted"])
def test_a_prefix_google_would_read_as_a_formula_or_nothing_is_refused(prefix: str) -> None:
    with pytest.raises(ValueError, match=r"conditional fill over A3:F20: the prefix .* must be a text"):
        ConditionalFill("A3:F20", prefix, "#F4CCCC")
