"""The idle decision asks the judge's mailbox: a match whose poll would stay idle stays so after one STATUS when no
mail came, and polls when mail came (or mail begun waits to be filed, or a trouble was not said yet); a match with
no [mailbox] loads no IMAP code at all."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.host.quiet import Need, google_need
from sheets_gm.mailbox.errors import MailboxError
from sheets_gm.mailbox.ledger import MailLedger, ledger_path
from sheets_gm.mailbox.reader import new_mail
from sheets_gm.match.config import load_config
from sheets_gm.running.idle_poll import idle_local_sync
from tests.fakes.dovecot import Dovecot, MailUser
from tests.mailbox.mails import file_all, plain
from tests.matchfiles import local_match
from tests.notify.servers import free_port
from tests.paths import ROOT


def _mailbox(server: Dovecot, user: MailUser, folder: Path, port: int = 0) -> str:
    (folder / "imap-password").write_text(user.password, encoding="utf-8")
    return (f'[mailbox]\nhost = "127.0.0.1"\nport = {port or server.port}\nsecurity = "none"\nuser = "{user.name}"\n'
            'password_file = "imap-password"\n')


def test_an_idle_poll_asks_one_status_and_polls_when_mail_came(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    config, _ = local_match(tmp_path, body=_mailbox(dovecot, user, tmp_path))
    assert main(["sync", "-c", str(config), "--quiet"]) == 0
    file_all(config)
    now = datetime.now(UTC)
    dovecot.forget_commands(user)
    assert idle_local_sync(config, now, quiet=True) is not None
    assert dovecot.commands(user) == ["STATUS"]
    dovecot.deliver(user, plain())
    assert idle_local_sync(config, now, quiet=True) is None  # mail came: the poll reads
    file_all(config)
    assert idle_local_sync(config, now, quiet=True) is not None


def test_a_trouble_polls_once_to_be_said_then_stays_idle(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    config, _ = local_match(tmp_path, body=_mailbox(dovecot, user, tmp_path, port=free_port()))
    assert main(["sync", "-c", str(config), "--quiet"]) == 0
    now = datetime.now(UTC)
    assert idle_local_sync(config, now, quiet=True) is None  # not said yet: the poll says it
    loaded = load_config(config)
    assert loaded.mailbox is not None
    ledger = MailLedger(ledger_path(config))
    try:
        new_mail(loaded.mailbox, ledger)
    except MailboxError as exc:
        assert ledger.trouble(exc.kind, str(exc))
    assert idle_local_sync(config, now, quiet=True) is not None  # said: the match idles, nothing held back


def test_a_match_with_no_mailbox_loads_no_imap_code(tmp_path: Path) -> None:
    config, _ = local_match(tmp_path)
    assert main(["sync", "-c", str(config), "--quiet"]) == 0
    code = ("import sys; from datetime import datetime, UTC; from pathlib import Path; "
            "from sheets_gm.running.idle_poll import idle_local_sync; "
            f"assert idle_local_sync(Path({str(config)!r}), datetime.now(UTC), quiet=True) is not None; "
            "print(sorted(m for m in sys.modules if m.startswith(('imapclient', 'sheets_gm.mailbox', 'imaplib'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_google_matchs_look_asks_its_mailbox_last(dovecot: Dovecot, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # A look of serve at a Google match asks Drive (here: nothing changed, nothing due), its notices, then its mailbox
    user = dovecot.add_user()
    config, _ = local_match(tmp_path, body=_mailbox(dovecot, user, tmp_path))
    monkeypatch.setattr("sheets_gm.host.quiet.due_without_changes", lambda *args, **kwargs: "")
    now = datetime.now(UTC)
    file_all(config)
    assert google_need(config, frozenset({"key"}), False, now, watched=True) == Need()
    dovecot.deliver(user, plain())
    need = google_need(config, frozenset({"key"}), False, now, watched=True)
    assert need.poll and need.why == "mail waits in the judge's mailbox"
