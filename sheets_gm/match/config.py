"""The match config file (TOML): ruleset, teams, where the sheets are, credentials, deadlines, house rules.

Every command takes ``-c match.toml``, so a cron line stays short. Relative paths in the
file are relative to the file's own folder. Example::

    ruleset = "wesnoth"
    title = "Friday match"
    seats = ["Ann", "Bo"]          # the seats, in turn order (``teams = [...]`` says the same)
    roster = "roster.csv"          # optional: else type the roster in the sheet's Roster tab

    [sheets]
    backend = "local"              # or "google"
    board = "match.xlsx"           # a workbook file, or a Google spreadsheet key or URL
    # engine = "engine.xlsx"       # optional: the GM-only engine (default: the board's)
    # orders = { Ann = "ann.xlsx", Bo = "bo.xlsx" }   # optional: private orders per seat
    # judge = "judge.xlsx"         # optional, for a game with a judge (default: the engine's)
    # web = "web/"                 # the match page's folder (the default); "" for no page
    # web_url = "https://example.org/friday/"   # where players open it, for the notices' link

    [deadlines]
    times = ["20:00"]
    days = ["mon", "wed", "fri"]   # optional: default every day
    timezone = "Europe/Paris"

    [settings]                     # house rules (each game's rules page names them)
    start_gold = 20

    [bots]                         # optional: seats (or a team's players) one of the game's bots plays
    Bo = "skirmisher"
    [notify]                       # optional: notices by e-mail and chat (match.notify_settings, docs/notices.md)
    reminder = "2h"
    [notify.chat]
    style = "discord"
    url_env = "SHEETS_GM_WEBHOOK"
    [mailbox]                      # optional: the judge's mailbox (IMAP), read at every poll (match.mailbox_settings)
    host = "imap.example.org"
    user = "judge@example.org"
    password_env = "SHEETS_GM_MAILBOX_PASSWORD"
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sheets_gm.engine.name_rule import NAME_RULE, name_problem
from sheets_gm.match.bounded_file import MAX_CONFIG_BYTES, FileRefused, check_bounded, read_bounded
from sheets_gm.match.mailbox_settings import MailboxSettings, parse_mailbox
from sheets_gm.match.notify_settings import NotifySettings, parse_notify
from sheets_gm.match.schedule import DeadlineSchedule, ScheduleError
from sheets_gm.match.seat_roster import MAX_ROSTER_BYTES, ROSTER_ACCEPTED
from sheets_gm.rulesets.registry import UnknownRulesetError, get_ruleset, template_dir
from sheets_gm.sheets.files import orders_file


class ConfigError(ValueError):
    """A match config that cannot be used; the message names the file, the key and what is accepted."""


class BackendKind(StrEnum):
    """Where a match's spreadsheets live."""

    LOCAL = "local"
    GOOGLE = "google"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SheetsSection(_Strict):
    """``[sheets]``: the backend and each spreadsheet of the match (engine and orders default to the board)."""

    backend: BackendKind = BackendKind.LOCAL
    board: str = Field(min_length=1)
    engine: str | None = None
    orders: dict[str, str] = Field(default_factory=dict)
    judge: str | None = None
    web: str = "web/"
    web_url: str = ""


class GoogleSection(_Strict):
    """``[google]``: a service-account key file, or an OAuth client file for the GM's own account."""

    service_account: str | None = None
    oauth_client: str | None = None
    oauth_token: str | None = None


class DeadlinesSection(_Strict):
    """``[deadlines]``: when each turn's orders close."""

    times: list[str] = Field(default_factory=list)
    days: list[str] = Field(default_factory=list)
    timezone: str = "UTC"


class SyncSection(_Strict):
    """``[sync]``: how often ``sync --watch`` polls, and how far it backs off when nothing changes."""

    interval: float = Field(default=60.0, gt=0)
    max_interval: float = Field(default=600.0, gt=0)


