"""Reading what players and captains typed: lenient, and every problem said in words.

``f7``, `` F7 ``, ``F 7`` are all F7; an empty action is ``act``; skills may be written as
on the dropdown (``Bulwark Damage``) or as their key (``bulwark_damage``). Anything else
(numbers, dates, formulas, emoji, huge texts) becomes a problem to show in the feedback
cell, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.enums import Action, Skill
from sheets_gm.rulesets.gvg.orders import PlayerOrder

MAX_SHOWN = 40  # characters of a player's text echoed back in a message


def shown(value: kit.CellValue) -> str:
    """A player's text as echoed in a message: quoted, shortened."""
    text = str(value).strip()
    if len(text) > MAX_SHOWN:
        text = text[: MAX_SHOWN - 3] + "..."
    return repr(text)


def _blank(value: kit.CellValue) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _word(value: str) -> str:
    return "".join(ch for ch in value.lower() if ch.isalnum())


def _tile(value: kit.CellValue, what: str) -> Coord | None:
    if _blank(value):
        return None
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(f"{what} {shown(value)} is not a tile; write a column letter and a row number, like F7")
    try:
        return Coord.parse(value)
    except kit.CoordError:
        pass
    raise ValueError(f"{what} {shown(value)} is not a tile; write a column letter and a row number, like F7")


ACTION_WORDS = {
    "act": Action.ACT, "attack": Action.ACT, "fight": Action.ACT, "roll": Action.ACT, "actnormally": Action.ACT,
    "buff": Action.BUFF, "revive": Action.REVIVE, "pickup": Action.PICKUP, "pick": Action.PICKUP,
}


def parse_action(value: kit.CellValue) -> Action:
    """An action cell: empty is ``act``; otherwise act (attack), buff, revive or pickup (pick up)."""
    if _blank(value):
        return Action.ACT
    if isinstance(value, str) and _word(value) in ACTION_WORDS:
        return ACTION_WORDS[_word(value)]
    raise ValueError(f"action {shown(value)} is not one of act, buff, revive, pickup")


def parse_skill(value: kit.CellValue) -> Skill | None:
    """A skill cell: empty is none; the dropdown's name or the skill's key."""
    if _blank(value):
        return None
    for skill in Skill:
        if isinstance(value, str) and _word(value) in (_word(skill.value), _word(skill.display)):
            return skill
    names = ", ".join(s.display for s in Skill)
    raise ValueError(f"skill {shown(value)} is unknown; choose one of {names}")


#: Tick marks a captain may type instead of ticking the box.
TICKS = frozenset("✓✔☑✅")


def parse_ready(value: kit.CellValue) -> bool:
    """A ready tick box: TRUE, or a typed yes / y / x / ready / 1 / ✓ (✔ ☑ ✅ too), any case.

    >>> [parse_ready(v) for v in (True, "Yes", " x ", "✓", "✔ ready", 1, "no", "", None, False, 0)]
    [True, True, True, True, True, True, False, False, False, False, False]
    """
    if isinstance(value, bool):
        return value
    if not isinstance(value, str | int):
        return False
    text = str(value).strip()
    return _word(text) in ("true", "yes", "x", "1", "ready", "y") or (bool(text) and text[0] in TICKS)


def parse_turn(value: kit.CellValue) -> int | None:
    """The engine-written 'for turn' cell (None if unreadable)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        return int(float(str(value).strip()))
    except ValueError:
        return None


class OrderCells(BaseModel):
    """The input cells of one player's order row, validated."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    destination: Coord | None
    action: Action
    teleport: Coord | None

    @field_validator("destination", mode="before")
    @classmethod
    def _destination(cls, value: Any) -> Coord | None:
        return _tile(value, "destination")

    @field_validator("teleport", mode="before")
    @classmethod
    def _teleport(cls, value: Any) -> Coord | None:
        return _tile(value, "teleport")

    @field_validator("action", mode="before")
    @classmethod
    def _action(cls, value: Any) -> Action:
        return parse_action(value)


@dataclass(frozen=True, slots=True)
class ParsedOrder:
    """A player's row as read: the order (None if nothing was typed) and the problems found."""

    order: PlayerOrder | None
    problems: list[str] = field(default_factory=list)
    typed: bool = False  # whether any input cell holds something


def parse_order_cells(destination: kit.CellValue, action: kit.CellValue, teleport: kit.CellValue) -> ParsedOrder:
    """Read one order row's input cells. A cell with a problem is left out of the order."""
    typed = not (_blank(destination) and _blank(action) and _blank(teleport))
    if not typed:
        return ParsedOrder(None)
    problems: list[str] = []
    values: dict[str, kit.CellValue] = {"destination": destination, "action": action, "teleport": teleport}
    try:
        cells = OrderCells.model_validate(values)
        return ParsedOrder(PlayerOrder(move=cells.destination, action=cells.action, teleport=cells.teleport),
                           problems, True)
    except ValidationError as exc:
        bad = set()
        for error in exc.errors():
            name = str(error["loc"][0])
            bad.add(name)
            problems.append(str(error["ctx"]["error"]) if "ctx" in error and "error" in error["ctx"] else error["msg"])
    # Keep what was readable: a bad teleport should not cost the player a good destination.
    move = None if "destination" in bad else _tile(destination, "destination")
    act = Action.ACT if "action" in bad else parse_action(action)
    tele = None if "teleport" in bad else _tile(teleport, "teleport")
    return ParsedOrder(PlayerOrder(move=move, action=act, teleport=tele), problems, True)


@dataclass(frozen=True, slots=True)
class ParsedCaptain:
    """The captain's row as read: skills in the order written, the ready tick, the problems."""

    skills: tuple[Skill, ...]
    ready: bool
    problems: list[str] = field(default_factory=list)
    typed: bool = False


def parse_captain_cells(skill_cells: list[kit.CellValue], ready: kit.CellValue) -> ParsedCaptain:
    """Read the captain's skill cells and ready box."""
    skills: list[Skill] = []
    problems: list[str] = []
    for value in skill_cells:
        try:
            skill = parse_skill(value)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if skill is not None and skill not in skills:
            skills.append(skill)
    typed = any(not _blank(v) for v in skill_cells)
    return ParsedCaptain(tuple(skills), parse_ready(ready), problems, typed)
