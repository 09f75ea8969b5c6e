"""Which files under ``serve``'s folders are match configs.

A match config is a ``.toml`` file with a ``ruleset = …`` line and a ``[sheets]`` table: told from its text
alone, without parsing it, so that a config the GM broke while editing it is still a match (the host reports it
and tries it again) rather than a file that vanished. Folders whose names start with a dot (``.sheets-gm``,
``.git``, a virtualenv's ``.venv``) and Python's and Node's own are not searched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

#: Folder names never searched (besides those that start with a dot).
SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages"})
#: The most of a file read to tell whether it is a match config.
_HEAD = 65536
_RULESET = re.compile(r"^\s*ruleset\s*=\s*[\"']?([A-Za-z0-9_-]*)", re.MULTILINE)
_SHEETS = re.compile(r"^\s*\[\s*sheets\s*\]", re.MULTILINE)


def looks_like_match(path: Path) -> bool:
    """Whether the file at ``path`` is a match config (see the module notes)."""
    try:
        with path.open("rb") as file:
            text = file.read(_HEAD).decode("utf-8", errors="replace")
    except OSError:
        return False
    return bool(_RULESET.search(text) and _SHEETS.search(text))


def ruleset_named(path: Path) -> str:
    """The game a match config names (its ``ruleset = …`` line, read as text: '' when none), for the status of a
    match the host has not polled yet."""
    try:
        with path.open("rb") as file:
            found = _RULESET.search(file.read(_HEAD).decode("utf-8", errors="replace"))
    except OSError:
        return ""
    return found.group(1) if found else ""


def _tomls(folder: Path) -> Iterable[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.endswith(".toml"):
                yield Path(root) / name


def find_configs(places: Iterable[Path]) -> list[Path]:
    """Every match config under ``places`` (folders, searched through; or config files named themselves), by
    absolute path, each once, sorted."""
    found: set[Path] = set()
    for place in places:
        if place.is_file():
            candidates: Iterable[Path] = [place]
        elif place.is_dir():
            candidates = _tomls(place)
        else:
            continue
        found.update(p.resolve() for p in candidates if looks_like_match(p))
    return sorted(found)
