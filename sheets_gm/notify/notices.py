"""What the table is told after a poll, built from what the poll already has: never a read of its own.

A poll leaves its facts on its report (``sync.poll_facts.PollFacts``: the match record, the tabs, the adapter
and, after a resolution, its events and the state it started from). From them and the clock this module makes the
notices, pure text, each addressed either to the match's channel (``CHANNEL``: a chat everybody reads) or to
one seat (its members' e-mail):

- **opened**: a window is open (whose turn it is, what to type where, the deadline in each seat's time zone);
- **reminder**: the deadline is near and a seat has not ticked Ready (its rows with nothing typed named);
- **resolved**: a window was resolved; the channel gets the public log lines of the resolution (the public
  turn report), each seat its View's news (``writes.view_events``: what only it may read, and the public
  events that concern it) followed by the rest of the public report; a game's own posts (its adapter's ``posts``,
  the Coalition's forum posts) go out as posts of their own, each to the readers it names;
- **over**: the match is over: the result, and the seed that lets anyone check every die;
- **waits** (sent as an *opened* notice): a due window that would change nothing if it resolved (a deployment with
  no token typed) waits unresolved: said once to the channel and once to the GM.

A seat a bot plays whole is told nothing (``bot_seats.whole_bot_seats``): nobody reads its mail, and the bot
needs no reminder. The channel, which the GM reads with the players, still hears every window, and its status
line names the seats bots play; the judge's notices (the GM's mailbox) go even when the stand-in judge plays.

What a notice may carry is decided here and only here: the channel gets public events and public posts
alone; a seat gets what its View shows and public text. Each notice has a key naming the match (its seed's
hash), the window (with the resolution's number and the match's undo count, so that a window resolved again
after an undo is news again), the kind and the recipient: the outbox sends each key once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sheets_gm.engine.events import Event, visible_to
from sheets_gm.engine.ruleset import JUDGE, Window
from sheets_gm.engine.words import describe_left, label_verb
from sheets_gm.match.notify_settings import NoticeKind
from sheets_gm.sheets.adapter import Post
from sheets_gm.sheets.spec import SEAT_ROWS, ColumnKind
from sheets_gm.sync.bot_seats import whole_bot_seats
from sheets_gm.sync.deadline import deadline_moment, describe_deadline, stamp_deadline
from sheets_gm.sync.judge_part import judge_line, judging, sealed_words
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.poll import FILE_CLOSED
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.sync.writes import closing_word, status_line, view_events

#: The recipient of a notice for the match's chat channel, which every player reads.
CHANNEL = "#channel"


@dataclass(frozen=True, slots=True)
class Notice:
    """One message to one recipient: the channel (``CHANNEL``) or a seat (its members' e-mail).

    ``key`` names it within every notice of every match (``match/window/kind/recipient``): the outbox sends
    a key once, however often a poll builds it again."""

    key: str
    kind: NoticeKind
    recipient: str
    subject: str
    body: str
    window: str = ""  # the window it belongs to (``window_token``): stale once another is open ('' never stale)
    until: str = ""  # the moment it is stale anyway (ISO: a reminder's deadline)
    deadline: str = ""  # the deadline its body gives in ``zone`` ('' when it gives none in a seat's zone)
    zone: str = ""
    attachment: str = ""  # the whole of what the body sums up (a channel's resolution: report and posts in full)
    left: str = ""  # a reminder's time left as its words say it ("9 min"): said again as it is when it is sent
    # keys of notices that told the same already: one of them sent, this one is not (a window's "is open" after
    # it went out as "is open: the deadline changed" with the same deadline)
    told_by: tuple[str, ...] = ()

    def in_zone(self, zone: str) -> Notice:
        """The notice as read in ``zone``: its deadline given there (a player of the seat in another zone)."""
        if not self.deadline or zone == self.zone:
            return self
        return replace(self, body=self.body.replace(seat_deadline(self.deadline, self.zone or None),
                                                    seat_deadline(self.deadline, zone or None)), zone=zone)

    @property
    def public(self) -> bool:
        """Whether it goes to the channel, which every player reads."""
        return self.recipient == CHANNEL


@dataclass(frozen=True, slots=True)
class TakenBack:
    """A window the GM's undo took back (``undo --reason``): its key and label, her reason, and the resolutions
    counted when it reopened (-1: unknown); the next one of it replaces the result told before."""

    window: str
    label: str = ""
    reason: str = ""
    at: int = -1
    what: str = ""  # what it took back when not the window's resolution: "the end of the match"

    def line(self, label: str) -> str:
        """The take-back said: "The GM took back the resolution of turn 2 (undo) (her reason)"."""
        return f"The GM took back {self.what or f'the resolution of {label}'} (undo)" + (
            f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True, slots=True)
class NoticeRules:
    """What the GM chose in ``[notify]``: which kinds to send, how long before a deadline the reminder goes,
    each seat's time zone (the deadline's own zone for a seat not named), the match's title and the command
    that checks a finished match."""

    kinds: frozenset[NoticeKind] = frozenset(NoticeKind)
    lead: timedelta = timedelta(hours=2)
    zones: Mapping[str, str] | None = None
    title: str = "sheets-gm match"
    verify_hint: str = "sheets-gm verify replay.json (in the match's export)"
    links: Mapping[str, str] | None = None  # each seat's orders spreadsheet: its URL (Google) or file name (local)
    board: str = ""  # the board's URL or file name ('' unknown)
    taken_back: tuple[TakenBack, ...] = ()  # the windows the GM's undos since the poll before took back, oldest first


def where_line(label: str, link: str) -> str:
    """A line saying where a spreadsheet is: its URL, or the workbook's file name.

    >>> where_line("Your orders", "https://docs.google.com/spreadsheets/d/k/edit")
    'Your orders: https://docs.google.com/spreadsheets/d/k/edit'
    >>> where_line("The board", "match.xlsx")
    'The board: the workbook match.xlsx'
    """
    return f"{label}: {link}" if "://" in link else f"{label}: the workbook {link}"


def _links(rules: NoticeRules, seat: str | None) -> list[str]:
    """Where ``seat`` types (its orders spreadsheet) and where the board is; the board alone for the channel."""
    mine = (rules.links or {}).get(seat or "", "")
    if mine and mine == rules.board:
        return [where_line("Your orders and the board", mine)]
    return ([where_line("Your orders", mine)] if mine else []) + (
        [where_line("The board", rules.board)] if rules.board else [])


@dataclass(frozen=True, slots=True)
class PollSeen:
    """The part of a poll's report the notices read: the open window's key and deadline, the seats not ready,
    each seat's rows with nothing typed, whether the match is over."""

    window_key: str
    deadline: str
    waiting_for: Sequence[str]
    untyped: Mapping[str, Sequence[str]]
    finished: bool
    stuck: str = ""  # why the open window, due, waits unresolved (``sync.poll``'s ``WindowReport.stuck``)


