"""The demo of a ruleset on the generic sync: a whole bot match on local workbooks.

Files as a GM with private orders would lay them out: the public board, one workbook per seat
(its orders and what only it may see), the judge's if the game has one, and the GM's engine.
Each window, the bots of the seats acting type their orders into their own workbook and tick
Ready, as players would in LibreOffice; then the real sync reads, checks, resolves and writes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from textwrap import indent

from rich.console import Console
from rich.markup import escape

from sheets_gm.console import CommandConsole
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.notify.announce import seen_of
from sheets_gm.notify.notices import NoticeRules, poll_notices
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, sheet_spec
from sheets_gm.sheets.files import orders_file
from sheets_gm.sheets.layout import WorkbookLayout
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.private_files import private_folder
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.export import export_match
from sheets_gm.sync.match_tabs import ABOUT_TAB, first_tab_layout
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.sheets import MatchSheets


@dataclass
class WindowDemoResult:
    """How the demo match went and where its files are."""

    files: dict[str, Path]  # role → workbook
    windows: int
    result: str
    seed_hash: str
    export: Path | None = None  # the export folder (CSV per tab, replay.json), once the match is over


def _workbook(path: Path, first_tab: str, *, private: bool = False) -> LocalWorkbookBackend:
    """A new workbook whose first tab is the one the match lays out first (the engine's is an About tab:
    a workbook needs a visible tab, and the engine tab is hidden); ``private``: the GM's own (0600, in a folder
    made 0700), as init makes the engine's and the judge's."""
    if private:
        private_folder(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in (path, *path.parent.glob(f".{path.name}*")):
        stale.unlink(missing_ok=True)
    about = first_tab_layout(first_tab, "The engine of a sheets-gm match: do not edit.")
    backend = LocalWorkbookBackend(path)
    backend.start_new(WorkbookLayout("sheets-gm demo", (about,)), private=private)  # the file made laid out and drawn
    return backend


def run_demo(ruleset_name: str, folder: Path, *, seed: str = "1", console: Console | None = None,
                    bot: str | None = None, max_windows: int | None = None, notices: bool = False) -> WindowDemoResult:
    """Play a bot match of ``ruleset_name`` in ``folder`` with the ruleset's sample roster: to its end, or
    ``max_windows`` windows; then export it into ``folder/export`` (the seed revealed, as at a match's end).
    ``notices``: print after each poll the notices a match with ``[notify]`` would send (nothing is sent)."""
    out = console or CommandConsole()
    rules = create_ruleset(ruleset_name)
    roster = rules.sample_roster()
    files = {"board": folder / "board.xlsx", "engine": folder / "gm" / "engine.xlsx"}
    files |= {f"orders {seat}": folder / orders_file(seat) for seat in roster.seats}
    if rules.traits.judge:
        files["judge"] = folder / "gm" / "judge.xlsx"
    tabs = sheet_spec(ruleset_name).tabs
    first = {"board": tabs.board, "engine": ABOUT_TAB, "judge": tabs.judge}
    backends = {role: _workbook(path, first.get(role) or tabs.orders.format(seat=role.removeprefix("orders ")),
                                private=role in ("engine", "judge"))
                for role, path in files.items()}
    sheets = MatchSheets(roster.seats, backends["board"], backends["engine"],
                         tuple(backends[f"orders {seat}"] for seat in roster.seats), backends.get("judge"))
    match_seed = hashlib.sha256(f"sheets-gm demo {ruleset_name} {seed}".encode()).digest()
    record = create_match(sheets, rules, roster, seed=match_seed, title=f"sheets-gm demo · {rules.traits.title}")
    out.print(f"Demo {rules.traits.title} match created in [bold]{folder}[/] — seed hash {record.seed_hash[:16]}…")
    kinds = bots_of(rules)
    make = kinds[bot or next(iter(kinds))].make
    bots = {seat: make(f"{seed}/{seat}") for seat in (*roster.seats, JUDGE)}
    cls = get_ruleset(ruleset_name)
    now = datetime.now(UTC)
    windows = 0
    result = ""
    title = f"sheets-gm demo · {rules.traits.title}"
    if notices:
        print_notices(out, poll(sheets, cls, now=now, dry_run=True), title, now)
    for _ in range(rules.traits.max_windows + 1 if max_windows is None else max_windows):
        type_bot_orders(sheets, cls, bots)
        report = poll(sheets, cls, now=now, force=True)
        result = report.result
        if not report.resolved:
            break
        windows += 1
        out.print(f"{report.window[:1].upper()}{report.window[1:]}: {result}")
        if notices:
            print_notices(out, report, title, now)
        if report.finished:
            break
    export = folder / "export"
    export_match(sheets, cls, export)
    return WindowDemoResult(files, windows, result, record.seed_hash, export)


def print_notices(out: Console, report: WindowReport, title: str, now: datetime) -> None:
    """The notices the poll of ``report`` would send, each with its recipient: the channel (a chat every player
    reads) or a seat's e-mail."""
    if report.facts is None:
        return
    for notice in poll_notices(report.facts, seen_of(report), NoticeRules(title=title), now):
        who = "the channel (chat)" if notice.public else f"{notice.recipient}'s e-mail"
        out.print(f"  [bold]→ {escape(who)}[/]: {escape(notice.subject)}")
        out.print(indent(notice.body, "      "), markup=False, highlight=False)
