"""What a team and the public may see of a GvG match: all of it, since a team's only secret is its orders,
which never enter the state."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.gvg.state import GvgState


def view_of(state: GvgState, seat: str | None) -> dict[str, Any]:
    """The whole state, for a team (``seat``) and for the public board (``None``) alike."""
    return state.to_json()
