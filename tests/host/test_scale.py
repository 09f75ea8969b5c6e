"""What lets one host hold thousands of matches: an idle local match whose files the system's file events cover
is looked at on an event, at its deadline and notices' moments, and every few minutes, not at every interval; a
cold start polls the changed and due matches first and the rest as the workers allow. The host's clock moves when
the test says; the file events are handed in by the test (and one real event, from the kernel, is waited for)."""

from __future__ import annotations

import os
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from sheets_gm.host.file_events import QUIET_LOOK, FileEvents, file_system_of
from sheets_gm.host.scheduler import Host
from sheets_gm.host.status import AccountStatus, HostStatus, MatchStatus, read_status, write_status
from tests.host.hosting import Clock, hosted, new_host, starts
from tests.matchfiles import NOW, local_match, state_of, type_orders


class HandedEvents(FileEvents):
    """File events the test hands in (``note``), covering every file under the folder."""

    def __init__(self, folder: Path) -> None:
        super().__init__([folder], watches=lambda: None)  # no kernel's watches to count: the test's own events
        self.trusted = [folder.resolve()]
        self.started = self.begun = True  # (the host starts no watch of the kernel's)


def looks(host: Host, clock: Clock, seconds: int, name: str, folder: Path) -> int:
    """How many times the host looked at the match ``name`` over ``seconds`` of 10-second passes."""
    seen = 0
    for _ in range(seconds // 10):
        clock.tick(10)
        before = hosted(host, folder, name).looked_at
        host.step()
        seen += hosted(host, folder, name).looked_at != before
    return seen


def test_an_idle_local_match_is_looked_at_on_its_file_events_not_at_every_interval(tmp_path: Path) -> None:
    league = tmp_path / "league"
    _, sheets = local_match(league / "quiet", private=True)
    events = HandedEvents(league)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10, events=events)
    host.step()
    assert looks(host, clock, 120, "quiet", league) <= 1  # idle: not every 10 s
    type_orders(sheets, ready=False, seats=("red",))  # a save...
    events.note((league / "quiet" / "red.xlsx").resolve())  # ... which the kernel tells of
    clock.tick(10)
    host.step()
    assert "feedback cells updated" in hosted(host, league, "quiet").line
    type_orders(sheets, ready=False, seats=("blue",))  # a save no event told of (a missed one): still seen, within
    for _ in range(int(QUIET_LOOK.total_seconds()) // 10 + 1):  # QUIET_LOOK
        clock.tick(10)
        host.step()
        if "feedback cells updated" in hosted(host, league, "quiet").line:
            break
    else:
        raise AssertionError("a save no event told of was never answered")


def test_without_file_events_an_idle_local_matchs_files_are_looked_at_every_interval(tmp_path: Path) -> None:
    """No events: the sweep looks at its own files (a ``stat`` each) every interval, its whole look (record, outbox)
    comes by its moment, and a save is answered within the interval."""
    league = tmp_path / "league"
    _, sheets = local_match(league / "plain", private=True)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10)
    host.step()
    assert looks(host, clock, 120, "plain", league) <= 1
    type_orders(sheets, ready=False, seats=("red",))
    for _ in range(2):
        clock.tick(10)
        host.step()
    assert "feedback cells updated" in hosted(host, league, "plain").line


def test_a_network_share_is_not_trusted_for_events(tmp_path: Path) -> None:
    mounts = "/dev/sda1 / ext4 rw 0 0\nnas:/m /srv/matches nfs4 rw 0 0\n"
    assert file_system_of(Path("/srv/matches/club/m1"), mounts) == "nfs4"
    assert file_system_of(Path("/srv/matchesX"), mounts) == "ext4"
    events = FileEvents([tmp_path])
    events.started = True  # (its watches in place)
    assert events.covers([tmp_path / "a" / "b.xlsx"]) and not events.covers([Path("/elsewhere/b.xlsx")])


def test_the_kernel_tells_of_a_save(tmp_path: Path) -> None:
    seen = threading.Event()

    class Told(FileEvents):
        def note(self, path: Path) -> None:
            super().note(path)
            if path.name == "orders.xlsx":
                seen.set()

    events = Told([tmp_path])
    (tmp_path / "m1" / ".sheets-gm").mkdir(parents=True)
    assert events.start(), events.error
    try:
        (tmp_path / "m1" / ".sheets-gm" / "m.poll.json").write_text("{}")  # ours: not noted
        (tmp_path / "m1" / "orders.xlsx").write_bytes(b"saved")
        assert seen.wait(timeout=30)
    finally:
        events.stop()
    assert (tmp_path / "m1").resolve() in events.take()


