"""Creating a configured match: workbooks or spreadsheets laid out, roster placed, seed drawn, sheets shared.

The roster comes from a CSV file, or is typed by the GM in the board's Roster tab: the
first ``init`` without a roster file lays that tab out (team and role dropdowns, a captain
box) and stops; the next ``init`` reads it and creates the match.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sheets_gm.engine.core.settings import parse_settings
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.match.init_common import InitOutcome, MatchExistsError, prepare_local
from sheets_gm.match.repair import read_engine_record
from sheets_gm.match.roster import RosterSeat, parse_roster_rows, read_roster_csv, roster_emails, roster_warnings
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.sheet.layout import ROSTER_ROWS, roster_tab
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_map_text, default_template
from sheets_gm.sheets.backend import SheetAccessError, SheetBackend
from sheets_gm.sheets.layout import Grid, WorkbookLayout, a1
from sheets_gm.sync.create import create_match, new_seed
from sheets_gm.sync.record import RecordError
from sheets_gm.sync.share import share_match, sharing_plan
from sheets_gm.sync.sheets import MatchSheets


def load_settings(config: MatchConfig) -> GvgSettings:
    """The house rules of the config as settings (SettingError names the bad key and what is accepted)."""
    return parse_settings(GvgSettings, config.settings, where=f"{config.path} [settings]")


def load_map_text(config: MatchConfig) -> str:
    """The configured map file's text (checked), or the default map."""
    if config.map is None:
        return default_map_text()
    try:
        text = config.map.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SheetAccessError(f"{config.path}: map: no file at {config.map}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SheetAccessError(f"{config.path}: map: {config.map} cannot be read as text ({exc})") from None
    GvgMap.from_text(text, where=str(config.map))
    return text


def _local_files(config: MatchConfig) -> dict[Path, str]:
    """Each distinct workbook of a local match with the first tab it gets when created."""
    tpl = default_template().tabs
    files: dict[Path, str] = {}
    for where, tab in ((config.board, tpl.board), (config.orders[0], tpl.orders.format(team=config.teams[0])),
                       (config.orders[1], tpl.orders.format(team=config.teams[1])), (config.engine, "About")):
        files.setdefault(config.local_path(where), tab)
    return files


def _refuse_existing_match(sheets: MatchSheets, tpl: SheetTemplate, config: MatchConfig) -> None:
    """MatchExistsError when the engine tab holds a match, however broken the other tabs are."""
    repair = f"sheets-gm repair -c {config.path}"
    try:
        record = read_engine_record(sheets, tpl)
    except RecordError as exc:
        raise MatchExistsError(
            f"{sheets.engine.name} has an engine tab that cannot be read ({exc}); init never replaces a match. "
            "Restore the engine tab from a backup or the export, then run " + repair) from None
    if record is None:
        return
    raise MatchExistsError(
        f"{sheets.engine.name} already holds a match (turn {record.turn}, seed hash {record.seed_hash[:12]}…); "
        f"init never replaces one. If its layout was edited (a header moved, a tab renamed), run {repair}: "
        "it rebuilds the layout and keeps the match and every typed order. To start a new match instead, "
        "export this one first, then run init --overwrite (local workbooks are kept aside as backups), "
        "or point the config at new spreadsheets"
    )


def _roster_from_sheet(backend: SheetBackend, tpl: SheetTemplate,
                       teams: tuple[str, str]) -> list[RosterSeat] | None:
    """The roster typed in the Roster tab, or None after laying the tab out (missing or still empty)."""
    tab = tpl.tabs.roster
    rows: Grid = []
    if tab in backend.tab_names():  # never a read of a missing tab: Google answers it with an error
        (rows,) = backend.read([a1(tab, f"A1:E{1 + ROSTER_ROWS}")])
    if not any(v not in (None, "", False) for row in rows[1:] for v in row):
        backend.apply_layout(WorkbookLayout(tab, (roster_tab(tpl, teams),)))
        return None
    return parse_roster_rows(rows, teams, where=f"{backend.name} tab {tab!r}")


def init_match(config: MatchConfig, *, now: datetime, roster_file: Path | None = None, overwrite: bool = False,
               share: bool = True, notify: bool = True, seed: bytes | None = None,
               sheets: MatchSheets | None = None) -> InitOutcome:
    """Create the configured match (see the module notes); ``sheets`` may be given to reuse open backends."""
    tpl = default_template()
    settings = load_settings(config)
    map_text = load_map_text(config)
    roster_path = roster_file or config.roster
    seats = read_roster_csv(roster_path, config.teams) if roster_path else None
    outcome = InitOutcome()
    if config.backend is BackendKind.LOCAL:
        outcome.backups = prepare_local(config, overwrite, now.strftime("%Y%m%d-%H%M%S"), _local_files(config))
    elif overwrite:
        raise SheetAccessError("--overwrite works on local workbooks only; for Google, point the config at new "
                               "spreadsheets (the old match stays as it is)")
    sheets = sheets or open_match_sheets(config)
    outcome.where = [b.name for b in sheets.write_order()]
    _refuse_existing_match(sheets, tpl, config)
    if seats is None:
        seats = _roster_from_sheet(sheets.board, tpl, config.teams)
        if seats is None:
            outcome.roster_tab, outcome.roster_where = tpl.tabs.roster, sheets.board.name
            return outcome
    outcome.warnings = roster_warnings(seats, config.teams)
    entries = [s.entry for s in seats]
    emails = roster_emails(seats)
    deadline = config.schedule.next_deadline(now)
    record = create_match(sheets, entries, settings=settings, map_text=map_text, seed=seed or new_seed(),
                          emails=emails, deadline=deadline, schedule_text=config.schedule.describe(),
                          title=config.title, template=tpl)
    outcome.seed_hash = record.seed_hash
    outcome.players = len(entries)
    outcome.deadline = deadline
    if share and config.backend is BackendKind.GOOGLE:
        by_team = {team: tuple(emails[e.name] for e in entries if e.team == team and e.name in emails)
                   for team in sheets.seats}
        outcome.shared = share_match(sharing_plan(sheets, by_team, config.gm_emails), notify=notify)
    return outcome
