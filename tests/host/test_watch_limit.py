"""The system's file events when its inotify watches run out (``fs.inotify.max_user_watches``: 8,192 on many
systems, fewer than 10,000 matches need). Past the limit the library watches no more folders and says nothing,
and the matches under those folders would be looked at every few minutes only. Property: once the watches this
process holds are fewer than the folders the search listed, the host says so once, with the setting, and looks at
every local match every interval, as without events. The limit is simulated (the watches counted are handed in);
one test counts the kernel's own. The host's clock moves when the test says; nothing sleeps."""

from __future__ import annotations

import subprocess
import sys
import threading
import warnings
from pathlib import Path

import pytest

from sheets_gm.host.discovery import FolderWalk
from sheets_gm.host.file_events import FileEvents, WatchLimit, inotify_watches, watch_limit
from tests.host.hosting import Clock, hosted, new_host
from tests.host.test_scale import HandedEvents
from tests.host.test_serve_command import LIMIT, wait_for
from tests.matchfiles import NOW, local_match, type_orders


def test_when_the_watches_run_out_the_host_says_so_once_and_looks_at_every_match_every_interval(
        tmp_path: Path) -> None:
    # Watches enough at the start, the matches idle, looked at seldom; folders added since outran the limit (the
    # kernel gave three watches, no more), found by the next search: said, and a save no event tells of is
    # answered within an interval.
    league = tmp_path / "league"
    made = {name: local_match(league / name, private=True)[1] for name in ("a", "b", "c")}
    events = HandedEvents(league)
    held = [100]
    events.watches = lambda: held[0]
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10, events=events, rescan=60)
    host.step()
    clock.tick(10)
    host.step()
    assert hosted(host, league, "b").quiet and not [line for line in lines if line.startswith("File events:")]
    held[0] = 3
    clock.tick(60)
    host.step()
    said = [line for line in lines if line.startswith("File events:")]
    assert len(said) == 1 and "fs.inotify.max_user_watches" in said[0] and "every interval" in said[0]
    assert "for 3 folders of the 10 served" in said[0]  # the league, each match's folder, its gm and page folders
    type_orders(made["b"], ready=False)  # a save no event tells of (its folder has no watch)
    saved_at = clock()
    for _ in range(2):
        clock.tick(10)
        host.step()
    assert (hosted(host, league, "b").read_at or NOW) > saved_at
    clock.tick(60)
    host.step()  # the next search: said once, not again
    assert len([line for line in lines if line.startswith("File events:")]) == 1


def test_with_watches_enough_nothing_is_said_and_idle_matches_are_looked_at_seldom(tmp_path: Path) -> None:
    league = tmp_path / "league"
    for name in ("a", "b"):
        local_match(league / name, private=True)
    events = HandedEvents(league)
    events.watches = lambda: 100
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10, events=events)
    host.step()
    assert not [line for line in lines if line.startswith("File events:")] and events.trusted


def test_the_watches_counted_are_the_kernels_one_a_folder(tmp_path: Path) -> None:
    league = tmp_path / "league"
    for i in range(3):
        (league / f"m{i}" / "gm").mkdir(parents=True)
    before = inotify_watches() or 0
    events = FileEvents([league])
    assert events.start()
    try:
        walk = FolderWalk([league])
        walk.rest()
        assert (inotify_watches() or 0) - before == walk.folders == 7
        assert events.check(walk.listed) == ""
    finally:
        events.stop()


