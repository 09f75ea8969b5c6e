"""A small Coalition match for unit tests: one plane, a few armies, the default settings."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

from sheets_gm.engine.dice import TurnDice
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.coalition.board import Board, load_board
from sheets_gm.rulesets.coalition.enums import Phase, Side
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.state import Army, Battle, CoalitionState
from sheets_gm.rulesets.registry import TEMPLATES
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.sheets import MatchSheets
from tests.made import made_into

MAP = """planes:
  Dominaria:
    size: 8x6
    terrain: plains
    squares:
      2B: {structure: base, name: Wrath, colour: white}
      6E: {structure: stronghold, name: Blobble}
      4D: {structure: feature, name: Old Tower}
"""
SETTINGS = CoalitionSettings()


def board() -> Board:
    """The test plane."""
    return load_board(MAP, "test map")


def army(name: str, side: str, at: str, rank: int = 1, units: tuple[int, int, int, int] = (5000, 2500, 1500, 1000),
         **kw: object) -> Army:
    """An army on the test plane."""
    return Army(name, Side(side), rank, f"Dominaria {at}", units, **kw)  # type: ignore[arg-type]


def state(*armies: Army, battles: tuple[Battle, ...] = (), phase: Phase = Phase.ORDERS) -> CoalitionState:
    """A state at turn 3 with these armies."""
    return CoalitionState(turn=3, phase=phase, armies=armies, battles=battles)


def dice(pins: dict[str, object] | None = None) -> TurnDice:
    """The dice of turn 3."""
    return TurnDice(b"unit", 3, pins, die_sides=None)  # type: ignore[arg-type]


ROSTER_COLUMNS = ("name", "side", "rank", "at", "units", "factions", "primary")
#: Three armies of two players' sides, each with its player and address: the mail tests' roster (with
#: ``(*ROSTER_COLUMNS, "player", "email")``).
MAIL_ARMIES = [["Rabid Cat", "coalition", 2, "Dominaria 3C", "2000/1000/600/600", "white", "white", "Ann",
                "ann@example.org"],
               ["Urza's Vanguard", "coalition", 6, "Dominaria 5C", "2000/1000/600/600", "white", "white", "Cy",
                "cy@example.org"],
               ["Various Puppies", "phyrexia", 3, "Dominaria 4C", "2000/1000/600/600", "", "", "Bo",
                "bo@example.org"]]


#: The match a test last looked at, by its config's path, and its sheets (``looking``).
_LOOKED_AT: dict[Path, MatchSheets] = {}


def looking(config: MatchConfig) -> MatchSheets:
    """The sheets of ``config``'s match as a test reads and types in them between polls: opened once and reused
    while the test looks at that match. Each backend checks its cached workbook against its file's stamp (device,
    inode, size, modification time), so a look after a poll or a typing loads exactly the workbooks they changed,
    and a run of looks in between loads nothing. Polls still open their own, as cron's do."""
    sheets = _LOOKED_AT.get(config.path)
    if sheets is None:
        _LOOKED_AT.clear()  # another match: a test looks at one at a time, and the last one's workbooks are let go
        sheets = _LOOKED_AT[config.path] = open_match_sheets(config)
    return sheets


def local_match(folder: Path, armies: Iterable[Sequence[object]], seed: bytes,
                now: datetime, columns: Sequence[str] = ROSTER_COLUMNS) -> tuple[MatchConfig, MatchSheets]:
    """A match of ``armies`` (rows of the roster file: name, side, rank, at, units, factions, primary, then any
    further ``columns``) on local workbooks in ``folder``, created as ``init`` creates it from the template's config:
    made once a test run for the same armies, seed and time, each caller a copy of its folder."""
    rows = tuple(tuple(row) for row in armies)
    made_into(folder, ("coalition", rows, seed, now, tuple(columns)),
              lambda into: _init_local_match(into, rows, seed, now, columns), shared=True)
    config = load_config(folder / "match.toml")
    return config, open_match_sheets(config)


def war_of_three_a_side(folder: Path, seed: bytes, now: datetime) -> MatchConfig:
    """The starter config with three armies a side (``coalition_war`` of ``tests/sync/test_table_sizes.py``), created
    by ``init`` in ``folder``: made once a test run for the same seed and time, each caller a copy of its folder."""
    from tests.sync.test_table_sizes import coalition_war

    made_into(folder, ("coalition war of three a side", seed, now),
              lambda into: init_match(load_config(coalition_war(into, 3)), now=now, seed=seed), shared=True)
    return load_config(folder / "match.toml")


def _init_local_match(folder: Path, armies: Iterable[Sequence[object]], seed: bytes, now: datetime,
                      columns: Sequence[str] = ROSTER_COLUMNS) -> None:
    """``local_match``'s match, made by ``init`` in ``folder``."""
    with (folder / "armies.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(list(columns))
        out.writerows(armies)
    text = (TEMPLATES / "coalition" / "match.toml").read_text(encoding="utf-8")
    (folder / "match.toml").write_text(text.replace('# roster = "armies.csv"', 'roster = "armies.csv"', 1),
                                       encoding="utf-8")
    init_match(load_config(folder / "match.toml"), now=now, seed=seed)
