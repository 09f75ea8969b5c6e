"""The rules page names every Wesnoth setting with its true default, so docs and code cannot drift."""

from __future__ import annotations

from sheets_gm.engine.settings import settings_table
from sheets_gm.rulesets.wesnoth.settings import WesnothSettings
from tests.paths import DOCS

PAGE = DOCS / "rules-wesnoth.md"


def test_every_setting_is_documented_with_its_default() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for name, default, accepts, doc in settings_table(WesnothSettings):
        assert f"| `{name}` | `{default}` | {accepts} | {doc} |" in text, f"{name} is missing from {PAGE.name}"
