"""What a plane's board tab shows, square by square: terrain, structure, armies by side, battle.

A pure function of the board and the state, so the sheet adapter only draws it (a tab per plane,
row A on top, column 1 on the left)."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import BattleType, Colour, Side, StructureKind, Terrain
from sheets_gm.rulesets.coalition.state import CoalitionState, rank_name


@dataclass(frozen=True, slots=True)
class ArmyMark:
    """An army as a square shows it: name, side, rank title and units."""

    name: str
    side: Side
    rank: str
    units: int


@dataclass(frozen=True, slots=True)
class SquareView:
    """One square of a plane's board tab."""

    label: str  # "3A"
    terrain: Terrain
    structure: str = ""  # its name, "" for none
    kind: StructureKind | None = None
    colour: Colour | None = None  # a base's faction
    destroyed: bool = False
    controlled_by: str = ""  # a feature's controlling side
    armies: tuple[ArmyMark, ...] = ()
    battle: BattleType | None = None
    leads_to: str = ""  # a portal's linked place


def plane_rows(board: Board, state: CoalitionState, plane: str) -> list[list[SquareView]]:
    """The plane's squares row by row (row A first), each with what stands on it."""
    found = board.plane_named(plane)
    if found is None:
        raise ValueError(f"there is no plane {plane!r}; the planes are {', '.join(board.planes)}")
    marks: dict[str, list[ArmyMark]] = {}
    for a in state.armies:
        if a.at.startswith(found.name + " "):
            marks.setdefault(a.at, []).append(ArmyMark(a.name, a.side, rank_name(a.side, a.rank), a.total))
    battles = {b.at: b.type for b in state.battles}
    rows: list[list[SquareView]] = [[] for _ in range(found.height)]
    for square in found.cells():
        place = f"{found.name} {square.label}"
        s = board.structure_at.get(place)
        rows[square.row].append(SquareView(
            square.label, board.terrain_of(place), s.name if s else "", s.kind if s else None,
            s.colour if s else None, bool(s and s.name in state.destroyed),
            state.control.get(s.name, "") if s else "", tuple(marks.get(place, ())), battles.get(place),
            (s.to or "") if s else ""))
    return rows
