"""Each mail is handled once across polls killed (SIGKILL) anywhere and restarted: a poll process is cut while it
reads the mail from the real server, after a mail is begun, after its filing wrote, after it is finished; the next
poll files every mail the cut one did not finish, and no finished mail again, and flags read on the server every
mail the cut one finished and left unflagged; the poll after is idle. Only the poll that is killed runs in a process
of its own; the next two are the same poll in the test's process."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sheets_gm.mailbox.ledger import MailLedger
from tests.fakes.dovecot import Dovecot, MailUser
from tests.mailbox.mails import plain, settings_of
from tests.mailbox.poll_child import poll
from tests.paths import ROOT
from tests.quick import soak_but


def _killed_poll(args: dict[str, object]) -> subprocess.CompletedProcess[str]:
    """``poll`` in a process of its own, which its cut kills."""
    return subprocess.run([sys.executable, "-m", "tests.mailbox.poll_child", json.dumps(args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)


def _unseen(user: MailUser) -> list[str]:
    """The mail files of ``user``'s Maildir not flagged ``\\Seen`` on the server."""
    files = [p.name for folder in ("cur", "new") for p in (user.maildir / folder).iterdir()]
    return [name for name in files if "S" not in name.rpartition(":2,")[2]]


#: Where a poll is cut: while it reads the mail, after a mail is begun, after its filing wrote, after it is finished,
#: after every mail is finished and before the server flags them read (``flag``).
CUTS = [("read", 2), ("begin", 1), ("file", 3), ("finish", 0), ("finish", 4), ("flag", 0)]


@pytest.mark.parametrize(("cut", "at"), soak_but(CUTS, *(c for c in CUTS if c != ("finish", 4))))
def test_a_poll_killed_anywhere_loses_nothing_and_reads_nothing_twice(dovecot: Dovecot, tmp_path: Path, cut: str,
                                                                      at: int) -> None:
    user = dovecot.add_user()
    settings = settings_of(dovecot, user, tmp_path)
    ids = [f"<cut-{cut}-{n}@example.org>" for n in range(5)]
    for message_id in ids:
        dovecot.deliver(user, plain(message_id=message_id))
    ledger, filed = tmp_path / "ledger.jsonl", tmp_path / "filed.txt"
    args = {"host": settings.host, "port": settings.port, "user": settings.user,
            "password_file": str(settings.password.file), "ledger": str(ledger), "filed": str(filed)}
    killed = _killed_poll({**args, "cut": cut, "at": at})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    done = {r.message_id for r in MailLedger(ledger).records() if r.finished}
    first = filed.read_text(encoding="utf-8").split() if filed.exists() else []
    poll({**args, "cut": "", "at": -1})
    second = filed.read_text(encoding="utf-8").split()[len(first):]
    assert set(second) == set(ids) - done  # every mail the cut poll did not finish, and none it did
    assert sorted(set(first) | set(second)) == sorted(ids)  # nothing lost
    twice = [mid for mid, count in Counter(first + second).items() if count > 1]
    assert twice == ([ids[at]] if cut == "file" else [])  # only a mail cut between its filing and its finish
    records = MailLedger(ledger).records()
    assert sorted(r.message_id for r in records) == sorted(ids) and all(r.finished for r in records)
    assert _unseen(user) == []  # a mail the cut poll finished and never flagged is flagged by the next one
    assert poll({**args, "cut": "", "at": -1}) == 0