def test_a_cold_start_answers_a_changed_match_before_the_backlog(tmp_path: Path) -> None:
    # Five matches polled once (as cron or a host before left them), then the host restarts with one worker: a
    # save in the last one goes before the four that need only their first look (one worker: any backlog of more
    # than one match is served a match a pass).
    league = tmp_path / "league"
    made = {f"m{i:02d}": local_match(league / f"m{i:02d}", deadline=(NOW + timedelta(hours=1)).isoformat())[1]
            for i in range(5)}
    clock, lines = Clock(NOW), list[str]()
    warm = new_host(league, clock, lines, interval=10, workers=5)
    warm.step()
    assert all(h.read_at == NOW for h in warm.matches.values())
    for workbook in league.rglob("*.xlsx"):  # restored with their times kept: each one's change time moved
        os.utime(workbook, ns=(workbook.stat().st_atime_ns, workbook.stat().st_mtime_ns))
    clock.tick(31 * 60)  # their records say idle but for the 30-minute safety net: a backlog of first polls
    type_orders(made["m04"])  # the late match: every seat Ready
    cold = new_host(league, clock, lines, interval=10, workers=1)
    order = starts(cold)
    cold.step()
    assert order == ["m04"] and state_of(made["m04"]).turn == 2  # answered at the first pass
    clock.tick(10)
    cold.step()
    assert len(order) == 2 and order[1] != "m04"  # then the backlog, one a pass as the one worker allows


def test_a_cold_start_on_matches_never_polled_answers_the_one_a_file_event_names_first(tmp_path: Path) -> None:
    # No record tells which of twelve matches never polled changed; the file event of a save does.
    league = tmp_path / "league"
    made = {f"m{i:02d}": local_match(league / f"m{i:02d}")[1] for i in range(12)}
    events = HandedEvents(league)
    clock, lines = Clock(NOW), list[str]()
    cold = new_host(league, clock, lines, interval=10, workers=1, events=events)
    cold._scan(clock())
    type_orders(made["m11"])
    events.note((league / "m11" / "match.xlsx").resolve())
    order = starts(cold)
    cold.step()
    assert order == ["m11"] and state_of(made["m11"]).turn == 2


def test_a_cold_start_looks_at_a_few_thousand_matches_a_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The watchdog hears the host after each pass: a pass over tens of thousands of first looks would outlast it.
    monkeypatch.setattr("sheets_gm.host.scheduler.LOOKS_A_PASS", 2)
    league = tmp_path / "league"
    for i in range(5):
        local_match(league / f"m{i}")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10, workers=8)
    looked = []
    for _ in range(3):
        host.step()
        looked.append(sum(h.looked_at is not None for h in host.matches.values()))
    assert looked == [2, 4, 5]
    # So do the looks of matches falling due together (here every interval: no file events; at 10,000 Google
    # matches, their idle looks every QUIET_LOOK), the rest in the next passes.
    clock.tick(60)
    before = {p: h.looked_at for p, h in host.matches.items()}
    host.step()
    assert sum(h.looked_at != before[p] for p, h in host.matches.items()) == 2


def test_the_status_file_of_thousands_of_matches_is_written_without_copying_a_value(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The host rewrites its status file at least once a minute; at 10,000 matches dataclasses.asdict (a deep copy of
    # every value) and the JSON encoder's Python path (an indent) cost 0.34 CPU seconds a write, most of an idle
    # host's cost. The records hold plain values: written as they are, and read back the same.
    copies: list[object] = []

    def counted_copy(value: object, *_: object) -> object:
        copies.append(value)
        return value

    monkeypatch.setattr("copy.deepcopy", counted_copy)
    matches = [MatchStatus(f"club/m{i}/match.toml", "gvg", "local", "idle", "2026-11-23T12:00:00+00:00",
                           line=f"Turn {i}: waiting for red, blue.", failures=i % 3) for i in range(2000)]
    matches.sort(key=lambda m: m.config)  # as the status is read: by config
    status = HostStatus(1, [str(tmp_path)], "2026-11-23T11:00:00+00:00", "2026-11-23T12:00:00+00:00", 10.0, 4,
                        True, matches, [AccountStatus("service account a@b", requests=3, matches=2000)])
    write_status(tmp_path / "serve-status.json", status)
    assert copies == []
    assert read_status(tmp_path / "serve-status.json") == status
