"""Write the GvG legacy-layout fixtures of ``tests/rulesets/gvg/legacy/`` with the legacy sync modules.

The legacy modules it imports are deleted since GvG runs on the generic sync; the fixtures stay,
as data. To make them again, run it on commit 3ea81ef (which added them, before the deletion):

    git worktree add /tmp/gvg-legacy 3ea81ef && cd /tmp/gvg-legacy
    python3.11 -m venv .venv && .venv/bin/pip install -q -e .
    .venv/bin/python scripts/make_gvg_legacy_fixtures.py   # writes into /tmp/gvg-legacy/tests/...

It plays, through the real legacy sync on a local workbook, a match of bots a few turns in, with
an archery duel entered by the GM between two turns and a coin correction pending after the
last one, then lets the bots type their orders for the open turn (not resolved). It writes:

- ``match.xlsx``: that workbook (the old layout: Board, Players, Log, Settings, Orders/Archive
  per team, Engine), with ``match.toml`` naming it;
- ``engine.json``: the engine tab's cells as the legacy sync wrote them (key/value rows and the
  history rows), what ``GvgRuleset.legacy.upgrade_record`` reads;
- ``continued.json``: what the legacy engine did next: the open turn resolved with the typed
  orders (its orders as JSON and the state after), so a test can continue the upgraded match;
- ``replay-v2.json``: ``sheets-gm export``'s replay of that match (format v2, with GM events);
- ``replay-v1.json``: a match without GM events in the v1 shape (no ``gm_events`` keys), the
  format of the first exports.
"""

# mypy: ignore-errors
# ruff: noqa: I001
# (it imports the legacy GvG sync modules, deleted since: see above)
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import openpyxl

from sheets_gm.rulesets.gvg.bots import ObjectiveBot, RandomBot
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry
from sheets_gm.rulesets.gvg.sheet.template import default_map_text
from sheets_gm.rulesets.gvg.state import Adjustment, ArcheryDuel
from sheets_gm.sheets.local import LocalWorkbookBackend
from sheets_gm.sync.adjust import adjust_match
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.create import create_match
from sheets_gm.sync.export import match_replay
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets

OUT = Path(__file__).resolve().parent.parent / "tests" / "rulesets" / "gvg" / "legacy"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
TEAMS = ("red", "blue")
ROSTER = [RosterEntry(name, team, role) for name, team, role in (
    ("Ann", "red", "dps"), ("Ben", "red", "tank"), ("Cat", "red", "healer"),
    ("Fay", "blue", "dps"), ("Gus", "blue", "tank"), ("Hal", "blue", "healer"))]
SEED = b"gvg legacy fixture seed"
TOML = """ruleset = "gvg"
title = "A match on the old GvG layout"
teams = ["red", "blue"]

[sheets]
backend = "local"
board = "match.xlsx"
"""


def _new(folder: Path, seed: bytes) -> MatchSheets:
    workbook = folder / "match.xlsx"
    openpyxl.Workbook().save(workbook)
    sheets = MatchSheets.single(TEAMS, LocalWorkbookBackend(workbook))
    create_match(sheets, ROSTER, settings=GvgSettings(), map_text=default_map_text(), seed=seed)
    return sheets


def _play(sheets: MatchSheets, turns: int) -> None:
    bots = (ObjectiveBot(1), RandomBot(2))
    for _ in range(turns):
        type_bot_orders(sheets, bots)
        if poll(sheets, now=NOW).finished:
            raise SystemExit("the fixture match ended too early: pick another seed")


def _engine_cells(sheets: MatchSheets) -> list[list[Any]]:
    (grid,) = sheets.engine.read(["Engine!A1:B40"])
    return [list(row) for row in grid]


def _write(name: str, data: Any) -> None:
    (OUT / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    """Write every fixture into ``OUT`` (replacing the old ones)."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sheets = _new(folder, SEED)
        _play(sheets, 2)
        adjust_match(sheets, [ArcheryDuel(0, 3, 1)])
        _play(sheets, 2)
        adjust_match(sheets, [Adjustment("a coin counted twice", coins=(1, 2))])
        type_bot_orders(sheets, (ObjectiveBot(1), RandomBot(2)), ready=False)
        shutil.copy(folder / "match.xlsx", OUT / "match.xlsx")
        (OUT / "match.toml").write_text(TOML, encoding="utf-8")
        _write("engine.json", _engine_cells(sheets))
        _write("replay-v2.json", match_replay(sheets))
        turn = match_replay(sheets)["final_state"]["turn"]
        poll(sheets, now=NOW, force=True)
        history = [row for row in _engine_cells(sheets)[20:] if row and row[0] == turn]
        entry = json.loads(str(history[0][1]))
        after = match_replay(sheets)["final_state"]
        _write("continued.json", {"turn": turn, "orders": entry["orders"], "state_after": after})

        v1_folder = folder / "v1"
        v1_folder.mkdir()
        v1 = _new(v1_folder, SEED + b" v1")
        _play(v1, 3)
        doc = match_replay(v1)
        doc["format"] = "sheets-gm replay v1"
        del doc["gm_events_after"]
        for entry in doc["turns"]:
            del entry["gm_events"]
        _write("replay-v1.json", doc)
    print(f"wrote the GvG legacy fixtures into {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