class _ConfigFile(_Strict):
    ruleset: str
    title: str = "sheets-gm match"
    teams: list[str] | None = None
    seats: list[str] | None = None
    roster: str | None = None
    map: str | None = None
    gm_emails: list[str] = Field(default_factory=list)
    sheets: SheetsSection
    google: GoogleSection = GoogleSection()
    deadlines: DeadlinesSection = DeadlinesSection()
    settings: dict[str, Any] = Field(default_factory=dict)
    bots: dict[str, str] = Field(default_factory=dict)
    sync: SyncSection = SyncSection()
    notify: dict[str, Any] = Field(default_factory=dict)  # checked by match.notify_settings, a line per bad option
    mailbox: dict[str, Any] = Field(default_factory=dict)  # checked by match.mailbox_settings, a line per bad option


class _SheetsAndAccount(BaseModel):
    """``[sheets]`` and ``[google]`` alone, checked as in :class:`_ConfigFile` (the rest of the file left unread)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    sheets: SheetsSection
    google: GoogleSection = GoogleSection()


class _TitleAndSheets(BaseModel):
    """``title`` and ``[sheets]`` alone, checked as in :class:`_ConfigFile` (the rest of the file left unread)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    title: str = _ConfigFile.model_fields["title"].default
    sheets: SheetsSection


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """A loaded match config: every path resolved against the config file's folder."""

    path: Path
    ruleset: str
    title: str
    seats: tuple[str, ...]
    backend: BackendKind
    board: str
    engine: str
    orders: tuple[str, ...]  # the spreadsheet of each seat's orders, in the order of ``seats``
    judge: str | None
    roster: Path | None
    map: Path | None
    gm_emails: tuple[str, ...]
    service_account: Path | None
    oauth_client: Path | None
    oauth_token: Path
    schedule: DeadlineSchedule
    settings: dict[str, Any]
    interval: float
    max_interval: float
    bots: dict[str, str] = field(default_factory=dict)  # ``[bots]``: a seat or member → the kind of bot playing it
    notify: NotifySettings | None = None  # None: no notices (no [notify], or one with problems)
    notify_problems: tuple[str, ...] = ()  # a line per bad option of [notify]: notices are off until mended
    web: Path | None = None  # the match page's folder (``[sheets] web``); None: no page
    web_url: str = ""  # where players open the page (``[sheets] web_url``), for the notices' link; '' unknown
    mailbox: MailboxSettings | None = None  # the judge's mailbox; None: none (no [mailbox], or one with problems)
    mailbox_problems: tuple[str, ...] = ()  # a line per bad option of [mailbox]: the mailbox is unread until mended

    @property
    def folder(self) -> Path:
        """The folder of the config file (relative paths start here)."""
        return self.path.parent

    @property
    def state_dir(self) -> Path:
        """Where sheets-gm keeps its own files for this match (the sync lock)."""
        return self.folder / ".sheets-gm"

    @property
    def oauth_drive_token(self) -> Path:
        """Where the GM's sign-in for Drive itself is kept (init's creating and sharing, export), apart from the one
        every other command and cron's polls load (``oauth_token``): ``oauth-token.json`` ->
        ``oauth-token-drive.json``."""
        token = self.oauth_token
        return token.with_name(f"{token.stem}-drive{token.suffix or '.json'}")

    @property
    def sheet_ids_path(self) -> Path:
        """Where the Google tabs' numeric ids are kept between syncs (writing a cell note needs them)."""
        return self.state_dir / f"{self.path.stem}.sheet-ids.json"

    @property
    def lock_path(self) -> Path:
        """The lock two syncs of this match on this machine take turns on."""
        return self.state_dir / f"{self.path.stem}.lock"

    def local_path(self, where: str) -> Path:
        """A workbook named in ``[sheets]``, resolved against the config's folder."""
        return self.folder / where


def _where(loc: tuple[int | str, ...]) -> str:
    parts = [str(p) for p in loc]
    if len(parts) > 1:
        return f"[{'.'.join(parts[:-1])}] {parts[-1]}"
    return parts[0] if parts else "the file"


