"""GvG matches on disk for the command tests: one local workbook (or several) and a match.toml, created and
played through the generic sync, as `init` and the sync would."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import openpyxl

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.engine.settings import settings_to_mapping
from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.made import made_into

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
TEAMS = ("red", "blue")
ROLES = ("dps", "dps", "tank", "tank", "healer")
SEED = b"command-test-seed"
GVG = get_ruleset("gvg")


def roster(size: int = 3) -> Roster:
    """``size`` players a team, named red0, red1, ..., blue0, ..."""
    return Roster(TEAMS, tuple(Member(f"{team}{i}", team, {"role": ROLES[i % len(ROLES)]})
                               for team in TEAMS for i in range(size)))


def local_config(folder: Path, body: str = "", *, workbook: str = "match.xlsx", head: str = "") -> Path:
    """A match.toml naming ``workbook`` on the local backend; ``head`` goes above the tables, ``body`` after."""
    path = folder / "match.toml"
    path.write_text(f'ruleset = "gvg"\ntitle = "Test match"\nteams = ["red", "blue"]\n{head}\n'
                    f'[sheets]\nbackend = "local"\nboard = "{workbook}"\n{body}\n', encoding="utf-8")
    return path


#: The ``[sheets]`` lines of ``local_match(private=True)``: the engine and each team's orders in files of their own.
PRIVATE_SHEETS = 'engine = "gm/engine.xlsx"\norders = { red = "red.xlsx", blue = "blue.xlsx" }\n'


def local_match(folder: Path, *, settings: GvgSettings | None = None, deadline: str = "",
                body: str = "", size: int = 3, private: bool = False) -> tuple[Path, MatchSheets]:
    """A new match in ``folder/match.xlsx`` (every tab in one workbook, as matches were laid out before init
    kept the engine and each team's orders apart) and its ``folder/match.toml``, whose ``[settings]`` say the
    house rules the match was created with (unless ``body`` has a ``[settings]`` of its own: a config that no
    longer says the match's rules). ``private``: the board in match.xlsx, the engine in gm/engine.xlsx and
    each team's orders in red.xlsx and blue.xlsx, as init lays a GvG match out. The workbooks are a copy of the
    same match made once a test run (``tests.made``, shared by its processes)."""
    chosen = settings or GvgSettings()
    made_into(folder, ("local_match", chosen, deadline, size, private),
              lambda into: _made_workbooks(into, chosen, deadline, size, private), shared=True)
    return _opened(folder, chosen, body, private)


def _opened(folder: Path, chosen: GvgSettings, body: str, private: bool) -> tuple[Path, MatchSheets]:
    """The config (``body`` and the house rules ``chosen``) and the sheets of the workbooks in ``folder``."""
    sheets = _local_sheets(folder, private)
    if private:
        body = PRIVATE_SHEETS + body
    changed = {k: v for k, v in settings_to_mapping(chosen).items() if settings_to_mapping(GvgSettings())[k] != v}
    table = "".join(f"{k} = {json.dumps(v)}\n" for k, v in changed.items())
    if table and "[settings]" not in body:  # a body with its own [settings] says what the config says
        body += f"\n[settings]\n{table}"
    return local_config(folder, body), sheets


def played_match(folder: Path, turns: int, *, settings: GvgSettings | None = None, size: int = 3,
                 private: bool = False) -> tuple[Path, MatchSheets]:
    """``local_match(folder, ...)`` after ``play(sheets, turns)``: made once a test process and copied
    (``tests.made``), played on from a copy of the longest start of it made before, so that the tests of a file
    that play the same match 2, 4 and 6 turns play six turns in all. ``play`` is the same function of the
    workbooks whatever played them before (its bots are made afresh each turn): the copy is the match
    ``local_match`` then ``play`` gives."""
    chosen = settings or GvgSettings()
    made = _PLAYED.setdefault((chosen, size, private), set())

    def make(into: Path) -> None:
        start = max((n for n in made if n < turns), default=0)
        if start:
            made_into(into, ("played_match", chosen, size, private, start), lambda _into: None)  # made: copied
        else:
            local_match(into, settings=chosen, size=size, private=private)
        play(_local_sheets(into, private), turns - start)

    if turns > 0:
        made_into(folder, ("played_match", chosen, size, private, turns), make)
        made.add(turns)
        return _opened(folder, chosen, "", private)
    return local_match(folder, settings=chosen, size=size, private=private)


#: The turns ``played_match`` has made of each match (its settings, size and layout) in this test process.
_PLAYED: dict[tuple[GvgSettings, int, bool], set[int]] = {}


def turn_two_typed(folder: Path) -> Path:
    """A private GvG match (``local_match(private=True)``: board match.xlsx, gm/engine.xlsx, red.xlsx, blue.xlsx) one
    turn in, turn 2 typed, Ready not ticked: made once a test run and copied (``tests.made``); its config."""
    made_into(folder, "turn two typed", _turn_two_typed, shared=True)
    return folder / "match.toml"


def _turn_two_typed(folder: Path) -> None:
    """``turn_two_typed``'s match made in ``folder``."""
    _config, sheets = local_match(folder, private=True)
    type_orders(sheets)
    assert sync(sheets).resolved
    type_orders(sheets, ready=False)


def typed_match(folder: Path, *, ready: bool = True) -> tuple[Path, MatchSheets]:
    """``local_match(folder)`` after ``type_orders(sheets, ready=ready)``: made once a test process and copied."""
    made_into(folder, ("typed_match", ready), lambda into: type_orders(local_match(into)[1], ready=ready))
    return _opened(folder, GvgSettings(), "", False)


def _local_sheets(folder: Path, private: bool) -> MatchSheets:
    """The sheets of ``local_match``'s workbooks in ``folder``."""
    board = LocalWorkbookBackend(folder / "match.xlsx")
    if not private:
        return MatchSheets.single(TEAMS, board)
    return MatchSheets(TEAMS, board, LocalWorkbookBackend(folder / "gm/engine.xlsx"),
                       (LocalWorkbookBackend(folder / "red.xlsx"), LocalWorkbookBackend(folder / "blue.xlsx")))


def _made_workbooks(folder: Path, settings: GvgSettings, deadline: str, size: int, private: bool) -> None:
    """``local_match``'s workbooks made from scratch in ``folder``: empty workbooks, then the match created."""
    names = ("match.xlsx", "gm/engine.xlsx", "red.xlsx", "blue.xlsx") if private else ("match.xlsx",)
    if private:
        (folder / "gm").mkdir()
    for name in names:
        openpyxl.Workbook().save(folder / name)
    if private:
        (folder / "gm").chmod(0o700)  # the GM's alone, as init makes them
        (folder / "gm/engine.xlsx").chmod(0o600)
    create_match(_local_sheets(folder, private), create_ruleset("gvg", settings), roster(size), seed=SEED,
                 deadline=deadline, title="Test match")


def bots(seed: int = 1) -> dict[str, Any]:
    """The objective bot for red, the random bot for blue."""
    kinds = bots_of(create_ruleset("gvg"))
    return {"red": kinds["objective"].make(f"{seed}/red"), "blue": kinds["random"].make(f"{seed}/blue")}


def type_orders(sheets: MatchSheets, *, ready: bool = True, seed: int = 1,
                seats: tuple[str, ...] = ("red", "blue")) -> dict[str, Any]:
    """The bots type this turn's orders into the rows of ``seats`` (both teams unless told; and tick Ready unless
    ``ready`` is False)."""
    return type_bot_orders(sheets, GVG, {s: b for s, b in bots(seed).items() if s in seats}, ready=ready)


def record_of(sheets: MatchSheets) -> MatchRecord:
    """The match as the engine tab holds it."""
    return read_match(sheets, GVG).record


def state_of(sheets: MatchSheets) -> GvgState:
    """The match's state as the engine tab holds it."""
    state = record_of(sheets).state
    assert isinstance(state, GvgState)
    return state


def engine_match(size: int, settings: GvgSettings) -> tuple[GvgState, int]:
    """The same match on the pure engine, played to its end: ``roster(size)``, ``SEED`` and ``bots()``; its final
    state and the turns it took."""
    rules = create_ruleset("gvg", settings)
    assert isinstance(rules, GvgRuleset)
    state = rules.new_match(roster(size), SEED)
    players = bots()
    turns = 0
    while (window := rules.window(state)) is not None:
        dice = rules.dice(SEED, state)
        state = rules.resolve(state, rules.merge_orders({s: players[s].orders(state, s, dice) for s in window.seats}),
                              dice).state
        turns += 1
    return state, turns


def order_cell(read: MatchRead, team: str, table: str, subject: str, key: str) -> str:
    """The A1 cell (in ``team``'s orders tab) of ``subject``'s row in table ``table``, column ``key``: a player's
    row in ``players``, the team's own row in ``captain``."""
    placed = read.tabs.orders(team).table(table)
    return placed.cell(read.adapter.rows(read.record.state, team, placed.spec).index(subject), key)


def rules_of(record: MatchRecord) -> GvgRules:
    """The GvG rules the match plays by (its board and house rules)."""
    assert isinstance(record.ruleset, GvgRuleset)
    return record.ruleset.rules


def sync(sheets: MatchSheets, *, force: bool = False, now: datetime = NOW) -> WindowReport:
    """One poll of the match, as ``sheets-gm sync`` does it (without the lock)."""
    return poll(sheets, GVG, now=now, force=force)


def play(sheets: MatchSheets, turns: int) -> bool:
    """Bots play up to ``turns`` turns; True when the match is over."""
    for _ in range(turns):
        type_orders(sheets)
        report = sync(sheets)
        if report.finished:
            return True
    return False