def match_id(record: MatchRecord) -> str:
    """The match's name in notice keys: the start of its seed's published hash (a new match, a new name)."""
    return record.seed_hash[:16]


def _key(record: MatchRecord, window: str, kind: NoticeKind, recipient: str) -> str:
    deal = f"~{record.deal}" if record.deal else ""
    return f"{match_id(record)}/{window}{deal}/{kind.value}/{recipient}"


def resolution_keys(seed_hash: str, deal: int, window: str, number: int) -> str:
    """How the key of every notice of the resolution ``number`` (of ``window``, made at the match's undo count
    ``deal``) starts: its news, its posts, its end (``resolved_notices``, ``_key``)."""
    return f"{seed_hash[:16]}/{window}@{number}{f'~{deal}' if deal else ''}"


def over_key(seed_hash: str, deal: int) -> str:
    """How the keys of the "match is over" notices of the match ``seed_hash`` ended at its undo count ``deal``
    start (``over_notices``)."""
    return f"{seed_hash[:16]}/end{f'~{deal}' if deal else ''}/"


def reseed_reason(committed: str) -> str:
    """What the notices of a window reopened by an undo of the match's end add to the GM's reason: the hash of the
    fresh seed, published there as the first seed's hash was at the start."""
    return (f"the match was over; the dice from now on come from a new seed, committed as {committed}, and the old "
            "seed stays published so the ended turn can be checked")


