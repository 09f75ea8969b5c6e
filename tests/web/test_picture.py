"""The turn's map as a PNG for a chat notice, and where the notices link the page: ``[sheets] web_url``."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.match.config import ConfigError, load_config
from sheets_gm.notify.announce import page_link
from sheets_gm.web.picture import can_draw_pictures, map_svg, turn_picture
from tests.matchfiles import local_config
from tests.web.pages import bot_match, facts_of

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", ["coalition", "wesnoth"])
def test_a_resolutions_map_is_a_png_of_every_plane(name: str) -> None:
    if not can_draw_pictures():
        pytest.skip("cairosvg is not installed (pip install '.[picture]')")
    rules, _, steps = bot_match(name, 1)
    facts = facts_of(rules, steps[0].after, 1, steps[0])
    picture = turn_picture(facts)
    assert picture is not None and picture.startswith(PNG)
    svg = map_svg(rules.traits.board_kind, facts.adapter.drawings(steps[0].after), "After turn <1>")
    assert svg.count("<svg ") == (4 if name == "coalition" else 2)  # the frame and each plane
    assert "After turn &lt;1&gt;</text>" in svg  # the turn above the maps, escaped
    if name == "coalition":  # each plane named above it
        assert all(f">{plane}" in svg for plane in ("Dominaria</text>", "Phyrexia</text>", "Mirrodin"))


def test_the_notices_link_the_page_where_the_config_says_it_is(tmp_path: Path) -> None:
    config = load_config(local_config(tmp_path, 'web_url = "https://example.org/friday/"\n'))
    assert page_link(config) == "https://example.org/friday/"
    assert page_link(load_config(local_config(tmp_path))) == ""
    with pytest.raises(ConfigError, match="web_url 'javascript:alert"):
        load_config(local_config(tmp_path, 'web_url = "javascript:alert(1)"\n'))
