"""The host's search of its folders, taken a slice a pass beside the loop. Properties: a pass lists at most
``WALK_A_PASS`` folders, so the loop turns (a save is answered, the watchdog is fed by the loop's own passes)
however many folders there are; a save typed while no host ran (a file newer than its match's last record) is
polled before the matches that only need their first look, within the passes the search and the workers take,
whatever the number of first looks; the first search's end is said in one line, with the count. The host's
clock moves when the test says; nothing sleeps."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from sheets_gm.host.discovery import FolderWalk, find_configs
from sheets_gm.host.status import HostStatus, read_status, status_lines
from sheets_gm.sync.sheets import MatchSheets
from tests.host.hosting import Clock, Passing, new_host, starts
from tests.host.test_scale import HandedEvents
from tests.host.test_serve_command import LIMIT, wait_for
from tests.matchfiles import NOW, local_match, state_of, type_orders
from tests.quick import soak_but


def test_the_walk_lists_a_slice_of_folders_at_a_time_and_finds_what_a_whole_search_finds(tmp_path: Path) -> None:
    league = tmp_path / "league"
    for i in range(5):
        local_match(league / "club" / f"m{i}", private=True)
    walk = FolderWalk([league])
    found, takes = [], 0
    while not walk.done:
        before = walk.folders
        found += walk.take(2)
        takes += 1
        assert walk.folders - before <= 2
    assert sorted(f.path for f in found) == find_configs([league]) and len(found) == 5
    assert takes >= walk.folders / 2


def test_a_folder_saved_in_after_the_walk_listed_it_is_walked_next(tmp_path: Path) -> None:
    """A save made while the walk goes on, in a folder listed already and not walked yet (the last by its time when
    listed), is found in the next slice once the folders' times are looked at again, not when the walk reaches it
    (it fails with ``FolderWalk._resort`` doing nothing: the folder comes last)."""
    league = tmp_path / "league"
    for i in range(6):
        local_match(league / f"m{i}")
        os.utime(league / f"m{i}", ns=(10**18 + i * 10**9, 10**18 + i * 10**9))  # m5 changed last: walked first
    now = [0.0]
    walk = FolderWalk([league], clock=lambda: now[0])
    assert walk.take(1) == []  # the league listed: its six folders wait, m0 (changed first) at the bottom
    saved = league / "m0" / "match.xlsx"
    staged = saved.with_name(".match.xlsx.saving")
    staged.write_bytes(saved.read_bytes())
    os.replace(staged, saved)  # a save, as an office program writes it: the folder's time moves
    assert [f.path.parent.name for f in walk.take(1)] == ["m5"]  # not looked at again yet
    now[0] += 1.0
    assert [f.path.parent.name for f in walk.take(1)] == ["m0"]
    assert sorted(f.path.parent.name for f in walk.rest()) == ["m1", "m2", "m3", "m4"]


def test_a_match_saved_in_after_the_walk_passed_its_folder_is_found_again_saved_since(tmp_path: Path) -> None:
    """A save in a match's folder the walk has walked already (its first look waits for the search's end) hands its
    config over again, saved since, at the next look at the folders' times (it fails with the folders walked left
    out of ``FolderWalk._resort``: the match is not found again)."""
    league = tmp_path / "league"
    for i in range(3):
        local_match(league / f"m{i}")
        os.utime(league / f"m{i}", ns=(10**18 + i * 10**9, 10**18 + i * 10**9))
    now = [0.0]
    walk = FolderWalk([league], clock=lambda: now[0])
    assert [f.path.parent.name for f in walk.take(2)] == ["m2"]  # the league, then m2 (changed last)
    saved = league / "m2" / "match.xlsx"
    staged = saved.with_name(".match.xlsx.saving")
    staged.write_bytes(saved.read_bytes())
    os.replace(staged, saved)
    now[0] += 1.0
    again = walk.take(1)
    assert [(f.path.parent.name, f.saved_since) for f in again] == [("m2", True), ("m1", False)]
    now[0] += 1.0
    assert [f.path.parent.name for f in walk.take(1)] == ["m0"]  # once: not again while it does not change
    assert find_configs([league]) == sorted(league.glob("m*/match.toml"))


def test_the_loop_turns_and_feeds_the_watchdog_while_the_folders_are_searched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 2)
    league = tmp_path / "league"
    for i in range(6):
        local_match(league / f"m{i}")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10)
    pings: list[bool] = []  # after each pass: whether the first search had ended
    host.run(Passing(clock, limit=6), alive=lambda: pings.append(host.searched_at is not None))
    assert pings[:3] == [False, False, False] and pings[-1]  # fed at each pass of the search, not after it
    assert [line for line in lines if line.startswith("Found")] == [
        f"Found 6 matches under {league} (7 folders searched in 0.0 s); 0 with a file newer than their last poll's "
        "record, looked at first."]
    assert not any(": found;" in line for line in lines)  # one line, not one a match


def polled_league(tmp_path: Path, clock: Clock, lines: list[str]) -> tuple[Path, dict[str, MatchSheets]]:
    """Twelve matches a host polled once, then stopped."""
    league = tmp_path / "league"
    made = {f"m{i:02d}": local_match(league / f"m{i:02d}")[1] for i in range(12)}
    warm = new_host(league, clock, lines, interval=10, workers=12)
    warm.step()
    warm.close()
    assert all(h.read_at == NOW for h in warm.matches.values())
    return league, made


@pytest.mark.parametrize("walk_a_pass", soak_but([2, 5], 5))
def test_saves_typed_while_no_host_ran_are_polled_before_the_search_ends_and_the_first_looks_of_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, walk_a_pass: int) -> None:
    # Players save in two of twelve matches while no host runs; a host restarted with one worker, a first look a
    # pass and a few folders a pass polls both as its search finds them, before the search ends and before any
    # match that needs only its first look (without the times' hint, they would wait for the search's end).
    clock, lines = Clock(NOW), list[str]()
    league, made = polled_league(tmp_path, clock, lines)
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", walk_a_pass)
    monkeypatch.setattr("sheets_gm.host.scheduler.LOOKS_A_PASS", 1)
    saved = ["m05", "m11"]
    for name in saved:
        type_orders(made[name])
    clock.tick(60)
    cold = new_host(league, clock, lines, interval=10, workers=1)
    order = starts(cold)
    while len(order) < 2:
        assert cold.searched_at is None, f"the search ended before the saves were polled: {order}"
        cold.step()
        clock.tick(1)
    assert sorted(order) == saved and all(state_of(made[name]).turn == 2 for name in saved)
    while cold.searched_at is None:
        cold.step()
    assert "2 with a file newer than their last poll's record, looked at first" in lines[-1]


def test_the_folders_saved_in_last_are_searched_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A save replaces its workbook in its folder (as LibreOffice and sheets-gm save): the folder changed last is
    # listed in the search's first slice, whatever its name, and its save answered at the first pass.
    clock, lines = Clock(NOW), list[str]()
    league, made = polled_league(tmp_path, clock, lines)
    type_orders(made["m11"])
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 2)
    cold = new_host(league, clock, lines, interval=10, workers=1)
    order = starts(cold)
    cold.step()
    assert order == ["m11"] and state_of(made["m11"]).turn == 2 and cold.searched_at is None


def _polled(tmp_path: Path, clock: Clock, lines: list[str], count: int) -> tuple[Path, dict[str, MatchSheets]]:
    """``count`` matches (m0, m1…) a host polled once with the folders searched whole, then stopped."""
    league = tmp_path / "league"
    made = {f"m{i}": local_match(league / f"m{i}")[1] for i in range(count)}
    warm = new_host(league, clock, lines, interval=10)
    warm.step()
    warm.close()
    return league, made


def test_a_save_during_the_search_is_answered_before_the_search_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 1)
    clock, lines = Clock(NOW), list[str]()
    league, made = _polled(tmp_path, clock, lines, 4)
    events = HandedEvents(league)
    cold = new_host(league, clock, lines, interval=10, events=events)
    cold.step()
    cold.step()  # the league folder and m0 listed
    type_orders(made["m0"])
    events.note((league / "m0" / "match.xlsx").resolve())
    clock.tick(1)
    cold.step()
    assert cold.searched_at is None and state_of(made["m0"]).turn == 2


def test_a_damaged_config_is_named_at_every_start_and_in_the_status_until_it_is_mended(tmp_path: Path) -> None:
    # A GM's typo in the [sheets] line: the config is still a match, whose poll says what is wrong, at each start
    # and in serve --status, and so is a new folder made with the same typo; mended, it is polled.
    league = tmp_path / "league"
    local_match(league / "good")
    config, _ = local_match(league / "broken")
    whole = config.read_text(encoding="utf-8")
    config.write_text(whole.replace("[sheets]", "[sheet]"), encoding="utf-8")
    clock = Clock(NOW)
    for start in range(2):
        lines: list[str] = []
        host = new_host(league, clock, lines, interval=10, rescan=60)
        host.step()
        assert "1 config damaged, each named as it is tried: broken/match.toml." in lines[0], (start, lines)
        assert any(line.startswith("broken/match.toml: ") and "unknown key sheet" in line for line in lines)
        said = "\n".join(status_lines(read_status(host.status_file) or _none(), clock()))
        assert "What failed (1):\n  broken/match.toml: " in said and "unknown key sheet" in said
        if not start:
            host.close()
            clock.tick(60)
    shutil.copytree(league / "broken", league / "copied", ignore=shutil.ignore_patterns(".sheets-gm"))
    clock.tick(60)
    host.step()
    assert any(line.startswith("copied/match.toml: ") and "unknown key sheet" in line for line in lines)
    config.write_text(whole, encoding="utf-8")
    clock.tick(1)
    host.step()
    assert any(line.startswith("broken/match.toml: polled again after") for line in lines)
    host._write_status(clock(), running=False)
    said = "\n".join(status_lines(read_status(host.status_file) or _none(), clock()))
    assert "What failed (1):\n  copied/match.toml: " in said


def _none() -> HostStatus:
    raise AssertionError("no status file written")


def test_a_folder_that_hangs_holds_up_the_search_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A folder whose listing never returns (a network folder not answering: os.scandir held on an Event) holds up
    # the search, on its thread, and nothing else: a save typed while no host ran and one typed meanwhile are
    # answered, the loop's passes go on and feed the watchdog, the wait is said once with the folder, and the
    # host stops. Taken on the loop's thread (the defect), the first pass that lists it never returns.
    clock, lines = Clock(NOW), list[str]()
    league, made = _polled(tmp_path, clock, lines, 3)
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 1)
    monkeypatch.setattr("sheets_gm.host.scheduler.SEARCH_STALL", timedelta(seconds=30))
    local_match(league / "nfs")
    os.utime(league / "nfs", ns=(0, 0))  # changed longest ago: listed last
    type_orders(made["m0"])  # while no host ran
    clock.tick(60)
    release, entered, sliced = threading.Event(), threading.Event(), threading.Event()
    real = os.scandir

    def scandir(path: str | int) -> Iterator[os.DirEntry[str]]:  # (an int: a folder's descriptor, as rmtree lists)
        if not isinstance(path, int) and Path(path).name == "nfs":
            entered.set()
            release.wait(LIMIT)
        return real(path)

    def beside(task: Callable[[], None], name: str) -> None:  # the host's thread, noted as each slice ends
        def run() -> None:
            task()
            sliced.set()
        sliced.clear()
        threading.Thread(target=run, name=name, daemon=True).start()

    monkeypatch.setattr(os, "scandir", scandir)
    events = HandedEvents(league)
    cold = new_host(league, clock, lines, interval=10, events=events, background=beside)
    try:
        while not entered.is_set():
            cold.step()
            wait_for(lambda: sliced.is_set() or entered.is_set(), "a slice of the search")
        cold.step()
        assert cold.searched_at is None and state_of(made["m0"]).turn == 2
        type_orders(made["m1"])
        events.note((league / "m1" / "match.xlsx").resolve())
        clock.tick(31)
        cold.step()
        assert state_of(made["m1"]).turn == 2
        assert [line for line in lines if "has waited" in line] == [
            f"The search of the folders has waited 31 s on {league / 'nfs'} (a network folder not answering?); "
            "the 3 matches found so far are served meanwhile."]
        pings: list[float] = []
        cold.run(Passing(clock, limit=5), alive=lambda: pings.append(clock().timestamp()))
        assert len(pings) == 5 and cold.searched_at is None and lines[-1] == "Stopped."
    finally:
        release.set()


def test_a_save_in_a_match_the_search_passed_is_answered_before_the_search_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No file events yet (their watches take a loaded host's first seconds): a save in a match the first search has
    # found already is answered at the next look at the folders' times, not after the search, which the first looks
    # of the others wait for (it fails with the host not hurrying a match found again: its turn stays 1).
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 1)
    monkeypatch.setattr("sheets_gm.host.discovery.RESORT_EVERY", 0.0)
    clock, lines = Clock(NOW), list[str]()
    league, made = _polled(tmp_path, clock, lines, 4)
    cold = new_host(league, clock, lines, interval=10)
    while not cold.matches:
        cold.step()
    (first,) = cold.matches
    type_orders(made[first.parent.name])
    clock.tick(1)
    cold.step()
    assert cold.searched_at is None and state_of(made[first.parent.name]).turn == 2


def test_a_start_drains_the_saves_typed_while_it_was_down_on_twice_the_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Four saves typed while no host ran; a host of one worker restarted, its polls held: while its first search goes
    # on, two polls run at once (``CATCH_UP``), and no more start once the search ends until one finishes (it fails
    # with the catch-up taken out: one poll at a time).
    from tests.host.test_isolation import HangingPool

    clock, lines = Clock(NOW), list[str]()
    league, made = polled_league(tmp_path, clock, lines)
    saved = ["m02", "m05", "m08", "m11"]
    for name in saved:
        type_orders(made[name])
    clock.tick(60)
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 3)
    cold = new_host(league, clock, lines, interval=10, workers=1, pool=HangingPool(set(made)))
    order = starts(cold)
    while cold.searched_at is None:
        cold.step()
        clock.tick(1)
        assert len(order) <= 2
    assert len(order) == 2 and set(order) <= set(saved)
    for _ in range(3):
        cold.step()
        clock.tick(1)
    assert len(order) == 2  # the search over: the workers' bound again, both polls still running
