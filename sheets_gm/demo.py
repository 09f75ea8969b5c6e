"""The demo: a whole GvG match on a local workbook, bots typing into its cells, the real sync resolving.

Nothing is faked between the bots and the engine: each turn both teams' bots read the
workbook and type their orders into their rows and tick Ready (as players would in
LibreOffice), then the sync reads the workbook, checks the orders, resolves the turn and
writes the board back, exactly as ``sheets-gm sync`` does from cron.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from sheets_gm.rulesets.gvg.bots import Bot, ObjectiveBot
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.setup import RosterEntry
from sheets_gm.rulesets.gvg.sheet.template import default_map_text, default_template
from sheets_gm.sheets.layout import TabLayout, WorkbookLayout
from sheets_gm.sheets.local import create_workbook
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.create import create_match
from sheets_gm.sync.export import export_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets

DEMO_TEAMS = ("red", "blue")
DEMO_ROSTER = (
    ("Ann", "red", "dps"), ("Ben", "red", "dps"), ("Cat", "red", "tank"), ("Dan", "red", "tank"),
    ("Eve", "red", "healer"),
    ("Fay", "blue", "dps"), ("Gus", "blue", "dps"), ("Hal", "blue", "tank"), ("Ivy", "blue", "tank"),
    ("Jon", "blue", "healer"),
)


@dataclass
class DemoResult:
    """How the demo match went and where its files are."""

    workbook: Path
    exported: list[Path]
    turns: int
    result: str
    tree_paths: dict[str, list[str]] = field(default_factory=dict)


def demo_seed(text: str) -> bytes:
    """The match seed for a demo seed text (the demo is reproducible)."""
    return hashlib.sha256(f"sheets-gm demo {text}".encode()).digest()


def run_demo(folder: Path, *, seed: str = "1", console: Console | None = None,
             bots: tuple[Bot, Bot] | None = None, max_turns: int = 60) -> DemoResult:
    """Play a whole demo match in ``folder/demo-match.xlsx`` and export it to ``folder/export``."""
    out = console or Console()
    folder.mkdir(parents=True, exist_ok=True)
    workbook = folder / "demo-match.xlsx"
    for stale in (workbook, *folder.glob(".demo-match.xlsx*")):
        stale.unlink(missing_ok=True)
    # A new file with one tab; create_match then lays out every tab of the match in it.
    first_tab = TabLayout(default_template().tabs.board, rows=1, cols=1)
    backend = create_workbook(workbook, WorkbookLayout("sheets-gm demo match", (first_tab,)), overwrite=True)
    sheets = MatchSheets.single(DEMO_TEAMS, backend)
    roster = [RosterEntry(*entry) for entry in DEMO_ROSTER]
    settings = GvgSettings(max_turns=max_turns)
    record = create_match(sheets, roster, settings=settings, map_text=default_map_text(), seed=demo_seed(seed),
                          title="sheets-gm demo match")
    out.print(f"Demo match created in [bold]{workbook}[/] — seed hash {record.seed_hash[:16]}…")
    players = bots or (ObjectiveBot(f"{seed}-red"), ObjectiveBot(f"{seed}-blue"))
    template = default_template()
    paths: dict[str, list[str]] = {team: [] for team in DEMO_TEAMS}
    now = datetime.now(UTC)
    turns = 0
    result = ""
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=out, transient=False) as progress:
        task = progress.add_task("Playing turns", total=max_turns)
        while True:
            type_bot_orders(sheets, players, template=template)
            report = poll(sheets, now=now, template=template)
            turns += 1
            result = report.result
            state = report.state
            assert state is not None
            for tree in state.trees:
                if tree is not None:
                    path = paths[state.teams[tree.team]]
                    if not path or path[-1] != tree.at.label:
                        path.append(tree.at.label)
            progress.update(task, advance=1, description=f"Turn {turns}: {result.split(' · ')[0]}")
            if report.finished or not report.resolved:
                break
        progress.update(task, total=turns)
    exported = export_match(sheets, folder / "export", template)
    return DemoResult(workbook, exported, turns, result, paths)