def _explain(error: ValidationError, path: Path) -> str:
    """The first problem of a pydantic error as one sentence naming the file and the key."""
    errors = error.errors()
    # A misspelt key also shows up as a missing one: name the misspelling first.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    where = _where(first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        section = first["loc"][:-1]
        model: type[BaseModel] = _ConfigFile
        for part in section:
            field = model.model_fields.get(str(part))
            annotation = field.annotation if field else None
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                model = annotation
        accepted = ", ".join(model.model_fields)
        return f"{path}: unknown key {where}; the keys accepted there are {accepted}"
    if kind == "missing":
        return f"{path}: {where} is missing"
    got = repr(first.get("input"))
    got = got if len(got) <= 80 else got[:77] + "..."
    example = _EXAMPLES.get(tuple(str(p) for p in first["loc"][:2]))
    accepted = f"; write it as {example}" if example else ""
    return f"{path}: {where}: {' '.join(first['msg'].lower().split())} (got {got}){accepted}"


#: What a key whose value has the wrong type would accept, for its message.
_EXAMPLES: dict[tuple[str, ...], str] = {
    ("deadlines", "times"): 'times = ["20:00"] (a list of HH:MM times)',
    ("deadlines", "days"): 'days = ["mon", "thu"] (a list of weekdays; none: every day)',
    ("deadlines", "timezone"): 'timezone = "Europe/Paris" (an IANA time zone name)',
}


def _optional_path(folder: Path, value: str | None) -> Path | None:
    return None if value is None else folder / Path(value).expanduser()


def _map_path(folder: Path, value: str | None, ruleset: str) -> Path | None:
    """The config's ``map``: a file in (or below) the config's folder, else one of the maps the game ships by its name
    (``map = "4p_Hamlets"``: ``templates/wesnoth/maps/4p_Hamlets.txt``)."""
    own = _optional_path(folder, value)
    if own is None or own.exists() or Path(value or "").name != value:
        return own
    shipped = template_dir(ruleset.strip().lower()) / "maps"
    return next((p for p in (shipped / value, shipped / f"{value}.txt") if p.is_file()), own)


def _roster_path(path: Path, value: str | None) -> Path | None:
    """The config's ``roster`` path, checked as the config itself is, from its status alone (a file not there yet is
    left to the commands that read it): ConfigError for a folder, a device, a FIFO or a file past the bound."""
    roster = _optional_path(path.parent, value)
    if roster is not None:
        try:
            check_bounded(roster, MAX_ROSTER_BYTES, what="a roster is a few kilobytes")
        except FileNotFoundError:
            pass
        except FileRefused as exc:
            raise ConfigError(f"{path}: roster: {exc}: {ROSTER_ACCEPTED}") from None
    return roster


