"""What a poll's notices say and how they are keyed (``notify.notices``), and the outbox that sends each key once
(``notify.outbox``): a resolution cut by a fault and completed by the next poll tells the table once."""

from __future__ import annotations

import datetime as dt
import json
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from sheets_gm.engine.events import Event
from sheets_gm.match.config_tables import SecretSource
from sheets_gm.match.notify_settings import ChatSettings, ChatStyle, NoticeKind, NotifySettings
from sheets_gm.notify.announce import letters_of, seen_of
from sheets_gm.notify.notices import CHANNEL, Notice, NoticeRules, PollSeen, poll_notices, reminder_due
from sheets_gm.notify.outbox import CHAT, Letter, Outbox, due
from sheets_gm.sync.poll import poll
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.sync.race_game import RACE, RaceRuleset
from tests.sync.test_generic_sync import new_race, tick_ready, type_pace

__all__ = ["registered_race"]
from tests.sync.race_game import registered_race

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
DEADLINE = "2026-11-22T20:00+01:00[Europe/Paris]"  # 19:00 UTC


def ready_race() -> tuple[MatchSheets, list[MemoryBackend]]:
    """A race whose turn 1 is due: Ann typed a pace, both ticked Ready."""
    sheets, backends = new_race()
    _board, _engine, ann, bo = backends
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    return sheets, backends


def seen(report_seen: PollSeen, **changes: object) -> PollSeen:
    return replace(report_seen, **changes)  # type: ignore[arg-type]


def test_an_open_window_is_told_to_the_channel_and_to_each_seat_with_what_to_type(
        registered_race: type[RaceRuleset]) -> None:
    sheets, _ = new_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    rules = NoticeRules(zones={"Bo": "America/New_York"}, title="Race night")
    notices = poll_notices(report.facts, seen(seen_of(report), deadline=DEADLINE), rules, NOW)
    match = report.facts.record.seed_hash[:16]
    assert [n.key for n in notices] == [f"{match}/1/opened/{who}" for who in (CHANNEL, "Ann", "Bo")]
    channel, ann, bo = notices
    assert channel.public and channel.subject == "[Race night] Turn 1 is open"
    assert "Orders close Sun 22 Nov, 20:00 (Europe/Paris)." in channel.body
    assert "Orders close Sun 22 Nov, 14:00 (America/New_York)." in bo.body
    assert "tab 'Orders Ann'" in ann.body and "Pace" in ann.body and "tick Ready when your orders are in" in ann.body


def test_a_seat_a_bot_plays_whole_is_told_nothing_and_hears_again_once_handed_back(
        registered_race: type[RaceRuleset]) -> None:
    sheets, _ = new_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    botted = replace(report.facts, record=replace(report.facts.record, bots={"Bo": "steady"}))
    match = report.facts.record.seed_hash[:16]
    told = [n.key for n in poll_notices(botted, seen_of(report), NoticeRules(), NOW)]
    assert told == [f"{match}/1/opened/{who}" for who in (CHANNEL, "Ann")]
    back = [n.key for n in poll_notices(report.facts, seen_of(report), NoticeRules(), NOW)]
    assert f"{match}/1/opened/Bo" in back  # never built while the bot played: a person back hears of the window


def test_a_window_opened_again_by_an_undo_is_news_again(registered_race: type[RaceRuleset]) -> None:
    sheets, _ = new_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    undone = replace(report.facts, record=replace(report.facts.record, deal=1))
    first = {n.key for n in poll_notices(report.facts, seen_of(report), NoticeRules(), NOW)}
    again = {n.key for n in poll_notices(undone, seen_of(report), NoticeRules(), NOW)}
    assert first.isdisjoint(again) and all("/1~1/opened/" in k for k in again)


