"""Every shape of bad mail, delivered into a real IMAP server and read as a poll reads it: what is read of it, what
is said of the rest, whether it is refused, whether it may be answered. Nothing of it ever crashes the read."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from sheets_gm.mailbox.ledger import MailLedger
from sheets_gm.mailbox.message import Mail
from sheets_gm.mailbox.reader import new_mail
from tests.fakes.dovecot import Dovecot
from tests.mailbox.mails import plain, settings_of

ORDER = "Rabid Cat: Mirrodin; 3A > 4A - engage Various Puppies"
JUDGE = "judge@example.org"


def _html_only() -> bytes:
    message = EmailMessage()
    message["From"], message["Subject"] = "Ann <ann@example.org>", "html"
    message.set_content(f"<html><body><p>{ORDER.replace('>', '&gt;')}</p><blockquote>old order</blockquote>"
                        "<script>alert(1)</script></body></html>", subtype="html")
    return message.as_bytes()


def _with_attachment(text: str) -> bytes:
    message = EmailMessage()
    message["From"], message["Subject"] = "Ann <ann@example.org>", "attached"
    if text:
        message.set_content(text)
        message.add_attachment(b"%PDF-1.4 strategy", maintype="application", subtype="pdf", filename="strategy.pdf")
    else:
        message.set_content(b"%PDF-1.4 strategy", maintype="application", subtype="pdf", disposition="attachment",
                            filename="strategy.pdf")
    return message.as_bytes()


def _unknown_charset() -> bytes:
    return (b"From: Ann <ann@example.org>\r\nSubject: charset\r\nMessage-ID: <cs@example.org>\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: text/plain; charset=x-klingon\r\n\r\nRabid Cat: Mirrodin; 3A > 4A \xff\xfe - hold\r\n")


def _authenticated(result: str) -> bytes:
    return plain(ORDER, subject="auth", headers={"Authentication-Results": f"mx.judge.example; {result}"})


SHAPES: dict[str, tuple[bytes, dict[str, object]]] = {
    "html only": (_html_only(), {"text": ORDER, "refused": ""}),
    "quoted reply and signature": (plain(f"{ORDER}\n\nOn Mon, 2 Mar 2026, Bo <bo@example.org> wrote:\n> Bo: Thane; "
                                         f"1A > 2A\n> more\n"), {"text": ORDER}),
    "quoted lines only kept out": (plain(f"> Old: Mirrodin; 1A > 2A\n{ORDER}\n-- \nAnn\nCaptain of the Cats"),
                                   {"text": ORDER}),
    "text and an attachment": (_with_attachment(ORDER), {"text": ORDER, "refused": "", "attachments": ("strategy.pdf",),
                                                          "problem": "attachments are not read"}),
    "attachment only": (_with_attachment(""), {"refused": "it holds attachments only"}),
    "unknown charset": (_unknown_charset(), {"refused": "", "problem": "its charset 'x-klingon' is unknown: it was "
                                                                       "read as UTF-8"}),
    "dkim fail": (_authenticated("dkim=fail header.d=example.org; spf=pass smtp.mailfrom=ann@example.org"),
                  {"refused": "could not confirm that it comes from example.org (DKIM fail)", "unproven": True}),
    "spf fail": (_authenticated("spf=fail smtp.mailfrom=ann@example.org"),
                 {"refused": "could not confirm that it comes from example.org (SPF fail)"}),
    "dkim fail of another domain": (_authenticated("dkim=fail header.d=lists.example.net; spf=pass "
                                                   "smtp.mailfrom=ann@example.org"), {"refused": ""}),
    "passed checks": (_authenticated("dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org"),
                      {"refused": "", "answer": True}),
    "auto-submitted": (plain("I am away", headers={"Auto-Submitted": "auto-replied"}),
                       {"answer": False, "silent": "Auto-Submitted: auto-replied"}),
    "auto-submitted no": (plain(ORDER, headers={"Auto-Submitted": "no"}), {"answer": True}),
    "bounce": (plain("Delivery failed", sender="MAILER-DAEMON@mx.example.org"), {"answer": False,
                                                                                  "silent": "bounce"}),
    "empty return path": (plain("Delivery failed", headers={"Return-Path": "<>"}), {"answer": False,
                                                                                    "silent": "Return-Path is empty"}),
    "our own address": (plain("a receipt", sender=f"Judge <{JUDGE}>"), {"answer": False,
                                                                        "silent": "judge's own address"}),
    "no from": (plain(ORDER, sender="undisclosed-recipients:;"), {"refused": "names no single sender",
                                                                  "answer": False}),
    "encoded address": (plain(ORDER, sender="=?us-ascii?q?ann=40example.org?="),
                        {"refused": "is no address (an encoded word", "sender": "", "answer": False}),
    "encoded address in angles": (plain(ORDER, sender='"Cy" <=?utf-8?q?cy=40example.org?=>'),
                                  {"refused": "is no address (an encoded word", "sender": "", "answer": False}),
    "control character in address": (plain(ORDER, sender="Ann <ann\x01@example.org>"),
                                     {"refused": "a control character", "sender": "", "answer": False}),
    "two from headers": (plain(ORDER, headers={"From": "Ann <ann@example.org>\r\nFrom: Bo <bo@example.org>"}),
                         {"refused": "it has 2 From headers", "sender": "", "answer": False}),
    "encoded display name": (plain(ORDER, sender="=?utf-8?q?Ann=C3=A9_L=C3=A9e?= <Ann@Example.org>"),
                             {"refused": "", "sender": "ann@example.org", "sender_name": "Anné Lée"}),
    "no message-id": (plain(ORDER, message_id=""), {"text": ORDER,
                                                                                     "message_id": "@no-message-id"}),
}


@pytest.fixture(scope="module")
def read(dovecot: Dovecot, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Mail]:
    """Every shape delivered into one mailbox and read by one poll (in the order delivered), each by its name."""
    folder = tmp_path_factory.mktemp("bad-mail")
    user = dovecot.add_user()
    for raw, _ in SHAPES.values():
        dovecot.deliver(user, raw)
    mails = new_mail(settings_of(dovecot, user, folder), MailLedger(folder / "ledger.jsonl"), own_addresses=[JUDGE])
    assert len(mails) == len(SHAPES)
    return dict(zip(SHAPES, mails, strict=True))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_each_bad_mail_is_read_as_far_as_it_can_be_and_said(read: dict[str, Mail], shape: str) -> None:
    mail = read[shape]
    for key, wanted in SHAPES[shape][1].items():
        if key == "problem":
            assert any(str(wanted) in p for p in mail.problems), mail.problems
        elif key in ("refused", "silent", "message_id") and wanted:
            assert str(wanted) in getattr(mail, key), (key, getattr(mail, key))
        else:
            assert getattr(mail, key) == wanted, (key, getattr(mail, key))