def toml_key(name: str) -> str:
    """``name`` as a TOML key: bare when it can be, quoted otherwise."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)


#: The deepest nesting of tables and arrays a config may have (a real one nests three deep).
MAX_CONFIG_DEPTH = 20


def _nesting(value: Any, limit: int) -> int:
    """How deep ``value`` nests tables and arrays, counted level by level (no recursion) up to ``limit + 1``.

    >>> _nesting({"sheets": {"orders": {"Ann": "a.xlsx"}}, "seats": ["Ann"]}, 20)
    2
    """
    depth = 0
    level = [value]
    while depth <= limit:
        level = [v for item in level for v in (item.values() if isinstance(item, dict) else item)
                 if isinstance(v, dict | list)]
        if not level:
            break
        depth += 1
    return depth


def read_config_toml(path: Path) -> dict[str, Any]:
    """The TOML of the config file ``path``; ConfigError (one line) for a missing file, a folder, anything that is
    not a regular file (``/dev/zero``, a FIFO: refused without reading, so nothing hangs), a file past
    ``MAX_CONFIG_BYTES``, text that is not UTF-8 or not TOML, or tables nested past ``MAX_CONFIG_DEPTH``."""
    try:
        data = read_bounded(path, MAX_CONFIG_BYTES, what="a match config is a few kilobytes")
    except FileNotFoundError:
        raise ConfigError(f"no config file at {path}; create one (see `sheets-gm init --help`) or pass -c") from None
    except FileRefused as exc:
        raise ConfigError(f"{exc}; pass the match's .toml file") from None
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} cannot be read: it is not UTF-8 text (byte {exc.start}); save it as "
                          "UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise ConfigError(f"{path} nests tables or arrays too deeply to be read (a match config nests at most "
                          f"{MAX_CONFIG_DEPTH} deep)") from None
    if _nesting(raw, MAX_CONFIG_DEPTH) > MAX_CONFIG_DEPTH:
        raise ConfigError(f"{path} nests tables or arrays more than {MAX_CONFIG_DEPTH} deep; a match config nests "
                          "three deep at most")
    return raw


def load_config(path: Path) -> MatchConfig:
    """Read and check a match config file; raise ConfigError naming what is wrong and where."""
    raw = read_config_toml(path)
    try:
        data = _ConfigFile.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, path)) from None
    config = _resolve(path, data)
    match_files(config)
    return config


def _resolve(path: Path, data: _ConfigFile) -> MatchConfig:
    folder = path.parent
    try:
        traits = get_ruleset(data.ruleset).traits
    except UnknownRulesetError as exc:
        raise ConfigError(f"{path}: ruleset: {exc}") from None
    seats = _seats(path, data, traits.seat_kind.value, traits.min_seats, traits.max_seats)
    unknown = [t for t in data.sheets.orders if t not in seats]
    if unknown:
        raise ConfigError(f"{path}: [sheets] orders names {unknown[0]!r}, which is not a seat; the seats are "
                          f"{', '.join(seats)}")
    try:
        schedule = DeadlineSchedule.parse(data.deadlines.times, data.deadlines.days, data.deadlines.timezone)
    except ScheduleError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    google = data.google
    if data.sheets.backend is BackendKind.GOOGLE and not (google.service_account or google.oauth_client):
        raise ConfigError(f"{path}: [google] needs service_account (a key file) or oauth_client (an OAuth client "
                          "file) for the google backend")
    if data.sync.max_interval < data.sync.interval:
        raise ConfigError(f"{path}: [sync] max_interval ({data.sync.max_interval}) is below interval "
                          f"({data.sync.interval})")
    named = _spreadsheets(data.sheets, google, path, seats)
    notify, notify_problems = parse_notify(data.notify, where=str(path), folder=folder, seats=seats)
    mailbox, mailbox_problems = parse_mailbox(data.mailbox, where=str(path), folder=folder)
    return MatchConfig(
        path=path,
        ruleset=data.ruleset.strip().lower(),
        title=data.title,
        seats=seats,
        backend=data.sheets.backend,
        board=named.board,
        engine=named.engine,
        orders=named.orders,
        judge=named.judge,
        roster=_roster_path(path, data.roster),
        map=_map_path(folder, data.map, data.ruleset),
        gm_emails=tuple(data.gm_emails),
        service_account=named.service_account,
        oauth_client=_optional_path(folder, google.oauth_client),
        oauth_token=named.oauth_token,
        schedule=schedule,
        settings=dict(data.settings),
        interval=data.sync.interval,
        max_interval=data.sync.max_interval,
        bots={str(k).strip(): str(v).strip() for k, v in data.bots.items()},
        notify=notify,
        notify_problems=tuple(notify_problems),
        web=_page_folder(folder, data.sheets),
        web_url=_web_url(path, data.sheets.web_url),
        mailbox=mailbox,
        mailbox_problems=tuple(mailbox_problems),
    )


@dataclass(frozen=True, slots=True)
class Spreadsheets:
    """Where a match's spreadsheets are and the account that opens them, as its config names them: what
    ``serve``'s watcher of a Google account needs of a match before its first poll (:func:`read_spreadsheets`), and
    the same fields of a :class:`MatchConfig` (``load_config`` takes them from here too)."""

    path: Path  # the config file
    backend: BackendKind
    board: str
    engine: str
    orders: tuple[str, ...]  # each seat's (the board's for a seat the config gives none), in seat order; from
    # ``read_spreadsheets``, those of the seats ``[sheets] orders`` names
    judge: str | None
    service_account: Path | None
    oauth_token: Path
    ruleset: str = ""  # the game the config names (lower case, unchecked)


def _spreadsheets(sheets: SheetsSection, google: GoogleSection, path: Path, seats: tuple[str, ...],
                  ruleset: str = "") -> Spreadsheets:
    """``[sheets]`` and ``[google]``'s account, resolved as ``load_config`` resolves them (one way, for both), each
    seat's file checked to be its own (``seat_files``)."""
    board, folder = sheets.board.strip(), path.parent
    found = Spreadsheets(
        path=path, backend=sheets.backend, board=board, engine=(sheets.engine or board).strip(),
        orders=tuple(sheets.orders.get(seat, board).strip() for seat in seats),
        judge=sheets.judge.strip() if sheets.judge else None,
        service_account=_optional_path(folder, google.service_account),
        oauth_token=_optional_path(folder, google.oauth_token) or folder / ".sheets-gm" / "oauth-token.json",
        ruleset=ruleset)
    seat_files(found, seats, tuple(sheets.orders))
    return found


