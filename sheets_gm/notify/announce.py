"""The notices of a configured match: what a poll queues and sends, what waits, and doctor's test notice.

The one hook into polling is ``after_poll``: the sync calls it once a poll has written everything (the
engine's commit included) and kept its state for the next poll's gate. It builds the notices from the
poll's report (``notify.notices``), turns each into letters (a seat's e-mail to its members' roster addresses,
the channel's chat posts), queues those never queued before and sends what waits. It never raises: a notice
that cannot be built, queued or sent is a line for the GM, never a failed poll. An idle poll calls
``send_due`` only when the outbox holds a letter that may be tried now (no spreadsheet is read for it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.engine.words import some_of
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.notify_settings import ChatStyle, NoticeKind, NotifySettings
from sheets_gm.notify.channel import SendError
from sheets_gm.notify.host_channels import HostChannels
from sheets_gm.notify.notices import (
    CHANNEL,
    Notice,
    NoticeRules,
    PollSeen,
    TakenBack,
    over_key,
    poll_notices,
    reminder_due,
    reseed_reason,
    resolution_keys,
    window_token,
)
from sheets_gm.notify.outbox import CHAT, EMAIL, Letter, Outbox, iso
from sheets_gm.notify.redact import redact as redact_secrets
from sheets_gm.notify.send import Sending, channel_key, send_waiting
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.sync.sheets import MatchSheets

Clock = Callable[[], datetime]


def notice_rules(config: MatchConfig, notify: NotifySettings) -> NoticeRules:
    """The rules the match's notices are built by (its title, its ``[notify]`` choices, where each seat's orders
    and the board are)."""
    return NoticeRules(kinds=notify.sent_kinds, lead=notify.lead or timedelta(0), zones=notify.zones,
                       title=config.title, verify_hint=f"sheets-gm verify replay.json, in the match's export (the GM "
                                                       f"runs sheets-gm export -c {config.path.name})",
                       links={seat: spreadsheet_link(config, where) for seat, where in
                              zip(config.seats, config.orders, strict=False)},
                       board=spreadsheet_link(config, config.board))


def spreadsheet_link(config: MatchConfig, where: str) -> str:
    """What a player opens for the spreadsheet ``where`` of the config: a Google spreadsheet's URL, or a local
    workbook's file name (the GM shares the file itself)."""
    from sheets_gm.match.config import BackendKind

    if config.backend is BackendKind.GOOGLE:
        return where if "://" in where else f"https://docs.google.com/spreadsheets/d/{where.strip()}/edit"
    return config.local_path(where).name


def page_link(config: MatchConfig) -> str:
    """Where players open the match's page, for a notice's link: ``[sheets] web_url`` ('' when the config names
    none, or the match has no page)."""
    return config.web_url if config.web is not None else ""


def page_line(link: str) -> str:
    """The line at a notice's foot that links the match's page ('' for no page).

    >>> page_line("https://example.org/friday/")
    "The match's page (the map, turn by turn): https://example.org/friday/"
    """
    return f"The match's page (the map, turn by turn): {link}" if link else ""


def seen_of(report: WindowReport) -> PollSeen:
    """What the notices read of a poll's report."""
    return PollSeen(report.window_key, report.deadline, tuple(report.waiting_for),
                    {seat: tuple(rows) for seat, rows in report.untyped.items()}, report.finished, report.stuck)


