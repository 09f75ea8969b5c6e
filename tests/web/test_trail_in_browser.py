"""One army's trail over the turns (issue 90), as players use it in chromium: picked from the finder (by its name or
its player's, or, killed, by its name alone) or by a click on it on the map, its path drawn on the map and its steps
listed (turn, from → to, battles, result), the page from disk and served by ``serve --web``, on a phone (390 × 844)
and a desk (1280 × 900). The quick example is the war's; every game's, on both screens, runs under ``-m soak``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.registry import ruleset_names
from tests.web.pages import bot_match, build_pages, war_with_players, windows_listed
from tests.web.test_in_browser import _errors, _open, _viewport
from tests.web.test_trail import trails_of

pytestmark = pytest.mark.xdist_group("browser")  # the worker of test_in_browser's: one browser for both


def _trail_rows(driver: Any) -> list[list[str]]:
    """The trail's list as the page shows it: each row's cells (its battles' fold as its summary)."""
    return list(driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#trail tbody tr'), function (tr) {"
        "  return Array.prototype.map.call(tr.children, function (td) {"
        "    var s = td.querySelector('summary'); return (s || td).textContent; }); });"))


def _drawn(driver: Any) -> tuple[int, int]:
    """The trail's lines and numbered ends on the maps."""
    return (len(driver.find_elements("css selector", "svg.map g.trail polyline")),
            len(driver.find_elements("css selector", "svg.map g.trail circle")))


def _picked_from_the_dialog(driver: Any, key: str) -> None:
    """The trail of ``key`` asked for in the box a click on its square opened; the list shown."""
    button = next(b for b in driver.find_elements("css selector", "#makeup .trails button") if b.text.endswith(key))
    button.click()
    driver.execute_async_script("var done = arguments[arguments.length - 1];"
                                "(function wait() { var t = document.getElementById('trail');"
                                "  if (!t.hidden) { done(); } else { setTimeout(wait, 20); } })();")


def _steps_of(folder: Path, key: str) -> list[Any]:
    """``key``'s steps in ``folder``'s trail files, in order."""
    return [data["armies"][key] for data in trails_of(folder).values() if key in data["armies"]]


def test_the_wars_trail_from_the_finder_by_its_player_and_of_a_killed_army(browser: Any, tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from sheets_gm.commands.serve import _pages_served
    from sheets_gm.host.discovery import find_configs
    from tests.matchfiles import local_config

    local_config(tmp_path)
    build_pages(tmp_path / "web", *bot_match("coalition", 4, roster=war_with_players()))
    gone = next((g for w in windows_listed(tmp_path / "web") for g in w.get("gone", []) if g[1] == "killed"), None)
    assert gone is not None, "the war's first four resolutions kill an army"
    try:
        with _pages_served("127.0.0.1:0", lambda: find_configs([tmp_path])):
            port = int(capsys.readouterr().out.split("http://127.0.0.1:")[1].split("/")[0])
            for where, (width, height) in ((f"http://127.0.0.1:{port}/match/index.html", (390, 844)),
                                           (tmp_path / "web" / "index.html", (1280, 900))):
                _viewport(browser, width, height)
                _open(browser, where)
                # the army of a player found by her name, its trail from the box its square opens
                browser.find_element("id", "find").send_keys("Pl UV")
                found = browser.find_elements("css selector", "#found button")
                assert [b.text for b in found if "player Pl UV" in b.text], [b.text for b in found]
                found[0].click()
                _picked_from_the_dialog(browser, "Urza's Vanguard")
                rows = _trail_rows(browser)
                steps = _steps_of(tmp_path / "web", "Urza's Vanguard")
                assert len(rows) == 4 and 1 <= len(steps) <= 4  # a resolution it stayed in lists no step
                assert rows[0][0].startswith("1. ") and rows[0][1].startswith(f"Dominaria {steps[0][0][1]} → ")
                assert sum(row[1].startswith("stays on ") for row in rows) == 4 - len(steps)
                lines, ends = _drawn(browser)
                assert lines == 1 and 1 <= ends <= len(steps), (lines, ends)
                browser.save_screenshot(str(tmp_path / f"trail-{width}.png"))
                # a killed army: on no square, found by its name, marked, its trail ending in its death
                find = browser.find_element("id", "find")
                find.clear()
                find.send_keys(gone[0])
                killed = [b for b in browser.find_elements("css selector", "#found button.gone")]
                assert killed and killed[0].text.startswith(f"✝ {gone[0]} — killed in "), [b.text for b in killed]
                killed[0].click()
                browser.execute_async_script("var name = arguments[0], done = arguments[arguments.length - 1];"
                                             "(function wait() { if (document.querySelector('#trail h2')"
                                             "  .textContent.indexOf(name) >= 0) { done(); }"
                                             "  else { setTimeout(wait, 20); } })();", gone[0])
                rows = _trail_rows(browser)
                assert rows and rows[-1][1].endswith("→ off the map") and rows[-1][3] == "killed", rows
                wide = browser.execute_script("return document.documentElement.scrollWidth")
                assert wide <= width, f"{where} at {width}: the page is {wide} px wide"
                assert _errors(browser) == [], where
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.soak
@pytest.mark.parametrize("name", ruleset_names())
def test_every_games_trail_from_a_click_on_the_map(browser: Any, tmp_path: Path, name: str) -> None:
    folder = build_pages(tmp_path / name, *bot_match(name, 4))
    trails = trails_of(folder)
    moved = {key for data in trails.values() for key, step in data["armies"].items() if step[0] != step[1]}
    try:
        for width, height in ((390, 844), (1280, 900)):
            _viewport(browser, width, height)
            _open(browser, folder / "index.html")
            units = browser.execute_script(
                "return Array.prototype.map.call(document.querySelectorAll('svg.map g.p'), function (g) {"
                "  var p = window.SHEETS_GM_PLACES[Number(g.closest('svg.map').dataset.plane)][Number(g.dataset.i)];"
                "  return [p[0], p[2]]; }).filter(function (p) { return p[1]; });")
            if not units:
                pytest.skip(f"{name}: its public map shows nobody")
            place = next((p for p in units if any(k in p[1] for k in moved)), units[0])
            browser.execute_script("var name = arguments[0];"
                                   "var g = Array.prototype.find.call(document.querySelectorAll('svg.map g.p'),"
                                   "  function (g) { return window.SHEETS_GM_PLACES[Number(g.closest('svg.map')"
                                   "  .dataset.plane)][Number(g.dataset.i)][0] === name; });"
                                   "g.scrollIntoView({block: 'center', inline: 'center'});"
                                   "g.dispatchEvent(new MouseEvent('click', {bubbles: true}));", place[0])
            keys = [b.text.rpartition(": ")[2] for b in browser.find_elements("css selector", "#makeup .trails button")]
            assert keys, f"{name}: a click on {place[0]} offers no trail"
            key = next((k for k in keys if k in moved), keys[0])
            _picked_from_the_dialog(browser, key)
            steps = [data["armies"][k] for data in trails.values() for k in [key] if k in data["armies"]]
            rows = _trail_rows(browser)
            assert len(rows) >= len(steps) and rows, (name, key, rows)
            if key in moved:
                assert _drawn(browser)[0] >= 1, f"{name}: {key} moved, and no trail is drawn"
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width
            assert _errors(browser) == [], name
            shutil.copy(folder / "index.html", tmp_path / f"{name}-{width}.html")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
