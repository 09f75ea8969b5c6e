"""Matches on disk for the command tests: a local workbook (or four Google spreadsheets) and a match.toml."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import openpyxl

from sheets_gm.rulesets.gvg.bots import ObjectiveBot, RandomBot
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry
from sheets_gm.rulesets.gvg.sheet.template import default_map_text
from sheets_gm.sheets.local import LocalWorkbookBackend
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.create import create_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
TEAMS = ("red", "blue")
ROLES = ("dps", "dps", "tank", "tank", "healer")
SEED = b"command-test-seed"


def roster(size: int = 3) -> list[RosterEntry]:
    """``size`` players a team, named red0, red1, ..., blue0, ..."""
    return [RosterEntry(f"{team}{i}", team, ROLES[i % len(ROLES)]) for team in TEAMS for i in range(size)]


def local_config(folder: Path, body: str = "", *, workbook: str = "match.xlsx", head: str = "") -> Path:
    """A match.toml naming ``workbook`` on the local backend; ``head`` goes above the tables, ``body`` after."""
    path = folder / "match.toml"
    path.write_text(f'ruleset = "gvg"\ntitle = "Test match"\nteams = ["red", "blue"]\n{head}\n'
                    f'[sheets]\nbackend = "local"\nboard = "{workbook}"\n{body}\n', encoding="utf-8")
    return path


def local_match(folder: Path, *, settings: GvgSettings | None = None, deadline: str = "",
                body: str = "") -> tuple[Path, MatchSheets]:
    """A new match in ``folder/match.xlsx`` and its ``folder/match.toml``."""
    folder.mkdir(parents=True, exist_ok=True)
    workbook = folder / "match.xlsx"
    openpyxl.Workbook().save(workbook)
    sheets = MatchSheets.single(TEAMS, LocalWorkbookBackend(workbook))
    create_match(sheets, roster(), settings=settings or GvgSettings(), map_text=default_map_text(), seed=SEED,
                 deadline=deadline)
    return local_config(folder, body), sheets


def play(sheets: MatchSheets, turns: int) -> bool:
    """Bots play up to ``turns`` turns; True when the match is over."""
    players = (ObjectiveBot(1), RandomBot(2))
    for _ in range(turns):
        type_bot_orders(sheets, players)
        report = poll(sheets, now=NOW)
        if report.finished:
            return True
    return False
