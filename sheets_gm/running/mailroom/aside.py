"""Mailed lines an undo set aside: ``undo`` sets aside to the seats' Archive tabs the rows typed since the resolution
it takes back, a mail's lines with them. Each mail whose lines were among them gets one letter (keyed by the undo and
the mail: never queued twice), to its sender alone as its receipt went, quoting only her own lines set aside, the
GM's undo with its reason, and the window to mail them again for: the mailroom never types them again by itself.
Lines typed in a sheet by hand are the seat's own: its Archive and View tabs tell of them, as ever."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from sheets_gm.match.config import MatchConfig
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.registry import get_game
from sheets_gm.running.mailroom.receipts import QUOTED, more_lines, receipt_letter
from sheets_gm.running.mailroom.record import MailEntry, MailRecord
from sheets_gm.running.mailroom.typing import heading
from sheets_gm.sheets.tables import TypedRow


def lines_set_aside(entry: MailEntry, mark: str, table: str, rows: Mapping[str, Sequence[TypedRow]]) -> list[str]:
    """The lines of the mail ``entry`` that ``rows`` (set aside, by seat) hold: those under its heading, in the rows
    it typed them in, still reading as it typed them (a line typed over by hand is not the mail's any more)."""
    head = heading(mark, entry.sender, datetime.fromisoformat(entry.received), entry.subject, entry.key)
    out: list[str] = []
    for seat, place in entry.placed.items():
        aside = {r.row: r.text("line") for r in rows.get(seat, ()) if r.table == table}
        at = next((row for row, text in aside.items() if text == head), None)
        if at is not None:
            out += [line for n, line in enumerate(place.get("lines_text", ())) if aside.get(at + 1 + n) == line]
    return out


def tell_set_aside(config: MatchConfig, aside: tuple[str, Mapping[str, Sequence[TypedRow]]], reason: str,
                   undone: tuple[str, int, str, int, str], now: datetime) -> int:
    """Queue the letter of each mail whose lines the undo ``undone`` (``BetweenReport.undone``) set aside
    (``aside``: ``BetweenReport.aside``, the label of the window they were typed for and the rows by seat); returns
    how many were queued."""
    part = get_game(config.ruleset).mail
    typed_for, rows = aside
    if part is None or not rows:
        return 0
    seed_hash, deal, _window, _number, label = undone
    letters = []
    for entry in MailRecord.of(config.path).entries.values():
        mine = lines_set_aside(entry, part.heading_mark, part.post_table, rows)
        if not mine:
            continue
        when = datetime.fromisoformat(entry.received)
        body = "\n".join([
            f"Your mail {entry.subject or '(no subject)'!r} of {when:%a %d %b %Y at %H:%M:%S} UTC was read for "
            f"{typed_for}. The GM has since taken back {label} (undo: {reason.strip()}), so {typed_for} is not open "
            "any more, and these lines of your mail were set aside, never read as orders:", "",
            *(f"  {line}" for line in mine[:QUOTED]), *more_lines(mine), "",
            f"The judge's mailbox does not type them again: mail them again once {typed_for} is open again.", "",
            "This is an automatic letter from the judge's mailbox; write to the judge for anything else."])
        letter = receipt_letter(seed_hash[:16], entry, body, now, kind=f"mail-aside~{deal + 1}")
        letters.append(replace(letter, subject=f"{letter.subject} (set aside by the GM's undo)"))
    return len(Outbox.of(config.path).add(letters))
