"""The rules page names every Champions setting with its true default, so docs and code cannot drift."""

from __future__ import annotations

from sheets_gm.doctor.quota import played_match
from sheets_gm.engine.settings import settings_table
from sheets_gm.match.schedule import DeadlineSchedule
from sheets_gm.rulesets.champions.settings import ChampionsSettings
from sheets_gm.rulesets.registry import get_ruleset
from tests.paths import DOCS, ROOT

PAGE = DOCS / "rules-champions.md"


def test_every_setting_is_documented_with_its_default() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for name, default, _accepts, doc in settings_table(ChampionsSettings):
        assert f"| `{name}` | `{default}` |" in text, f"{name} (default {default}) is missing from {PAGE.name}"
        assert doc, f"setting {name} has no documentation"


def test_the_page_and_the_template_give_the_quota_figures_doctor_computes() -> None:
    spreadsheets = 16 + 2  # a file per player, the board and the engine
    load = played_match(get_ruleset("champions").traits, 16, spreadsheets, DeadlineSchedule())
    idle = load.idle.matches_per_account()
    played = "–".join(str(p.matches_per_account()) for p in reversed(load.realistic))
    saves = "–".join(f"{p.changes_per_hour:g}" for p in load.realistic)
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert f"are {spreadsheets} spreadsheets" in page
    assert f"that is {saves} saves an hour" in page
    assert f"holds {idle} such matches idle, or {played} being played" in page
    assert f"only {load.per_deadline_minute} such matches resolve together" in page
    assert "`sync --watch` polls through the same gate" in page
    template = " ".join((ROOT / "templates" / "champions" / "match.toml").read_text(encoding="utf-8")
                        .replace("#", "").split())
    assert f"save at least {load.saves_per_hour(1):g} times an hour" in template
    assert f"holds {idle} such matches idle or {played.replace('–', '-')} being played, and " \
        f"{load.per_deadline_minute} resolve together in one deadline minute" in template
