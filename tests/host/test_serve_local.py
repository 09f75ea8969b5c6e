"""``sheets-gm serve`` on local matches: matches found and dropped as their configs come and go, a broken match
retried with growing waits while the others resolve, a match another command holds skipped, a deadline fired at
its second, SIGTERM in the middle of a resolution, and the status the host keeps. Nothing sleeps: the host's
clock moves when the test says, and its pool runs each poll at once."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.serve import stop_on_signals
from sheets_gm.host.polls import poll_behind_gate
from sheets_gm.host.scheduler import Stop
from sheets_gm.host.status import read_status, status_lines
from sheets_gm.host.visit import visit as visit_once
from sheets_gm.match.config import MatchConfig
from sheets_gm.sync.lock import match_lock
from tests.host.hosting import Clock, InlinePool, Passing, hosted, new_host
from tests.matchfiles import NOW, local_match, state_of, type_orders

BROKEN = 'ruleset = "gvg"\n[sheets]\nbackend = "paper"\nboard = "match.xlsx"\n'


def _visits(monkeypatch: pytest.MonkeyPatch, before: Callable[[Path], None] = lambda path: None) -> list[Path]:
    """Record every visit the host hands its pool (``before`` runs first, in the worker)."""
    seen: list[Path] = []
    real = visit_once

    def visit(path: Path, *args: Any, **kwargs: Any) -> Any:
        seen.append(path)
        before(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr("sheets_gm.host.scheduler.VISIT", visit)
    return seen


def test_matches_are_found_under_the_folders_and_dropped_when_their_config_goes(tmp_path: Path) -> None:
    league = tmp_path / "league"
    local_match(league / "friday")
    local_match(league / "sunday" / "deep")
    (league / "notes.toml").write_text('title = "not a match"\n', encoding="utf-8")
    (league / ".old").mkdir()
    (league / ".old" / "match.toml").write_text('ruleset = "gvg"\n[sheets]\nboard = "x.xlsx"\n', encoding="utf-8")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, rescan=60)
    host.step()
    assert sorted(h.shown for h in host.matches.values()) == ["friday/match.toml", "sunday/deep/match.toml"]
    assert all(h.done == "read" for h in host.matches.values())  # each polled at once
    local_match(league / "monday")
    clock.tick(30)
    host.step()
    assert len(host.matches) == 2  # the folders are searched again each minute, not each pass
    clock.tick(30)
    host.step()
    assert hosted(host, league, "monday").done == "read" and "monday/match.toml: found; polled from now on." in lines
    (league / "friday" / "match.toml").unlink()
    clock.tick(60)
    host.step()
    assert sorted(h.shown for h in host.matches.values()) == ["monday/match.toml", "sunday/deep/match.toml"]
    assert "friday/match.toml: its config is gone; no longer polled." in lines


def test_a_match_removed_between_two_searches_is_dropped_at_its_next_look_not_failed(tmp_path: Path) -> None:
    """A GM who moves a match's folder away sees it dropped, not a failure with its retry; one failure mended
    is said in the singular."""
    league = tmp_path / "league"
    local_match(league / "kept")
    config, _ = local_match(league / "moved")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=15, rescan=600)
    host.step()
    kept = league / "kept" / "match.toml"
    good = kept.read_text(encoding="utf-8")
    kept.write_text(good.replace("[sheets]", "[sheets\n"), encoding="utf-8")
    config.unlink()
    clock.tick(15)
    host.step()
    assert "moved/match.toml: its config is gone; no longer polled." in lines
    assert not any(line.startswith("moved/") and "failure" in line for line in lines)
    assert sorted(h.shown for h in host.matches.values()) == ["kept/match.toml"]
    assert hosted(host, league, "kept").failures == 1  # a broken config is still a failure, retried
    kept.write_text(good, encoding="utf-8")
    clock.tick(1)
    host.step()
    assert "kept/match.toml: polled again after 1 failure." in lines


def test_a_broken_match_is_retried_with_growing_waits_while_the_others_resolve(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    league = tmp_path / "league"
    _, good = local_match(league / "good")
    local_match(league / "raising")
    (league / "broken").mkdir()
    broken = league / "broken" / "match.toml"
    broken.write_text(BROKEN, encoding="utf-8")

    real_poll = poll_behind_gate

    def raise_in_rules(config: MatchConfig, *args: Any, **kwargs: Any) -> Any:
        if config.folder.name == "raising":
            raise ZeroDivisionError("the rules divided by zero")
        return real_poll(config, *args, **kwargs)

    monkeypatch.setattr("sheets_gm.host.polls.poll_behind_gate", raise_in_rules)  # under poll_config, cron's path
    seen = _visits(monkeypatch)
    type_orders(good)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=15)
    host.step()
    assert state_of(good).turn == 2 and hosted(host, league, "good").done == "resolved"
    for name in ("broken", "raising"):
        match = hosted(host, league, name)
        assert (match.done, match.failures, match.retry_at) == ("failed", 1, NOW + timedelta(seconds=30))
    assert "backend" in hosted(host, league, "broken").error
    assert hosted(host, league, "raising").error == "ZeroDivisionError: the rules divided by zero"
    assert any("Traceback" in line for line in lines)  # the log has what a developer needs
    tries: dict[str, list[float]] = {"broken": [], "raising": []}
    good_turns = []
    for second in range(1, 8 * 60):
        clock.tick(1)
        before = len(seen)
        if second in (100, 300):
            type_orders(good)  # the good match goes on meanwhile
        host.step()
        for path in seen[before:]:
            if path.parent.name in tries:
                tries[path.parent.name].append(second)
        if second in (99, 115, 299, 315):
            good_turns.append(state_of(good).turn)
    # Tried again after 30 s, then 60, 120, 240 more: the waits double.
    assert tries["broken"] == tries["raising"] == [30, 90, 210, 450]
    assert good_turns == [2, 3, 3, 4]  # each set of orders resolved within an interval of its saving
    assert hosted(host, league, "raising").failures == 5
    # Mending the config tries it at once, without waiting out the wait.
    local_match(league / "broken")
    clock.tick(1)
    host.step()
    assert hosted(host, league, "broken").failures == 0 and hosted(host, league, "broken").done == "read"
    assert "broken/match.toml: polled again after 5 failures." in lines


def test_a_match_another_command_holds_is_skipped_until_it_lets_go(tmp_path: Path) -> None:
    league = tmp_path / "league"
    config, sheets = local_match(league / "held")
    type_orders(sheets)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=15)
    with match_lock(config.parent / ".sheets-gm" / "match.lock"):  # a GM's undo, say, under way
        host.step()
        match = hosted(host, league, "held")
        assert match.done == "held" and match.failures == 0 and state_of(sheets).turn == 1
        clock.tick(15)
        host.step()
        assert match.done == "held" and state_of(sheets).turn == 1
    clock.tick(15)
    host.step()
    assert match.done == "resolved" and state_of(sheets).turn == 2


def test_a_deadline_fires_at_its_second(tmp_path: Path) -> None:
    league = tmp_path / "league"
    _, sheets = local_match(league / "timed", deadline=(NOW + timedelta(seconds=37)).isoformat())
    type_orders(sheets, ready=False)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=15)
    host.run(Passing(clock, limit=40))
    match = hosted(host, league, "timed")
    assert state_of(sheets).turn == 2 and match.read_at == NOW + timedelta(seconds=37)


def test_the_end_of_a_poll_wakes_the_hosts_loop_at_once(tmp_path: Path) -> None:
    # The loop waits between passes on its Stop; a poll that ends (here, in the first pass's inline pool) wakes it,
    # so that the next pass takes the outcome at once, not at its next tick. A wait that nothing wakes ends at its
    # timeout (0 here: nothing sleeps).
    league = tmp_path / "league"
    local_match(league / "friday")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines)
    stop = Stop()
    host._stop = stop  # what ``run`` waits on
    assert not stop.wait(0)
    host.step()  # friday's first poll ends
    assert hosted(host, league, "friday").done == "read"
    assert stop.wait(None) is False  # woken: returns at once, not set
    assert not stop.wait(0)
    stop.set()
    assert stop.wait(None) is True and stop.is_set()


def test_sigterm_lets_the_resolution_under_way_finish_and_starts_no_other(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    league = tmp_path / "league"
    _, first = local_match(league / "a")
    _, second = local_match(league / "b")
    type_orders(second)
    type_orders(first)  # a saved last: searched, and polled, first

    def stop_now(path: Path) -> None:
        if path.parent.name == "a":
            os.kill(os.getpid(), signal.SIGTERM)  # systemctl stop, as the poll of a starts

    _visits(monkeypatch, stop_now)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines)
    stop = Stop()
    before = signal.getsignal(signal.SIGTERM)
    with stop_on_signals(stop):
        host.run(stop)
    assert signal.getsignal(signal.SIGTERM) == before
    assert state_of(first).turn == 2 and state_of(second).turn == 1  # a finished, b never started
    assert isinstance(host.executor, InlinePool) and host.executor.shut
    status = read_status(league / ".sheets-gm" / "serve-status.json")
    assert status is not None and not status.running
    assert lines[-1] == "Stopped."


def test_the_status_lists_each_match_its_last_poll_its_deadline_and_what_failed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = tmp_path / "league"
    local_match(league / "timed", deadline="2026-11-23T20:00+00:00")
    (league / "broken").mkdir()
    (league / "broken" / "match.toml").write_text(BROKEN, encoding="utf-8")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines)
    host.step()
    clock.tick(5)
    status = read_status(league / ".sheets-gm" / "serve-status.json")
    assert status is not None
    shown = status_lines(status, clock())
    assert shown[0].startswith(f"sheets-gm serve (process {os.getpid()}) is running since 2026-11-22T12:00:00")
    assert shown[1] == "By state: 1 failed, 1 read"
    assert shown[2].startswith("broken/match.toml [gvg, ?] failed, looked 12:00:00 (5 s ago), not read since serve "
                               "started")
    assert shown[3].startswith("timed/match.toml [gvg, local] read, looked 12:00:00 (5 s ago), read 12:00:00 "
                               "(5 s ago); deadline Mon 23 Nov, 20:00 (UTC): Turn 1")
    assert shown[4:6] == ["What failed (1):", shown[5]] and "backend" in shown[5]
    assert shown[5].endswith("(1 failure in a row; next try 12:00:30 (in 25 s))")
    monkeypatch_clock = pytest.MonkeyPatch()
    monkeypatch_clock.setattr("sheets_gm.commands.base.clock", clock)
    try:
        assert main(["serve", "--status", str(league)]) == 0
        assert capsys.readouterr().out.splitlines() == shown
        host.close()
        assert main(["serve", "--status", str(league)]) == 0
        assert "is not running" in capsys.readouterr().out.splitlines()[0]
        assert main(["serve", "--status", str(tmp_path)]) == 1
        assert "no status of sheets-gm serve" in capsys.readouterr().err
        assert main(["serve", str(tmp_path / "nowhere")]) == 2
    finally:
        monkeypatch_clock.undo()


def test_a_restarted_host_reads_no_idle_local_match_again(tmp_path: Path) -> None:
    league = tmp_path / "league"
    _, sheets = local_match(league / "friday", deadline="2026-11-23T20:00+00:00")
    clock, lines = Clock(NOW), list[str]()
    first = new_host(league, clock, lines)
    first.step()
    assert hosted(first, league, "friday").done == "read"
    first.close()
    clock.tick(60)
    again = new_host(league, clock, lines)  # systemctl restart
    again.step()
    match = hosted(again, league, "friday")
    assert (match.done, match.read_at, match.deadline) == ("idle", None, "2026-11-23T20:00+00:00")
    status = read_status(league / ".sheets-gm" / "serve-status.json")
    assert status is not None
    shown = status_lines(status, clock())
    assert shown[0].endswith("1 match under " + str(league) + "; a look every 10 s, 4 workers.")
    assert "idle, looked 12:01:00 (0 s ago), not read since serve started" in shown[2]  # its last poll was the first
    assert "read never" not in shown[2]                                                # host's: not "never"
    type_orders(sheets, ready=False)
    clock.tick(10)
    again.step()
    assert match.done == "read" and match.read_at == clock()


def test_a_second_serve_of_the_same_folders_is_refused_naming_the_running_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two hosts of one folder (systemd's and one started by hand) would overwrite each other's status, so
    `serve --status` would name whichever wrote last, and a stopping one would say "not running" of both: the
    second is refused while the first holds the status file's lock (a lock, not the pid: a crashed host's pid
    may be another process's after a reboot)."""
    league = tmp_path / "league"
    local_match(league / "friday")
    clock, lines = Clock(NOW), list[str]()
    first = new_host(league, clock, lines)
    first.step()
    status_file = league / ".sheets-gm" / "serve-status.json"
    monkeypatch.setattr("sheets_gm.host.scheduler.Host.run", lambda self, stop: None)  # a serve not refused
    with match_lock(status_file.with_name("serve-status.json.lock")):  # what the running serve holds
        assert main(["serve", str(league)]) == 1
        err = capsys.readouterr().err
        assert f"sheets-gm serve is already running (process {os.getpid()}) with the status file {status_file}" in err
    first.close()
    read = read_status(status_file)
    assert read is not None and not read.running  # the refused one wrote nothing over the first one's status