def seat_files(found: Spreadsheets, seats: tuple[str, ...], named: Collection[str]) -> None:
    """SharedFileError, naming the config's lines, when ``[sheets] orders`` names some seats (``named``) and leaves
    one out (its tabs would go into the board every player opens), or gives a seat the very name of the board's or
    the engine's file (a repair would lay its Orders, View and Archive tabs there). The same file spelt otherwise
    (``./``, ``gm/../``, a link) is refused by ``match_files``. With no ``orders`` at all every seat plays on the
    board, as the config says; seats named alike share an orders file, and a judge's file may be a seat's (a game
    that hides something refuses both at ``init``, and ``doctor`` names them: ``privacy.secrets``)."""
    if not named:
        return
    local = found.backend is BackendKind.LOCAL
    own = 'init makes the file' if local else 'a spreadsheet that seat alone opens'
    missing = [seat for seat in seats if seat not in named]
    if missing:
        lines = " and ".join(f'{toml_key(s)} = "{orders_file(s) if local else "KEY"}"' for s in missing)
        raise SharedFileError(
            f"{found.path}: [sheets] orders names no file for {', '.join(missing)}, so {_its(missing)} Orders, View "
            f"and Archive tabs would go into the board ({found.board}), which every player opens. Nothing was read or "
            f"written. Add {lines} to [sheets] orders ({own})")
    roles = [("board", found.board), ("engine", found.engine)]
    for seat, where in zip(seats, found.orders, strict=True):
        same = next(((role, other) for role, other in roles if _one_name(found, where, other)), None)
        if same is not None:
            role, other = same
            raise SharedFileError(
                f'{found.path}: [sheets] gives {seat}\'s orders the file of another role: {role} = "{other}" and '
                f'{toml_key(seat)} = "{where}" in orders. A file has one role in a match: a seat\'s orders workbook is '
                f"its own, and a command would lay {seat}'s Orders, View, Archive and Copies tabs (its hidden units, "
                f"in a game that hides some) into {_workbook_of(role)}. Nothing was read or written. "
                + _own_file(seat, where, role, local, own))


#: The file a starter config gives the board and the engine: what a role that took a seat's file's name goes back to.
_ROLE_FILES = {"board": "board.xlsx", "engine": "gm/engine.xlsx"}


def _own_file(seat: str, where: str, role: str, local: bool, own: str) -> str:
    """What to write so that ``seat`` (named ``where``, the file of ``role`` too) and ``role`` each have a file."""
    if local and where == orders_file(seat):  # the seat's own name given to the role
        return f'Write {role} = "{_ROLE_FILES[role]}" in [sheets] (or another file of its own)'
    return f'Write {toml_key(seat)} = "{orders_file(seat) if local else "KEY"}" in [sheets] orders ({own})'


