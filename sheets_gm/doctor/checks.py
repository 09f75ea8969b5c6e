"""``sheets-gm doctor``: check a match's config, credentials, spreadsheets, layout, deadlines and quota.

Every problem becomes a failed :class:`~sheets_gm.doctor.checkup.Check` with a fix, never an
exception, and nothing is ever written to a spreadsheet (see ``doctor_sheets``). A check
that depends on an earlier one (the layout on the spreadsheet being readable, say) is
left out when that one failed.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import datetime, time
from pathlib import Path
from typing import Any

from sheets_gm.doctor.checkup import Check, Checkup
from sheets_gm.doctor.mailbox import check_mailbox
from sheets_gm.doctor.notices import check_notices
from sheets_gm.doctor.quota import (
    COMFORT,
    DRIVE_LIMITS_SOURCE,
    FULL_READ_HOURS,
    LIMITS_SOURCE,
    READS_PER_MINUTE_PER_USER,
    SAFETY_NET_MINUTES,
    WRITES_PER_MINUTE_PER_USER,
    number,
    numbered,
    played_match,
)
from sheets_gm.doctor.sheets import check_match
from sheets_gm.engine.ruleset import Information
from sheets_gm.engine.settings import SettingError, idle_settings, parse_settings
from sheets_gm.engine.words import counted
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig, load_config, read_config_toml
from sheets_gm.privacy.gm_files import chmod_fix, exposed
from sheets_gm.privacy.secrets import exposures, place, shared_folders
from sheets_gm.rulesets.registry import GAMES, UnknownRulesetError, get_ruleset
from sheets_gm.running.cron import cron_line
from sheets_gm.sheets.adapter import CONFIG_STAND_IN
from sheets_gm.sheets.backend import SheetAccessError
from sheets_gm.sheets.retry import RetryPolicy

#: Doctor waits less than a sync for Google to recover: it is run by hand. A machine that cannot connect to Google
#: at all is said within seconds (at most 4 s of retries, each connection failing at once or within its own timeout).
DOCTOR_RETRY = RetryPolicy(deadline=20.0, unreachable_deadline=4.0)
#: What doctor says before its first request to Google.
CHECKING_GOOGLE = "checking the spreadsheets on Google…"


class _NotSignedInError(Exception):
    """Raised instead of opening a browser: doctor never starts the OAuth sign-in."""


def run_doctor(path: Path, *, now: datetime, matches: int = 1, retry: RetryPolicy = DOCTOR_RETRY,
               debug: bool = False, send_test: bool = False,
               progress: Callable[[str], None] = lambda _said: None) -> list[Check]:
    """Every check of the match configured in ``path``, in the order they are printed.

    ``matches`` is how many matches share the Google account (for the quota figure);
    ``now`` is compared with the current turn's deadline; ``send_test`` sends a test notice through every
    channel of ``[notify]``; ``progress`` is told what doctor is doing before it waits on Google."""
    report = Checkup(debug=debug)
    config = report.guarded("config", lambda: check_config(path, report))
    if config is None:
        return report.checks
    report.guarded("house rules", lambda: check_house_rules(config, report))
    report.ok("deadlines", config.schedule.describe())
    signed_in = report.guarded("credentials", lambda: check_credentials(config, report))
    if signed_in and config.backend is BackendKind.GOOGLE:
        progress(CHECKING_GOOGLE)
    found = signed_in and report.guarded("spreadsheets", lambda: check_match(config, report, now=now, retry=retry))
    report.guarded("privacy", lambda: check_privacy(config, report, match_exists=bool(found)))
    report.guarded("secret files", lambda: check_secret_files(config, report))
    report.guarded("quota", lambda: check_quota(config, report, matches))
    report.guarded("notices", lambda: check_notices(config, report, now=now, test=send_test))
    report.guarded("mailbox", lambda: check_mailbox(config, report))
    return [config_named(check, config.path) for check in report.checks]


def config_named(check: Check, config: Path) -> Check:
    """``check`` with every ``-c MATCH.toml`` its message or fix passed on (a sync error's words, which name the
    config by a stand-in) naming ``config``, the file the GM gave doctor, as its own fixes do.

    >>> from sheets_gm.doctor.checkup import Verdict
    >>> config_named(Check("layout", Verdict.FAIL, "run sheets-gm repair -c MATCH.toml, which…"), Path("friday.toml"))
    Check(name='layout', verdict=<Verdict.FAIL: 'fail'>, message='run sheets-gm repair -c friday.toml, which…', fix='')
    """
    stand_in, named = f"-c {CONFIG_STAND_IN}", f"-c {shlex.quote(str(config))}"
    return replace(check, message=check.message.replace(stand_in, named), fix=check.fix.replace(stand_in, named))


def check_config(path: Path, report: Checkup) -> MatchConfig | None:
    """The config file: present, valid TOML, a known ruleset, every key known and every value accepted."""
    try:
        raw = read_config_toml(path)
    except ConfigError as exc:
        report.fail("config", str(exc), _read_fix(str(exc)))
        return None
    name = raw.get("ruleset")
    if isinstance(name, str):
        try:
            get_ruleset(name)
        except UnknownRulesetError as exc:
            known = ", ".join(f'"{n}"' for n in sorted(GAMES))
            report.fail("ruleset", f"{path}: {exc}", f"set ruleset to one of {known}")
            return None
    try:
        config = load_config(path)
    except ConfigError as exc:
        report.fail("config", str(exc), _config_fix(str(exc), path))
        return None
    where = "local workbooks" if config.backend is BackendKind.LOCAL else "Google Sheets"
    report.ok("config", f"{path} is valid: {config.title!r}, {' vs '.join(config.seats)}, {where}")
    report.ok("ruleset", f"{config.ruleset} ({get_ruleset(config.ruleset).traits.title})")
    return config


def _read_fix(message: str) -> str:
    """What to do about a config file that cannot be read as TOML."""
    if "no config file" in message:
        return "create it (see docs/commands.md for an example) or name it with -c PATH/TO/match.toml"
    if "not valid TOML" in message:
        return "fix the syntax at the line and column named (a missing quote, bracket or comma, say)"
    if "cannot be read" in message:
        return "check the file's permissions"
    return "name the match's .toml file with -c (a regular UTF-8 text file of a few kilobytes)"


def _config_fix(message: str, path: Path) -> str:
    if "unknown key" in message:
        return f"correct the key's spelling or remove it from {path}"
    if "is missing" in message:
        return f"add it to {path}"
    return f"edit {path} as the message says"


def check_house_rules(config: MatchConfig, report: Checkup) -> None:
    """The ``[settings]`` house rules: every key known to the ruleset, every value accepted."""
    kind = get_ruleset(config.ruleset).traits.settings_type
    try:
        settings = parse_settings(kind, config.settings, where=f"{config.path} [settings]", folder=config.folder)
    except SettingError as exc:
        report.fail("house rules", str(exc),
                    f"correct [settings] in {config.path} (docs/rules-{config.ruleset}.md lists every house rule)")
        return
    idle = idle_settings(settings, config.settings)
    if idle:
        report.warn("house rules", "; ".join(idle) + ": set, but it changes nothing in this match",
                    f"remove it from [settings] in {config.path}, or set what it depends on")
        return
    chosen = ", ".join(f"{k} = {v!r}" for k, v in config.settings.items()) or "none: the standard rules"
    report.ok("house rules", chosen)


def check_credentials(config: MatchConfig, report: Checkup) -> bool:
    """Google only: the service-account key or the OAuth client file and its saved sign-in."""
    if config.backend is BackendKind.LOCAL:
        return True
    from sheets_gm.sheets.google.signin import account_email, open_oauth, open_service_account

    if config.service_account is not None:
        try:
            client = open_service_account(config.service_account)
        except SheetAccessError as exc:
            report.fail("credentials", str(exc), _key_fix(config, str(exc)))
            return False
        report.ok("credentials", f"service account {account_email(client)} (key file {config.service_account})")
        return True
    assert config.oauth_client is not None  # load_config insists on one of the two

    def refuse(client_config: Mapping[str, Any], scopes: Iterable[str], port: int = 0) -> Any:
        raise _NotSignedInError

    try:
        open_oauth(config.oauth_client, config.oauth_token, flow=refuse)
    except SheetAccessError as exc:
        report.fail("credentials", str(exc),
                    f"download an OAuth client ID (Desktop app) JSON and name it as oauth_client in {config.path}")
        return False
    except _NotSignedInError:
        report.fail("credentials", f"nobody has signed in with the OAuth client {config.oauth_client} yet "
                    f"(no saved sign-in at {config.oauth_token})",
                    "run a sheets-gm command on this match at a computer with a browser (init, say) and sign in once")
        return False
    report.ok("credentials", f"your own Google account (OAuth client {config.oauth_client}, "
                             f"sign-in saved in {config.oauth_token})")
    check_sign_in_scopes(config, report)
    return True


def check_sign_in_scopes(config: MatchConfig, report: Checkup) -> None:
    """The GM's saved sign-in for playing (the one cron's polls load) holds no more than ``SIGN_IN_SCOPES``: one an
    earlier sheets-gm saved holds the whole ``drive`` scope, which can read and delete her whole Drive."""
    from sheets_gm.sheets.google.signin import SIGN_IN_SCOPES, saved_scopes

    held = saved_scopes(config.oauth_token)
    wider = sorted((held or frozenset()) - set(SIGN_IN_SCOPES))
    if wider:
        report.warn("credentials", f"the sign-in saved in {config.oauth_token}, which every poll loads, holds "
                                   f"{', '.join(s.rsplit('/', 1)[-1] for s in wider)} as well: an earlier sheets-gm "
                                   "asked for the whole Drive, which that file can read and delete",
                    f"delete {config.oauth_token} and run `sheets-gm status -c {config.path}` once at a "
                    "computer with a browser: the new sign-in asks for your spreadsheets and the files sheets-gm "
                    f"made alone; init and export sign in apart ({config.oauth_drive_token.name})")


def _key_fix(config: MatchConfig, message: str) -> str:
    if "OAuth client file" in message:
        return (f"that file is for signing in as yourself: in [google] of {config.path} write "
                f"oauth_client = \"{config.service_account}\" instead of service_account, or download a "
                "service-account key (JSON) and name it as service_account")
    return f"put the service account's JSON key at {config.service_account}, or correct [google] service_account"


def check_privacy(config: MatchConfig, report: Checkup, *, match_exists: bool) -> None:
    """No secret in a file someone who may not see it opens (``privacy.exposures``): a failure for a match
    still to create (``init`` refuses it), a warning for a match that runs so (with how to move it)."""
    found = exposures(config)
    folders = shared_folders(config)
    for folder in folders:
        report.warn("privacy", folder.problem, folder.fix)
    if not found:
        if folders:
            return
        traits = get_ruleset(config.ruleset).traits
        hidden = "" if traits.information is Information.PERFECT else (
            f", and each {traits.seat_kind.value}'s orders and View are in a file no other "
            f"{traits.seat_kind.value} opens")
        kept = f" (keep {Path(config.engine).parent}/ out of what you share)" \
            if config.backend is BackendKind.LOCAL and Path(config.engine).parent != Path(".") else ""
        report.ok("privacy", f"the engine (the seed) is in {place(config, config.engine)}, which no player "
                             f"opens{kept}{hidden}")
        return
    for exposure in found:
        if not match_exists:
            report.fail("privacy", exposure.describe(), exposure.fix)
        elif exposure.role == "engine":
            report.warn("privacy", exposure.describe(created=True),
                        f"{exposure.fix}; then run `sheets-gm repair -c {config.path}`: it moves the engine's tabs "
                        "there and deletes them from the players' file")
        else:
            report.warn("privacy", f"{exposure.describe(created=True)} (the match was created so: its tabs stay there)",
                        f"for the next match, {exposure.fix}")


def check_secret_files(config: MatchConfig, report: Checkup) -> None:
    """The GM's files on this computer (``gm_files``: the engine's workbook, gm/, the copies kept before a repair
    or an init --overwrite, .sheets-gm/ with the kept reads and the sign-in, the key file, the export): a warning
    naming each one another account can read, with the chmod that mends it."""
    found = exposed(config)
    if not found:
        report.ok("secret files", "the GM's files on this computer (the engine, its copies, .sheets-gm, the key "
                                  "file, the export) are readable by your account alone")
        return
    listed = ", ".join(f"{path} ({mode})" for path, mode in found)
    report.warn("secret files", f"other accounts on this computer can read {listed}: they hold the seed, the "
                                "players' e-mails, orders not yet resolved or the Google key", chmod_fix(found))


def check_deadline_minute(config: MatchConfig, report: Checkup, matches: int, spreadsheets: int,
                          together: int) -> None:
    """How many matches like this one resolve within one minute (a resolution reads and writes each of its
    ``spreadsheets`` once), and a warning when ``matches`` of them sharing this match's deadline minute are more."""
    each = "its one spreadsheet" if spreadsheets == 1 else f"each of the {spreadsheets} spreadsheets"
    figure = (f"a resolution reads and writes {each} once, so {counted(together, 'match', 'matches')} like "
              f"this one resolve together within one minute's {READS_PER_MINUTE_PER_USER} reads and "
              f"{WRITES_PER_MINUTE_PER_USER} writes")
    if not config.schedule.times:
        report.ok("deadline minute", f"{figure}; this match has no deadlines: it resolves when its seats are ready, "
                                     "at moments of their own")
        return
    times = ", ".join(t.strftime("%H:%M") for t in config.schedule.times)
    if matches <= together:
        report.ok("deadline minute", f"{figure}; {who_shares(matches)} at {times} ({config.schedule.zone}) fit")
        return
    spread = ", ".join(shifted(config.schedule.times[0], minute) for minute in range(-(-matches // together)))
    report.warn("deadline minute", f"{figure}; {who_shares(matches)} at {times} ({config.schedule.zone}) are more: "
                                   f"the rest are refused (HTTP 429) and resolve a minute or more late",
                f"spread the deadlines of the matches on this account over minutes, {together} a minute "
                f"({spread}…)")


def _all(spreadsheets: int) -> str:
    """``all 4 spreadsheets are``, or ``its one spreadsheet is``."""
    return "its one spreadsheet is" if spreadsheets == 1 else f"all {spreadsheets} spreadsheets are"


def who_shares(matches: int) -> str:
    """``this match`` or ``the N matches sharing its deadline minute``."""
    return "this match's deadlines" if matches == 1 else f"{matches} matches sharing its deadline minute"


def shifted(moment: time, minutes: int) -> str:
    """``moment`` ``minutes`` later, as HH:MM (across midnight).

    >>> shifted(time(23, 59), 2)
    '00:01'
    """
    total = (moment.hour * 60 + moment.minute + minutes) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"


def check_quota(config: MatchConfig, report: Checkup, matches: int) -> None:
    """The cron line; for Google, the requests a minute of ``matches`` matches like this one polled from cron every
    minute through the Drive gate (idle, and being played), and of ``sync --watch``, against Google's limits."""
    cron = cron_line(config.path, secret_env=bool(config.notify is not None and config.notify.secret_env()))
    if config.backend is BackendKind.LOCAL:
        report.ok("quota", "local workbooks use no Google quota")
        report.ok("cron", f"this match's crontab line (a poll every minute; an idle poll reads nothing): {cron}")
        return
    spreadsheets = len({config.board, config.engine, *config.orders, *([config.judge] if config.judge else [])})
    report.ok("cron", f"this match's crontab line (a poll every minute): {cron}")
    note = (f"computed from Google's published limits ({LIMITS_SOURCE}, {DRIVE_LIMITS_SOURCE}): Google does not "
            "report the quota left")
    load = played_match(get_ruleset(config.ruleset).traits, len(config.seats), spreadsheets, config.schedule)
    lighter, heavier = load.realistic
    who = "this match" if matches == 1 else f"{matches} matches like this one"
    reads = matches * heavier.reads_per_minute
    pace = (f"{numbered(load.windows, 'window')} an hour from [deadlines]" if config.schedule.times else
            f"no deadlines, taken as a window every {numbered(1 / load.windows, 'hour')}")
    figures = (f"from cron every minute an idle poll asks Drive once (every {SAFETY_NET_MINUTES} minutes its file "
               f"index, the safety net) and reads no spreadsheet; a player's save reads her spreadsheet, and our "
               f"answer comes back with it as it then stands; {_all(spreadsheets)} read at a "
               f"resolution and every {FULL_READ_HOURS} hours. Idle: {numbered(load.idle.reads_per_minute, 'read')} a "
               f"minute, {counted(load.idle.matches_per_account(), 'match', 'matches')} like this one per service "
               f"account. Played ({numbered(load.savers, 'person saves', 'people save')} in a window, {pace}): at "
               f"least {numbered(load.saves_per_hour(1), 'save')} an hour (one each a window), realistically "
               f"{number(lighter.changes_per_hour)}–{number(heavier.changes_per_hour)} (two to four each): "
               f"{number(lighter.reads_per_minute)}–{number(heavier.reads_per_minute)} reads a minute, "
               f"{heavier.matches_per_account()}–{lighter.matches_per_account()} matches like this one per service "
               f"account within its {READS_PER_MINUTE_PER_USER} reads a minute; {who}: up to {number(reads)} reads "
               f"and {number(matches * heavier.drive_per_minute)} Drive requests a minute while played")
    fix = (f"run some matches under another service account (each holds {heavier.matches_per_account()}–"
           f"{lighter.matches_per_account()} matches like this one being played)")
    if reads > READS_PER_MINUTE_PER_USER:
        report.warn("quota", f"{figures}; over the {READS_PER_MINUTE_PER_USER} a minute Google allows, so polls will "
                             f"be refused (HTTP 429) and retried late; {note}", fix)
    elif reads > READS_PER_MINUTE_PER_USER * COMFORT:
        report.warn("quota", f"{figures}: little room is left for your own commands; {note}", fix)
    else:
        report.ok("quota", f"{figures}; {note}")
    check_deadline_minute(config, report, matches, spreadsheets, load.per_deadline_minute)
    report.ok("watch", f"sync --watch polls through the same Drive gate every {number(config.interval)} s "
                       f"([sync] interval): its idle polls read no spreadsheet and ask Drive "
                       f"{numbered(60 / config.interval, 'time')} a minute, far within Drive's quota")
