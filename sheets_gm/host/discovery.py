"""Which files under ``serve``'s folders are match configs, found by a walk the host takes in slices.

A match config is a ``.toml`` file with a ``ruleset = …`` line and a ``[sheets]`` table: told from its text
alone, without parsing it, so that a config the GM broke while editing it is still a match (the host reports it
and tries it again) rather than a file that vanished. One with only one of the two (its ``[sheets]`` line or its
``ruleset`` line damaged: ``[sheet]``, ``[sheets``, ``rulset =``) is a match config too, marked ``damaged``: its
poll names what is wrong, at every start, until the GM mends it. Folders whose names start with a dot
(``.sheets-gm``, ``.git``, a virtualenv's ``.venv``) and Python's and Node's own are not searched.

:class:`FolderWalk` walks the folders a slice at a time (``take``), so that the host's loop turns between two
slices (a save is answered, the watchdog hears the host) however many folders there are; in each folder, the
folders in it changed last first (a save, ours or a player's or LibreOffice's, replaces a file in its folder, so
the matches saved in while no host ran are found in the first slices, not in the order of their names). Each
config it finds
comes with a hint read from its folder's listing: whether a file of its folder (or of a folder right under it)
was modified after its last poll's record (``saved_since``): a save typed while no host ran, looked at first.
The hint only orders the looks; the look itself (``quiet``) decides from the record's fingerprints.

A save made while the walk goes on (a host's start at 10,000 folders takes it tens of seconds on a loaded machine,
before the file events cover the folders) may land in a folder listed already but not walked yet: its place was
set by the folder's time when listed. So the folders waiting to be walked are looked at again (``stat`` alone)
once every :data:`RESORT_EVERY` seconds, and those changed since they were listed are walked next: a save typed
as the host starts is found within about a second and a slice, not when the walk reaches its folder by name. A
save in a match's folder the walk has passed already is found the same way: the configs of a folder walked that
changed since are handed over again, saved since (the host looks at them at once; the first looks of the others
wait for the search's end).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.poll_gate.state import state_path

#: Folder names never searched (besides those that start with a dot).
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages"})
#: Seconds between two looks at the times of the folders the walk has listed and not walked yet.
RESORT_EVERY = 1.0
#: The most of a file read to tell whether it is a match config.
_HEAD = 65536
_RULESET = re.compile(r"^\s*ruleset\s*=\s*[\"']?([A-Za-z0-9_-]*)", re.MULTILINE)
_SHEETS = re.compile(r"^\s*\[\s*sheets\s*\]", re.MULTILINE)
#: What a damaged config lacks, as the host says it before its poll names the exact fault.
NO_SHEETS = "no [sheets] table can be read in it (a match config has a ruleset = … line and a [sheets] table)"
NO_RULESET = "no ruleset = … line can be read in it (a match config has a ruleset = … line and a [sheets] table)"


@dataclass(frozen=True, slots=True)
class Found:
    """A match config the walk found (``path``, resolved): ``saved_since`` when a file of its folder is newer than
    its last poll's record; ``damaged``: what its text lacks ('' for a whole config)."""

    path: Path
    saved_since: bool = False
    damaged: str = ""


def _head(path: Path) -> str | None:
    try:
        with path.open("rb") as file:
            return file.read(_HEAD).decode("utf-8", errors="replace")
    except OSError:
        return None


def config_kind(path: Path) -> str | None:
    """What the ``.toml`` file at ``path`` is: None, not a match config; '' a match config; else what a damaged
    one lacks (:data:`NO_SHEETS`, :data:`NO_RULESET`)."""
    text = _head(path)
    if text is None:
        return None
    ruleset, sheets = bool(_RULESET.search(text)), bool(_SHEETS.search(text))
    if ruleset and sheets:
        return ""
    if ruleset:
        return NO_SHEETS
    return NO_RULESET if sheets else None


def looks_like_match(path: Path) -> bool:
    """Whether the file at ``path`` is a match config, whole or damaged (see the module notes)."""
    return config_kind(path) is not None


def ruleset_named(path: Path) -> str:
    """The game a match config names (its ``ruleset = …`` line, read as text: '' when none), for the status of a
    match the host has not polled yet."""
    found = _RULESET.search(_head(path) or "")
    return found.group(1) if found else ""


def _newest(entries: Iterable[os.DirEntry[str]], depth: int) -> int:
    """The latest modification time (ns) among the files listed, and those of the folders right under them down to
    ``depth`` more levels (dot names left out: the host's own records)."""
    newest = 0
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_file():
                newest = max(newest, entry.stat().st_mtime_ns)
            elif depth and entry.is_dir() and entry.name not in SKIPPED_FOLDERS:
                with os.scandir(entry.path) as inner:
                    newest = max(newest, _newest(list(inner), depth - 1))
        except OSError:
            continue
    return newest


def saved_since_record(config: Path, entries: Iterable[os.DirEntry[str]]) -> bool:
    """Whether a file listed in the config's folder (``entries``), or in a folder right under it, was modified after
    the match's last poll's record was written: a save no poll answered (False without a record: a match never
    polled tells nothing by its times; it is polled as the workers allow)."""
    try:
        recorded = os.stat(state_path(config)).st_mtime_ns
    except OSError:
        return False
    return _newest(entries, 1) > recorded


