"""Where the tests find the repository's files, whichever folder a test module sits in."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
SCRIPTS = ROOT / "scripts"
DOCS = ROOT / "docs"
GVG_MAP = ROOT / "templates" / "gvg" / "map.txt"
WESNOTH_TEMPLATES = ROOT / "templates" / "wesnoth"


def _shared() -> Path:
    """The project's shared reference folder: ``$SHEETS_GM_SHARED``, else the nearest ``shared`` beside the
    clone or one of its parents (CI keeps it at ``../shared``; a worktree may sit one level deeper)."""
    given = os.environ.get("SHEETS_GM_SHARED")
    if given:
        return Path(given)
    for parent in ROOT.parents:
        if (parent / "shared" / "wesnoth").is_dir():
            return parent / "shared"
    return ROOT.parent / "shared"


SHARED = _shared()
WESNOTH_SHARED = SHARED / "wesnoth"
