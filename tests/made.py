"""Matches made once a test process and copied for each test: making a match (``create_match``: its layouts, its
first drawing, each workbook saved) costs far more than copying its files, and most tests start from the same one.

``made_into(folder, key, make)`` fills ``folder`` with a copy of what ``make`` built into an empty folder the first
time ``key`` was asked for in this process (a pytest-xdist worker is a process of its own). Each test gets its own
copy: nothing a test changes reaches another. The copy keeps each file's bytes, mode and modification time, so a
match that remembers its files' marks (size, time, digest) finds them as it left them. ``make`` must build only
inside the folder it is given and write no path of it into the match: the copy lives elsewhere.

A match made ``shared`` is made once a run, not once a worker: the run's processes (pytest-xdist's) find it in a
folder the run's first process made for them (``SHARED_VARIABLE``, removed when that process ends), the first to ask
for a key building it while the others wait for it, then copy it. Only for a ``make`` that depends on its key alone
(nothing kept beside the folder, like ``made_on_fake``'s fake or a module's table of what it made), and a key whose
``repr`` says it whole (the same in every process: strings, numbers, bytes, times, dataclasses of them)."""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.fakes.google_api import GoogleApiFake

#: The environment variable naming the folder of the matches the run's processes make for each other.
SHARED_VARIABLE = "SHEETS_GM_TEST_MADE_MATCHES"

_BUILT: dict[Hashable, Path] = {}
_ROOT: list[Path] = []  # the process's folder of made matches, once made (removed when the process ends)


def _root() -> Path:
    """This process's folder of made matches."""
    if not _ROOT:
        _ROOT.append(Path(tempfile.mkdtemp(prefix="sheets-gm-made-matches-")))
        atexit.register(shutil.rmtree, _ROOT[0], ignore_errors=True)
    return _ROOT[0]


def made_into(folder: Path, key: Hashable, make: Callable[[Path], object], *, shared: bool = False) -> None:
    """``folder`` (made if missing) given a copy of the files ``make`` built for ``key``: built once a process (once
    a run when ``shared``, see above), into a folder of their own; a ``make`` that fails leaves nothing remembered.
    ``make`` may itself ask for another made match (one built on another's copy)."""
    built = _BUILT.get(key)
    if built is None:
        run_folder = os.environ.get(SHARED_VARIABLE, "") if shared else ""
        built = _BUILT[key] = _made_for_the_run(Path(run_folder), key, make) if run_folder else _made(_root(), make)
    shutil.copytree(built, folder, symlinks=True, dirs_exist_ok=True)


def _made(root: Path, make: Callable[[Path], object]) -> Path:
    """What ``make`` built in a new folder of ``root`` (none left where it fails)."""
    fresh = Path(tempfile.mkdtemp(dir=root))  # a folder of its own, even for a make that makes another first
    try:
        make(fresh)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return fresh


def _made_for_the_run(run_folder: Path, key: Hashable, make: Callable[[Path], object]) -> Path:
    """The run's folder of ``key``'s match in ``run_folder``: made by whichever process asks first, under a lock the
    others wait on (a process that dies holding it lets it go), moved into place whole once made."""
    name = hashlib.sha256(f"{ROOT}|{key!r}".encode()).hexdigest()[:32]  # a test's run of another checkout: its own
    place = run_folder / name
    with (run_folder / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not place.is_dir():
            os.rename(_made(run_folder, make), place)
    return place


def pytest_configure(config: pytest.Config) -> None:
    """The folder of the matches the run's processes make for each other, made by the process that starts them
    (before it does: they inherit its environment) and removed when it ends."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):  # a worker, or no workers
        return
    run_folder = tempfile.mkdtemp(prefix="sheets-gm-made-for-the-run-")
    os.environ[SHARED_VARIABLE] = run_folder
    config.add_cleanup(lambda: shutil.rmtree(run_folder, ignore_errors=True))


_FAKE_STATES: dict[Hashable, dict[str, Any]] = {}  # what the Google fake held once each key's match was made


def made_on_fake(fake: GoogleApiFake, folder: Path, key: Hashable, make: Callable[[Path], object]) -> None:
    """``made_into`` for a match on the Google fake: ``folder`` given a copy of the files ``make`` built for ``key``
    and ``fake`` a copy of what the fake held right after (its spreadsheets, Drive's change log, the tokens, the
    counters), both made once a process for each state the fake starts from (its ``state_digest``): each later test
    gets the state it would have had making the match itself, a copy of its own. A fake with a test's hooks set is
    made on as it is, nothing kept. ``make`` may depend on nothing else a test changes (a patch of the product)."""
    digest = fake.state_digest()
    if digest is None:
        folder.mkdir(parents=True, exist_ok=True)
        make(folder)
        return

    def make_and_keep(into: Path) -> None:
        make(into)
        _FAKE_STATES[key, digest] = fake.snapshot()

    made_into(folder, ("on the Google fake", key, digest), make_and_keep)
    fake.restore(_FAKE_STATES[key, digest])