def test_only_the_first_resolution_after_an_undo_replaces_the_result_told_before(
        registered_race: type[RaceRuleset], tmp_path: Path) -> None:
    """A Win or Die turn resolves in steps (an attack a reaction stopped goes on at the next poll): after the GM's
    undo, the reopened turn's first step was told "resolved again: This replaces the result … told before the GM
    took it back", and so was its next step, which replaces nothing (found in a practice match: "Turn 2 · Ann
    resolved again" twice). The window's first resolution after the undo says so, a later one of it does not."""
    from sheets_gm.notify.announce import _with_undo

    sheets, (_board, _engine, ann, bo) = new_race()
    reopened = poll(sheets, RACE, now=NOW)  # the first poll after the undo: the window open again
    type_pace(ann, "Ann", 0, "run")
    tick_ready(ann, "Ann")
    tick_ready(bo, "Bo")
    resolved = poll(sheets, RACE, now=NOW)
    assert reopened.facts is not None and resolved.facts is not None and resolved.facts.resolved is not None
    box = Outbox(tmp_path / "outbox")
    box.folder.mkdir()  # an undo as ``undo`` kept it before it kept several: one record, no window
    (box.folder / "undo.json").write_text(json.dumps({"reason": "Bo ticked Ready too early"}), encoding="utf-8")

    def told(facts: PollFacts, report_seen: PollSeen) -> Notice:
        undone = replace(facts, record=replace(facts.record, deal=1))
        rules = _with_undo(NoticeRules(title="Race night"), undone, box)
        return next(n for n in poll_notices(undone, report_seen, rules, NOW) if n.recipient == CHANNEL)

    assert told(reopened.facts, seen_of(reopened)).subject == "[Race night] Turn 1 is open again: the GM took a " \
                                                              "turn back"
    first = told(resolved.facts, seen_of(resolved))
    assert first.subject == "[Race night] Turn 1 resolved again" and "This replaces the result" in first.body
    step = replace(resolved.facts, record=replace(resolved.facts.record, resolved=2))  # the same window's next step
    later = told(step, seen_of(resolved))
    assert later.subject == "[Race night] Turn 1 resolved" and "This replaces" not in later.body, later


def test_an_undo_kept_alone_before_several_were_reads_as_one(tmp_path: Path) -> None:
    """``undo.json`` kept one undo (a record, seen by a poll or not); it is read as a list of that one."""
    box = Outbox(tmp_path / "outbox")
    box.folder.mkdir()
    for old in ({"reason": "Bo ticked Ready too early"}, {"reason": "why", "deal": "1", "window": "2", "at": "1"}):
        (box.folder / "undo.json").write_text(json.dumps(old), encoding="utf-8")
        assert box.undos() == [old]


@pytest.mark.parametrize(("hours", "told"), [(4, False), (5.5, True), (7.5, False)])
def test_the_reminder_goes_within_its_lead_of_the_deadline_to_the_seats_not_ready(
        registered_race: type[RaceRuleset], hours: float, told: bool) -> None:
    sheets, (_board, _engine, ann, _bo) = new_race()
    tick_ready(ann, "Ann")
    type_pace(ann, "Ann", 0, "run")
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    now = NOW + dt.timedelta(hours=hours)
    found = seen(seen_of(report), deadline=DEADLINE)
    reminders = [n for n in poll_notices(report.facts, found, NoticeRules(), now) if n.kind is NoticeKind.REMINDER]
    if not told:
        assert reminders == []
        return
    assert [n.recipient for n in reminders] == [CHANNEL, "Bo"]
    assert "closes in 1 h 30 min" in reminders[0].body and "Not ready yet: Bo." in reminders[0].body
    assert "Bo has not ticked Ready yet." in reminders[1].body
    assert reminder_due(found, NoticeRules()) == dt.datetime(2026, 11, 22, 17, tzinfo=dt.UTC)
    off = NoticeRules(kinds=frozenset(NoticeKind) - {NoticeKind.REMINDER})
    assert reminder_due(found, off) is None


def test_a_resolution_tells_the_channel_the_public_log_and_each_seat_its_news(
        registered_race: type[RaceRuleset]) -> None:
    sheets, _ = ready_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.resolved and report.facts is not None and report.facts.resolved is not None
    notices = poll_notices(report.facts, seen_of(report), NoticeRules(), NOW)
    resolved = [n for n in notices if n.kind is NoticeKind.RESOLVED]
    assert [n.recipient for n in resolved] == [CHANNEL, "Ann", "Bo"]
    assert all(n.key.split("/")[1] == "1@1" for n in resolved)
    assert "What happened (the public log):" in resolved[0].body
    assert "What happened to Ann (your View tab's log):" in resolved[1].body
    assert [n.key.split("/")[1] for n in notices if n.kind is NoticeKind.OPENED] == ["2"] * 3