def _its(seats: list[str]) -> str:
    return f"{seats[0]}'s" if len(seats) == 1 else "their"


def _one_name(found: Spreadsheets, first: str, second: str) -> bool:
    """Whether two ``[sheets]`` names are one name: the same text (a local path), the same spreadsheet (Google)."""
    if found.backend is BackendKind.LOCAL:
        return first == second
    return spreadsheet_id(first) == spreadsheet_id(second)


def read_spreadsheets(path: Path) -> Spreadsheets:
    """What the config at ``path`` says of its spreadsheets and their account (:class:`Spreadsheets`), without the
    rest of ``load_config``'s checks (the game's rules, the seats' names, the deadlines, the notices, every file's
    links): the same parse (``read_config_toml``) and the same sections' checks, resolved by the same function.
    Its ``orders`` are the spreadsheets ``[sheets] orders`` names (a seat it names none for plays on the board's,
    counted already). ConfigError when the file, its TOML or those two sections do not read."""
    raw = read_config_toml(path)
    try:
        sections = _SheetsAndAccount.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, path)) from None
    sheets, google = sections.sheets, sections.google
    ruleset = raw.get("ruleset")
    game = ruleset.strip().lower() if isinstance(ruleset, str) else ""
    return _spreadsheets(sheets, google, path, tuple(sheets.orders), game)


def read_page(path: Path) -> tuple[str, Path | None]:
    """The title and the match page's folder (None: no page) the config at ``path`` says, as ``load_config`` reads
    them, without the rest of its checks (a sixth of its cost: ``serve --web`` reads every match's): the same parse
    and the same ``[sheets]`` check. ConfigError when the file, its TOML or those two do not read."""
    raw = read_config_toml(path)
    try:
        read = _TitleAndSheets.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, path)) from None
    return read.title, _page_folder(path.parent, read.sheets)


def _page_folder(folder: Path, sheets: SheetsSection) -> Path | None:
    """``[sheets] web``: the match page's folder, against the config's ``folder`` (None: "", no page)."""
    return _optional_path(folder, sheets.web.strip() or None)


def _web_url(path: Path, url: str) -> str:
    """``[sheets] web_url``: a web address (http or https), or '' for none."""
    url = url.strip()
    if url and not re.fullmatch(r"https?://[^\s\"'<>]+", url):
        raise ConfigError(f"{path}: [sheets] web_url {url!r} is not a web address; write the address players open "
                          'the match page at, e.g. web_url = "https://example.org/friday/"')
    return url


def _seats(path: Path, data: _ConfigFile, kind: str, least: int, most: int) -> tuple[str, ...]:
    """The seats the config names (``teams`` or ``seats``), checked against the ruleset's seat counts."""
    if data.teams is not None and data.seats is not None:
        raise ConfigError(f"{path}: give teams or seats, not both (they name the same thing)")
    key, names = ("teams", data.teams) if data.teams is not None else ("seats", data.seats)
    if names is None:
        raise ConfigError(f"{path}: seats: missing; name the {kind}s in turn order, e.g. seats = [\"Ann\", \"Bo\"]")
    seats = tuple(str(n).strip() for n in names)
    if not least <= len(seats) <= most:
        count = f"{least}" if least == most else f"{least} to {most}"
        raise ConfigError(f"{path}: {key}: a {data.ruleset} match has {count} {kind}s, not {len(seats)}")
    for seat in seats:
        problem = name_problem(seat)
        if problem:
            raise ConfigError(f"{path}: {key}: the name {seat!r} is refused: {problem}; {NAME_RULE}")
    folded = [s.casefold() for s in seats]
    if not all(seats) or len(set(folded)) != len(folded):
        raise ConfigError(f"{path}: {key} must be distinct names; got {list(names)}")
    return seats


class SharedFileError(ConfigError):
    """Two roles of a match's config that are one file (a link or a hard link between their paths), or a path that
    leads nowhere or out of the match's folder by a link: nothing was read or written."""


