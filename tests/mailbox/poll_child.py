"""A poll of the mailbox cut (SIGKILL) at a chosen point: while it reads the mail (``read``), after a mail is begun
(``begin``), after its filing wrote (``file``), after it is finished (``finish``), before the server flags the mail
(``flag``). Its filing appends the mail's Message-ID to a file (``filed``), as a filing's idempotent write.

``python -m tests.mailbox.poll_child '<json>'``: host, port, user, password_file, ledger, filed, cut, at: the poll
in a process of its own, which the cut kills. A poll that is not cut (``cut`` '') is the same ``poll`` called in the
test's process (a process start less)."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

from sheets_gm.mailbox import client
from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.reader import mark_handled, new_mail
from sheets_gm.match.config_tables import SecretSource
from sheets_gm.match.mailbox_settings import MailboxSecurity, MailboxSettings


def poll(args: dict[str, object]) -> int:
    """One poll, cut where ``args`` says (``cut`` at the ``at``-th mail; ``cut`` '' runs to the end): the number of
    mails it handled. The mail is read two to a batch, so that a cut falls between two batches."""
    cut, at = str(args["cut"]), int(str(args["at"]))

    def kill(point: str, index: int) -> None:
        if point == cut and index == at:
            os.kill(os.getpid(), signal.SIGKILL)

    bodies, batch_count = client.bodies, client.BATCH_COUNT

    def cut_bodies(session: object, mails: list[client.Arrival]) -> Iterator[client.Fetched]:
        for n, found in enumerate(bodies(session, mails)):
            kill("read", n)
            yield found

    client.bodies = cut_bodies  # type: ignore[assignment]
    client.BATCH_COUNT = 2  # several batches, so the cut falls between two of them
    try:
        settings = MailboxSettings(str(args["host"]), int(str(args["port"])), MailboxSecurity.NONE,
                                   str(args["user"]), SecretSource(file=Path(str(args["password_file"]))))
        ledger = MailLedger(Path(str(args["ledger"])))
        mails = new_mail(settings, ledger)
        for n, mail in enumerate(mails):
            ledger.begin(mail)
            kill("begin", n)
            with Path(str(args["filed"])).open("a", encoding="utf-8") as filed:
                filed.write(mail.message_id + "\n")
            kill("file", n)
            ledger.finish(mail)
            kill("finish", n)
        kill("flag", 0)
        mark_handled(settings, ledger, mails)
    finally:
        client.bodies, client.BATCH_COUNT = bodies, batch_count
    return len(mails)


if __name__ == "__main__":
    print(poll(json.loads(sys.argv[1])))
