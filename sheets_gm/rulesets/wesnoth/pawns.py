"""What a pawn shows, as rows a units tab can print: so players need no outside reference.

One row per unit type: its level, alignment on this board, hit points, moves, attacks (as
``spear 7-3 melee pierce``), and per terrain the move cost (``-`` where it cannot go) and the
d6 score to hit it, then the percent of each damage type it takes."""

from __future__ import annotations

from collections.abc import Iterable

from sheets_gm.rulesets.wesnoth.tables import DAMAGE_TYPES, UnitTables, UnitType
from sheets_gm.rulesets.wesnoth.terrain import BOARD_TERRAINS, Terrain

#: The columns of a pawn row, in order.
PAWN_COLUMNS: tuple[str, ...] = (
    "type", "level", "alignment", "hitpoints", "moves", "attacks", "advances_to",
    *(f"move {t}" for t in BOARD_TERRAINS), *(f"hit {t}" for t in BOARD_TERRAINS),
    *(f"takes {d}" for d in DAMAGE_TYPES),
)


def pawn_row(tables: UnitTables, unit: UnitType, by_faction: bool = True) -> tuple[str, ...]:
    """The unit type's pawn, as texts in the order of ``PAWN_COLUMNS``.

    >>> from sheets_gm.rulesets.wesnoth.tables import default_tables
    >>> row = dict(zip(PAWN_COLUMNS, pawn_row(default_tables(), default_tables().units["Spearman"])))
    >>> row["attacks"], row["move water"], row["hit plain"], row["takes arcane"]
    ('spear 7-3 melee pierce; javelin 6-1 ranged pierce', '3', '3+', '90%')
    """
    moves = [unit.move_cost(Terrain(t)) for t in BOARD_TERRAINS]
    return (
        unit.name, str(unit.level), tables.board_alignment(unit, by_faction).value, str(unit.hitpoints),
        str(unit.moves), "; ".join(a.label for a in unit.attacks), ", ".join(unit.advances_to),
        *("-" if m is None else str(m) for m in moves),
        *(f"{unit.defence(Terrain(t))}+" for t in BOARD_TERRAINS),
        *(f"{unit.resistance.get(d, 100)}%" for d in DAMAGE_TYPES),
    )


def pawn_rows(tables: UnitTables, types: Iterable[str], by_faction: bool = True) -> list[tuple[str, ...]]:
    """The pawns of ``types`` (names of the tables), in the order given, each once."""
    seen: list[str] = []
    for name in types:
        if name in tables.units and name not in seen:
            seen.append(name)
    return [pawn_row(tables, tables.units[name], by_faction) for name in seen]