def letters_of(notices: Iterable[Notice], notify: NotifySettings, addresses: Mapping[str, tuple[str, ...]],
               now: datetime, page: str = "", picture: bool = False) -> list[Letter]:
    """The letters of ``notices`` through the channels ``notify`` sets: the channel's notices as chat posts
    (a long one in parts, each a letter), a seat's as an e-mail to its ``addresses``; a notice whose channel
    is not set, or a seat with no address, makes none. Each ends with the link to the match's ``page`` (once: in
    a chat post's last part); with ``picture``, the first part of a Discord post of a resolution names the turn's
    map to go with it (``picture_name``: the outbox keeps the PNG beside the letter)."""
    from sheets_gm.notify.chat import chat_parts

    foot = page_line(page)
    out: list[Letter] = []
    for notice in notices:
        if notice.recipient == CHANNEL:
            if notify.chat is None:
                continue
            attach = bool(notice.attachment) and notify.chat.style is ChatStyle.DISCORD
            name = attachment_name(notice.key) if attach else ""
            body = f"{notice.body}\nIn the file attached: {name}." if attach else notice.body
            body = f"{body}\n{foot}" if foot else body
            drawn = picture_name(notice.key) if picture and _pictured(notice, notify.chat.style) else ""
            parts = chat_parts(notice.subject, body, notify.chat.style, notify.chat.limit, notice.deadline)
            for number, text in enumerate(parts, 1):
                key = notice.key if number == 1 else f"{notice.key}/part{number}"
                subject = notice.subject if len(parts) == 1 else f"{notice.subject} ({number}/{len(parts)})"
                out.append(Letter(key, CHAT, CHANNEL, subject, text, iso(now), window=notice.window,
                                  until=notice.until, attachment=notice.attachment if attach and number == 1 else "",
                                  attachment_name=name if number == 1 else "", topic=notice.kind.value,
                                  left=notice.left, picture=drawn if number == 1 else ""))
        elif notify.email is not None and addresses.get(notice.recipient):
            for key, told, to in _by_zone(notice, addresses[notice.recipient], notify.zones):
                body = f"{told.body}\n\n{foot}" if foot else told.body
                out.append(Letter(key, EMAIL, notice.recipient, told.subject, body, iso(now), to,
                                  window=notice.window, until=notice.until,
                                  zone=told.zone if told.deadline else None, topic=notice.kind.value,
                                  left=notice.left))
    return out


def _by_zone(notice: Notice, to: tuple[str, ...], zones: Mapping[str, str]) -> list[tuple[str, Notice,
                                                                                          tuple[str, ...]]]:
    """A seat's e-mail as its players read it: one letter per time zone among them (a player's own zone, named by
    her address in ``[notify] timezones``, else her seat's), each giving the deadline in that zone. The letter to
    the seat's own zone keeps the notice's key; another zone's key names it."""
    if not notice.deadline:
        return [(notice.key, notice, to)]
    groups: dict[str, list[str]] = {}
    for address in to:
        groups.setdefault(zones.get(address.casefold(), notice.zone), []).append(address)
    return [(notice.key if zone == notice.zone else f"{notice.key}@{zone or 'deadline'}", notice.in_zone(zone),
             tuple(group)) for zone, group in groups.items()]


def _pictured(notice: Notice, style: ChatStyle) -> bool:
    """Whether a chat ``notice`` carries the turn's map: a resolution's, on a platform whose webhook takes files
    (Discord; Slack's incoming webhooks take none, so there the page's link says it)."""
    return notice.kind is NoticeKind.RESOLVED and style is ChatStyle.DISCORD


def picture_name(key: str) -> str:
    """The file name of a notice's map, from its key's window: ``map-3@2.png``.

    >>> picture_name("0123abcd/3@2/resolved/#channel")
    'map-3@2.png'
    """
    return "map-" + attachment_name(key).removeprefix("report-").removesuffix(".txt") + ".png"


def attachment_name(key: str) -> str:
    """The file name of a notice's attachment, from its key's window and kind: ``report-3@2.txt``.

    >>> attachment_name("0123abcd/3@2/resolved/#channel")
    'report-3@2.txt'
    """
    parts = key.split("/")
    window = parts[1] if len(parts) > 1 else "match"
    return "report-" + "".join(c if c.isalnum() or c in "@~.-" else "-" for c in window) + ".txt"


def seat_addresses(config: MatchConfig, sheets: MatchSheets,
                   bots: Collection[str] = ()) -> dict[str, tuple[str, ...]]:
    """Each seat's members' e-mail addresses, from the roster file the config names or else the Roster tab, but
    those of the members a bot plays (``bots``: the match record's, by name); the judge's are the config's
    ``gm_emails``."""
    from sheets_gm.match.match_roster import repair_roster

    roster = repair_roster(config, sheets)
    found: dict[str, list[str]] = {}
    for member in roster.members:
        if member.email and member.seat in config.seats and member.name not in bots:
            found.setdefault(member.seat, []).append(member.email)
    out = {seat: tuple(dict.fromkeys(emails)) for seat, emails in found.items()}
    if config.gm_emails:
        out[JUDGE] = tuple(config.gm_emails)
    return out


