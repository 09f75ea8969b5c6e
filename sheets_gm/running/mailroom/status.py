"""What ``status`` says of the judge's mailbox: how many mails were read and what became of them, and per battle
awaiting results the strategies received and the sides with none yet (the game's words: ``MailPart.sealed_summary``).
Read from the GM-private record: ``status`` is the GM's command, shown to nobody else."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from sheets_gm.engine.words import counted
from sheets_gm.match.config import MatchConfig
from sheets_gm.rulesets.registry import get_game, get_ruleset
from sheets_gm.running.mailroom.answering import unanswered_line
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.sync.judge_part import judging
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets


def mail_status_lines(config: MatchConfig, sheets: MatchSheets, now: datetime | None = None) -> list[str]:
    """The lines (none, and nothing read, for a match without ``[mailbox]`` whose record is empty), as at ``now``
    (None: the battles' strategies said as before the players' deadline)."""
    part = get_game(config.ruleset).mail
    record = MailRecord.of(config.path)
    if part is None or (config.mailbox is None and not record.entries):
        return []
    kinds = Counter(e.kind or "never answered" for e in record.entries.values() if not e.unread)
    unread = sum(1 for e in record.entries.values() if e.unread)
    said = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "none read"
    lines = [f"Judge's mailbox: {len(record.entries)} mails ({said}; {unread} not read, each told why)."]
    lines += [line for line in (unanswered_line(list(record.entries.values())),) if line]
    read = read_match(sheets, get_ruleset(config.ruleset))
    window = read.record.ruleset.window(read.record.state)
    key = window.key if window is not None else None
    waiting = [e for e in record.entries.values() if e.window == key and e.untyped()]
    if waiting:
        why = "; ".join(dict.fromkeys(w for e in waiting for w in e.untyped().values()))
        senders = [f"{e.sender} ({e.subject or '(no subject)'})" for e in waiting[:10]]
        more = f" and {len(waiting) - 10} more" if len(waiting) > 10 else ""
        lines.append(f"Mail waiting: {counted(len(waiting), 'mail')} whose lines could not be typed ({why}), tried "
                     f"again at every poll: {', '.join(senders)}{more}.")
    sealed = [s for _e, s in record.sealed(key)]
    closed = now is not None and judging(window, read.record.deadline, now)  # past the players' deadline
    lines += [f"Strategies: {line}." for line in part.sealed_summary(read.record.state, sealed, closed)]
    return lines
