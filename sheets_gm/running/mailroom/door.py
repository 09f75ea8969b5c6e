"""One poll's mail: read from the judge's mailbox, filed before the poll reads the sheets, answered after it.

Before the poll, under the match lock as a GM's change (the gate's record forgotten: the next poll reads every
spreadsheet): each new mail is filed by the game's mail part (``Game.mail``) and entered in the judge's record
before its lines are typed (``typing``), so a poll cut after the write files the same cells again rather than new
ones. Then the poll runs as ever and answers the lines as it answers pasted ones. After it, each mail's receipt
quotes those answers and goes to its sender alone (``receipts``), and the mailbox is told the mail is handled. A
mail never answered (``answering``: a robot's, a reply to the judge's answer, an address's past its receipts of the
day, a second one of a day from an address of no player) is kept in the record and gets no receipt.
With no new mail the poll runs untouched (an idle poll stays idle)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sheets_gm.engine.words import counted
from sheets_gm.mailbox.message import Mail
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.match_roster import repair_roster
from sheets_gm.notify.announce import send_due
from sheets_gm.notify.notices import match_id
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.parts.mail import Filing
from sheets_gm.rulesets.registry import get_game, get_ruleset
from sheets_gm.running.connect import open_match_sheets, sharing_sheets
from sheets_gm.running.idle_poll import mailbox_asked
from sheets_gm.running.mailroom.answering import Answering, player_addresses
from sheets_gm.running.mailroom.deadline import close_sealed, deadline_may_be_due
from sheets_gm.running.mailroom.judge_view import draw_for_judge
from sheets_gm.running.mailroom.receipts import brief_body, receipt_body, receipt_letter
from sheets_gm.running.mailroom.record import MailEntry, MailRecord, mail_key
from sheets_gm.running.mailroom.typing import ToType, answers, heading, type_mail
from sheets_gm.running.mailroom.window_ends import arrived_in_closed, seen_open
from sheets_gm.running.run import gm_change, layout_owners
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sheets.tables import PlacedTable
from sheets_gm.sync.deadline import deadline_moment
from sheets_gm.sync.life.grow import grow_for_lines
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.read import MatchRead, read_match, read_record
from sheets_gm.sync.sheets import MatchSheets

if TYPE_CHECKING:
    import gspread

T = TypeVar("T")


class Inbox(Protocol):
    """The judge's mailbox as the door uses it: the mail not yet handled (each begun), and its end once answered."""

    def new_mail(self) -> Sequence[Mail]:
        """The mail not handled yet (a mail begun and not finished comes back)."""
        ...

    def finish(self, mails: Sequence[Mail]) -> None:
        """Mark ``mails`` handled (at once): they never come back."""
        ...

    def say(self, text: str) -> None:
        """Tell the GM ``text`` with the poll's own words."""
        ...


def poll_with_mail(config: MatchConfig, clock: Callable[[], datetime], poll: Callable[[], T], *,
                   client: gspread.Client | None = None) -> tuple[T, list[str]]:
    """The one poll of a configured match with its judge's mailbox read (cron's and ``serve``'s alike: ``host.polls``):
    ``poll`` alone for a match without ``[mailbox]`` or a game that reads no mail; else ``with_mail``. Returns the
    poll's result and what the GM is told of the mailbox (a trouble, said once). ``client``: the poll's signed-in
    Google client (``serve``'s), which the door uses too."""
    if config.mailbox is None or get_game(config.ruleset).mail is None:
        return poll(), [f"The judge's mailbox is not read until [mailbox] is mended: {problem}."
                        for problem in config.mailbox_problems]
    from sheets_gm.running.mailroom.inbox import MailboxInbox  # the IMAP client loads only for a match with mail
    inbox = MailboxInbox(config)
    result = with_mail(config, clock, poll, inbox, client=client)
    inbox.close()
    return result, inbox.said