def test_the_end_of_the_match_tells_the_result_and_the_seed(registered_race: type[RaceRuleset]) -> None:
    sheets, (_board, _engine, ann, bo) = new_race()
    report = None
    for _ in range(20):
        type_pace(ann, "Ann", 0, "run")
        tick_ready(ann, "Ann")
        tick_ready(bo, "Bo")
        report = poll(sheets, RACE, now=NOW)
        if report.finished:
            break
    assert report is not None and report.finished and report.facts is not None
    notices = poll_notices(report.facts, seen_of(report), NoticeRules(), NOW)
    over = [n for n in notices if n.kind is NoticeKind.OVER]
    assert [n.recipient for n in over] == [CHANNEL, "Ann", "Bo"]
    assert report.facts.record.seed.hex() in over[0].body and "The match is over:" in over[0].body
    assert not any(n.kind is NoticeKind.OPENED for n in notices)


def test_a_resolution_cut_by_a_fault_and_completed_tells_the_table_once(registered_race: type[RaceRuleset],
                                                                       tmp_path: Path) -> None:
    """The poll that fails half-way queues nothing (its notices are built only from a poll that wrote all); the
    one that completes it builds the very keys an uncut resolution builds, and the outbox takes each once."""
    def resolve(cut: bool) -> set[str]:
        sheets, (board, *_) = ready_race()
        if cut:
            board.fail_on_call = len(board.calls) + 2
            with pytest.raises(InjectedFault):
                poll(sheets, RACE, now=NOW)
            board.fail_on_call = None
        report = poll(sheets, RACE, now=NOW)
        assert report.resolved and report.facts is not None
        return {n.key for n in poll_notices(report.facts, seen_of(report), NoticeRules(), NOW)}

    assert resolve(cut=True) == resolve(cut=False)
    notify = NotifySettings(frozenset(NoticeKind), None, {}, chat=ChatSettings(ChatStyle.SLACK, SecretSource("H")))
    sheets, _ = ready_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    letters = letters_of(poll_notices(report.facts, seen_of(report), NoticeRules(), NOW), notify, {}, NOW)
    box = Outbox(tmp_path / "outbox")
    assert len(box.add(letters)) == len(letters) == 2  # the channel's: resolved, and turn 2 opened
    assert box.add(letters) == []
    box.sent(box.waiting()[0], NOW)
    assert box.add(letters) == [] and len(box.waiting()) == 1