class FolderWalk:
    """A walk of ``places`` (folders, searched through; or config files named themselves), a slice at a time: each
    :meth:`take` lists at most a given number of folders. Each config once, by absolute path; the folders in a
    folder the one changed last first (then by name)."""

    def __init__(self, places: Iterable[Path], clock: Callable[[], float] = time.monotonic) -> None:
        self._places = list(places)
        self._seen: set[Path] = set()
        self._steps: Iterator[list[Found]] = self._walk()
        self._stack: list[str] = []  # the folders listed and not walked yet, the next one last
        self._times: dict[str, int] = {}  # each of them: its modification time when listed
        self._walked: dict[str, tuple[int, list[Path]]] = {}  # a folder walked that holds configs: its time, them
        self._saved_in: list[Found] = []  # configs of folders walked that changed since: found again, saved since
        self._clock = clock
        self._resorted = clock()
        self.done = False
        self.folders = 0  # folders listed so far
        self.at = ""  # the folder being listed (the host says it when a slice waits on it)
        self.listed: dict[Path, int] = {}  # the folders listed under each place walked through (resolved)
        self.cpu = 0.0  # CPU seconds its slices took (their threads', as the host measures them)

    def _walk(self) -> Iterator[list[Found]]:
        for place in self._places:
            if place.is_file():
                kind = config_kind(place)
                if kind is not None:
                    with os.scandir(place.parent) as listing:
                        saved = saved_since_record(place, list(listing))
                    yield [Found(place.resolve(), saved, kind)]
                continue
            self._stack = [str(place)] if place.is_dir() else []
            before = self.folders
            while self._stack:
                yield self._folder(self._stack.pop(), self._stack)
            self.listed[place.resolve()] = self.folders - before

    def _resort(self) -> None:
        """The folders waiting to be walked that changed since they were listed (a save made meanwhile) move to
        the top of the stack, the one changed last walked first; the configs of a folder walked that changed since
        are found again, saved since (see the module notes)."""
        for where, (before, configs) in list(self._walked.items()):
            try:
                mtime = os.stat(where).st_mtime_ns
            except OSError:
                continue
            if mtime != before:
                self._walked[where] = mtime, configs
                self._saved_in += [Found(path, saved_since=True) for path in configs]
        changed: list[tuple[int, str]] = []
        for where in self._stack:
            try:
                mtime = os.stat(where).st_mtime_ns
            except OSError:
                continue
            if mtime != self._times.get(where):
                self._times[where] = mtime
                changed.append((mtime, where))
        if changed:
            moved = {where for _, where in changed}
            self._stack[:] = [w for w in self._stack if w not in moved] + [w for _, w in sorted(changed)]

    def _folder(self, where: str, stack: list[str]) -> list[Found]:
        """The configs right in the folder ``where``; its folders go on ``stack`` (to be listed in sorted order)."""
        listed = self._times.pop(where, None)
        self.folders += 1
        self.at = where
        try:
            with os.scandir(where) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            return []
        inner: list[tuple[int, str]] = []
        found = []
        for entry in entries:
            try:
                folder = entry.is_dir()
                if folder and not entry.name.startswith(".") and entry.name not in SKIPPED_FOLDERS:
                    inner.append((entry.stat().st_mtime_ns, entry.path))
            except OSError:
                continue
            if folder:
                continue
            elif entry.name.endswith(".toml"):
                kind = config_kind(Path(entry.path))
                if kind is not None:
                    path = Path(entry.path)
                    found.append(Found(path.resolve(), saved_since_record(path, entries), kind))
        inner.sort(key=lambda folder: (-folder[0], folder[1]))  # the folders changed last, first
        stack.extend(path for _, path in reversed(inner))
        self._times.update((path, mtime) for mtime, path in inner)
        if found and listed is not None:
            self._walked[where] = listed, [one.path for one in found]
        return found

    def take(self, folders: int) -> list[Found]:
        """The configs found in the next ``folders`` folders listed (fewer at the end: ``done`` is then set), after
        those of folders walked that changed since (found again, saved since: see the module notes)."""
        out: list[Found] = []
        if self._clock() - self._resorted >= RESORT_EVERY:
            self._resorted = self._clock()
            self._resort()
            out, self._saved_in = self._saved_in, []
        for _ in range(folders):
            step = next(self._steps, None)
            if step is None:
                self.done = True
                break
            for found in step:
                if found.path not in self._seen:
                    self._seen.add(found.path)
                    out.append(found)
        return out

    def rest(self) -> list[Found]:
        """Every config left to find (the whole walk at once: for a single folder, or a caller not in a loop)."""
        out: list[Found] = []
        while not self.done:
            out += self.take(1000)
        return out


def find_configs(places: Iterable[Path]) -> list[Path]:
    """Every match config under ``places`` (folders, searched through; or config files named themselves), by
    absolute path, each once, sorted."""
    return sorted({found.path for found in FolderWalk(places).rest()})