def window_token(record: MatchRecord) -> str:
    """The window open in ``record`` as the notices name it (its key, and the match's undo count): a notice of
    the open window ("is open", a reminder) belongs to it, and is stale once another is open; ``end`` once the
    match is over."""
    window = record.ruleset.window(record.state)
    if window is None:
        return "end"
    return f"{window.key}~{record.deal}" if record.deal else window.key


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def seat_deadline(deadline: str, zone: str | None) -> str:
    """The deadline as a seat reads it, in its own time zone when it has one: ``Mon 23 Nov, 14:00
    (America/New_York)``.

    >>> seat_deadline("2026-11-23T20:00+01:00[Europe/Paris]", "America/New_York")
    'Mon 23 Nov, 14:00 (America/New_York)'
    >>> seat_deadline("2026-11-23T20:00+01:00[Europe/Paris]", None)
    'Mon 23 Nov, 20:00 (Europe/Paris)'
    """
    moment = deadline_moment(deadline)
    if moment is None or not zone:
        return describe_deadline(deadline)
    return describe_deadline(stamp_deadline(moment.astimezone(ZoneInfo(zone)), zone))


def what_to_type(tabs: MatchTabs, window: Window, seat: str) -> list[str]:
    """Where ``seat`` types for ``window``, a line per table open in its phase: the tab, the table and the
    columns to fill (a standing table's rows stay as typed, so they are named as such)."""
    tab = tabs.orders(seat)
    lines = []
    for placed in tab.tables:
        spec = placed.spec
        if not spec.open_in(window.phase):
            continue
        typed = [c.header for c in spec.columns if c.kind.typed and c.kind is not ColumnKind.READY]
        ready = [c.header for c in spec.columns if c.kind is ColumnKind.READY]
        what = ", ".join(typed) if typed else ""
        where = f"tab {placed.tab!r}, table “{spec.heading}”"
        if spec.rows == SEAT_ROWS:
            parts = [f"fill {what}" if what else "", f"tick {ready[0]} when your orders are in" if ready else ""]
            lines.append(f"{where}: " + " and ".join(p for p in parts if p) + ".")
        else:
            lines.append(f"{where}: a row each: {what}" + (" (these rows stay until used)." if spec.standing
                                                          else "."))
    return lines


def _zone(rules: NoticeRules, seat: str) -> str | None:
    return (rules.zones or {}).get(seat)


def in_seat_zone(text: str, deadline: str, zone: str | None) -> str:
    """``text`` with the deadline it gives in the match's zone (the status line's) given in ``zone`` instead:
    every time a seat's letter shows is in its own zone."""
    if not deadline or not zone:
        return text
    return text.replace(describe_deadline(deadline), seat_deadline(deadline, zone))