def test_the_watches_are_put_beside_the_host_which_looks_as_without_events_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The library puts a watch on every folder as it starts (tens of seconds at 10,000 matches on a loaded
    # machine): serve starts it beside the loop, which answers the saves waiting meanwhile; until the watches are
    # in place the events cover nothing (every match looked at every interval, the search every minute), and no
    # count of the watches is taken for a shortage. Started on the caller's thread (the defect), the start waits.
    league = tmp_path / "league"
    (league / "m0").mkdir(parents=True)
    events = FileEvents([league])
    release, said = threading.Event(), list[str]()
    real = FileEvents.start

    def slow_start(self: FileEvents) -> bool:
        assert release.wait(LIMIT)
        return real(self)

    monkeypatch.setattr(FileEvents, "start", slow_start)
    events.start_beside(said.append)  # returns at once
    try:
        assert not events.started and not events.covers([league / "m0" / "match.xlsx"])
        assert events.check({league.resolve(): 2}) == "" and events.trusted
        release.set()
        wait_for(lambda: events.started, "the watches in place")
        assert events.covers([league / "m0" / "match.xlsx"]) and said == []
    finally:
        release.set()
        wait_for(lambda: events.started, "the watches in place")
        events.stop()


def test_a_folder_watched_twice_as_the_watches_are_set_up_is_no_warning_in_the_log(tmp_path: Path) -> None:
    """A folder made while the file events library sets up its watches is added by its walk and by its creation's
    event: the library overwrites its callback with the same one and warns, several lines in serve's log at a start.
    The host's file events leave that warning out, and no other (checked with the filter taken out: the library's
    own warning, made here as it makes it, is then recorded)."""
    from watchdog.observers.inotify_c import CallbackId, InotifyConstants, InotifyFD, Mask, WatchDescriptor

    class Ignored:
        """A watch's callback that takes nothing in."""

        def on_event(self, event: object) -> None:
            """No event matters here."""

        def on_watch_deleted(self, wd: WatchDescriptor) -> None:
            """Nor the watch's end."""

        def on_queue_overflow(self) -> None:
            """Nor a full queue."""

    events = FileEvents([tmp_path])
    assert events.start()
    try:
        inotify, folder, twice = InotifyFD.get_instance(), bytes(tmp_path / "made"), CallbackId(85)
        (tmp_path / "made").mkdir()
        with warnings.catch_warnings(record=True) as seen:
            first = inotify.add_callback(folder, Mask(InotifyConstants.IN_CREATE), Ignored(), twice)
            inotify.add_callback(folder, Mask(InotifyConstants.IN_CREATE), Ignored(), twice)
            warnings.warn("another RuntimeWarning", RuntimeWarning, stacklevel=1)
        inotify.remove_callbacks([(first, twice)])
    finally:
        events.stop()
    assert [str(w.message) for w in seen] == ["another RuntimeWarning"]


def test_the_limit_named_is_the_one_that_bit_a_containers_own_when_lower(tmp_path: Path) -> None:
    """In a container the user namespace's limit (8,192) may be lower than the machine's (192,536): that one is named,
    with where to raise it; the machine's advice would change nothing there."""
    machine, namespace = tmp_path / "max_user_watches", tmp_path / "max_inotify_watches"
    machine.write_text("192536\n")
    namespace.write_text("8192\n")
    assert watch_limit(machine, namespace) == WatchLimit("user.max_inotify_watches", 8192, 192536)
    namespace.write_text("192536\n")
    assert watch_limit(machine, namespace) == WatchLimit("fs.inotify.max_user_watches", 192536)
    assert watch_limit(machine, tmp_path / "none") == WatchLimit("fs.inotify.max_user_watches", 192536)

    league = tmp_path / "league"
    local_match(league / "a", private=True)
    events = HandedEvents(league)
    events.watches = lambda: 3
    events.limit = lambda: WatchLimit("user.max_inotify_watches", 8192, 192536)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10, events=events, rescan=60)
    for wait in (10, 60):
        host.step()
        clock.tick(wait)
    host.step()
    said = [line for line in lines if line.startswith("File events:")]
    assert len(said) == 1 and "user.max_inotify_watches = 8,192 in this user namespace" in said[0]
    assert "the machine's 192,536" in said[0] and "sudo sysctl user.max_inotify_watches=" in said[0]
    assert "fs.inotify" not in said[0]


def test_in_a_container_whose_watches_run_out_its_own_limit_is_named(tmp_path: Path) -> None:
    """The kernel's own: a user namespace of its own (as a container's) whose limit is 5 watches, fewer than the
    folders; what is said names that namespace's limit, not the machine's."""
    for i in range(8):
        (tmp_path / f"m{i}").mkdir()
    probe = ("import sys; from pathlib import Path; from sheets_gm.host.file_events import FileEvents; "
             "from sheets_gm.host.discovery import FolderWalk; events = FileEvents([Path(sys.argv[1])]); "
             "events.start(); walk = FolderWalk([Path(sys.argv[1])]); walk.rest(); print(events.check(walk.listed))")
    run = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c",
                          'echo 5 > /proc/sys/user/max_inotify_watches && exec "$@"', "sh",
                          sys.executable, "-c", probe, str(tmp_path)],
                         capture_output=True, text=True, timeout=LIMIT, cwd=Path(__file__).parents[2])
    if run.returncode != 0 and "unshare" in run.stderr:
        pytest.skip(f"no user namespace here: {run.stderr.strip()}")
    assert "user.max_inotify_watches = 5 in this user namespace, the machine's" in run.stdout, run.stdout + run.stderr
    assert "sudo sysctl user.max_inotify_watches=" in run.stdout