def after_poll(config: MatchConfig, sheets: MatchSheets, report: WindowReport, clock: Clock) -> str:
    """Queue the notices of the poll that made ``report`` (those never queued before) and send what waits;
    returns a line for the GM ('' when nothing moved). Never raises (see the module notes)."""
    notify = config.notify
    box = Outbox.of(config.path)
    if notify is None:
        return send_due(config, clock) if box.folder.is_dir() else ""
    try:
        queued = _queue(config, notify, sheets, report, box, clock())
    except Exception as exc:  # the poll is written: nothing of the notices may turn it into a failure
        return redact(f"Notices: not queued ({type(exc).__name__}: {exc}); the poll itself is done.", notify)
    line = send_due(config, clock)
    return line or (f"Notices: {queued} queued." if queued else "")


def _queue(config: MatchConfig, notify: NotifySettings, sheets: MatchSheets, report: WindowReport, box: Outbox,
           now: datetime) -> int:
    """The poll's notices queued (only keys never queued); the next reminder's moment kept for the idle gate."""
    if report.facts is None:
        return 0
    rules = _with_undo(notice_rules(config, notify), report.facts, box)
    seen = seen_of(report)
    notices = poll_notices(report.facts, seen, rules, now)
    due_at = reminder_due(seen, rules)
    box.remind_at(seen.window_key, due_at if due_at is not None and due_at > now else None)
    box.open_at(window_token(report.facts.record))
    ledger = box.ledger()
    fresh = [n for n in notices if n.key not in ledger and not any(k in ledger for k in n.told_by)]
    mail_waits = notify.email is not None and any(w.channel == EMAIL for w in box.waiting())
    if not fresh and not mail_waits:
        return 0
    addresses: Mapping[str, tuple[str, ...]] = {}
    if notify.email is not None and (mail_waits or any(n.recipient != CHANNEL for n in fresh)):
        muted = box.muted()  # a player who asked to hear no more (``notices --mute``)
        addresses = {seat: tuple(a for a in found if a.casefold() not in muted)
                     for seat, found in seat_addresses(config, sheets, report.facts.record.bots).items()}
        if mail_waits:
            readdress(box, addresses, notify.zones, now)
        # A seat without an address gets no e-mail: recorded, so that the next polls do not read the roster for it
        box.skip((n.key for n in fresh if n.recipient != CHANNEL and not addresses.get(n.recipient)),
                 "no e-mail address in the roster for a member no bot plays")
    picture = _turn_picture(report.facts, notify, fresh)
    letters = letters_of(fresh, notify, addresses, now, page_link(config), picture is not None)
    return len(box.add(letters, {letter.key: picture for letter in letters if letter.picture and picture}))


def _turn_picture(facts: PollFacts, notify: NotifySettings, fresh: Sequence[Notice]) -> bytes | None:
    """The turn's map as a PNG when a chat post of ``fresh`` carries it (``_pictured``); None for none, or when it
    cannot be drawn (no cairosvg: the post goes without it, its link to the page saying the rest)."""
    if notify.chat is None or not any(n.recipient == CHANNEL and _pictured(n, notify.chat.style) for n in fresh):
        return None
    from sheets_gm.web.picture import turn_picture

    return turn_picture(facts)


def _with_undo(rules: NoticeRules, facts: PollFacts, box: Outbox) -> NoticeRules:
    """``rules`` with the GM's undos since the poll before (``remember_undo``): each window taken back, its reason
    for the take-back's notices, and whose next resolution replaces the one told before. The first poll after them
    names the deal (the match's undo count) then, so that a later undo's notices never borrow them; an undo kept
    before the window was (one alone) is given the window this poll sees and the resolutions counted then (``at``:
    a later step of the window is news of its own)."""
    undos = box.undos()
    record = facts.record
    if not undos or record.deal == 0:
        return rules
    if not all(u.get("deal") for u in undos):
        window = facts.resolved or record.ruleset.window(record.state)
        before = record.resolved - (facts.resolved is not None)  # before this poll's resolution, if it made one
        seen = {"window": window.key, "label": window.label} if window is not None else {"window": ""}
        undos = [u if u.get("deal") else {**seen, "at": str(before), **u, "deal": str(record.deal)} for u in undos]
        box.set_undos(undos)
    told = [u for u in undos if u.get("deal") == str(record.deal)]  # those a later undo left behind: never again
    return replace(rules, taken_back=tuple(TakenBack(u.get("window", ""), u.get("label", ""), u.get("reason", ""),
                                                     int(at) if (at := u.get("at", "")).isdecimal() else -1,
                                                     u.get("what", ""))
                                           for u in told))