def opened_notices(facts: PollFacts, rules: NoticeRules, seen: PollSeen) -> list[Notice]:
    """The open window announced: to the channel, and to each seat that acts in it with what to type. After the
    GM changed the deadlines (``facts.deadline_changed``) it is announced again, under a key naming the new
    deadline, saying so."""
    record = facts.record
    window = record.ruleset.window(record.state)
    if window is None:
        return []
    is_open = f"{_upper(label_verb(window.label, 'is', 'are'))} open"
    head = f"[{rules.title}] {is_open}"
    # The window the last undo opened again, while it is open: told as taken back, whatever else changed (the GM
    # often moves the deadline before the next poll), under a key naming its deadline, so that a later poll tells
    # it again only for a new deadline; every window taken back since the poll before is named, each with its
    # reason, the open one last. Else the first poll of a window an undo opened again (a resolution's next window
    # is told by its own poll).
    mine = [i for i, back in enumerate(rules.taken_back) if back.window == window.key]
    reopened = record.deal > 0 and facts.resolved is None and bool(mine)
    taken_back = reopened or (record.deal > 0 and facts.resolved is None and not facts.deadline_changed)
    changed = []
    if taken_back:
        others = [b for i, b in enumerate(rules.taken_back) if i != mine[-1]] if reopened else []
        turns = f"{len(others) + 1} turns" if others else "a turn"
        head += f" again: the GM took {turns} back" + (" and changed the deadline" if facts.deadline_changed else "")
        last = rules.taken_back[mine[-1]] if mine else TakenBack(window.key)
        changed = [*(b.line(b.label or b.window) + "." for b in others), last.line(window.label) + ": it is open "
                   "again, and its orders count anew. Check yours, and tick Ready again when they are in."]
    elif facts.deadline_changed:
        head += ": the deadline changed"
    if facts.deadline_changed:
        changed.append("The GM changed the deadlines.")
    token = window_token(record)
    at = f"{window.key}@{seen.deadline or 'none'}"  # told so with this deadline, the window is told
    when = at if facts.deadline_changed or reopened else window.key
    who = ", ".join(window.awaited)
    status = status_line(facts.adapter, record)
    out = [Notice(_key(record, when, NoticeKind.OPENED, CHANNEL), NoticeKind.OPENED, CHANNEL, head,
                  "\n".join([*changed, f"{is_open}: it waits for {who}.",
                             _closing(seen.deadline, None, window), status, *_links(rules, None)]), token,
                  deadline=seen.deadline, told_by=(_key(record, at, NoticeKind.OPENED, CHANNEL),))]
    for seat in window.seats:
        lines = [*changed, f"{is_open}: " + (
                     f"{seat}'s orders are awaited." if seat in window.awaited
                     else f"it waits for {who}; {seat} may write in it too."),
                 _closing(seen.deadline, _zone(rules, seat), window), "", "What to type:",
                 *(f"  · {line}" for line in what_to_type(facts.tabs, window, seat)), *_links(rules, seat), "",
                 in_seat_zone(status, record.deadline, _zone(rules, seat))]
        out.append(Notice(_key(record, when, NoticeKind.OPENED, seat), NoticeKind.OPENED, seat,
                          f"{head}: orders for {seat}", "\n".join(lines), token, deadline=seen.deadline,
                          zone=_zone(rules, seat) or "", told_by=(_key(record, at, NoticeKind.OPENED, seat),)))
    if window.early is not None and seen.deadline == record.deadline:  # the players' part (``closing_deadline``)
        out += _early_opened(facts, rules, seen, window, window.early, changed, when)
    return out


def _early_opened(facts: PollFacts, rules: NoticeRules, seen: PollSeen, window: Window, early: Window,
                  changed: Sequence[str], when: str) -> list[Notice]:
    """The judge's ``window`` opened, told to each seat of the next window whose orders it takes early (``early``:
    the Coalition's next turn's movement, sent with the strategies by the one players' deadline)."""
    record = facts.record
    status = status_line(facts.adapter, record)
    closes = window.sealed or "orders"
    out = []
    for seat in early.seats:
        zone = _zone(rules, seat)
        lines = [*changed, f"{_upper(label_verb(window.label, 'is', 'are'))} open, and {early.label} with them: "
                 f"{seat}'s movement for {early.label} and its {closes} for {window.label} are awaited, both by the "
                 f"players' deadline. {_upper(early.label)} is adjudicated from what came by then, once the judge has "
                 "posted the battle results; what comes after it is late and not read. An army in an open battle "
                 "cannot move: it fights.",
                 f"Movement and {closes} close {seat_deadline(seen.deadline, zone)}." if seen.deadline else
                 "No players' deadline: the movement is read when the judge's window closes.", "", "What to type:",
                 *(f"  · {line}" for line in what_to_type(facts.tabs, early, seat)), *_links(rules, seat), "",
                 in_seat_zone(status, record.deadline, zone)]
        out.append(Notice(_key(record, when, NoticeKind.OPENED, seat), NoticeKind.OPENED, seat,
                          f"[{rules.title}] {_upper(label_verb(early.label, 'is', 'are'))} open: orders for {seat}",
                          "\n".join(lines), window_token(record), deadline=seen.deadline, zone=zone or ""))
    return out


def _closing(deadline: str, zone: str | None, window: Window) -> str:
    """When ``window`` closes, in ``zone``: on its orders, or the judge's on her results (``closing_word``, as the
    status line says it)."""
    if not deadline:
        return "No deadline: it resolves when every seat it waits for has ticked Ready."
    return f"{_upper(closing_word(window))} close {seat_deadline(deadline, zone)}."


