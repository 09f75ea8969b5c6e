"""Whether a mail may be believed and whether it may be answered, from its headers alone.

- **Forged senders**: a mail is read as the player its ``From`` names. Where the judge's mail server checked the
  mail and said so in ``Authentication-Results`` (RFC 8601), a failed DKIM signature or SPF check for the ``From``
  domain, or a failed DMARC check, refuses the mail (``forged``). A result that passed proves nothing more than
  the header's absence would (anyone may write such a header); only a failure is acted on.
- **Loops**: a mail written by a robot is never answered (``never_answer``): ``Auto-Submitted`` other than
  ``no`` (RFC 3834), a bounce (an empty ``Return-Path``, ``MAILER-DAEMON``, a delivery report), a list's or an
  auto-responder's ``Precedence``, and mail from the judge's own addresses. Two robots then never write to each
  other for ever.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from email.message import Message

_METHOD = re.compile(r"\b(dkim|spf|dmarc)\s*=\s*(\w+)([^;]*)", re.IGNORECASE)
_PROPERTY = re.compile(r"\b(header\.d|header\.i|header\.from|smtp\.mailfrom|smtp\.helo)\s*=\s*([^\s;()]+)",
                       re.IGNORECASE)
_FAILED = {"fail", "permerror"}


def _domain(value: str) -> str:
    """The domain of an address or a domain: ``ann@Example.org`` and ``@example.org`` give ``example.org``."""
    return value.strip().strip("<>\"'").rsplit("@", 1)[-1].lower().rstrip(".")


def _fails_for(method: str, rest: str, domain: str) -> bool:
    """Whether one failed ``method`` result, with its properties ``rest``, is about ``domain`` (a DMARC failure
    always is: DMARC is the check of the ``From`` domain itself)."""
    if method == "dmarc":
        return True
    named = [_domain(value) for key, value in _PROPERTY.findall(rest)
             if key.lower() in ("header.d", "header.i", "header.from", "smtp.mailfrom")]
    return any(d == domain or d.endswith(f".{domain}") for d in named)


def forged(message: Message, sender: str) -> str:
    """Why the mail's ``From`` (``sender``) is not believed, in words for its sender ('' when nothing says so)."""
    domain = _domain(sender)
    if not domain:
        return ""
    for header in message.get_all("Authentication-Results", []):
        for method, result, rest in _METHOD.findall(str(header)):
            if result.lower() in _FAILED and _fails_for(method.lower(), rest, domain):
                return (f"the judge's mail server could not confirm that it comes from {domain} ({method.upper()} "
                        f"{result.lower()}): a mail whose sender is not proven is not read; send it again from your "
                        "own mailbox at your own provider")
    return ""


def never_answer(message: Message, sender: str, own_addresses: Collection[str]) -> str:
    """Why the mail must never be answered (``Auto-Submitted``, a bounce, a list, our own address); '' when it may
    be."""
    auto = str(message.get("Auto-Submitted", "")).strip().lower()
    if auto and not auto.startswith("no"):
        return f"it was written by a robot (Auto-Submitted: {auto})"
    return_path = message.get("Return-Path")
    if return_path is not None and str(return_path).strip() in ("", "<>"):
        return "it is a bounce (its Return-Path is empty)"
    local = sender.rsplit("@", 1)[0].lower()
    if local in ("mailer-daemon", "mailer_daemon") or message.get_content_type() == "multipart/report":
        return "it is a bounce or a delivery report"
    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"it was sent to a list or by a robot (Precedence: {precedence})"
    if message.get("X-Autoreply") is not None or message.get("X-Autorespond") is not None:
        return "it is an automatic reply"
    if sender and sender.lower() in {a.lower() for a in own_addresses}:
        return "it comes from the judge's own address"
    return ""