def remember_undo(config: MatchConfig, reason: str, undone: tuple[str, int, str, int, str] | None,
                  now: datetime, committed: str = "") -> None:
    """The GM took a turn back (``undo --reason``; ``undone``: ``BetweenReport.undone``): the next poll's notices
    name the window reopened and why, with those of every undo before it since the poll before, and the news of
    the resolution it took back that waits for a retry (the mail was down) is never sent, to any address it has
    not reached yet: what it told no longer stands. A letter of it sent already is followed by the reopened
    window's notice, which says it was taken back. An adjustment taken back (``undone`` None) reopens no window:
    nothing to tell. An undo of the match's end (``committed``: the hash of the fresh seed it drew) is told as such,
    with that hash, and its "match is over" notice, if not sent yet, never is."""
    if config.notify is None or undone is None:
        return
    box = Outbox.of(config.path)
    seed_hash, deal, window, number, label = undone
    waiting = [u for u in box.undos() if u.get("window") and not u.get("deal")]  # no poll has told them yet
    told = {"reason": f"{reason.strip()}; {reseed_reason(committed)}", "what": "the end of the match"} \
        if committed else {"reason": reason.strip()}
    box.set_undos([*waiting, {**told, "window": window, "label": label, "at": str(number - 1)}])
    starts = (resolution_keys(seed_hash, deal, window, number) + "/",
              *([over_key(seed_hash, deal)] if committed else []))
    for letter in box.waiting():
        if letter.key.startswith(starts):
            box.drop(letter, "its resolution was taken back (undo) before it could be sent", now)


def readdress(box: Outbox, addresses: Mapping[str, tuple[str, ...]], zones: Mapping[str, str],
              now: datetime) -> None:
    """The e-mails waiting sent to the seats' addresses as the roster says now (a roster mended takes effect for
    the letters queued before): an address taken off is not written to, one added is (a letter giving a deadline
    in one zone, to those of the seat's players in that zone); an address the letter was sent to already is
    never sent it again."""
    for letter in box.waiting():
        if letter.channel != EMAIL or letter.recipient not in addresses:
            continue
        now_to = addresses[letter.recipient]
        if letter.zone is not None:
            seat_zone = zones.get(letter.recipient, "")
            now_to = tuple(a for a in now_to if zones.get(a.casefold(), seat_zone) == letter.zone)
        if letter.to == now_to:
            continue
        mended = replace(letter, to=tuple(dict.fromkeys((*now_to, *letter.sent_to))))
        if mended.pending:
            box.keep(replace(mended, not_before="") if set(mended.pending) - set(letter.pending) else mended)
        elif mended.sent_to:
            box.sent(mended, now)
        else:
            box.drop(mended, "the roster names no address for it any more", now)


def send_due(config: MatchConfig, clock: Clock) -> str:
    """Send what waits in the match's outbox and may be tried now; a line for the GM. Never raises, and never
    prints a secret (``redact``)."""
    try:
        box = Outbox.of(config.path)
        notify = None if config.notify is None else replace(config.notify, reply_to=tuple(config.gm_emails),
                                                            title=config.title)
        done = send_waiting(box, notify, clock)
        if (done.refused or done.lost) and _tell_gm_of_losses(config, box, done, clock()):
            again = send_waiting(box, notify, clock)
            done.sent += again.sent
            done.waiting = again.waiting
        keep_alarms(box, done)
        return redact(done.line(), config.notify)
    except Exception as exc:  # as in after_poll: the outbox keeps the letters for the next poll
        return redact(f"Notices: not sent ({type(exc).__name__}: {exc}); they wait for the next poll.", config.notify)


