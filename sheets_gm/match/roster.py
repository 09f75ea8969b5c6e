"""The roster as the GM gives it: a CSV file or the sheet's Roster tab (name, team, role, captain, e-mail)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.engine.core.vocab import parse_choice
from sheets_gm.rulesets.gvg.enums import Role
from sheets_gm.rulesets.gvg.setup import RosterEntry
from sheets_gm.sheets.layout import CellValue

ROSTER_COLUMNS = ("name", "team", "role", "captain", "email")
_REQUIRED = ("name", "team", "role")
_YES = {"yes", "y", "true", "1", "x", "✔", "captain"}
_NO = {"", "no", "n", "false", "0"}


class RosterFileError(ValueError):
    """A roster that cannot be read: missing columns, a bad captain mark, two captains in a team."""


@dataclass(frozen=True, slots=True)
class RosterSeat:
    """One line of the roster: the player, and whether they captain their team, and their e-mail."""

    entry: RosterEntry
    captain: bool
    email: str


def _text(value: CellValue) -> str:
    return "" if value is None or value is False else str(value).strip()  # an unticked box is blank


def parse_roster_rows(rows: Sequence[Sequence[CellValue]], teams: tuple[str, str], *, where: str,
                      first_line: int = 1) -> list[RosterSeat]:
    """Roster rows under a header row naming the columns (any order, any case); blank rows are skipped.

    Team names are matched without regard to case and returned as ``teams`` spells them.
    ``where`` names the source in messages (``roster.csv``, ``tab Roster``); ``first_line``
    is the line or row number of the header."""
    if not rows:
        raise RosterFileError(f"{where} is empty; its first line names the columns: {', '.join(ROSTER_COLUMNS)}")
    header = [_text(h).lower().replace("-", "").replace(" ", "") for h in rows[0]]
    missing = [c for c in _REQUIRED if c not in header]
    if missing:
        raise RosterFileError(f"{where} line {first_line} should name the columns {', '.join(ROSTER_COLUMNS)} "
                              f"(captain and email are optional); {', '.join(missing)} is missing")
    col = {name: header.index(name) for name in ROSTER_COLUMNS if name in header}
    seats: list[RosterSeat] = []
    captains: dict[str, int] = {}
    names: dict[str, int] = {}
    by_lower = {t.lower(): t for t in teams}
    for offset, row in enumerate(rows[1:], start=1):
        line = first_line + offset

        def get(name: str, row: Sequence[CellValue] = row) -> str:
            i = col.get(name)
            return _text(row[i]) if i is not None and i < len(row) else ""

        if not any(_text(v) for v in row):
            continue
        name = get("name")
        if not name:
            raise RosterFileError(f"{where} line {line}: the player has no name")
        if name.lower() in names:
            raise RosterFileError(f"{where} line {line}: {name!r} is listed twice (first on line "
                                  f"{names[name.lower()]})")
        names[name.lower()] = line
        team = by_lower.get(get("team").lower(), "")
        if not team:
            raise RosterFileError(f"{where} line {line}: {name} is on team {get('team')!r}; the teams are "
                                  f"{teams[0]} and {teams[1]}")
        try:
            role = parse_choice(Role, get("role"), "role")
        except ValueError as exc:
            raise RosterFileError(f"{where} line {line}: {name}: {exc}") from None
        mark = get("captain").lower()
        if mark not in _YES | _NO:
            raise RosterFileError(f"{where} line {line}: captain is {get('captain')!r}; write yes or leave it empty")
        captain = mark in _YES
        if captain:
            if team.lower() in captains:
                raise RosterFileError(f"{where} line {line}: {team} already has a captain on line "
                                      f"{captains[team.lower()]}; a team has one captain")
            captains[team.lower()] = line
        email = get("email")
        if email and ("@" not in email or " " in email):
            raise RosterFileError(f"{where} line {line}: {email!r} is not an e-mail address")
        seats.append(RosterSeat(RosterEntry(name, team, role.value), captain, email))
    if not seats:
        raise RosterFileError(f"{where} has a header but no players")
    return seats


def read_roster_csv(path: Path, teams: tuple[str, str]) -> list[RosterSeat]:
    """The roster in a CSV file (comma or semicolon separated, UTF-8, header line first)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RosterFileError(f"no roster file at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RosterFileError(f"the roster file {path} cannot be read as UTF-8 text ({exc})") from None
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else "",
                                                                       delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = list(csv.reader(text.splitlines(), dialect))
    except csv.Error as exc:
        raise RosterFileError(f"the roster file {path} is not valid CSV ({exc})") from None
    return parse_roster_rows(rows, teams, where=str(path))


def roster_emails(seats: Sequence[RosterSeat]) -> dict[str, str]:
    """E-mails by player name, plus ``captain:<team>`` for each captain (what the layout protects)."""
    out: dict[str, str] = {}
    for seat in seats:
        if seat.email:
            out[seat.entry.name] = seat.email
            if seat.captain:
                out[f"captain:{seat.entry.team}"] = seat.email
    return out


def roster_warnings(seats: Sequence[RosterSeat], teams: tuple[str, str]) -> list[str]:
    """What a GM should know about a roster that still makes a match: a team without a captain
    (nobody can pick its skills or tick Ready), uneven teams (the rulebook plays five a side)."""
    out: list[str] = []
    sizes = {team: sum(1 for s in seats if s.entry.team.casefold() == team.casefold()) for team in teams}
    for team in teams:
        captains = [s.entry.name for s in seats if s.entry.team.casefold() == team.casefold() and s.captain]
        if not captains:
            out.append(f"team {team} has no captain: nobody can pick its command skills, and its Ready box is "
                       "ticked by nobody, so its turns wait for the deadline (mark one player captain = yes)")
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{team} {n}" for team, n in sizes.items())
        out.append(f"the teams are uneven ({shown} players); the rulebook plays five a side")
    return out