def reminder_notices(facts: PollFacts, rules: NoticeRules, seen: PollSeen, now: datetime) -> list[Notice]:
    """Within ``rules.lead`` of the deadline: each seat the window waits for that has not ticked Ready is told so
    (and which of its rows have nothing typed); the channel hears who is not ready yet. The judge's window is
    reminded of before her own deadline alone (before the players', her Ready is not taken yet: ``judge_part``)."""
    record = facts.record
    window = record.ruleset.window(record.state)
    moment = deadline_moment(seen.deadline)
    if window is None or moment is None or not now >= moment - rules.lead or now >= moment:
        return []
    if window.sealed and not judging(window, record.deadline, now):  # the players' part: the judge's Ready waits
        return []
    left = describe_left((moment - now).total_seconds())
    # A seat that ticked Ready has said its orders are in, rows left empty included; the others are reminded,
    # with the rows they have typed nothing in.
    late = [s for s in window.awaited if s in seen.waiting_for]
    if not late:
        return []
    closes = _upper(label_verb(window.label, "closes", "close"))
    head = f"[{rules.title}] {closes} in {left}"
    token, until = window_token(record), moment.isoformat(timespec="seconds")
    out = [Notice(_key(record, window.key, NoticeKind.REMINDER, CHANNEL), NoticeKind.REMINDER, CHANNEL, head,
                  f"{closes} in {left} ({describe_deadline(seen.deadline)}). Not ready yet: "
                  f"{', '.join(late)}.", token, until, seen.deadline, left=left)]
    for seat in late:
        lines = [f"{closes} in {left}: {seat_deadline(seen.deadline, _zone(rules, seat))}.",
                 f"{seat} has not ticked Ready yet."]
        if seen.untyped.get(seat):
            lines.append(f"Nothing typed yet for: {', '.join(seen.untyped[seat])}.")
        lines += ["", "What to type:", *(f"  · {line}" for line in what_to_type(facts.tabs, window, seat)),
                  *_links(rules, seat)]
        out.append(Notice(_key(record, window.key, NoticeKind.REMINDER, seat), NoticeKind.REMINDER, seat,
                          f"{head}: {seat} is not ready", "\n".join(lines), token, until, seen.deadline,
                          _zone(rules, seat) or "", left=left))
    return out


def _lines(events: Sequence[Event]) -> list[str]:
    return [f"  · {e.text}" for e in events]


#: The public log lines a channel's notice of a resolution shows; the rest is on the board, and in its attachment.
CHANNEL_LINES = 12