def _tell_gm_of_losses(config: MatchConfig, box: Outbox, done: Sending, now: datetime) -> bool:
    """An e-mail to the GM (the config's ``gm_emails``) naming each address refused for good, once an address, and
    each notice lost (a post refused for good or in doubt: the table never saw it), once a notice; whether one
    was queued."""
    notify = config.notify
    if notify is None or notify.email is None or not config.gm_emails:
        return False
    waiting = box.waiting()
    match = next((w.key.split("/", 1)[0] for w in [*done.sent, *waiting, *(d for d, _ in done.lost)] if "/" in w.key),
                 "match")
    status = f"sheets-gm status -c {config.path.name} lists what was not delivered."
    letters = [Letter(f"{match}/refused/{r.address}", EMAIL, "the GM",
                      f"[{config.title}] An address refused for good: {r.address}",
                      f"The mail server refused {r.address} ({r.seat} in the roster) for good: {r.said}.\n\n"
                      f"It was dropped from the letters it was on; the other addresses got them. Mend the roster "
                      f"(its email column) and the letters still waiting go to the new address. {status}",
                      iso(now), tuple(config.gm_emails))
               for r in done.refused if r.address not in config.gm_emails]
    letters += [Letter(f"{match}/lost/{lost.key}", EMAIL, "the GM", f"[{config.title}] A notice was not delivered: "
                       f"{lost.subject}",
                       f"{describe_loss(lost, why)}\n\nThe table did not get it from sheets-gm: tell them yourself "
                       f"if it matters (what it said is below). {status}\n\n{lost.body}", iso(now),
                       tuple(config.gm_emails))
                for lost, why in done.lost if not set(lost.to) <= set(config.gm_emails) or not lost.to]
    return bool(box.add(redact_letter(letter, notify) for letter in letters))


def describe_loss(letter: Letter, why: str) -> str:
    """A notice lost, for the GM: which channel, to whom, what, and why."""
    who = "the channel" if letter.recipient == CHANNEL else letter.recipient
    return f"The {letter.channel} notice to {who}, {letter.subject!r}, was dropped: {why}."


def redact_letter(letter: Letter, notify: NotifySettings) -> Letter:
    """``letter`` with no secret in its words (``redact``): a letter to the GM quoting a server's answer."""
    return replace(letter, subject=redact(letter.subject, notify), body=redact(letter.body, notify))


#: How a chat channel's rate limit is said (``notify.chat``): a routine wait, not a failure to mail cron's GM about.
RATE_LIMITED = "(429 Too Many Requests)"


#: The alarm of the e-mail account's daily sending budget (``keep_alarms``).
BUDGET = "email budget"


def keep_alarms(box: Outbox, done: Sending) -> None:
    """Each channel's failure as this sending found it, for ``quiet_alarms``: a failure new or changed is to be
    said; a channel that worked again is to be said once too."""
    alarms = box.alarms()
    for lost, why in done.lost:  # each said once by --quiet, then forgotten
        alarms[f"lost {lost.key}"] = {"kind": "lost", "error": describe_loss(lost, why), "said": ""}
    for channel, error in done.failing.items():
        if RATE_LIMITED in error:  # routine: the webhook said when to come back, and it is believed
            continue
        kind = _error_kind(error)
        if alarms.get(channel, {}).get("kind") != kind:
            alarms[channel] = {"kind": kind, "error": error, "said": ""}
    if done.held:  # the day's sending budget: said once a day it is spent, forgotten when mail goes again
        kind = "budget " + _error_kind(done.held.split(";")[0])
        if alarms.get(BUDGET, {}).get("kind") != kind:
            alarms[BUDGET] = {"kind": kind, "error": done.held, "said": ""}
    elif EMAIL in done.working:
        alarms.pop(BUDGET, None)
    for channel in done.working:
        if channel in alarms and alarms[channel].get("kind") != "works":
            alarms[channel] = {"kind": "works", "error": "", "said": "" if alarms[channel].get("said") else "yes"}
    box.set_alarms(alarms)


def _error_kind(error: str) -> str:
    """An error without its moments and counts: the same failure said once, however its times change."""
    import re

    return re.sub(r"\d", "#", error)[:120]


def _first_on_host(config: MatchConfig, channel: str, kind: str) -> bool:
    """Whether a channel's failure (``kind``: its words without their figures, ``_error_kind``) or its working again
    (``works``) is this match's to say: the first match on the host to say it for that server
    (``HostChannels.first_to_say``); a letter lost is always the match's own."""
    if kind == "lost" or config.notify is None or channel not in (EMAIL, CHAT):
        return True
    if (channel == EMAIL and config.notify.email is None) or (channel == CHAT and config.notify.chat is None):
        return True
    key = channel_key(config.notify, channel)
    return key is None or HostChannels().first_to_say(key, kind)


