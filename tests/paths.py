"""Where the tests find the repository's files, whichever folder a test module sits in."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
SCRIPTS = ROOT / "scripts"
DOCS = ROOT / "docs"
GVG_MAP = ROOT / "templates" / "gvg" / "map.txt"
