"""What a side, the judge and the public may see of a Coalition war: all of the state, since the board is public
and a side's only secret, its orders, never enters the state (each side's orders sheet is its own file)."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.coalition.state import CoalitionState


def view_of(state: CoalitionState, seat: str | None) -> dict[str, Any]:
    """The whole state, for a side, the judge (``seat``) and the public board (``None``) alike."""
    return state.to_json()
