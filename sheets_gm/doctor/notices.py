"""doctor's checks of a match's notices: ``[notify]`` itself (a failed line per bad option), the secrets it names,
the roster's addresses, what waits in the outbox and why, and on demand a test notice through every channel."""

from __future__ import annotations

from datetime import datetime, timedelta

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.config_tables import SecretError, SecretSource
from sheets_gm.match.notify_settings import NotifySettings
from sheets_gm.match.seat_roster import SeatRosterError
from sheets_gm.notify.announce import describe_letter, describe_notes, send_test
from sheets_gm.notify.outbox import Outbox
from sheets_gm.running.bot_drift import configured_bots
from sheets_gm.sync.bot_seats import NO_BOT

NAME = "notices"


def check_notices(config: MatchConfig, report: Checkup, *, now: datetime, test: bool = False) -> None:
    """Every check of the match's notices (see the module notes); ``test`` sends a test notice at once."""
    report.table_problems(NAME, "notify", config.notify_problems, config.path, "docs/notices.md",
                          "the match is polled but no notice is sent")
    notify = config.notify
    if notify is None:
        if not config.notify_problems:
            report.ok(NAME, "none: add a [notify] table to tell the players by e-mail or chat (docs/notices.md)")
            if test:
                report.fail(NAME, "--send-test: there is no channel to send through", f"add [notify] to {config.path}")
        _waiting(config, report, now)
        return
    report.ok(NAME, "through " + " and ".join(notify.channels()) + "; sent: "
              + ", ".join(sorted(k.value for k in notify.sent_kinds)))
    if notify.secret_env():
        secret_sources(config, notify.secret_env(), report)
    if notify.email is not None and notify.email.password is not None:
        secret_readable(report, notify.email.password, "the mail password", "password_env")
    if notify.chat is not None:
        secret_readable(report, notify.chat.url, "the webhook's URL", "url_env")
    if notify.email is not None:
        _addresses(config, report)
    _waiting(config, report, now)
    if test:
        _test(config, notify, report, now)


def secret_sources(config: MatchConfig, names: list[str], report: Checkup, check: str = NAME) -> None:
    """Where each variable a table of the config names (``[notify]``, ``[mailbox]``) comes from, as cron, serve and
    every command read it (``match.env_file``): this process's environment, the match's environment file or the
    host's; each file there only its owner may read (values are never shown). Said under the doctor's ``check``."""
    import os

    from sheets_gm.match.env_file import EnvFileError, env_files_of, exposed, host_env_path, read_env_file

    found: dict[str, str] = {}
    for path in reversed(env_files_of(config.path)):  # the match's own file before the host's
        if not path.exists():
            continue
        try:
            found |= {name: str(path) for name, value in read_env_file(path).items() if value.strip()}
        except EnvFileError as exc:
            report.warn(check, str(exc), f"mend {path}: NAME=value lines")
        if exposed(path):
            report.warn(check, exposed(path), f"chmod 600 {path}")
    shell = [n for n in names if n not in found and os.environ.get(n, "").strip()]
    missing = [n for n in names if n not in found and n not in shell]
    if missing:
        report.warn(check, f"{', '.join(missing)}: in no environment file, so cron and serve (which start with "
                           "none of your variables) cannot use it",
                    f"write {', '.join(f'{n}=…' for n in missing)} in {host_env_path()} (the host's, read by "
                    "every command; chmod 600), a line each")
    if shell:
        report.warn(check, f"{', '.join(shell)}: only in this shell's environment: cron and serve do not have it",
                    f"write it in {host_env_path()} (chmod 600)")
    if found:
        report.ok(check, "secrets read by cron, serve and every command alike: " + ", ".join(
            f"{name} from {path}" for name, path in sorted(found.items()) if name in names))


def secret_readable(report: Checkup, source: SecretSource, what: str, key: str, check: str = NAME) -> bool:
    """Whether the secret ``what`` can be read from its ``source`` (failed, naming where to put it, when not); a
    file others can read is warned of. ``key``: the config's key naming it (``password_env``)."""
    try:
        source.read(what)
    except SecretError as exc:
        report.fail(check, str(exc), f"set it before the sync runs (cron's environment too), or name another source "
                                     f"with {key} or {key.replace('_env', '_file')}")
        return False
    exposed = source.exposed()
    if exposed:
        report.warn(check, f"{what}: {exposed}", f"chmod 600 {source.file}")
    return True


