"""The GvG sheet template (``templates/gvg/sheet.yaml``), read and checked with pydantic."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from sheets_gm.engine.registry import TEMPLATES
from sheets_gm.yamlio import YamlError, load_yaml_model


class TemplateError(ValueError):
    """A template file that is missing or malformed."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TabNames(_Strict):
    """The names of the tabs; ``{team}`` is replaced by a team's name."""

    board: str
    players: str
    log: str
    settings: str
    engine: str
    orders: str
    archive: str
    roster: str


class Headers(_Strict):
    """The texts the sync checks to know the layout has not drifted."""

    board: str
    players: list[str]
    log: list[str]
    settings: list[str]
    engine: str
    orders_title: str
    orders: list[str]
    captain: list[str]
    archive: list[str]
    roster: list[str]


class Colours(_Strict):
    """Background colours (``#RRGGBB``) by what a cell shows."""

    open: str
    wall: str
    coin: str
    boss: str
    team1: str
    team2: str
    header: str
    input: str
    engine: str


class Symbols(_Strict):
    """The emoji and signs drawn on the board."""

    wall: str
    coin: str
    boss: str
    base: str
    stair: str
    bulwark: str
    fish: str
    tree: str
    heart: str
    dps: str
    tank: str
    healer: str
    down: str
    team1: str
    team2: str

    def team(self, slot: int) -> str:
        """The mark after a player's name for team slot ``slot`` (0 or 1)."""
        return self.team1 if slot == 0 else self.team2


class SheetTemplate(_Strict):
    """Everything about the GvG sheets that is data rather than code."""

    tabs: TabNames
    headers: Headers
    board_first_row: int
    colours: Colours
    symbols: Symbols


#: Light fills for teams named after a colour, so that team "red" is painted red whatever its slot.
TEAM_COLOUR_WORDS = {
    "red": "#F4CCCC", "blue": "#CFE2F3", "green": "#D9EAD3", "yellow": "#FFF2CC", "orange": "#FCE5CD",
    "purple": "#D9D2E9", "violet": "#D9D2E9", "pink": "#EAD1DC", "cyan": "#D0E0E3", "teal": "#D0E0E3",
    "white": "#FFFFFF", "black": "#B7B7B7", "grey": "#D9D9D9", "gray": "#D9D9D9", "brown": "#E6D5C3",
    "gold": "#FFF2CC", "silver": "#EFEFEF",
}


def team_colour(template: SheetTemplate, slot: int, name: str) -> str:
    """The fill of team slot ``slot`` called ``name``: its own colour when the name is one, else the slot's.

    >>> tpl = default_template()
    >>> team_colour(tpl, 0, "red"), team_colour(tpl, 0, "Blue"), team_colour(tpl, 1, "Lions")
    ('#F4CCCC', '#CFE2F3', '#CFE2F3')
    """
    word = name.strip().casefold()
    found = TEAM_COLOUR_WORDS.get(word)
    if found is not None:
        return found
    return template.colours.team1 if slot == 0 else template.colours.team2


def load_template(path: Path) -> SheetTemplate:
    """Read a sheet template file; errors name the file and the field."""
    try:
        return load_yaml_model(path, SheetTemplate)
    except YamlError as exc:
        raise TemplateError(str(exc)) from None


@cache
def default_template() -> SheetTemplate:
    """The template shipped in ``templates/gvg/sheet.yaml``."""
    return load_template(TEMPLATES / "gvg" / "sheet-legacy.yaml")


def default_map_text() -> str:
    """The default GvG map shipped in ``templates/gvg/map.txt``."""
    return (TEMPLATES / "gvg" / "map.txt").read_text(encoding="utf-8")