@dataclass(frozen=True, slots=True)
class _RoleFile:
    """One role's file as the config names it (``where``), where that name is (``path``, ``..`` folded but no link
    followed) and what it is (``real``: every link followed; ``inode``: device and inode, None while it is
    missing)."""

    role: str
    where: str
    path: Path
    real: Path
    inode: tuple[int, int] | None

    def same_file(self, other: _RoleFile) -> bool:
        """Whether ``other``, named otherwise in the config, is this very file (the same path spelt otherwise,
        ``./board.xlsx`` or ``gm/../board.xlsx``; a link to it; a hard link): only one name written the same for
        both shares a file on purpose (what the config leaves out is the board's; ``seat_files`` refuses a seat's
        named as another role's)."""
        return self.where != other.where and (self.path == other.path or self.real == other.real or (
            self.inode is not None and self.inode == other.inode))


def _role_file(config: MatchConfig, role: str, where: str, path: Path) -> _RoleFile:
    """``path`` (``role``'s file, named ``where`` in the config) resolved: SharedFileError for a loop of links, or a
    link that leads out of the config's folder (a workbook named by its own path outside it, which
    ``init --allow-outside-folder`` laid out, is the GM's choice and stays)."""
    plain = Path(os.path.normpath(path.expanduser().absolute()))
    try:
        real = plain.resolve()
    except (OSError, RuntimeError):  # a loop of links
        raise SharedFileError(f"{config.path}: {role} names {path}, a link that leads nowhere (a loop of links); "
                              "name the file itself") from None
    file = _RoleFile(role, where, plain, real, None)
    if _is_workbook(file) and real != plain and not real.is_relative_to(config.folder.resolve()):
        raise SharedFileError(
            f"{config.path}: [sheets] names {path}, a link to {real}, outside the config's folder {config.folder}: "
            "the sync never follows a link out of the match's folder (init refuses one too). Put the workbook itself "
            "in place of the link, or name its own path in [sheets]")
    try:
        st = plain.stat()
        inode: tuple[int, int] | None = (st.st_dev, st.st_ino)
    except OSError:
        inode = None
    return _RoleFile(role, where, plain, real, inode)


#: The roles of a match's workbooks besides each seat's ``orders <seat>``.
WORKBOOK_ROLES = ("board", "engine", "judge")


def _roles(config: MatchConfig) -> list[_RoleFile]:
    """Every file the config names, with its role: the workbooks (local matches), then the config itself and the
    files it reads (roster, map, the Google sign-in's files)."""
    named: list[tuple[str, str, Path]] = []
    if config.backend is BackendKind.LOCAL:
        workbooks = [("board", config.board), ("engine", config.engine),
                     *((f"orders {seat}", where) for seat, where in zip(config.seats, config.orders, strict=True)),
                     *([("judge", config.judge)] if config.judge else [])]
        named += [(role, where, config.local_path(where)) for role, where in workbooks]
    others = [("the config", config.path), ("roster", config.roster), ("map", config.map),
              ("service_account", config.service_account), ("oauth_client", config.oauth_client),
              ("oauth_token", config.oauth_token)]
    named += [(role, str(path), path) for role, path in others if path is not None]
    return [_role_file(config, role, where, path) for role, where, path in named]


