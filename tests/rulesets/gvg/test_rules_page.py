"""The rules page names every GvG setting with its true default, so docs and code cannot drift."""

from __future__ import annotations

from sheets_gm.engine.settings import settings_table
from sheets_gm.rulesets.gvg.settings import GvgSettings
from tests.paths import DOCS

PAGE = DOCS / "rules-gvg.md"


def test_every_setting_is_documented_with_its_default() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for name, default, _accepts, doc in settings_table(GvgSettings):
        assert f"| `{name}` | `{default}` |" in text, f"{name} (default {default}) is missing from {PAGE.name}"
        assert doc, f"setting {name} has no documentation"


def test_the_gm_guide_lists_every_house_rule_with_its_default() -> None:
    text = (DOCS / "gm-guide.md").read_text(encoding="utf-8")
    for name, default, _accepts, _doc in settings_table(GvgSettings):
        assert f"| `{name}` | `{default}` |" in text, f"{name} (default {default}) is missing from gm-guide.md"