def quiet_alarms(config: MatchConfig) -> list[str]:
    """What ``sync --quiet`` says of the notices: once, a channel that fails and why, and once, that it works
    again; nothing else (cron mails what a poll prints)."""
    box = Outbox.of(config.path)
    if not box.folder.is_dir():
        return []
    alarms = box.alarms()
    lines = []
    for channel, alarm in sorted(alarms.items()):
        if alarm.get("said"):
            continue
        alarm["said"] = "yes"
        if not _first_on_host(config, channel, alarm.get("kind", "")):
            continue  # another match on this host said it (one outage, one line)
        if channel == BUDGET:
            lines.append(f"Notices: {alarm.get('error', '')}. `sheets-gm status -c {config.path.name}` lists what "
                         "waits; raise daily_limit if your provider allows more.")
        elif alarm.get("kind") == "lost":
            lines.append(f"Notices: {alarm.get('error', '')} The table did not get it: tell them yourself if it "
                         "matters.")
        elif alarm.get("kind") == "works":
            lines.append(f"Notices: the {channel} channel works again; what waited is being sent.")
        else:
            lines.append(f"Notices: the {channel} channel fails ({alarm.get('error', '')}); its notices wait in the "
                         "outbox, tried again after a wait that doubles at each failure (1, 2, 4, 8 … minutes, at "
                         "most 2 h, every match sending through it waiting alike; said once: sheets-gm status -c "
                         f"{config.path.name} shows what waits and until when)")
    box.set_alarms({name: alarm for name, alarm in alarms.items() if alarm.get("kind") != "lost"})
    return [redact(line, config.notify) for line in lines]


def secrets_of(notify: NotifySettings | None) -> list[tuple[str, str, bool]]:
    """The secrets of ``notify`` that can be read (the webhook's URL, the mail password), each with the words that
    stand for it (where it is kept) and whether it is a URL, for ``notify.redact``."""
    if notify is None:
        return []
    sources = [(s, w) for s, w in ((notify.chat.url if notify.chat else None, "the webhook's URL"),
                                   (notify.email.password if notify.email else None, "the mail password"))
               if s is not None]
    found = []
    for source, what in sources:
        try:
            found.append((source.read(what), f"<{what} from {source.describe()}>", what == "the webhook's URL"))
        except Exception:  # nothing to hide when it cannot be read
            continue
    return found


def redact(text: str, notify: NotifySettings | None) -> str:
    """``text`` without any secret of ``notify``, whole or in pieces, each named by where it is kept, nor anything
    shaped as a webhook's secret (``notify.redact``): the last net under every line the notices print."""
    return redact_secrets(text, secrets_of(notify))


def describe_letter(letter: Letter, now: datetime) -> str:
    """One waiting letter for the GM: channel, recipient, subject, tries, the last error, the next try."""
    who = ("the channel" if letter.recipient == CHANNEL else
           f"{letter.recipient} ({some_of(letter.pending or letter.to, 3) or 'no address'})")
    said = f"{letter.channel} to {who}: {letter.subject!r}"
    if not letter.tries:
        why = letter.error.removeprefix("not tried: ")
        return f"{said}, queued {letter.queued_at}, not tried yet" + (
            f" (its channel failed on the letter before it: {why})" if why else "")
    until = letter.waits_until()
    nxt = f"not before {until:%Y-%m-%d %H:%M:%S}" if until is not None and until > now else "at the next poll"
    tries = f"tried {letter.tries} time{'s' if letter.tries != 1 else ''}" + (
        f" (last {letter.tried_at})" if letter.tried_at else "")
    return f"{said}, {tries}: {letter.error or 'no error kept'}; next try {nxt}"


def outbox_lines(config: MatchConfig, now: datetime) -> list[str]:
    """What ``status`` says of the match's notices: problems that keep them off, what waits and why, when
    the reminder is due."""
    lines = [f"Notices are off: {p}" for p in config.notify_problems]
    box = Outbox.of(config.path)
    waiting = box.waiting() if box.folder.is_dir() else []
    if waiting:
        lines.append(f"Notices waiting ({len(waiting)}):")
        lines += [f"  {describe_letter(letter, now)}" for letter in waiting]
    elif config.notify is not None:
        lines.append("Notices: nothing waits (" + ", ".join(config.notify.channels()) + ").")
    notes = box.notes() if box.folder.is_dir() else []
    if notes:
        shown = describe_notes(notes)
        lines.append(f"Notices not delivered ({len(notes)} kept; the last {len(shown)}, alike ones together):")
        lines += [f"  {line}" for line in shown]
    reminder = box.reminder() if box.folder.is_dir() else None
    if reminder is not None and config.notify is not None:
        lines.append(f"Reminder of the seats not ready: due {reminder.astimezone(UTC):%Y-%m-%d %H:%M} UTC.")
    return [redact(line, config.notify) for line in lines]