def test_the_outbox_keeps_its_letters_private_and_says_what_is_due(tmp_path: Path) -> None:
    config = tmp_path / "match.toml"
    assert due(config, NOW).letters == 0 and not (tmp_path / ".sheets-gm").exists()
    box = Outbox.of(config)
    letter = Letter("m/1/opened/#channel", CHAT, CHANNEL, "Turn 1 is open", "**Turn 1 is open**", "2026-11-22T12:00")
    box.add([letter])
    assert stat.S_IMODE(box.folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in box.folder.rglob("*") if p.is_file()} == {0o600}
    assert due(config, NOW).letters == 1
    waiting = box.failed(letter, "429", NOW, NOW + dt.timedelta(seconds=60))
    assert due(config, NOW).letters == 0 and due(config, NOW + dt.timedelta(seconds=61)).letters == 1
    assert waiting.tries == 1 and box.waiting() == [waiting]
    box.remind_at("1", NOW + dt.timedelta(hours=1))
    assert not due(config, NOW).reminder and due(config, NOW + dt.timedelta(hours=1)).reminder
    box.skip(["m/1/opened/Bo"], "no e-mail address in the roster")
    assert box.add([replace(letter, key="m/1/opened/Bo")]) == []
    assert box.ledger()["m/1/opened/Bo"] == "not sent: no e-mail address in the roster"
    (box.folder / "ledger.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(OSError, match="ledger"):
        box.add([replace(letter, key="m/2/opened/#channel")])


def test_a_step_of_a_window_that_stays_open_mails_only_the_seats_it_concerns(
        registered_race: type[RaceRuleset]) -> None:
    """A stepwise window (Wesnoth's Go) resolves rows and stays open: the channel hears each step, a seat's
    mailbox only the steps that name it."""
    sheets, _ = new_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    record = report.facts.record
    window = record.ruleset.window(record.state)
    step = replace(report.facts, resolved=window, before=record.state, events=())
    resolved = [n for n in poll_notices(step, seen_of(report), NoticeRules(), NOW) if n.kind is NoticeKind.RESOLVED]
    assert [n.recipient for n in resolved] == [CHANNEL]


def test_the_channels_summary_quotes_the_lines_in_the_order_the_game_puts_first(
        registered_race: type[RaceRuleset], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 78, item 6: the orders post quoted the first 12 Log lines, most of them a Coalition war's drawn routes.
    The channel's summary quotes the game's ``news_first`` order (the Coalition's battles, kills and structures
    first); the attachment keeps the Log's order."""
    sheets, _ = ready_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None
    monkeypatch.setattr(type(report.facts.adapter), "news_first", lambda _self, events: list(reversed(events)))
    notices = poll_notices(report.facts, seen_of(report), NoticeRules(), NOW)
    channel = next(n for n in notices if n.kind is NoticeKind.RESOLVED and n.recipient == CHANNEL)
    quoted = [line.removeprefix("  · ") for line in channel.body.splitlines() if line.startswith("  · ")]
    public = [e.text for e in report.facts.events if e.audience is None]
    assert len(public) > 1 and quoted[:len(public)] == list(reversed(public))[:len(quoted)], (quoted, public)


def test_a_coalition_turns_news_puts_battles_kills_and_structures_before_the_drawn_routes() -> None:
    from sheets_gm.engine.events import Event
    from sheets_gm.rulesets.coalition.enums import EventKind
    from sheets_gm.rulesets.coalition.sheet.adapter import CoalitionSheet
    from tests.rulesets.coalition.helpers import board

    log = [Event(1, EventKind.ROUTE, "Ann's route drawn: 3A > 3B"), Event(1, EventKind.ORDER, "Ann: 3A > 3B [ok]"),
           Event(1, EventKind.DICE, "Dice and draws: …"), Event(1, EventKind.BATTLE, "Ann attacks Bo, 3C"),
           Event(1, EventKind.TRANSFER, "Cy transfers"), Event(1, EventKind.KILL, "Ann kills Bo"),
           Event(1, EventKind.DESTROYED, "The castle at 4C is destroyed")]
    first = [e.text for e in CoalitionSheet(board()).news_first(log)]
    assert first == ["Ann attacks Bo, 3C", "Ann kills Bo", "The castle at 4C is destroyed", "Cy transfers",
                     "Ann: 3A > 3B [ok]", "Ann's route drawn: 3A > 3B", "Dice and draws: …"]


def test_a_war_sized_resolution_tells_each_seat_its_news_without_comparing_every_event_with_every_other(
        registered_race: type[RaceRuleset], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seat's notice of a resolution lists the public log less the seat's own news; at war size (a 576-army
    Coalition turn, some thousand events) that difference compared each public event with each of the seat's,
    each as JSON: most of a war's resolve (issue 89). It compares an event with those of the same text alone."""
    sheets, _ = ready_race()
    report = poll(sheets, RACE, now=NOW)
    assert report.facts is not None and report.facts.events
    first = report.facts.events[0]
    many = [*report.facts.events, *(Event(first.turn, first.kind, f"Ann and Bo run lap {n}", {"seats": ["Ann", "Bo"]})
                                         for n in range(800))]
    compared = [0]
    equal = Event.__eq__

    def counting(self: Event, other: object) -> bool:
        compared[0] += 1
        return equal(self, other)

    monkeypatch.setattr(Event, "__eq__", counting)
    notices = poll_notices(replace(report.facts, events=many), seen_of(report), NoticeRules(), NOW)
    ann = next(n for n in notices if n.kind is NoticeKind.RESOLVED and n.recipient == "Ann")
    assert "Ann and Bo run lap 799" in ann.body
    assert compared[0] < 10 * len(many), f"{compared[0]:,} comparisons of events for {len(many)} events"