def resolved_notices(facts: PollFacts, rules: NoticeRules) -> list[Notice]:
    """A resolution told: to the channel a summary a person reads (the first lines of the public report, the
    game's public posts named with their length, where it all stands), the whole of it attached; to each seat its
    View's news and the public report (for a step of a window that stays open, to the seats it concerns only); a
    post meant for some seats to their e-mail."""
    window, record = facts.resolved, facts.record
    if window is None:
        return []
    state = record.state
    done = f"{window.key}@{record.resolved}"
    public = visible_to(facts.events, None)
    status = status_line(facts.adapter, record)
    posts = list(facts.adapter.posts(facts.before, state)) if NoticeKind.POST in rules.kinds else []
    # a window taken back: its first resolution since its undo (a later step of it replaces nothing)
    again = next((b for b in rules.taken_back if b.window == window.key and record.deal > 0
                  and b.at in (-1, record.resolved - 1)), None)
    head = f"[{rules.title}] {_upper(window.label)} resolved" + (" again" if again else "")
    replaces = [f"This replaces the result of {window.label} told before the GM took it back (undo"
                + (f": {again.reason}" if again.reason else "") + ")."] if again else []
    summary = _channel_summary(_key(record, done, NoticeKind.RESOLVED, CHANNEL), head, public,
                               facts.adapter.news_first(public),
                               [p for p in posts if p.audience is None], status, rules)
    out = [replace(summary, body="\n".join([*replaces, summary.body]), deadline=record.deadline)]
    if NoticeKind.RESOLVED not in rules.kinds and out[0].attachment:  # the posts without the report: still told
        out = [replace(out[0], key=_key(record, f"{done}#posts", NoticeKind.POST, CHANNEL), kind=NoticeKind.POST)]
    still_open = record.ruleset.window(state)
    step = still_open is not None and still_open.key == window.key  # a stepwise window's rows resolved, still open
    for seat in facts.tabs.input_seats():
        mine = view_events(facts.adapter, facts.tabs, seat, facts.events, state, facts.before)
        if step and not mine:  # a step the seat had no part in is news for the channel, not for its mailbox
            continue
        told = set(mine)  # (a list's ``in`` compared each event with all of a war's hundreds, each as JSON)
        rest = [e for e in public if e not in told]  # the public report, less what the seat's news told already
        zone = _zone(rules, seat)
        lines = [*replaces, f"What happened to {seat} (your View tab's log):",
                 *(_lines(mine) or ["  · nothing of yours"]), "",
                 "The rest of the public log:" if mine else "What happened (the public log):",
                 *(_lines(rest) or ["  · nothing more"]), "", in_seat_zone(status, record.deadline, zone),
                 *_links(rules, seat)]
        out.append(Notice(_key(record, done, NoticeKind.RESOLVED, seat), NoticeKind.RESOLVED, seat,
                          f"{head}: news for {seat}", "\n".join(lines), deadline=record.deadline, zone=zone or ""))
    for number, post in enumerate(posts, 1):
        for reader in sorted(post.audience or ()):  # a public post is the channel's summary's
            out.append(Notice(_key(record, f"{done}#{number}", NoticeKind.POST, reader), NoticeKind.POST,
                              reader, f"[{rules.title}] {post.title}", post.text))
    return out


def _channel_summary(key: str, head: str, public: Sequence[Event], first: Sequence[Event], posts: Sequence[Post],
                     status: str, rules: NoticeRules) -> Notice:
    """The channel's notice of a resolution: short enough to read (``CHANNEL_LINES`` of the public report, from
    ``first``: the same lines in the order the game quotes them, what a reader wants first at the top; each public
    post by its title and length), where the match stands and where the board is; the whole report in the Log's
    order and the posts in full attached (``Notice.attachment``) when there is more than it shows."""
    shown = _lines(first[:CHANNEL_LINES]) or ["  · nothing that everyone may read"]
    more = len(public) - CHANNEL_LINES
    lines = ["What happened (the public log):", *shown]
    if more > 0:
        lines.append(f"  … and {more} more line{'s' if more != 1 else ''}: the board's log holds them all")
    if posts:
        lines += ["", "The game's posts:",
                  *(f"  · {post.title} ({_count(post.text.count(chr(10)) + 1, 'line')})" for post in posts)]
    lines += ["", status, *_links(rules, None)]
    whole = ""
    if more > 0 or posts:
        whole = "\n\n".join([f"{head}\n\nWhat happened (the public log):\n" + "\n".join(e.text for e in public),
                              *(post.text for post in posts)]) + "\n"
        lines.append("The whole report" + (" and the posts in full" if posts else "") + ": on the board.")
    return Notice(key, NoticeKind.RESOLVED, CHANNEL, head, "\n".join(lines), attachment=whole)


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'s' if number != 1 else ''}"


def _seed_lines(record: MatchRecord) -> list[str]:
    """The "match is over" notice's seed, with its hash as published; for a match an undo of its end reopened, the
    seed drawn then too (and each one before it), each with the hash committed for it."""
    lines = [f"The seed: {record.seed.hex()}", f"Its hash, published when the match began: {record.seed_hash}"]
    for link in record.reseeds:
        lines += [f"The seed drawn when the GM undid the end of the match ({link.reason}): {link.seed.hex()}",
                  f"Its hash, published then: {link.hash}"]
    return lines


