"""An idle local match's next look costs a ``stat`` a file where nothing was touched (``host.seen``), and is made whole
again as soon as anything it depended on was touched, or a moment it waits for came."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

import sheets_gm.host.scheduler as scheduler
from sheets_gm.host.file_events import QUIET_LOOK
from sheets_gm.host.quiet import Need, local_need
from sheets_gm.host.scheduler import Host
from sheets_gm.host.seen import asks_mail
from sheets_gm.poll_gate import idle
from sheets_gm.poll_gate.idle import SAFETY_NET_MINUTES
from tests.host.hosting import Clock, hosted, new_host
from tests.host.test_scale import HandedEvents
from tests.matchfiles import NOW, local_match


class WholeLooks:
    """Counts the host's whole looks at a local match (cron's idle decision: the record read and parsed)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real: Callable[..., Need] = local_need

        def counted(*args: object, **kwargs: object) -> Need:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(scheduler, "local_need", counted)


def idle_host(tmp_path: Path) -> tuple[Host, Clock, Path]:
    """A host on one local match, polled once and looked at once since (idle, its look noted)."""
    league = tmp_path / "league"
    local_match(league / "m1", private=True)
    clock = Clock(NOW)
    host = new_host(league, clock, [], interval=10, workers=1)
    host.step()
    assert hosted(host, league, "m1").read_at == NOW
    clock.tick(10)
    host.step()
    assert hosted(host, league, "m1").seen is not None
    return host, clock, league


def touch(path: Path) -> None:
    """Touch ``path`` as a tool that keeps times does: its times set to what they were (its change time moves)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_an_idle_look_where_nothing_was_touched_reads_no_record(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The safety moment (a whole look by design, tested below) falls at a place drawn from the match's folder, a new
    # tmp path each run: kept out of these five minutes, where it fell in one run of six.
    monkeypatch.setattr(idle, "SAFETY_NET_MINUTES", 10**7)
    host, clock, _ = idle_host(tmp_path)
    looks = WholeLooks(monkeypatch)
    for _ in range(30):
        clock.tick(10)
        host.step()
    assert looks.count == 0 and host.polls == 1


def test_every_file_a_look_depends_on_touched_makes_a_later_look_whole(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The property: whichever of them is touched, a later look reads the record again (the config or a workbook at
    the next pass, through the sweep where no file events are had; the host's own files by the match's next look,
    ``QUIET_LOOK`` at the latest, as with file events, which leave them out), and the one after it is quick again."""
    monkeypatch.setattr(idle, "SAFETY_NET_MINUTES", 10**7)  # the safety moment (a whole look) not within this test
    host, clock, league = idle_host(tmp_path)
    looks = WholeLooks(monkeypatch)
    seen = hosted(host, league, "m1").seen
    assert seen is not None
    existing = [Path(f) for f in seen.files if Path(f).exists()]
    assert len(existing) >= 7 and seen.own == 5  # the config, its four workbooks, the record and its folder at least
    for path in existing:
        before, touched_at = looks.count, clock()
        touch(path)
        for _ in range(int(QUIET_LOOK.total_seconds()) // 10 + 1):
            clock.tick(10)
            host.step()
            if looks.count > before:
                break
        assert looks.count == before + 1, path
        if str(path) in seen.files[:seen.own]:
            assert clock() - touched_at <= timedelta(seconds=10), path  # the sweep: within the interval
        clock.tick(10)
        host.step()
        assert looks.count == before + 1, path
    assert host.polls == 1  # (a touch changes no content: nothing to read)


def test_a_journal_that_appears_has_the_match_polled(tmp_path: Path) -> None:
    """A command cut short leaves its journal beside the record: the match's next look sees the folder touched and
    polls (``QUIET_LOOK`` at the latest)."""
    host, clock, league = idle_host(tmp_path)
    journal = league / "m1" / ".sheets-gm" / "match.journal.command.json"
    journal.write_text("{}", encoding="utf-8")
    for _ in range(int(QUIET_LOOK.total_seconds()) // 10 + 1):
        clock.tick(10)
        host.step()
    assert host.polls >= 2


def test_a_change_its_size_and_time_hid_is_read_at_the_safety_moment(tmp_path: Path) -> None:
    """A workbook written again with its old size and time: the quick look sees it touched, the whole look finds its
    size and time the record's and stays idle until the match's safety moment, when its next whole look (by
    ``QUIET_LOOK``) reads it."""
    host, clock, league = idle_host(tmp_path)
    workbook = league / "m1" / "red.xlsx"
    st = workbook.stat()
    workbook.write_bytes(workbook.read_bytes())
    os.utime(workbook, ns=(st.st_atime_ns, st.st_mtime_ns))
    clock.tick(10)
    host.step()
    assert host.polls == 1
    for _ in range(int((timedelta(minutes=SAFETY_NET_MINUTES) + QUIET_LOOK).total_seconds()) // 10 + 6):
        clock.tick(10)
        host.step()
    read_at = hosted(host, league, "m1").read_at
    assert host.polls == 2 and read_at is not None and read_at > NOW + timedelta(minutes=1)


def test_only_a_mailbox_table_makes_every_look_whole(tmp_path: Path) -> None:
    """A starter config's comment naming ``[mailbox]`` asks no mailbox (its looks are quick); a ``[mailbox]`` table
    does (each look asks it), and so does a config that does not read."""
    config = tmp_path / "match.toml"
    config.write_text('ruleset = "coalition"\n# [mailbox]   # the judge\'s mailbox (IMAP): docs/mailbox.md\n')
    assert not asks_mail(config)
    config.write_text('ruleset = "coalition"\n[mailbox]\nhost = "127.0.0.1"\n')
    assert asks_mail(config)
    config.write_text('ruleset = "coalition"\n[mailbox\n')
    assert asks_mail(config) and asks_mail(tmp_path / "gone.toml")


def test_a_match_first_looked_at_before_the_events_are_in_place_is_looked_at_seldom_once_they_are(
        tmp_path: Path) -> None:
    """The watches are put beside the first looks (tens of seconds at 10,000 matches): a match looked at meanwhile
    is swept, then learnt covered at its next look, as if its first look had come after them."""
    league = tmp_path / "league"
    local_match(league / "m1", private=True)
    events = HandedEvents(league)
    events.started = False
    clock = Clock(NOW)
    host = new_host(league, clock, [], interval=10, workers=1, events=events)
    host.step()
    clock.tick(10)
    host.step()
    assert not hosted(host, league, "m1").quiet
    events.started = True
    for _ in range(int(QUIET_LOOK.total_seconds()) // 10 + 1):
        clock.tick(10)
        host.step()
    assert hosted(host, league, "m1").quiet