@dataclass
class Filed:
    """The mail this poll filed: the match's record it was filed against, the entries by key, the mails by key, the
    lines typed for each by seat, and the keys of the mails that wait (lines that could not be typed into the window
    still open: not finished, no receipt yet, tried again at the next poll)."""

    record: MatchRecord
    entries: dict[str, MailEntry]
    mails: dict[str, Mail]
    typed: dict[str, dict[str, tuple[str, ...]]]
    waiting: frozenset[str] = frozenset()

    def waiting_line(self) -> str:
        """What the judge is told of the mails that wait ('' when none does)."""
        if not self.waiting:
            return ""
        why = "; ".join(dict.fromkeys(w for key in sorted(self.waiting)
                                      for w in self.entries[key].untyped().values()))
        return (f"{counted(len(self.waiting), 'mail')} to the judge {'waits' if len(self.waiting) == 1 else 'wait'}: "
                f"{'its' if len(self.waiting) == 1 else 'their'} lines could not be typed ({why}); tried again at "
                "every poll, answered once typed (sheets-gm status lists them)")


def with_mail(config: MatchConfig, clock: Callable[[], datetime], poll: Callable[[], T],
              inbox: Inbox | None, *, client: gspread.Client | None = None) -> T:
    """Run ``poll`` with the mailbox's new mail filed before it and answered after it (see the module notes); the
    door and the poll open the match's spreadsheets once between them (``sharing_sheets``)."""
    mails = list(inbox.new_mail()) if inbox is not None else []
    part = get_game(config.ruleset).mail
    closing = part is not None and deadline_may_be_due(config, clock())
    if part is None or inbox is None or not (mails or closing):
        with mailbox_asked(config.path):  # nothing new: the poll may stay idle
            return poll()
    with sharing_sheets():
        try:
            filed = file_mails(config, mails, clock(), client=client) if mails else None
            typed, again = close_sealed(config, part, clock(), client=client) if closing else (0, False)
            if typed:
                inbox.say("A strategy that reached the judge's mailbox before the players' deadline was read after "
                          "it: the cells typed for the judge at the deadline are typed again from every strategy "
                          f"({counted(typed, 'cell')} changed; her own words stand; the Strategies tab lists them)."
                          if again else
                          f"The players' deadline passed: {typed} of the judge's empty cells typed from what the "
                          "players sent (the Strategies tab lists them): the judge confirms or changes each before "
                          "marking the results done; nothing is applied before.")
        except SheetError as exc:  # the mail waits, begun, for the next poll; the poll goes on without it
            inbox.say(f"The judge's mail waits for the next poll: {exc}")
            return poll()
        result = poll()
        if filed is not None:
            answer_mails(config, filed, clock, client=client)
            if filed.waiting:
                inbox.say(filed.waiting_line())
    inbox.finish([m for m in mails if filed is None or mail_key(m) not in filed.waiting])
    receipts = send_due(config, clock)  # the receipts queued after the poll's own sending
    if receipts and config.notify is not None and config.notify.email is not None:  # (else doctor says it)
        inbox.say(receipts.replace("Notices: ", "Receipts and notices: ", 1))
    return result


def _entry(mail: Mail, key: str, filing: Filing | None, window: str) -> MailEntry:
    unread = mail.refused or ("" if filing is None else filing.unread)
    return MailEntry(key, mail.sender, mail.subject, mail.received.isoformat(),
                     filing.kind if filing is not None else "", window, unread,
                     [list(p) for p in filing.refused] if filing else [], list(filing.chatter) if filing else [],
                     sealed=filing.sealed.to_json() if filing and filing.sealed and not unread else None,
                     answer=mail.answer, read_for=filing.read_for if filing is not None and not unread else "")