def over_notices(facts: PollFacts, rules: NoticeRules) -> list[Notice]:
    """The end of the match: the result and the seed (its hash was published at the start) to everyone."""
    record = facts.record
    outcome = record.ruleset.outcome(record.state)
    if outcome is None:
        return []
    body = "\n".join([f"The match is over: {outcome.text}", status_line(facts.adapter, record), "",
                      *_seed_lines(record), f"With {'them' if record.reseeds else 'it'} every die of the match can be "
                      f"checked: {rules.verify_hint}."])
    head = f"[{rules.title}] The match is over"
    return [Notice(_key(record, "end", NoticeKind.OVER, reader), NoticeKind.OVER, reader, head, body)
            for reader in (CHANNEL, *facts.tabs.input_seats())]


def judge_notices(facts: PollFacts, rules: NoticeRules, seen: PollSeen, now: datetime) -> list[Notice]:
    """Once the players' deadline of the judge's window passed (``sync.judge_part``): the channel and the judge are
    told, once, that what the players send closed and the judge's window is open, until when, and why the deadline
    they read moved."""
    record = facts.record
    window = record.ruleset.window(record.state)
    if window is None or not judging(window, record.deadline, now):
        return []
    head = f"[{rules.title}] {_upper(sealed_words(window))} closed: the judge's window is open"
    body = "\n".join([judge_line(window, record.deadline, now, ready=False) + ".", "",
                      status_line(facts.adapter, record), *_links(rules, None)])
    when = f"{window.key}@judge:{seen.deadline or 'none'}"  # told again only for a new judge's deadline
    return [Notice(_key(record, when, NoticeKind.OPENED, reader), NoticeKind.OPENED, reader, head, body,
                   window_token(record), deadline=seen.deadline) for reader in (CHANNEL, JUDGE)]


def waits_notices(facts: PollFacts, rules: NoticeRules, seen: PollSeen) -> list[Notice]:
    """A due window that waits unresolved (``seen.stuck``: it would change nothing if it resolved, or a workbook is
    open in an office program) is said once to the channel and once to the GM (the judge's recipient: the config's
    ``gm_emails``), under a key naming the step it waits at and why, so that no later poll says it again while it
    waits there."""
    record = facts.record
    window = record.ruleset.window(record.state)
    if window is None or not seen.stuck:
        return []
    when = f"{window_token(record)}@{record.resolved}"
    held = seen.stuck.endswith(FILE_CLOSED)
    why, kind = ("a workbook is open", "waits-open") if held else ("nothing to resolve", "waits")
    head = f"[{rules.title}] {_upper(label_verb(window.label, 'waits', 'wait'))}: {why}"
    body = [seen.stuck + ".", status_line(facts.adapter, record)]
    return [Notice(f"{match_id(record)}/{when}/{kind}/{reader}", NoticeKind.OPENED, reader, head,
                   "\n".join([*body, *_links(rules, None)]), window_token(record)) for reader in (CHANNEL, JUDGE)]


def poll_notices(facts: PollFacts, seen: PollSeen, rules: NoticeRules, now: datetime) -> list[Notice]:
    """Every notice the poll that left ``facts`` and ``seen`` may send, of the kinds ``rules`` chose: what it
    resolved, the window now open (or the end) and a reminder when the deadline is near. A notice already sent
    is built again by later polls: the outbox keeps each key once."""
    out = resolved_notices(facts.earlier, rules) if facts.earlier is not None else []
    out += resolved_notices(facts, rules) if facts.resolved is not None else []
    if seen.finished:
        out += over_notices(facts, rules)
    else:
        out += opened_notices(facts, rules, seen)
        out += reminder_notices(facts, rules, seen, now)
        out += waits_notices(facts, rules, seen)
        out += judge_notices(facts, rules, seen, now)
    bots = whole_bot_seats(facts.record)  # never built, so a seat handed back to a person hears of its window
    return [n for n in out if n.kind in rules.kinds and n.recipient not in bots]


def reminder_due(seen: PollSeen, rules: NoticeRules) -> datetime | None:
    """When the open window's reminder is due (the deadline less the lead), or None (no deadline, no reminders,
    the match over): an idle poll from then on reads, so that a reminder goes out."""
    moment = deadline_moment(seen.deadline)
    if moment is None or seen.finished or NoticeKind.REMINDER not in rules.kinds:
        return None
    return moment - rules.lead

