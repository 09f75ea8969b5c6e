"""Doctor's ``teams`` check: the roster ``repair`` would lay the match out for, checked for captains and e-mails."""

from __future__ import annotations

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.engine.ruleset import SeatKind
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.match.match_roster import repair_roster
from sheets_gm.match.seat_roster import SeatRosterError
from sheets_gm.match.team_check import team_warnings
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sync.sheets import MatchSheets


def check_teams(config: MatchConfig, sheets: MatchSheets, report: Checkup) -> None:
    """Doctor's ``teams`` check: the warnings above for the roster ``repair`` would lay the match out for
    (the config's roster file, else the Roster tab); a game of single players has none to make."""
    seat_kind = get_ruleset(config.ruleset).traits.seat_kind
    if seat_kind is SeatKind.PLAYER:
        return
    fix = (f"correct the roster (the config's roster file, or the Roster tab), then run `sheets-gm repair -c "
           f"{config.path}`: it protects every row for its editors again and keeps the match")
    try:
        roster = repair_roster(config, sheets)
    except (SeatRosterError, SheetError) as exc:
        report.warn("teams", f"the roster cannot be read, so its captains and e-mails are not checked: {exc}", fix)
        return
    if not roster.members:
        report.ok("teams", "no roster in the config or the Roster tab: captains and e-mails not checked")
        return
    warnings = team_warnings(seat_kind, roster, google=config.backend is BackendKind.GOOGLE)
    for warning in warnings:
        report.warn("teams", warning, fix)
    if not warnings:
        report.ok("teams", f"every {seat_kind.value} has " + ("a captain and " if seat_kind is SeatKind.TEAM else "")
                  + ("an e-mail to type with" if config.backend is BackendKind.GOOGLE else "its members"))
