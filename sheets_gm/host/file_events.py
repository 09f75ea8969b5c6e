"""Which local matches' files changed, told by the system's file events instead of a ``stat`` of every match at
every look.

A host of 10,000 local matches that fingerprints each one every 10 seconds spends a core's tenth on ``stat``
calls that find nothing (2.4 % of a core per 1,000 matches, measured). The kernel knows which files changed:
``watchdog`` (PyPI; inotify on Linux, FSEvents on macOS, kqueue on the BSDs, each behind one API, kept up since
2010 and used by many projects) hands its events to one thread of the host, which notes the folders they fell in.
The host then looks at a local match when an event fell in its folder, at its deadline and notices' moments, and
at least every :data:`QUIET_LOOK` whatever the events say (``scheduler``); the look itself is cron's idle
decision, as before: an event only says where to look, never that a player saved.

Events are trusted only where the kernel sees every write: a served folder on a network file system (NFS, SMB,
sshfs…) sees no event of a write made by another machine, so its matches are looked at every interval, as without
events; so are those whose workbooks lie outside every folder served, and every match when the events cannot be
had at all.

Linux gives a watch a folder, up to a limit for the user: ``fs.inotify.max_user_watches`` on the machine, and, in a
container (a user namespace of its own), ``user.max_inotify_watches`` there, which may be lower (8,192 where the
machine says 192,536): the lower one bites (10,000 matches need two or three a match: the match's folder, its ``gm``
and page folders, the host's own). Past the limit the library watches no more folders and says nothing (a folder it
cannot watch is skipped). So after each search of the folders the host counts the watches this process holds
(``/proc/self/fdinfo``) against the folders the search listed (:meth:`FileEvents.check`): fewer, and the events are
trusted no more, every local match's files looked at every interval, as without events, said once with the limit
that bit and where to raise it (docs/hosting.md).
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

#: A local match whose files the events cover is looked at least this often whatever they say (cron's idle
#: decision, a few ``stat`` calls): the events are a hint, never the only way a save is seen.
QUIET_LOOK = timedelta(minutes=5)
#: The file events library's warning that a folder's watch was set up twice (see :meth:`FileEvents.start`).
DOUBLE_WATCH = r"Callback with id .* already exists for watch"
#: File systems on which a write by another machine makes no event here.
NETWORK_FILE_SYSTEMS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph", "glusterfs",
                                  "lustre", "fuse.sshfs", "fuse.rclone", "fuse.glusterfs", "davfs", "fuse.davfs2"})


#: Where Linux says how many inotify watches a user may hold on the machine (its first user namespace's setting) ...
WATCH_LIMIT = Path("/proc/sys/fs/inotify/max_user_watches")
#: ... and in this process's user namespace (a container's: Linux 4.11 on), which may be lower. The lower one bites;
#: it is raised where it is set (``watch_advice``).
NAMESPACE_WATCH_LIMIT = Path("/proc/sys/user/max_inotify_watches")


def inotify_watches() -> int | None:
    """The inotify watches this process holds, from ``/proc/self/fdinfo`` (None: not told, not Linux)."""
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return None
    held = 0
    for fd in fds:
        try:
            if os.readlink(f"/proc/self/fd/{fd}") != "anon_inode:inotify":
                continue
            with open(f"/proc/self/fdinfo/{fd}", encoding="utf-8") as info:
                held += sum(line.startswith("inotify wd:") for line in info)
        except OSError:
            continue
    return held


def _figure(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class WatchLimit:
    """The inotify watch limit that bites here: the setting's name, its figure (None: not told), and the machine's
    figure when the limit is this user namespace's, lower."""

    setting: str
    figure: int | None
    machine: int | None = None


def watch_limit(machine_file: Path = WATCH_LIMIT, namespace_file: Path = NAMESPACE_WATCH_LIMIT) -> WatchLimit:
    """The lower of the machine's limit and this user namespace's, as Linux says them."""
    machine, namespace = _figure(machine_file), _figure(namespace_file)
    if namespace is not None and (machine is None or namespace < machine):
        return WatchLimit("user.max_inotify_watches", namespace, machine)
    return WatchLimit("fs.inotify.max_user_watches", machine)


def watch_advice(limit: WatchLimit) -> str:
    """Where and how to raise ``limit`` (docs/hosting.md says more).

    >>> watch_advice(WatchLimit("fs.inotify.max_user_watches", 8192))[:60]
    'raise it on the machine (sudo sysctl fs.inotify.max_user_wat'
    """
    if limit.setting == "user.max_inotify_watches":
        return ("raise it in this container, as its root (sudo sysctl user.max_inotify_watches=524288; where its "
                "/proc/sys is read-only, by whoever starts the container), up to the machine's figure")
    return ("raise it on the machine (sudo sysctl fs.inotify.max_user_watches=524288, and a line in /etc/sysctl.d/ to "
            "keep it)")


def file_system_of(path: Path, mounts: str | None = None) -> str:
    """The type of the file system ``path`` lies on, from ``/proc/self/mounts`` ('' when unknown: not Linux).

    >>> file_system_of(Path("/srv/share/m1"), "/dev/sda1 / ext4 rw 0 0\\nserver:/x /srv/share nfs4 rw 0 0\\n")
    'nfs4'
    >>> file_system_of(Path("/srv/sharex"), "/dev/sda1 / ext4 rw 0 0\\nserver:/x /srv/share nfs4 rw 0 0\\n")
    'ext4'
    """
    if mounts is None:
        try:
            mounts = Path("/proc/self/mounts").read_text(encoding="utf-8")
        except OSError:
            return ""
    best, kind = "", ""
    where = str(path)
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        inside = where == point or where.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fields[2]
    return kind


