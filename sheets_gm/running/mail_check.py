"""Whether the judge's mailbox holds mail for a poll: asked by the idle decision (``idle_poll.may_stay_idle``), so
that a poll that would stay idle reads when mail came. A match with no ``[mailbox]`` costs one read of its config's
bytes and nothing more (neither the TOML parser nor the IMAP library is loaded); one with a mailbox, a login and
one STATUS (``mailbox.status.waiting``, standard library only), nothing downloaded.

A mailbox that cannot be asked (a server down, a login refused) keeps its match idle once its trouble was said:
the poll that meets a trouble first says it (``MailLedger.trouble``), and every other match goes on."""

from __future__ import annotations

from pathlib import Path

from sheets_gm.match.bounded_file import MAX_CONFIG_BYTES, FileRefused, read_bounded


def mail_waiting(config_path: Path) -> bool:
    """Whether the mailbox of the match configured by ``config_path`` has mail to file, or a trouble not said yet
    (then the poll reads, and says it). False with no ``[mailbox]``, or a ``[mailbox]`` with problems (every poll
    says those)."""
    try:
        data = read_bounded(config_path, MAX_CONFIG_BYTES, what="a match config")
    except (OSError, FileRefused):
        return False  # the poll reads the config and says what is wrong with it
    if b"mailbox" not in data:  # no [mailbox]: not even the TOML parser is loaded
        return False
    import tomllib

    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False
    if not isinstance(raw.get("mailbox"), dict) or not raw["mailbox"]:
        return False
    from sheets_gm.mailbox.errors import MailboxError
    from sheets_gm.mailbox.ledger import MailLedger, ledger_path
    from sheets_gm.mailbox.status import waiting
    from sheets_gm.match.mailbox_settings import parse_mailbox

    settings, _problems = parse_mailbox(raw["mailbox"], where=str(config_path), folder=config_path.parent)
    if settings is None:
        return False
    ledger = MailLedger(ledger_path(config_path))
    try:
        return waiting(settings, ledger)
    except MailboxError as exc:
        return exc.kind != ledger.troubled
