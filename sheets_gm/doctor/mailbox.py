"""doctor's checks of the judge's mailbox: ``[mailbox]`` itself (a failed line per bad option), where its password
is read, a login and the folder's STATUS on the server (what a poll asks), whether the server offers IDLE (which
``serve`` watches the mailbox with), and that ``[notify.email]`` is set, so that every mail's sender gets its
receipt."""

from __future__ import annotations

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.doctor.notices import secret_readable, secret_sources
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.engine.words import counted
from sheets_gm.mailbox.errors import MailboxError
from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.status import folder_status
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.mailbox_settings import MailboxSettings
from sheets_gm.rulesets.registry import get_game
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.sheets import MatchSheets

NAME = "mailbox"


def check_mailbox(config: MatchConfig, report: Checkup) -> None:
    """Every check of the judge's mailbox (see the module notes)."""
    report.table_problems(NAME, "mailbox", config.mailbox_problems, config.path, "docs/mailbox.md",
                          "the match is polled but its mailbox is not read")
    box = config.mailbox
    if box is None and not config.mailbox_problems:
        report.ok(NAME, "none: mail to the judge is not read (add a [mailbox] table to read it, docs/mailbox.md)")
    if box is None:
        return
    secret_sources(config, box.secret_env(), report, NAME)
    if not secret_readable(report, box.password, "the mailbox password", "password_env", NAME):
        return
    _server(config, box, report)
    _receipts(config, report)


def _server(config: MatchConfig, box: MailboxSettings, report: Checkup) -> None:
    """A login and the folder's STATUS, as a poll asks them; the server's IDLE; what the ledger holds."""
    try:
        found = folder_status(box)
    except MailboxError as exc:
        report.fail(NAME, str(exc), _fix(exc.kind, config))
        return
    ledger = MailLedger.for_match(config)
    read = "never read yet" if ledger.uidvalidity is None else (
        f"read up to UID {ledger.last_uid}" if ledger.uidvalidity == found.uidvalidity else
        "rebuilt by the server since the last read (a new UIDVALIDITY): mail already read is known by its Message-ID")
    waiting = max(0, found.uidnext - 1 - ledger.last_uid) if ledger.uidvalidity == found.uidvalidity else 0
    report.ok(NAME, f"{box.describe()}: logged in; the folder is {read}"
              + (f", {waiting} UID(s) after it" if waiting else "") + f"; {len(ledger.records())} mail(s) filed")
    if found.idle:
        report.ok(NAME, "the server offers IDLE: under serve, a mail wakes its match's poll at once")
    else:
        report.warn(NAME, "the server does not offer IDLE: under serve, mail is read at each poll, not the moment "
                          "it arrives", "nothing to mend; a server that offers IDLE answers players faster")
    pending = ledger.pending()
    if pending:
        report.warn(NAME, f"{len(pending)} mail(s) begun and not filed yet (a poll cut short): the next poll files "
                          "them", "nothing to do: the next poll files them")


def _receipts(config: MatchConfig, report: Checkup) -> None:
    """Whether each mail's sender can get its receipt: ``[notify.email]`` set and readable."""
    if config.notify is not None and config.notify.email is not None:
        report.ok(NAME, f"receipts go by e-mail through {config.notify.email.host} (the [notify.email] table)")
        return
    report.warn(NAME, "receipts cannot go: [notify.email] is not set, so the players who mail the judge are never "
                      "told what was read of their mail",
                f"add a [notify.email] table to {config.path} (docs/notices.md): receipts go through it")


def _fix(kind: str, config: MatchConfig) -> str:
    """What to do about a mailbox that cannot be read, by the kind of its failure."""
    return {
        "secret": "set the password where [mailbox] names it (cron's and serve's environment file too)",
        "connect": f"check host and port in [mailbox] of {config.path}, and that the server is up",
        "tls": "check security and port in [mailbox] (tls: 993, starttls: 143), or name the server's authority in "
               "ca_file",
        "login": "check user in [mailbox] and the password where it names it",
        "folder": "write the folder to read in [mailbox] folder (one of those named)",
    }.get(kind, "try again later; if it lasts, ask the mail server's keeper")


def check_strategies_tab(config: MatchConfig, sheets: MatchSheets, tabs: MatchTabs, report: Checkup) -> None:
    """For a match with ``[mailbox]`` whose game files sealed submissions (Coalition's strategies): whether the
    judge's tab of them is laid out, after the judge's own tabs. A tab not laid out yet is no fault when no
    strategy was filed for the open window (the first one, or the battle deadline, lays it out)."""
    part = get_game(config.ruleset).mail
    if part is None or config.mailbox is None:
        return
    name, judge = part.sealed_tab().tab, sheets.judge_sheet()
    names = judge.tab_names()
    repair = f"run `sheets-gm repair -c {config.path}`: it lays the tab out after the judge's own tabs"
    if name not in names:
        filed = sum(1 for _ in MailRecord.of(config.path).sealed())
        if filed:
            report.warn("strategies", f"{judge.name} has no {name!r} tab, though the judge's mailbox filed "
                                      f"{counted(filed, 'strategy', 'strategies')}: the next strategy mail draws it "
                                      "again", repair)
        else:
            report.ok("strategies", f"no {name!r} tab in {judge.name} yet: the first strategy mail (or the battle "
                                    "deadline) lays it out, after the judge's own tabs")
        return
    own = [n for n in (tabs.spec.tabs.judge, tabs.view(JUDGE)) if n in names]
    if own and names.index(name) < max(names.index(n) for n in own):
        report.warn("strategies", f"the {name!r} tab stands before the judge's own tabs in {judge.name}", repair)
        return
    report.ok("strategies", f"the {name!r} tab is laid out in {judge.name}, after the judge's own tabs")
