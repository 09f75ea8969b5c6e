"""The rules page names every Champions setting with its true default, so docs and code cannot drift."""

from __future__ import annotations

from sheets_gm.engine.settings import settings_table
from sheets_gm.match.quota import idle_and_active
from sheets_gm.rulesets.champions.settings import ChampionsSettings
from tests.paths import DOCS, ROOT

PAGE = DOCS / "rules-champions.md"


def test_every_setting_is_documented_with_its_default() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for name, default, _accepts, doc in settings_table(ChampionsSettings):
        assert f"| `{name}` | `{default}` |" in text, f"{name} (default {default}) is missing from {PAGE.name}"
        assert doc, f"setting {name} has no documentation"


def test_the_page_and_the_template_give_the_quota_figures_doctor_computes() -> None:
    spreadsheets = 16 + 2  # a file per player, the board and the engine
    idle, active = idle_and_active(spreadsheets)
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert f"are {spreadsheets} spreadsheets" in page
    assert f"holds {idle.matches_per_account()} such matches idle, or {active.matches_per_account()} being played" \
        in page
    assert "`sync --watch` polls through the same gate" in page
    template = " ".join((ROOT / "templates" / "champions" / "match.toml").read_text(encoding="utf-8")
                        .replace("#", "").split())
    assert f"holds {idle.matches_per_account()} such matches idle or {active.matches_per_account()} being played" \
        in template
