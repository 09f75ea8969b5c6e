"""What a player and the public may see of a Wesnoth match: all of it, since the board game hides nothing but
the orders not yet resolved, and those never enter the state."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.wesnoth.state import WesnothState


def view_of(state: WesnothState, seat: str | None) -> dict[str, Any]:
    """The whole state, for a player (``seat``) and for the public board (``None``) alike."""
    return state.to_json()