#: How many notes of letters not delivered ``status`` and ``doctor`` show.
NOTES_SHOWN = 10


def describe_notes(notes: Sequence[Mapping[str, str]], shown: int = NOTES_SHOWN) -> list[str]:
    """The last ``shown`` of ``notes`` for the GM, the notes alike (one channel and recipient, about the same
    thing: an address refused on every letter, whatever trace the server's words carry each time) told once with
    how many letters they were and the last one's subject, so that one address refused again and again hides no
    other loss."""
    alike: dict[tuple[str, str, str], list[Mapping[str, str]]] = {}
    for note in notes:
        key = (note.get("channel", ""), note.get("recipient", ""), note.get("about") or note.get("what", ""))
        alike[key] = [*alike.pop(key, []), note]
    lines = []
    for group in list(alike.values())[-shown:]:
        more = f" (and {len(group) - 1} letter{'s' if len(group) != 2 else ''} before it alike, from " \
               f"{group[0].get('at', '?')})" if len(group) > 1 else ""
        lines.append(describe_note(group[-1]) + more)
    return lines


def describe_note(note: Mapping[str, str]) -> str:
    """A note of the outbox for the GM: when, which letter, what became of it."""
    who = "the channel" if note.get("recipient") == CHANNEL else note.get("recipient", "?")
    return f"{note.get('at', '?')} {note.get('channel', '?')} to {who}: {note.get('subject', '')!r}: {note.get('what')}"


def send_test(config: MatchConfig, notify: NotifySettings, now: datetime) -> list[tuple[str, str]]:
    """A test notice through every channel set, sent at once (not queued): the chat channel, and an e-mail to
    the config's ``gm_emails``. Each channel's result: ('ok' or 'fail', what happened)."""
    from sheets_gm.notify.chat import ChatHook, chat_parts
    from sheets_gm.notify.mail import MailHeads, MailSession

    subject = f"[{config.title}] Test notice from sheets-gm"
    body = (f"A test notice sent by `sheets-gm doctor --send-test` at {now:%Y-%m-%d %H:%M} UTC. If you read this, "
            f"the match's notices reach you here.")
    if page_link(config):  # as every notice of the match ends: the GM sees the link players will follow
        body = f"{body}\n{page_line(page_link(config))}"
    results: list[tuple[str, str]] = []
    if notify.chat is not None:
        text = chat_parts(subject, body, notify.chat.style, notify.chat.limit)[0]
        letter = Letter(f"test/{iso(now)}/chat", CHAT, CHANNEL, subject, text, iso(now))
        try:
            ChatHook(notify.chat).post(letter, now)
            results.append(("ok", f"chat: a test notice was posted to the {notify.chat.style.value} webhook"))
        except SendError as exc:
            results.append(("fail", f"chat: {exc}"))
    if notify.email is not None:
        if not config.gm_emails:
            results.append(("fail", "e-mail: no address to send the test to: add gm_emails to the config"))
        else:
            letter = Letter(f"test/{iso(now)}/email", EMAIL, "the GMs", subject, body, iso(now),
                            tuple(config.gm_emails))
            try:
                with MailSession(notify.email, MailHeads(tuple(config.gm_emails), config.title)) as mail:
                    delivery = mail.send(letter, now)
                refused = {**delivery.refused, **delivery.later}
                if delivery.accepted:
                    results.append(("ok", f"e-mail: a test notice was sent to {', '.join(delivery.accepted)} "
                                          f"through {notify.email.host}:{notify.email.port}"))
                if refused:
                    results.append(("fail", "e-mail: the mail server refused " + "; ".join(
                        f"{address} ({said})" for address, said in refused.items())))
            except SendError as exc:
                results.append(("fail", f"e-mail: {exc}"))
    return [(verdict, redact(said, notify)) for verdict, said in results]

