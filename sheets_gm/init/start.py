"""Starting a configured match (``sheets-gm init``): its roster checked, its files checked first (no other match
replaced unless asked, nothing a player could read that holds a secret), its spreadsheets created and laid out under
a journal an init cut short is settled from, then shared.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sheets_gm.engine.dice import new_seed, seed_hash
from sheets_gm.engine.ruleset import Roster, RulesetTraits, SeatCountError, SeatKind
from sheets_gm.init.common import InitOutcome, MatchExistsError, create_from, local_files, made_of
from sheets_gm.init.targets import (
    check_local_targets,
    holds_record,
    match_files_in,
    match_in_words,
    refuse_other_matches,
    whose_match,
)
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig
from sheets_gm.match.match_roster import editor_emails, roster_bots, roster_file_of
from sheets_gm.match.roster_tab import lay_out_roster_tab, read_roster_tab, roster_columns, roster_example
from sheets_gm.match.seat_roster import SeatRosterError
from sheets_gm.match.team_check import team_warnings
from sheets_gm.privacy.secrets import place, refuse_exposures, shared_folders
from sheets_gm.rulesets.registry import (
    AnyRuleset,
    get_ruleset,
    sheet_spec,
)
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import configured_ruleset
from sheets_gm.sheets.backend import SheetAccessError, SheetBackend, SheetError
from sheets_gm.sync.command_journal import (
    begin_init,
    command_path,
    end_command,
    init_creating,
    load_command,
    roll_back_init,
)
from sheets_gm.sync.journal import drop_journal, init_under_way, journal_path, start_init
from sheets_gm.sync.life.share import share_match, sharing_plan
from sheets_gm.sync.match_record import (
    MatchRecord,
    MatchRecordError,
    engine_read_range,
    parse_match_record,
)
from sheets_gm.sync.old_layout import OldLayoutError, refuse_old_layout
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.upkeep.backups import NewWorkbook, aside_name, prepare_local, start_new_workbooks


def _match_replaced(config: MatchConfig) -> str:
    """The match the local workbooks of ``config`` hold, in words, before --overwrite moves them aside ('' when
    they hold none, or none that can be read)."""
    if not all(path.exists() for path in local_files(config)):
        return ""
    try:
        sheets = open_match_sheets(config)
        tab = sheet_spec(config.ruleset).tabs.engine
        if tab not in sheets.engine.tab_names():
            return ""
        (grid,) = sheets.engine.read([engine_read_range(tab)])
        return match_in_words(parse_match_record(grid[1:], f"tab {tab!r}"))
    except (SheetError, MatchRecordError, ValueError):
        return ""


def _refuse_other_match_files(backends: list[SheetBackend], config: MatchConfig) -> None:
    """MatchExistsError when a file init would lay out holds another match's files (a seat's orders, a board): a
    copied config naming a running match's workbook. A match this config's init was creating when it was cut
    (``init_under_way``) is its own, laid out again."""
    ours = init_under_way(journal_path(config.path))
    for backend in backends:
        match, what = match_files_in(backend, config)
        if not what or (match and match == ours):
            continue
        whose = f"match {match}{whose_match(config, match)}" if match else "a match"
        raise MatchExistsError(f"{backend.name} holds {what} of {whose} already; init never writes over a match "
                               "(its typed orders would be lost). Point this config's [sheets] at files of its own. "
                               "To replace that match, export it first, then run init --overwrite (local workbooks "
                               "are kept aside as backups)")


def _refuse_existing_match(backends: list[SheetBackend], engine: SheetBackend | None, config: MatchConfig) -> None:
    """MatchExistsError when an engine tab holds a match (readable or not): the configured engine's (``engine``,
    None when it does not exist yet), or one in another file of the match (its engine before the config moved it:
    ``repair`` moves it); or when another file holds another match's files (``_refuse_other_match_files``)."""
    tab = sheet_spec(config.ruleset).tabs.engine
    engine_name = engine.name if engine is not None else place(config, config.engine)
    for backend in backends:
        if backend is not engine and holds_record(backend, tab):
            raise MatchExistsError(f"{backend.name} holds the engine tab of a match, and the config names "
                                   f"{engine_name} as the engine; init never replaces a match. To move the "
                                   f"engine there, run sheets-gm repair -c {config.path}")
    if engine is None or not holds_record(engine, tab):
        _refuse_other_match_files(backends, config)
        return
    (grid,) = engine.read([engine_read_range(tab)])
    try:
        refuse_old_layout(get_ruleset(config.ruleset), grid, config.path)
    except OldLayoutError as exc:
        raise MatchExistsError(f"{exc}; init never replaces a match ({engine.name})") from None
    try:
        record = parse_match_record(grid[1:], f"tab {tab!r}")
    except MatchRecordError as exc:
        raise MatchExistsError(f"{engine.name} has an engine tab that cannot be read ({exc}); init never "
                               "replaces a match. Restore the engine tab from a backup or the export") from None
    raise MatchExistsError(f"{engine.name} already holds {match_in_words(record)}; init never replaces "
                           f"one. If its layout was edited (a header moved, a tab renamed), run sheets-gm repair -c "
                           f"{config.path}: it lays every tab out again and keeps the match and what was typed. To "
                           "start a new match, export "
                           "this one first, then run init --overwrite (local workbooks are kept aside as backups) or "
                           "point the config at new spreadsheets")


