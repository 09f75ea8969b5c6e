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

    [deadlines]
    times = ["20:00"]
    days = ["mon", "wed", "fri"]   # optional: default every day
    timezone = "Europe/Paris"

    [settings]                     # house rules (each game's rules page names them)
    start_gold = 20

    [bots]                         # optional: seats (or a team's players) one of the game's bots plays
    Bo = "skirmisher"
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sheets_gm.match.schedule import DeadlineSchedule, ScheduleError
from sheets_gm.rulesets.registry import UnknownRulesetError, get_ruleset


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

    @property
    def folder(self) -> Path:
        """The folder of the config file (relative paths start here)."""
        return self.path.parent

    @property
    def state_dir(self) -> Path:
        """Where sheets-gm keeps its own files for this match (the sync lock)."""
        return self.folder / ".sheets-gm"

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
    return f"{path}: {where}: {first['msg'].lower()} (got {first.get('input')!r})"


def _optional_path(folder: Path, value: str | None) -> Path | None:
    return None if value is None else folder / Path(value).expanduser()


def toml_key(name: str) -> str:
    """``name`` as a TOML key: bare when it can be, quoted otherwise."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)


def file_stem(name: str) -> str:
    """``name`` as part of a file name (letters, digits, ``-`` and ``_`` kept; anything else becomes ``_``)."""
    return re.sub(r"[^\w-]", "_", name) or "seat"


def load_config(path: Path) -> MatchConfig:
    """Read and check a match config file; raise ConfigError naming what is wrong and where."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"no config file at {path}; create one (see `sheets-gm init --help`) or pass -c") from None
    except IsADirectoryError:
        raise ConfigError(f"{path} is a folder; pass the match's .toml file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    try:
        data = _ConfigFile.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, path)) from None
    return _resolve(path, data)


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
    board = data.sheets.board.strip()
    return MatchConfig(
        path=path,
        ruleset=data.ruleset.strip().lower(),
        title=data.title,
        seats=seats,
        backend=data.sheets.backend,
        board=board,
        engine=(data.sheets.engine or board).strip(),
        orders=tuple(data.sheets.orders.get(seat, board).strip() for seat in seats),
        judge=data.sheets.judge.strip() if data.sheets.judge else None,
        roster=_optional_path(folder, data.roster),
        map=_optional_path(folder, data.map),
        gm_emails=tuple(data.gm_emails),
        service_account=_optional_path(folder, google.service_account),
        oauth_client=_optional_path(folder, google.oauth_client),
        oauth_token=_optional_path(folder, google.oauth_token) or folder / ".sheets-gm" / "oauth-token.json",
        schedule=schedule,
        settings=dict(data.settings),
        interval=data.sync.interval,
        max_interval=data.sync.max_interval,
        bots={str(k).strip(): str(v).strip() for k, v in data.bots.items()},
    )


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
    folded = [s.casefold() for s in seats]
    if not all(seats) or len(set(folded)) != len(folded):
        raise ConfigError(f"{path}: {key} must be distinct names; got {list(names)}")
    return seats


def settings_drift(config: MatchConfig, held: Any) -> list[str]:
    """Each house rule that ``[settings]`` now sets otherwise than the match holds (``held``, the
    settings it was created with and keeps): ``movement = 'rook' in the config but 'king' in the
    match``. SettingError when ``[settings]`` itself is wrong."""
    from sheets_gm.engine.settings import parse_settings, settings_to_mapping

    wanted = settings_to_mapping(parse_settings(get_ruleset(config.ruleset).traits.settings_type, config.settings,
                                                folder=config.folder))
    have = settings_to_mapping(held)
    return [f"{k} = {wanted[k]!r} in the config but {have[k]!r} in the match" for k in have if wanted[k] != have[k]]