class FileEvents:
    """The file events under the served folders (see the module notes): :meth:`take` gives the folders changed
    since the last call. ``start`` failing leaves ``error`` set and every match looked at every interval."""

    def __init__(self, folders: Sequence[Path], watches: Callable[[], int | None] = inotify_watches,
                 limit: Callable[[], WatchLimit] = watch_limit) -> None:
        self.folders = [f.resolve() for f in folders if f.is_dir()]
        self.watches = watches  # the watches this process holds (a test hands in fewer: the limit reached)
        self.limit = limit  # the limit that bites (a test hands in a container's)
        self.trusted = [f for f in self.folders if file_system_of(f) not in NETWORK_FILE_SYSTEMS]
        self.error = ""
        self.started = False  # the watches are in place (a match is looked at every interval until then)
        self.begun = False  # their start was asked for (``start_beside``)
        self._changed: set[Path] = set()
        self._lock = threading.Lock()
        self._observer: Any = None

    def start(self) -> bool:
        """Watch the trusted folders; False (``error`` says why) when the system gives no events."""
        try:
            from watchdog import events as kinds
            from watchdog.events import FileSystemEvent, FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError as exc:
            self.error = f"the file events library is missing ({exc})"
            return False
        events = self

        class Noted(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                for raw in (event.src_path, getattr(event, "dest_path", "")):
                    if raw:
                        events.note(Path(raw if isinstance(raw, str) else raw.decode()))

        # A folder made while the library sets up its watches (a match's ``.sheets-gm`` written by a poll meanwhile)
        # is added twice, once by its walk and once by its creation's event: the library then overwrites the
        # folder's callback with the same one and warns (a ``RuntimeWarning`` of several lines in serve's log, at
        # 10,000 matches). Nothing is wrong: that one warning is not shown.
        warnings.filterwarnings("ignore", message=DOUBLE_WATCH, category=RuntimeWarning)
        observer = Observer()
        try:
            for folder in self.trusted:  # writes, creations, moves and deletions only: the kernel is asked for
                # no open or read (the host's own looks read thousands of files; those events would flood it)
                observer.schedule(Noted(), str(folder), recursive=True, event_filter=[
                    kinds.FileCreatedEvent, kinds.FileModifiedEvent, kinds.FileMovedEvent, kinds.FileDeletedEvent,
                    kinds.FileClosedEvent, kinds.DirCreatedEvent, kinds.DirMovedEvent, kinds.DirDeletedEvent])
            observer.start()
        except OSError as exc:  # inotify's watch limit, say
            self.error = f"the system gives no file events here ({exc})"
            self.trusted = []
            return False
        self._observer = observer
        self.started = True
        return True

    def start_beside(self, say: Callable[[str], None]) -> None:
        """:meth:`start` on a thread of its own, once (a second call does nothing): the library puts a watch on
        every folder as it starts (0.65 CPU s at 10,000 matches, tens of seconds of wall on a loaded machine),
        while the host already answers the saves waiting; until the watches are in place the events cover nothing
        (every match looked at as without them). A failure is said through ``say``."""
        if self.begun:
            return
        self.begun = True

        def start() -> None:
            if not self.start():
                say(f"No file events ({self.error}): every local match's files are looked at every interval.")
        threading.Thread(target=start, name="sheets-gm-file-events", daemon=True).start()

    def check(self, listed: dict[Path, int]) -> str:
        """After a search of the folders (``listed``: the folders it listed under each folder served): '' while the
        events cover them; once the watches this process holds are fewer than the folders under the trusted
        folders (the system's limit reached), the events are trusted no more, and what to say (once)."""
        needed = sum(n for folder, n in listed.items() if folder in self.trusted)
        held = self.watches() if needed and self.started else None  # (still starting: told at the next search)
        if held is None or held >= needed:
            return ""
        self.trusted = []
        self.error = (f"the system gave file events for {held:,} folders of the {needed:,} served (its inotify "
                      f"watches ran out: {self._limit_words()})")
        return (f"File events: {self.error}. Every local match's files are looked at every interval instead, until "
                f"serve restarts; {watch_advice(self.limit())} (see docs/hosting.md) and restart serve.")

    def _limit_words(self) -> str:
        """The limit that bit, in words: its setting and figure (and the machine's, where it is a container's)."""
        limit = self.limit()
        figure = "?" if limit.figure is None else f"{limit.figure:,}"
        machine = "" if limit.machine is None else f" in this user namespace, the machine's {limit.machine:,}"
        return f"{limit.setting} = {figure}{machine}"

    def note(self, path: Path) -> None:
        """An event on ``path``: its folder changed (the host's own files, under ``.sheets-gm``, are left out)."""
        if ".sheets-gm" in path.parts:
            return
        with self._lock:
            self._changed.add(path.parent)

    def covers(self, files: Iterable[Path]) -> bool:
        """Whether an event would be seen for a change of every one of ``files``: each under a trusted folder."""
        trusted = self.trusted
        return self.started and bool(trusted) and all(any(f == t or t in f.parents for t in trusted) for f in files)

    def take(self) -> set[Path]:
        """The folders an event fell in since the last call."""
        with self._lock:
            out, self._changed = self._changed, set()
        return out

    def stop(self) -> None:
        """Stop watching."""
        if self._observer is None:
            return
        # An event read as the observer stops makes watchdog log "queue_events() called when the thread is inactive"
        # as an error (its pull request #963: the event is dropped, nothing is wrong), after serve said "Stopped.":
        # its inotify logger is quiet while it stops.
        inotify = logging.getLogger("watchdog.observers.inotify")
        before, inotify.disabled = inotify.disabled, True
        try:
            self._observer.stop()
            self._observer.join(timeout=5)
        finally:
            inotify.disabled = before
        self._observer = None