def _two_roles(config: MatchConfig, first: _RoleFile, second: _RoleFile) -> str:
    """Why ``first`` and ``second`` may not be one file, and what the config may say instead."""
    linked = [f for f in (first, second) if f.path != f.real]
    alias = linked[-1] if linked else second
    other = first if alias is second else second
    spelt = first.path == second.path
    how = ("one path spelt two ways" if spelt else "hard links of one file" if not linked else "both links to it"
           if len(linked) == 2 else f"{alias.where} is a link to {other.where if alias.real == other.path else 'it'}")
    put = (f"Give {_workbook_of(alias.role)} a file of its own at another path" if spelt else
           f"Put {_workbook_of(alias.role)} itself at {alias.where} in place of the link (a repair's copies under "
           "backups/ keep one), or name another path for it")
    return (f"{config.path}: {first.role} ({first.where}) and {second.role} ({second.where}) are one file, "
            f"{first.real} ({how}). A file has one role in a match: what a command writes for one would overwrite "
            "the other's tabs (a repair would lay a seat's Orders, View and Archive into it), and each would be read "
            f"as the other. Nothing was read or written. {put}; two roles of [sheets] share one workbook only when "
            "the config writes the same name for both, or leaves one out (as leaving engine out keeps the engine in "
            "the board's workbook); a seat's orders workbook is never the board's nor the engine's")


def _workbook_of(role: str) -> str:
    """A role's file in words: ``orders red`` → red's orders workbook, ``roster`` → the roster."""
    if role.startswith("orders "):
        return f"{role.removeprefix('orders ')}'s orders workbook"
    return f"the {role}'s workbook" if role in WORKBOOK_ROLES else f"the {role}"


def _is_workbook(file: _RoleFile) -> bool:
    return file.role in WORKBOOK_ROLES or file.role.startswith("orders ")


def spreadsheet_id(where: str) -> str:
    """The id of the Google spreadsheet ``[sheets]`` names by its key or by its URL (one spreadsheet, two names).

    >>> spreadsheet_id("https://docs.google.com/spreadsheets/d/1AbC_d-9/edit#gid=0"), spreadsheet_id(" 1AbC_d-9 ")
    ('1AbC_d-9', '1AbC_d-9')
    """
    found = re.search(r"/d/([A-Za-z0-9_-]+)", where)
    return found.group(1) if found else where.strip()


def match_files(config: MatchConfig) -> dict[str, Path]:
    """Every file the config names resolved (real path and inode), its local workbooks each by where the config's
    folder puts it (``where`` → that path; {} on Google). SharedFileError, nothing read or written, when two roles
    are one file although the config names them by two paths (a seat's workbook a link to the engine's, a hard link
    of the board: each command would write one role's tabs into the other's file), or when a workbook is a loop of
    links or a link out of the config's folder. Two roles named by one path share a workbook on purpose (the engine
    left out is the board's). Every command that opens the match goes through it: ``load_config`` and
    ``open_match_sheets``."""
    files = _roles(config)
    for n, file in enumerate(files):
        for earlier in files[:n]:
            if (_is_workbook(earlier) or _is_workbook(file)) and earlier.same_file(file):
                raise SharedFileError(_two_roles(config, earlier, file))
    return {file.where: file.path for file in files if _is_workbook(file)}


def settings_drift(config: MatchConfig, held: Any) -> list[str]:
    """Each house rule that ``[settings]`` now sets otherwise than the match holds (``held``, the
    settings it was created with and keeps): ``movement = 'rook' in the config but 'king' in the
    match``. SettingError when ``[settings]`` itself is wrong."""
    from sheets_gm.engine.settings import live_settings, parse_settings, settings_to_mapping

    kind = get_ruleset(config.ruleset).traits.settings_type
    wanted = settings_to_mapping(parse_settings(kind, config.settings, folder=config.folder))
    have = settings_to_mapping(held)
    live = live_settings(kind)  # taken from the config in a running match: never a drift
    return [f"{k} = {wanted[k]!r} in the config but {have[k]!r} in the match" for k in have
            if wanted[k] != have[k] and k not in live]


def live_values(config: MatchConfig) -> dict[str, Any]:
    """The config's values of the ruleset's live settings (``engine.settings.setting(live=True)``): what a
    running match takes from ``[settings]`` at every poll. SettingError when ``[settings]`` is wrong."""
    from sheets_gm.engine.settings import live_settings, parse_settings

    kind = get_ruleset(config.ruleset).traits.settings_type
    live = live_settings(kind)
    if not live:
        return {}
    parsed = parse_settings(kind, config.settings, folder=config.folder)
    return {k: getattr(parsed, k) for k in live}
