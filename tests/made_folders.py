"""Folders made once per test process and copied into each test's own: a match ``init`` made costs a test
seconds, a copy of its folder milliseconds. Each test still gets files of its own to change."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_MADE: dict[Hashable, tuple[Path, Any]] = {}


def made_once(key: Hashable, make: Callable[[Path], T]) -> tuple[Path, T]:
    """The folder ``make`` filled for ``key`` in this process (made on first use, removed when the process
    ends) and what ``make`` returned."""
    if key not in _MADE:
        root = Path(tempfile.mkdtemp(prefix="sheets-gm-made-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        folder = root / "made"
        folder.mkdir()
        _MADE[key] = (folder, make(folder))
    folder, made = _MADE[key]
    return folder, made


def copy_into(made: Path, folder: Path) -> None:
    """What ``made`` holds, copied into ``folder`` (made when missing; its own mode left alone): each file with
    its mode and its times, so a file's recorded size and time still hold and the copy is the folder as its
    maker left it."""
    folder.mkdir(parents=True, exist_ok=True)
    for child in made.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.copytree(child, folder / child.name, symlinks=True)
        else:
            shutil.copy2(child, folder / child.name, follow_symlinks=False)
