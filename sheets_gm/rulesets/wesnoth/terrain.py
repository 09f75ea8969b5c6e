"""The board game's terrains, what they are in Wesnoth's unit data, and the d6 defence scores.

Six terrains come from the rulebook (plain, forest, mountain, water, harsh, city) and one
from the rulings (impassable). A city hex is a village, a castle hex or a keep; on a pawn
city is Wesnoth's village column (castle and keep hexes too).
"""

from __future__ import annotations

from enum import StrEnum


class Terrain(StrEnum):
    """A hex's terrain for defence and movement."""

    PLAIN = "plain"
    FOREST = "forest"
    HARSH = "harsh"
    MOUNTAIN = "mountain"
    WATER = "water"
    CITY = "city"
    IMPASSABLE = "impassable"


class Feature(StrEnum):
    """What a city hex is (none for the other terrains)."""

    NONE = "none"
    VILLAGE = "village"
    CASTLE = "castle"
    KEEP = "keep"


#: The terrains a pawn lists, in its order.
BOARD_TERRAINS: tuple[str, ...] = ("plain", "forest", "harsh", "mountain", "water", "city")

#: Each pawn terrain's column in Wesnoth's unit data.
WESNOTH_KEY = {"plain": "flat", "forest": "forest", "harsh": "hills", "mountain": "mountains",
               "water": "shallow_water", "city": "village"}

#: Move cost meaning "cannot enter", as in Wesnoth.
UNREACHABLE = 99


def d6_defence(chance_to_be_hit: int) -> int:
    """The d6 score needed to hit a unit from Wesnoth's chance to be hit (percent), to the nearest
    d6 probability: 75+ Horrible 2, 58–74 Poor 3, 42–57 Normal 4, 25–41 Good 5, up to 24 Superb 6.

    >>> [d6_defence(c) for c in (80, 70, 60, 50, 40, 30, 20)]
    [2, 3, 3, 4, 5, 5, 6]
    """
    c = abs(chance_to_be_hit)
    if c >= 75:
        return 2
    if c >= 58:
        return 3
    if c >= 42:
        return 4
    if c >= 25:
        return 5
    return 6


#: The rulebook's names of the d6 scores.
DEFENCE_NAMES = {2: "Horrible", 3: "Poor", 4: "Normal", 5: "Good", 6: "Superb"}
