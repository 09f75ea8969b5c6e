"""Matches made once a test process and copied for each test: making a match (``create_match``: its layouts, its
first drawing, each workbook saved) costs far more than copying its files, and most tests start from the same one.

``made_into(folder, key, make)`` fills ``folder`` with a copy of what ``make`` built into an empty folder the first
time ``key`` was asked for in this process (a pytest-xdist worker is a process of its own). Each test gets its own
copy: nothing a test changes reaches another. The copy keeps each file's bytes, mode and modification time, so a
match that remembers its files' marks (size, time, digest) finds them as it left them. ``make`` must build only
inside the folder it is given and write no path of it into the match: the copy lives elsewhere."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.fakes.google_api import GoogleApiFake

_BUILT: dict[Hashable, Path] = {}
_ROOT: list[Path] = []  # the process's folder of made matches, once made (removed when the process ends)


def _root() -> Path:
    """This process's folder of made matches."""
    if not _ROOT:
        _ROOT.append(Path(tempfile.mkdtemp(prefix="sheets-gm-made-matches-")))
        atexit.register(shutil.rmtree, _ROOT[0], ignore_errors=True)
    return _ROOT[0]


def made_into(folder: Path, key: Hashable, make: Callable[[Path], object]) -> None:
    """``folder`` (made if missing) given a copy of the files ``make`` built for ``key``: built once a process, into
    a folder of their own; a ``make`` that fails leaves nothing remembered. ``make`` may itself ask for another
    made match (one built on another's copy)."""
    built = _BUILT.get(key)
    if built is None:
        fresh = Path(tempfile.mkdtemp(dir=_root()))  # a folder of its own, even for a make that makes another first
        try:
            make(fresh)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
        built = _BUILT[key] = fresh
    shutil.copytree(built, folder, symlinks=True, dirs_exist_ok=True)


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
