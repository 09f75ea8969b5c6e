"""doctor's mailbox checks against a real IMAP server: a good mailbox logs in, its folder read and its IDLE said;
a wrong password, a missing folder, a bad [mailbox] fail in words with their fix; receipts without [notify.email]
are warned of; a match with no [mailbox] says so and passes."""

from __future__ import annotations

from pathlib import Path

from sheets_gm.doctor.checkup import Check, Checkup, Verdict
from sheets_gm.doctor.mailbox import check_mailbox
from sheets_gm.match.config import load_config
from tests.fakes.dovecot import Dovecot, MailUser
from tests.matchfiles import local_config

EMAIL = '[notify.email]\nhost = "smtp.example.org"\nsender = "Judge <judge@example.org>"\n'


def _checks(tmp_path: Path, body: str) -> list[Check]:
    report = Checkup()
    check_mailbox(load_config(local_config(tmp_path, body)), report)
    return report.checks


def _mailbox(server: Dovecot, user: MailUser, tmp_path: Path, *, password: str = "", folder: str = "INBOX") -> str:
    (tmp_path / "imap-password").write_text(password or user.password, encoding="utf-8")
    (tmp_path / "imap-password").chmod(0o600)
    return (f'[mailbox]\nhost = "127.0.0.1"\nport = {server.port}\nsecurity = "none"\nuser = "{user.name}"\n'
            f'password_file = "imap-password"\nfolder = "{folder}"\n')


def test_a_good_mailbox_logs_in_and_says_its_folder_and_idle(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    checks = _checks(tmp_path, _mailbox(dovecot, user, tmp_path) + EMAIL)
    assert all(c.verdict is Verdict.OK for c in checks), checks
    said = "\n".join(c.message for c in checks)
    assert f"{user.name} at 127.0.0.1:{dovecot.port} (none), folder INBOX: logged in; the folder is never read yet" \
        in said
    assert "the server offers IDLE" in said and "receipts go by e-mail through smtp.example.org" in said


def test_a_wrong_password_and_a_missing_folder_fail_with_their_fix(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    wrong = _checks(tmp_path, _mailbox(dovecot, user, tmp_path, password="guess") + EMAIL)
    failed = [c for c in wrong if c.verdict is Verdict.FAIL]
    assert len(failed) == 1 and f"refused the login of {user.name}" in failed[0].message
    assert failed[0].fix == "check user in [mailbox] and the password where it names it"
    missing = _checks(tmp_path, _mailbox(dovecot, user, tmp_path, folder="Strategies") + EMAIL)
    failed = [c for c in missing if c.verdict is Verdict.FAIL]
    assert len(failed) == 1 and "the folder 'Strategies' cannot be opened" in failed[0].message
    assert "the folders of" in failed[0].message and "INBOX" in failed[0].message


def test_receipts_without_notify_email_are_warned_of(dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.add_user()
    checks = _checks(tmp_path, _mailbox(dovecot, user, tmp_path))
    warned = [c for c in checks if c.verdict is Verdict.WARN]
    assert len(warned) == 1 and "receipts cannot go: [notify.email] is not set" in warned[0].message
    assert "add a [notify.email] table" in warned[0].fix


def test_no_mailbox_passes_and_a_bad_one_fails_each_key(tmp_path: Path) -> None:
    none = _checks(tmp_path, "")
    assert [c.verdict for c in none] == [Verdict.OK] and "mail to the judge is not read" in none[0].message
    bad = _checks(tmp_path, '[mailbox]\nhost = "imap.example.org"\nsecurity = "none"\nuser = "j"\n')
    assert [c.verdict for c in bad] == [Verdict.FAIL, Verdict.FAIL]
    assert "[mailbox] security: \"none\" is accepted only" in bad[0].message
    assert "[mailbox] password_env: missing" in bad[1].message and "its mailbox is not read" in bad[1].fix
