"""Every registered ruleset has a rules page naming each of its settings with its true default."""

from __future__ import annotations

import pytest

from sheets_gm.engine.settings import settings_table
from sheets_gm.rulesets.registry import get_ruleset, ruleset_names
from tests.paths import DOCS


@pytest.mark.parametrize("name", ruleset_names())
def test_the_rules_page_documents_every_setting_with_its_default(name: str) -> None:
    page = DOCS / f"rules-{name}.md"
    text = page.read_text(encoding="utf-8")
    for setting, default, _accepts, doc in settings_table(get_ruleset(name).traits.settings_type):
        assert f"| `{setting}` | `{default}` |" in text, (
            f"{setting} (default {default}) is missing from docs/{page.name}: print its settings table again with "
            f".venv/bin/python -c \"from sheets_gm.engine.settings import settings_markdown; from "
            f"sheets_gm.rulesets.registry import get_ruleset; print(settings_markdown(get_ruleset('{name}')"
            f".traits.settings_type))\" and put it in place of the page's table")
        assert doc, f"setting {setting} has no documentation"