def _refuse_existing_local_match(config: MatchConfig, existing: list[Path]) -> None:
    """``_refuse_existing_match`` on the local workbooks of the match that exist already, before init creates
    any of the others."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    backends: list[SheetBackend] = [LocalWorkbookBackend(path) for path in existing]
    engine_path = config.local_path(config.engine)
    engine = next((b for b, path in zip(backends, existing, strict=True) if path == engine_path), None)
    _refuse_existing_match(backends, engine, config)


def _check_roster(ruleset: AnyRuleset, roster: Roster, where: object) -> None:
    """SeatRosterError naming ``where`` when the ruleset refuses the roster (nothing is written before)."""
    try:
        ruleset.new_match(roster, b"check the roster before anything is written")
    except ValueError as exc:
        raise SeatRosterError(f"roster {where}: {exc}") from None


def seats_alone_refused(ruleset: AnyRuleset, seats: tuple[str, ...], where: object = "the config") -> str:
    """Why the ruleset cannot start a match from the seats alone (it needs members), or '' if it can; a
    SeatRosterError naming ``where`` when no roster can mend it (the board holds fewer seats: ``SeatCountError``)."""
    try:
        ruleset.new_match(Roster(seats), b"check the roster before anything is written")
    except SeatCountError as exc:
        raise SeatRosterError(f"{where}: seats {', '.join(seats)}: {exc}") from None
    except ValueError as exc:
        return str(exc)
    return ""


def uneven_teams(traits: RulesetTraits, roster: Roster) -> list[str]:
    """A warning when a game of teams starts with teams of different sizes (allowed, but seldom meant).

    >>> from types import SimpleNamespace
    >>> from sheets_gm.engine.ruleset import Member
    >>> roster = Roster(("red", "blue"), (Member("Ann", "red"), Member("Bo", "red"), Member("Cy", "blue")))
    >>> uneven_teams(SimpleNamespace(seat_kind=SeatKind.TEAM), roster)
    ['the teams are uneven: red 2, blue 1']
    >>> uneven_teams(SimpleNamespace(seat_kind=SeatKind.PLAYER), roster)
    []
    """
    if traits.seat_kind is not SeatKind.TEAM or not roster.members:
        return []
    sizes = {seat: sum(1 for m in roster.members if m.seat == seat) for seat in roster.seats}
    if len(set(sizes.values())) <= 1:
        return []
    return ["the teams are uneven: " + ", ".join(f"{seat} {n}" for seat, n in sizes.items())]


def _local_targets(config: MatchConfig, journal: Path | None, now: datetime, *, overwrite: bool, outside_folder: bool,
                   carried: list[Path]) -> tuple[str, list[tuple[Path, Path]], list[NewWorkbook]]:
    """A local init's workbooks checked (``init_targets``), then, its journal kept first (the workbooks it moves
    aside and those it creates, with ``carried``: those a plain init cut short created), moved aside. The match
    ``overwrite`` replaces, in words, each workbook moved aside with where to, and each workbook to make."""
    files = local_files(config)
    existing = check_local_targets(config, files, overwrite=overwrite, anywhere=outside_folder)
    replaced = ""
    if overwrite:
        refuse_other_matches(config, existing)
        replaced = _match_replaced(config)
    else:
        _refuse_existing_local_match(config, existing)
    stamp = now.strftime("%Y%m%d-%H%M%S")
    # one transaction: cut before it is whole, the next command rolls it back (or completes a plain one)
    begin_init(journal, [(p, aside_name(p, stamp)) for p in files if p.exists()] if overwrite else [],
               [p for p in files if not p.exists()] + [p for p in carried if p.exists()],
               overwrite=overwrite)
    return replaced, *prepare_local(config, overwrite, stamp, files)


def _lay_out_roster(config: MatchConfig, sheets: MatchSheets, ruleset: AnyRuleset, outcome: InitOutcome,
                    refusal: str) -> None:
    """The Roster tab laid out in the engine's spreadsheet for the GM to type the roster in (a game that cannot
    start from its seats alone, and no roster yet), and ``outcome`` saying so."""
    spec = sheet_spec(config.ruleset)
    columns = roster_columns(ruleset)
    lay_out_roster_tab(sheets.engine, spec, columns, (*config.seats, *ruleset.traits.roster_groups), config.title)
    outcome.roster_tab, outcome.roster_where, outcome.roster_columns = spec.tabs.roster, sheets.engine.name, columns
    outcome.roster_example = roster_example(ruleset, columns)
    outcome.warnings = [f"the {ruleset.traits.title} rules cannot start from the seats alone ({refusal})"]


def _journaled_init(config: MatchConfig, ruleset: AnyRuleset, outcome: InitOutcome, journal: Path | None,
                    roster: Roster | None, *, now: datetime, overwrite: bool, share: bool, seed: bytes | None,
                    sheets: MatchSheets | None, outside_folder: bool, carried: list[Path],
                    refusal: str) -> tuple[MatchSheets, Roster, MatchRecord] | None:
    """``init_match``'s writes, its command journal kept before the first (``sync/command_journal.py``): the local
    workbooks moved aside and the new ones made in memory, then, the roster read, the match created, each new
    workbook's file made by its first save (what it is created from kept first, so that the next command completes
    a plain init cut from there). None when the GM must type the roster
    first (the Roster tab laid out: ``outcome`` says so)."""
    new: list[NewWorkbook] = []
    if config.backend is BackendKind.LOCAL:
        outcome.replaced, outcome.backups, new = _local_targets(config, journal, now, overwrite=overwrite,
                                                                outside_folder=outside_folder, carried=carried)
    sheets = sheets or open_match_sheets(config, access="share" if share else "play")
    started = start_new_workbooks(new, sheets.write_order())  # each file made by its first save, laid out and drawn
    outcome.where = [b.name for b in sheets.write_order()]
    _refuse_existing_match(list(sheets.write_order()), sheets.engine, config)
    if roster is None:
        spec = sheet_spec(config.ruleset)
        roster = read_roster_tab(sheets.engine, spec, ruleset.traits, config.seats)
        if roster is not None:
            _check_roster(ruleset, roster, f"{sheets.engine.name} tab {spec.tabs.roster!r}")
        elif refusal:
            _lay_out_roster(config, sheets, ruleset, outcome, refusal)
            for backend in started:  # the other workbooks made as they are, for the init run again
                backend.save_new()
            end_command(journal)  # whole: the GM types the roster, then runs init again
            return None
        else:
            roster = Roster(config.seats)
    seed = seed or new_seed()
    made = made_of(config, roster, seed, deadline=config.schedule.next_deadline(now),
                   emails=editor_emails(config, roster), bots={**roster_bots(ruleset.traits, roster), **config.bots})
    init_creating(journal, made)  # from here a plain init cut short is completed by the next command
    start_init(journal_path(config.path), seed_hash(seed)[:16])  # a cut init is this config's own, laid out again
    record = create_from(config, sheets, ruleset, made)
    drop_journal(journal_path(config.path))
    end_command(journal)  # the new match is whole
    return sheets, roster, record


def init_match(config: MatchConfig, *, now: datetime, roster_file: Path | None = None,
                      overwrite: bool = False, share: bool = True, notify: bool = True, seed: bytes | None = None,
                      sheets: MatchSheets | None = None, outside_folder: bool = False) -> InitOutcome:
    """Create the configured match: roster from the file, else from the Roster tab, else the seats alone;
    every tab laid out, the first window drawn, the spreadsheets shared (``share``; ``notify``: with
    Google's e-mails). A ruleset that needs members and has no roster yet gets the Roster tab laid out
    (``InitOutcome.roster_tab``) and nothing else. Bad input (a roster file, the board, the settings) is
    refused before anything is written, and so is a local workbook that init must not touch
    (``init_targets.check_local_targets``; ``outside_folder``: the GM allows workbooks outside the config's
    folder)."""
    refuse_exposures(config)
    ruleset = configured_ruleset(config)
    roster_path = roster_file or config.roster
    roster = roster_file_of(ruleset.traits, roster_path, config.seats) if roster_path else None
    refusal = ""
    if roster is not None:
        _check_roster(ruleset, roster, roster_path)
    else:
        refusal = seats_alone_refused(ruleset, config.seats, config.path)
    outcome = InitOutcome()
    journal = command_path(journal_path(config.path))
    left = load_command(journal)
    carried: list[Path] = []  # the workbooks a plain init cut short created, which this one lays out
    if left is not None and left["kind"] == "init" and left.get("new"):
        carried = [Path(str(p)) for p in left.get("created", [])]
        outcome.settled = "the init cut short before the match was whole is laid out again whole by this one"
    elif left is not None and left["kind"] == "init":  # an init --overwrite cut short: the match before it, first
        outcome.settled = roll_back_init(journal, left)
    if overwrite and config.backend is not BackendKind.LOCAL:
        raise SheetAccessError("--overwrite works on local workbooks only; for Google, point the config at new "
                               "spreadsheets (the old match stays as it is)")
    try:
        made = _journaled_init(config, ruleset, outcome, journal, roster, now=now, overwrite=overwrite, share=share,
                               seed=seed, sheets=sheets, outside_folder=outside_folder, carried=carried,
                               refusal=refusal)
    except (ConfigError, ValueError, MatchExistsError):  # refused before its first write into the match
        settled = load_command(journal)
        if settled is not None and settled["kind"] == "init":
            roll_back_init(journal, settled)  # nothing to complete: what it created or moved goes back
        raise
    if made is None:
        return outcome
    sheets, roster, record = made
    emails = editor_emails(config, roster)
    deadline = record.deadline
    outcome.seed_hash = record.seed_hash
    outcome.players = len(roster.members)  # roster lines (players, units or armies, as the game has them)
    outcome.warnings += record.ruleset.start_warnings(record.state)
    outcome.warnings += uneven_teams(ruleset.traits, roster)
    outcome.warnings += team_warnings(ruleset.traits.seat_kind, roster, google=config.backend is BackendKind.GOOGLE)
    outcome.warnings += [f.describe() for f in shared_folders(config)]
    outcome.deadline = deadline
    if share:
        outcome.shared = share_match(sharing_plan(sheets, emails, config.gm_emails), notify=notify)
    return outcome