def file_mails(config: MatchConfig, mails: Sequence[Mail], now: datetime, *,
               client: gspread.Client | None = None) -> Filed:
    """File each mail (see the module notes); returns what the answers need. The match's record is read first (the
    engine alone); every spreadsheet only when some mail has lines to type."""
    game = get_game(config.ruleset)
    part = game.mail
    assert part is not None
    record = MailRecord.of(config.path)
    cls = get_ruleset(config.ruleset)
    with gm_change(config) as change:
        sheets = open_match_sheets(config, client=client)
        change.watch(sheets)
        found = read_record(sheets, cls)
        window = found.ruleset.window(found.state)
        window_key = window.key if window is not None else ""
        if window is not None:
            seen_open(record.deadlines, window.key, window.label, found.last)
        deadline = deadline_moment(found.deadline)
        roster = repair_roster(config, sheets)
        answering = Answering(record.entries.values(), player_addresses(roster, config.gm_emails), config.mailbox,
                              match_id(found))
        todo: list[ToType] = []
        typed: dict[str, dict[str, tuple[str, ...]]] = {}
        for mail in mails:
            key = mail_key(mail)
            entry = record.entries.get(key)
            if entry is None:
                read_it = mail.answer and not mail.refused
                missed = arrived_in_closed(record.deadlines, mail.received, window_key) if read_it else ""
                filing = Filing("", unread=missed) if missed else part.file(
                    found.state, roster, sender=mail.sender, subject=mail.subject, lines=mail.lines, text=mail.text,
                    received=mail.received, deadline=deadline) if read_it else None
                entry = record.entries[key] = _entry(mail, key, filing, window_key)
                answering.decide(entry, mail)
                lines = dict(filing.lines) if filing is not None and not entry.unread else {}
                entry.placed = {seat: {"lines_text": list(ls)} for seat, ls in lines.items()}
            typed[key] = {seat: tuple(p.get("lines_text", ())) for seat, p in entry.placed.items()}
            if entry.window == window_key:
                head = heading(part.heading_mark, mail.sender, mail.received, mail.subject, key)
                todo += [ToType(key, seat, head, ls) for seat, ls in typed[key].items() if ls]
        record.save()  # before the cells: a poll cut after the write finds the mail's heading and writes it again
        read = read_match(sheets, cls) if todo else None
        grow = None if read is None else partial(_grown_post, config, sheets, read, part.post_table)
        for slot, place in (type_mail(sheets, read, part.post_table, todo, grow) if read is not None else {}).items():
            key, seat = slot.rsplit("/", 1)
            was = record.entries[key].placed[seat]
            record.entries[key].placed[seat] = {"lines_text": was.get("lines_text", []), **place}  # "full" gone
        if any(record.entries[mail_key(m)].sealed for m in mails):
            record.drawn = draw_for_judge(sheets, cls, found, part, [s for _e, s in record.sealed(window_key)],
                                          config.title or "sheets-gm", deadline, now, record.drawn)
        record.save()
    waiting = frozenset(t.key for t in todo if record.entries[t.key].untyped())
    return Filed(found, {mail_key(m): record.entries[mail_key(m)] for m in mails}, {mail_key(m): m for m in mails},
                 typed, waiting)


def _grown_post(config: MatchConfig, sheets: MatchSheets, read: MatchRead, table: str, seat: str, need: int,
                spare: int) -> PlacedTable:
    """``seat``'s post table grown to ``need`` rows and ``spare`` more for the mail to type there (``typing.Grow``),
    its editors read from ``config`` then only."""
    grown = grow_for_lines(sheets, read, seat, table, need, layout_owners(config, sheets), spare)
    return grown.orders(seat).table(table)


def answer_mails(config: MatchConfig, filed: Filed, clock: Callable[[], datetime], *,
                 client: gspread.Client | None = None) -> int:
    """Queue each filed mail's receipt, quoting the answers the poll wrote beside its lines (once: the outbox queues
    a letter's key once, a mail filed again after a cut poll is not answered twice); returns how many."""
    sheets = open_match_sheets(config, client=client)
    where = {f"{key}/{seat}": place for key, entry in filed.entries.items() for seat, place in entry.placed.items()
             if place.get("feedback")}
    said = answers(sheets, where) if where else {}
    now = clock()
    letters = []
    for key, entry in filed.entries.items():
        if not entry.answer or key in filed.waiting:
            continue
        if entry.brief:  # an address of no player, or forged: one short line a day, nothing of its mail echoed
            body = brief_body(entry, config.title or "sheets-gm", unproven=filed.mails[key].unproven)
        else:
            mine = {seat: said.get(f"{key}/{seat}", []) for seat in filed.typed[key]}
            body = receipt_body(entry, mine, filed.typed[key], filed.mails[key].problems)
        letters.append(receipt_letter(match_id(filed.record), entry, body, now, answers=filed.mails[key].message_id))
    return len(Outbox.of(config.path).add(letters))


def strategies_of(config: MatchConfig) -> list[dict[str, Any]]:
    """The strategies in the judge's record, oldest first, as the record keeps them (the judge's tools)."""
    return [dict(entry.sealed or {}, key=entry.key, window=entry.window)
            for entry, _s in MailRecord.of(config.path).sealed()]
