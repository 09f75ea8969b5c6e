"""The GvG sheet template (``templates/gvg/sheet.yaml``), read and checked with pydantic."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from sheets_gm.yamlio import YamlError, load_yaml_file

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


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


class SheetTemplate(_Strict):
    """Everything about the GvG sheets that is data rather than code."""

    tabs: TabNames
    headers: Headers
    board_first_row: int
    colours: Colours
    symbols: Symbols


def load_template(path: Path) -> SheetTemplate:
    """Read a sheet template file; errors name the file and the field."""
    try:
        data = load_yaml_file(path)
        return SheetTemplate.model_validate(data)
    except YamlError as exc:
        raise TemplateError(str(exc)) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TemplateError(f"{path}: {where}: {first['msg']}") from None


@cache
def default_template() -> SheetTemplate:
    """The template shipped in ``templates/gvg/sheet.yaml``."""
    return load_template(TEMPLATES / "gvg" / "sheet.yaml")


def default_map_text() -> str:
    """The default GvG map shipped in ``templates/gvg/map.txt``."""
    return (TEMPLATES / "gvg" / "map.txt").read_text(encoding="utf-8")
