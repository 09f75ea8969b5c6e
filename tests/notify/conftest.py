"""What the notice tests share: a resolution's map drawn as one small picture.

Every notified match posts to a Discord-style webhook, so each resolution's post carries the turn's map, and cairosvg
takes half a second of CPU to draw a GvG or Wesnoth map: more than the sync that resolved the turn. These tests are
about the notices, not the drawing: the map's SVG is still made from the turn (``map_svg``), and the PNG attached is
a real one, drawn once. ``test_page_notices.py``, which is about the map a post carries, draws every map as a GM's
host does (it overrides ``small_maps``); ``tests/web/test_picture.py`` checks each game's drawing."""

from __future__ import annotations

from functools import cache

import pytest

from sheets_gm.web.picture import _png as drawn_png


@cache
def _small_png() -> bytes | None:
    """A real PNG of a tiny SVG, drawn once a process."""
    return drawn_png('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" '
                        'fill="#fff"/></svg>')


@pytest.fixture(autouse=True)
def small_maps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A resolution's map attached as ``_small_png`` (its SVG made from the turn as ever)."""
    monkeypatch.setattr("sheets_gm.web.picture._png", lambda svg: _small_png())
