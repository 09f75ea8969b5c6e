"""``init --create``: every spreadsheet the config's ``[sheets]`` layout needs, created in a Drive folder and named
after the match and its role, their keys written into the config (its comments and layout kept).

Never a second set: before the first spreadsheet is created, the match gets an id of its own, kept in the config's
state folder (``.sheets-gm/<config>.drive-create.json``) with the key of each spreadsheet as it is made; each
spreadsheet carries that id and its role in Drive (private ``appProperties``). A later run finds what an earlier
one made, by Drive's search and by those keys (Drive's search may trail a creation by a few seconds), and creates
only what is missing: a run stopped after 3 of 18 is completed, not repeated. Once the config names Google
spreadsheets, there is nothing to create."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig
from sheets_gm.match.config_keys import ConfigKeysError, NeededSpreadsheet, needed_spreadsheets, with_sheet_keys
from sheets_gm.privacy.secrets import refuse_exposures
from sheets_gm.sheets.private_files import write_private

if TYPE_CHECKING:
    import gspread

    from sheets_gm.sheets.google.drive_create import DriveCreator, DriveFolder, MadeSpreadsheet


@dataclass
class CreateOutcome:
    """What ``init --create`` did: the folder, the spreadsheets created now, those an earlier run had made (reused),
    and warnings (a spreadsheet made twice by runs at the same moment: the older is used)."""

    folder: str = ""
    created: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    already: bool = False  # the config named Google spreadsheets already: nothing was asked of Drive


def journal_path(config: MatchConfig) -> Path:
    """Where the match's id and the keys made so far are kept between runs of ``init --create``."""
    return config.state_dir / f"{config.path.stem}.drive-create.json"


def hand_made_note(config: MatchConfig) -> str:
    """For a Google match played on the GM's own sign-in, the sentence a poll says once (``poll_gate.drive``'s
    ``unseen_once``) when some of its spreadsheets were not made by ``init --create`` (by its journal): her sign-in
    for playing, whose ``drive.file`` scope reaches only what sheets-gm made, will not see them in Drive. '' else,
    and once the GM was told (``tell_once``: by an init or a poll before)."""
    from sheets_gm.match.config import BackendKind
    from sheets_gm.poll_gate.drive import unseen_once
    from sheets_gm.poll_gate.state import tell_once

    if config.backend is not BackendKind.GOOGLE or config.service_account is not None:
        return ""
    try:
        made = set((_read_journal(journal_path(config)).get("made") or {}).values())
    except ConfigError:
        made = set()
    keys = set(dict.fromkeys([config.board, config.engine, *config.orders, *([config.judge] if config.judge else [])]))
    hand = keys - made
    if not hand or not tell_once(config.path, "unseen"):
        return ""
    return unseen_once(len(hand), len(keys))


def _read_journal(path: Path) -> dict[str, Any]:
    """The journal of an earlier run ({} when there is none, or when it cannot be read: Drive's search still
    finds what that run made only if the id is known, so an unreadable journal is named, never guessed at)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path} (what an earlier init --create made) cannot be read ({exc}); move it aside only "
                          "if no earlier run created spreadsheets, else mend it") from None
    if not isinstance(data, dict) or not isinstance(data.get("match"), str):
        raise ConfigError(f"{path} (what an earlier init --create made) holds no match id; move it aside only if no "
                          "earlier run created spreadsheets, else mend it")
    return data


def _write_config(path: Path, text: str) -> None:
    """Replace the config file with ``text`` at once (a reader sees the old file or the new one), its mode kept."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        shutil.copymode(path, tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _named_roles(config: MatchConfig) -> list[str]:
    """The roles whose own line ``[sheets]`` has, so gets a key: the board, and the engine, each seat's orders and
    the judge when the config names them (a role it leaves out shares the board's or the engine's file)."""
    sheets = tomllib.loads(config.path.read_text(encoding="utf-8")).get("sheets", {})
    roles = ["board", *(role for role in ("engine", "judge") if role in sheets)]
    return roles + ([f"orders {seat}" for seat in config.seats] if "orders" in sheets else [])


def _role(needed: NeededSpreadsheet) -> str:
    """The role a spreadsheet is marked with in Drive: every role the layout gives it."""
    return ", ".join(needed.roles)


