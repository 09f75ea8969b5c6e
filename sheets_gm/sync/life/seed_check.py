"""The match seed checked against the hash published when the match was created.

Every die of a match is keyed on its secret seed; its SHA-256 was printed by ``init`` for the
players, and the engine tab keeps both. A seed that no longer gives that hash was edited (or the
hash was): whatever is resolved with it can no longer be checked by the players, so a poll, an
undo or an adjustment refuses to go on and writes nothing, and ``doctor`` says so.
"""

from __future__ import annotations

from sheets_gm.engine.dice import seed_hash
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sync.match_record import MATCH_KEYS, MatchRecord


class SeedMismatchError(SheetError):
    """The engine tab's seed does not give the hash published when the match was created."""


def seed_cell() -> str:
    """The cell of the seed's value in the engine tab (``B5``)."""
    return f"B{2 + MATCH_KEYS.index('seed')}"


def seed_problem(record: MatchRecord, where: str) -> str:
    """Why the seed of ``record`` (read from ``where``, the engine's spreadsheet and tab) cannot be trusted, or ''
    when it gives its published hash."""
    if seed_hash(record.seed) != record.seed_hash:
        return (f"the seed in {where} (cell {seed_cell()}) does not give the hash published when the match was "
                f"created ({record.seed_hash[:12]}…): the seed or its hash was edited, and players could no longer "
                "check the rolls")
    for link in record.reseeds:
        if seed_hash(link.seed) != link.hash:
            return (f"the seed drawn when the GM undid the end of the match ({link.reason}), in {where} (cell "
                    f"{seed_cell()}), does not give the hash committed then ({link.hash[:12]}…): the seed or its "
                    "hash was edited, and players could no longer check the rolls")
    return ""


def seed_fix(where: str) -> str:
    """What to do about a seed that does not give its published hash."""
    return (f"put the seed and seed_hash cells of {where} back as they were: from the spreadsheet's version "
            "history, or from a copy of the engine workbook (in backups/*-repair/, or *.before-init-* beside it); the "
            "hash the players were given when the match was created is the one to match")


def check_seed(record: MatchRecord, where: str) -> None:
    """SeedMismatchError, naming the cell and what to do, when the seed of ``record`` does not give its hash."""
    problem = seed_problem(record, where)
    if problem:
        raise SeedMismatchError(f"{problem}. Nothing was resolved or written. To go on, {seed_fix(where)}")