def _addresses(config: MatchConfig, report: Checkup) -> None:
    """The seats the roster file gives no e-mail address (they get no e-mail), but those a bot plays whole (nobody
    reads their mail: ``notify.notices`` tells them nothing); the Roster tab is read at the notices themselves, not
    here."""
    if config.roster is None:
        report.ok(NAME, "e-mail: each seat's addresses are read from the Roster tab when a notice goes out")
        return
    from sheets_gm.match.match_roster import roster_file_of
    from sheets_gm.rulesets.registry import get_ruleset

    try:
        roster = roster_file_of(get_ruleset(config.ruleset).traits, config.roster, config.seats)
    except (SeatRosterError, OSError) as exc:
        report.fail(NAME, f"e-mail: the roster cannot be read ({exc})", f"mend {config.roster}")
        return
    bots = {name for name, kind in configured_bots(config).items() if kind != NO_BOT}
    played = {seat for seat in config.seats  # a seat a bot plays whole is told nothing: it needs no address
              if seat in bots or (roster.of(seat) and all(m.name in bots for m in roster.of(seat)))}
    without = [seat for seat in config.seats if seat not in played and not any(m.email for m in roster.of(seat))]
    refused = refused_addresses(Outbox.of(config.path))
    bad = [f"{m.email} ({seat})" for seat in config.seats for m in roster.of(seat) if m.email
           and m.email.casefold() in refused]
    if without:
        report.warn(NAME, f"e-mail: no address for {', '.join(without)} in {config.roster}: they get no e-mail",
                    "fill the roster's email column for them")
    if bad:
        report.warn(NAME, f"e-mail: the mail server refused {', '.join(bad)} for good: no notice reaches them",
                    f"mend the address in {config.roster} (its email column)")
    if not without and not bad:
        report.ok(NAME, f"e-mail: every seat has an address in {config.roster}")


def refused_addresses(box: Outbox) -> frozenset[str]:
    """The addresses the mail server refused for good, as the outbox's notes name them (folded)."""
    return frozenset(note.get("what", "").split(" ", 1)[0].casefold() for note in box.notes()
                     if " refused for good (" in note.get("what", "") and "mend the roster" in note.get("what", ""))


def _waiting(config: MatchConfig, report: Checkup, now: datetime) -> None:
    box = Outbox.of(config.path)
    if not box.folder.is_dir():
        return
    notes = [note for note in box.notes() if _within_a_week(note.get("at", ""), now)]
    if notes:
        shown = describe_notes(notes)
        report.warn(NAME, f"{len(notes)} notice{'s' if len(notes) != 1 else ''} not delivered this week, the last: "
                    + " | ".join(shown), "mend what each names (an address in the roster; for a post in doubt, look "
                                         "in the channel); sheets-gm status lists them too")
    waiting = box.waiting()
    if not waiting:
        report.ok(NAME, f"the outbox ({box.folder}) is empty: every notice was sent")
        return
    shown = [describe_letter(letter, now) for letter in waiting[:5]]
    more = f" … and {len(waiting) - 5} more" if len(waiting) > 5 else ""
    report.warn(NAME, f"{len(waiting)} notice{'s' if len(waiting) != 1 else ''} wait in {box.folder}: "
                + " | ".join(shown) + more,
                "they are tried again at every poll; mend what the error names, and check the channels with "
                f"sheets-gm doctor -c {config.path} --send-test")


def _within_a_week(at: str, now: datetime) -> bool:
    """Whether a note made at ``at`` (ISO) is of the last seven days (doctor warns of those; status lists all)."""
    try:
        return now - datetime.fromisoformat(at) <= timedelta(days=7)
    except (ValueError, TypeError):
        return True


def _test(config: MatchConfig, notify: NotifySettings, report: Checkup, now: datetime) -> None:
    for verdict, said in send_test(config, notify, now):
        if verdict == "ok":
            report.ok(NAME, f"test: {said}")
        else:
            report.fail(NAME, f"test: {said}", "mend what it names in [notify], then send the test again")
