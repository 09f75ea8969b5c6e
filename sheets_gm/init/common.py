"""What every ``init`` shares, whatever the ruleset: its outcome, the refusal to replace a match, and what it
creates the match from (``made_of``, ``create_from``). The local workbooks it creates first (or keeps aside with
``--overwrite``) are ``upkeep.backups``'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig
from sheets_gm.rulesets.registry import AnyRuleset, sheet_spec
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sync.bot_seats import BotSeatError
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import ABOUT_TAB
from sheets_gm.sync.sheets import MatchSheets
from sheets_gm.upkeep.backups import prepare_local, start_new_workbooks

if TYPE_CHECKING:
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend


def local_files(config: MatchConfig) -> dict[Path, str]:
    """Each distinct workbook of a local match with the first tab it gets when created."""
    spec = sheet_spec(config.ruleset)
    files: dict[Path, str] = {config.local_path(config.board): spec.tabs.board}
    for seat, where in zip(config.seats, config.orders, strict=True):
        files.setdefault(config.local_path(where), spec.tabs.orders.format(seat=seat))
    if config.judge:
        files.setdefault(config.local_path(config.judge), spec.tabs.judge)
    files.setdefault(config.local_path(config.engine), ABOUT_TAB)
    return files


def start_missing_workbooks(config: MatchConfig, sheets: MatchSheets) -> list[LocalWorkbookBackend]:
    """The local workbooks of ``config`` that do not exist made in memory by their backends in ``sheets``, each file
    made by its first save (``upkeep.backups.start_new_workbooks``): those of a plain init cut before it made them
    all. The backends that hold one."""
    if config.backend is not BackendKind.LOCAL:
        return []
    missing = {path: tab for path, tab in local_files(config).items() if not path.exists()}
    return start_new_workbooks(prepare_local(config, False, "", missing)[1], sheets.write_order())


class MatchExistsError(SheetError):
    """The configured sheets already hold a match; init never replaces one unasked."""


@dataclass
class InitOutcome:
    """What ``init`` did: either the roster tab to fill in, or the new match and its published seed hash."""

    roster_tab: str | None = None  # set when the GM must type the roster in this tab first
    roster_where: str = ""  # the spreadsheet or file of that tab
    roster_columns: tuple[str, ...] = ()  # its columns, as laid out
    roster_example: str = ""  # a row as the ruleset's sample roster fills it, for the GM to copy
    warnings: list[str] = field(default_factory=list)  # a roster that makes a match but looks wrong
    seed_hash: str = ""
    players: int = 0
    deadline: str = ""
    where: list[str] = field(default_factory=list)  # each spreadsheet or file of the match
    shared: list[str] = field(default_factory=list)  # one line per sharing grant
    backups: list[tuple[Path, Path]] = field(default_factory=list)  # each workbook --overwrite moved, and where to
    replaced: str = ""  # the match --overwrite replaced, in words ('' when there was none)
    settled: str = ""  # an init --overwrite of this config cut short, rolled back first ('' when none was)


def made_of(config: MatchConfig, roster: Roster, seed: bytes, *, deadline: str,
            emails: Mapping[str, Sequence[str]], bots: Mapping[str, str]) -> dict[str, Any]:
    """Everything ``init`` creates the match from, as its command journal keeps it (``command_journal.init_creating``)
    before the first write into the match, so that the next command completes a cut one with the very same seed,
    roster, e-mails and deadline (``create_from``). It lives in the GM's private folder, as the engine does."""
    from sheets_gm.match.team_check import row_emails

    return {"seed": seed.hex(), "deadline": deadline, "title": config.title,
            "seats": list(roster.seats), "emails": {k: list(v) for k, v in emails.items()},
            "members": [{"name": m.name, "seat": m.seat, "fields": dict(m.fields), "email": m.email}
                        for m in roster.members],
            "member_emails": {k: list(v) for k, v in (row_emails(roster) or {}).items()},
            "schedule_text": config.schedule.describe(), "schedule": config.schedule.remembered(), "bots": dict(bots)}


def create_from(config: MatchConfig, sheets: MatchSheets, rules: AnyRuleset, made: Mapping[str, Any]) -> MatchRecord:
    """Create the match ``made`` describes (``made_of``) in ``sheets``: every tab laid out, the first window drawn.
    ConfigError for bots the config (or the roster) names wrongly."""
    roster = Roster(tuple(made["seats"]), tuple(Member(str(m["name"]), str(m["seat"]), dict(m["fields"]),
                                                       str(m["email"])) for m in made["members"]))
    try:
        return create_match(sheets, rules, roster, seed=bytes.fromhex(made["seed"]), emails=made["emails"],
                            member_emails=made["member_emails"], deadline=made["deadline"],
                            schedule_text=made["schedule_text"], schedule=made["schedule"], title=made["title"],
                            bots=made["bots"])
    except BotSeatError as exc:
        raise ConfigError(f"{config.path} [bots] (or the roster's bot column): {exc}") from None