def create_google_sheets(config: MatchConfig, folder: str, *, client: gspread.Client | None = None) -> CreateOutcome:
    """Create in the Drive folder ``folder`` (its URL or id) every spreadsheet of ``config`` not made yet, then
    write their keys and ``backend = "google"`` into the config file. ``client``: default, the config's own
    credentials (``google_sign_in.google_client``). Refusals (no credentials, a layout init refuses, a ``[sheets]`` line
    the keys cannot be written into, a bad folder, a service account and a My Drive folder) come before anything
    is created."""
    from sheets_gm.running.google_sign_in import google_client
    from sheets_gm.sheets.google.drive_create import DriveCreator, folder_id

    if config.backend is BackendKind.GOOGLE:
        return CreateOutcome(already=True)
    if client is None and config.service_account is None and config.oauth_client is None:
        raise ConfigError(f"{config.path}: init --create needs Google credentials: under [google], set "
                          "oauth_client (your own account: files in your My Drive) or service_account (a folder of a "
                          "shared drive); docs/google-setup.md shows how to get either, step by step")
    refuse_exposures(config)  # a layout init would refuse is refused before anything is made
    named = _named_roles(config)
    try:
        with_sheet_keys(config.path.read_text(encoding="utf-8"), dict.fromkeys(named, "key"), config.seats)
    except ConfigKeysError as exc:
        raise ConfigError(f"{config.path}: nothing was created, as the keys could not be written in: {exc}") from None
    wanted = folder_id(folder)  # a bad URL is named before any sign-in
    drive = DriveCreator(client or google_client(config, "share"))
    place = drive.folder(wanted)
    journal_file = journal_path(config)
    journal = _read_journal(journal_file) or {"match": secrets.token_hex(12), "made": {}}
    made: dict[str, str] = {str(k): str(v) for k, v in (journal.get("made") or {}).items()}
    journal["made"] = made
    try:
        write_private(journal_file, json.dumps(journal, indent=1))  # the id is kept before anything is created
    except OSError as exc:
        raise ConfigError(f"cannot write {journal_file} ({exc.strerror or exc}), where init --create keeps what it "
                          "makes so that a second run never makes it again; nothing was created") from None
    outcome = CreateOutcome(folder=place.where)
    found = _found(drive, journal["match"], place, made, outcome)
    keys: dict[str, str] = {}
    for needed in needed_spreadsheets(config):
        role = _role(needed)
        if role in found:
            outcome.reused.append(needed.name)
            key = found[role].key
        else:
            key = drive.create(needed.name, place, journal["match"], role).key
            outcome.created.append(needed.name)
            made[role] = key
            write_private(journal_file, json.dumps(journal, indent=1))
        keys |= {each: key for each in needed.roles if each in named}
    try:
        text = with_sheet_keys(config.path.read_text(encoding="utf-8"), keys, config.seats)
    except ConfigKeysError as exc:
        raise ConfigError(f"{config.path}: the spreadsheets are made, in {place.where}, but {exc}") from None
    _write_config(config.path, text)
    return outcome


def _found(drive: DriveCreator, match: str, place: DriveFolder, made: dict[str, str],
           outcome: CreateOutcome) -> dict[str, MadeSpreadsheet]:
    """The spreadsheets an earlier run made for ``match``, by role: Drive's search, then the keys the journal
    holds that the search does not list yet (each checked: a spreadsheet moved to the trash is made again)."""
    from sheets_gm.sheets.google.drive_create import MadeSpreadsheet

    found: dict[str, MadeSpreadsheet] = {}
    for sheet in drive.made_for(match, place):
        if sheet.role in found:
            outcome.warnings.append(f"two spreadsheets were made for {sheet.role} (runs at the same moment?): "
                                    f"{found[sheet.role].key} is used, {sheet.key} ({sheet.name!r}) is not")
        else:
            found[sheet.role] = sheet
            made.setdefault(sheet.role, sheet.key)
    for role, key in made.items():
        if role not in found and key not in {s.key for s in found.values()} and drive.still_there(key):
            found[role] = MadeSpreadsheet(key, role, role)
    return found
