"""The match page as a person uses it, in a real browser (Debian's chromium, driven through Debian's chromedriver by
Selenium; ``scripts/install.sh`` installs both where it may): for each game, the page loads with no console error,
hovering a square shows its coordinates and who stands there, a click on a unit opens its makeup (where the game's
public board shows a unit: a game that hides every position shows none, and the test hovers a bare square), the
history steps back and forth with each window's moves and battles drawn on its map, and the page reads at a phone's
width (375 px) with nothing wider than the screen but the map's own scrolling box. One browser (``conftest.py``'s)
for the module and the trail's, both on one test process (``xdist_group``: the browser starts once a run, not once a
worker); each game's page built once from a short bot match, when a test first asks for it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.rulesets.registry import ruleset_names
from tests.quick import soak_but
from tests.web.pages import bot_match, build_pages, nothing_drawn

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")

pytestmark = pytest.mark.xdist_group("browser")  # one worker starts the browser and builds the pages, not each


class Sites:
    """Each game's page after two resolutions of a bot match, built when a test first asks for it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.built: dict[str, Path] = {}

    def __getitem__(self, name: str) -> Path:
        """The page's folder of the game ``name``."""
        if name not in self.built:
            self.built[name] = build_pages(self.root / name, *bot_match(name, 2))
        return self.built[name]


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Sites:
    """Each game's page after two resolutions of a bot match (``Sites``)."""
    return Sites(tmp_path_factory.mktemp("pages"))


def _errors(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _open(driver: Any, page: Path | str) -> None:
    """``page`` (a file, or an address) opened, once its load event has fired (on a loaded machine chromedriver
    has been seen to hand the page over before its scripts ran and its pictures came), its script's places there:
    a page whose script set none fails saying how far it got and what the console said."""
    driver.get(page.as_uri() if isinstance(page, Path) else page)
    state = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "if (document.readyState === 'complete') { done('complete'); }"
        "else { window.addEventListener('load', function () { done('loaded'); }); }")
    assert driver.execute_script("return Array.isArray(window.SHEETS_GM_PLACES)"), (
        f"{page}: its script set no places (document {state}, at {driver.current_url}): {_errors(driver)}")


def _occupied(driver: Any, name: str) -> tuple[Any, bool]:
    """The first square or hex with a unit on it, scrolled to the middle of the window, and True; where the game's
    public board shows no unit (its positions hidden: the page's own data lists no unit's makeup), its first place
    and False. A page whose data lists a unit its map does not draw fails, saying so."""
    drawn = driver.find_elements("css selector", "svg.map g.p.u")
    listed = driver.execute_script("return window.SHEETS_GM_PLACES.flat()"
                                   ".filter(function (p) { return p[3]; }).map(function (p) { return p[0]; });")
    assert drawn or not listed, (f"{name}: the page's data gives a unit's makeup on {', '.join(listed[:4])}, yet its "
                                 "map draws no unit (no 'svg.map g.p.u')")
    place = drawn[0] if drawn else driver.find_element("css selector", "svg.map g.p")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", place)
    return place, bool(drawn)


# hex (wesnoth) in the quick run; a square map's (gvg) walked by the hidden positions' test below
@pytest.mark.parametrize("name", soak_but(ruleset_names(), "wesnoth"))
def test_the_page_as_a_player_uses_it(browser: Any, sites: Sites, name: str) -> None:
    _used(browser, sites[name], name)


def test_a_page_of_hidden_positions_is_used_without_a_unit_and_a_unit_not_drawn_is_named(
        browser: Any, sites: Sites, tmp_path: Path) -> None:
    """Issue 77: a game whose public board shows nobody (every position hidden) failed here with a bare "no such
    element"; its page is used without a unit, and a page whose map drops a unit its data lists fails naming it."""
    hidden, dropped = tmp_path / "hidden", tmp_path / "dropped"
    for folder, makeups in ((hidden, False), (dropped, True)):
        shutil.copytree(sites["gvg"], folder)
        for page in folder.glob("*.html"):
            text = page.read_text(encoding="utf-8").replace('class="p u"', 'class="p"')
            if not makeups:
                text = re.sub(r'(<script[^>]*id="places"[^>]*>)(.*?)(</script>)', lambda m: m[1] + json.dumps(
                    [[key, [[p[0], p[1], "", ""] for p in plane]] for key, plane in json.loads(m[2])]) + m[3], text,
                    flags=re.S)
            page.write_text(text, encoding="utf-8")
    _used(browser, hidden, "gvg without its units")
    with pytest.raises(AssertionError, match=r"the page's data gives a unit's makeup on [A-Z]+[0-9]+.*, yet its map "
                                             r"draws no unit"):
        _used(browser, dropped, "gvg")


def _used(browser: Any, site: Path, name: str) -> None:
    """The page in ``site`` used as a player uses it (the module's steps), the game called ``name`` in what fails."""
    from selenium.webdriver.common.action_chains import ActionChains

    browser.set_window_size(1100, 900)
    _open(browser, site / "index.html")
    assert _errors(browser) == []
    # it opens on the open window and its map, within the first screen; the latest results under the map
    latest, heading = browser.find_element("css selector", "section.latest"), browser.find_element("id", "heading")
    first_map = browser.find_element("css selector", ".map-box")
    assert heading.location["y"] < first_map.location["y"] < browser.execute_script("return window.innerHeight")
    assert latest.location["y"] > first_map.location["y"]
    assert latest.find_element("css selector", "h2").text.startswith("Latest results: ")
    place, unit = _occupied(browser, name)  # a game whose public board shows nobody: a bare place, and no makeup
    # the pointer to the middle of the square where it is now (the sticky information area covers the window's
    # bottom: moving to an element scrolls it to that edge)
    x, y = browser.execute_script("var b = arguments[0].getBoundingClientRect();"
                                  "return [Math.round(b.x + b.width / 2), Math.round(b.y + b.height / 2)];", place)
    moving = ActionChains(browser)
    moving.w3c_actions.pointer_action.move_to_location(x, y)  # type: ignore[no-untyped-call]
    moving.perform()
    info = browser.find_element("id", "info").text
    data = browser.execute_script(
        "var g = arguments[0], svg = g.closest('svg.map');"
        "return window.SHEETS_GM_PLACES"
        "[Number(svg.dataset.plane)][Number(g.dataset.i)];", place)
    assert info.startswith(data[0]), f"{name}: hovering {data[0]} shows {info!r}, not its coordinates"
    assert data[2].split("\n")[0] in info, f"{name}: hovering {data[0]} shows {info!r}, not who stands there"
    if unit:
        place.click()
        dialog = browser.find_element("id", "makeup")
        assert dialog.get_attribute("open") is not None, f"{name}: a click on {data[0]}'s unit opens no makeup"
        assert dialog.find_element("css selector", ".name").text == data[0]
        assert dialog.find_element("css selector", ".text").text.split("\n")[0] == data[3].split("\n")[0].strip()
        dialog.find_element("css selector", "form button").click()

    drawn = _orders_drawn(browser)
    browser.find_element("id", "prev").click()
    assert browser.current_url.endswith("/w2.html")
    assert "resolved" in browser.find_element("id", "heading").text
    drawn += _orders_drawn(browser)
    browser.find_element("id", "prev").click()
    assert browser.current_url.endswith("/w1.html")
    drawn += _orders_drawn(browser)
    _orders_seen(name, drawn)
    browser.find_element("id", "next").click()
    browser.find_element("id", "next").click()
    assert browser.current_url.endswith("/index.html")
    assert _errors(browser) == []

    browser.set_window_size(375, 800)
    wide = browser.execute_script("return document.documentElement.scrollWidth")
    assert wide <= browser.execute_script("return window.innerWidth")


# a square map's (champions) in the quick run; the war's finder walked by test_trail_in_browser's quick test
@pytest.mark.parametrize("name", soak_but(ruleset_names(), "champions"))
def test_the_finder_finds_a_unit_by_three_letters_and_opens_it(browser: Any, sites: Sites, name: str) -> None:
    browser.set_window_size(1100, 900)
    _open(browser, sites[name] / "index.html")
    lines = browser.execute_script(
        "return window.SHEETS_GM_PLACES.flat().filter(p => p[2]).map(p => p[2])")
    word = next(w for line in lines for w in re.findall(r"[^\W\d_]{3,}", line) if w not in ("token", "face"))
    browser.find_element("id", "find").send_keys(word[:3])
    found = browser.find_elements("css selector", "#found button")
    assert found and all(word[:3].lower() in b.text.lower() for b in found)
    found[0].click()
    dialog = browser.find_element("id", "makeup")
    assert dialog.get_attribute("open") is not None
    shown = browser.find_element("css selector", "svg.map g.p.found")
    assert dialog.find_element("css selector", ".name").text == found[0].text.rpartition(" ")[2]
    inside = browser.execute_script("var b = arguments[0].getBoundingClientRect();"
                                    "return b.top >= 0 && b.bottom <= window.innerHeight;", shown)
    assert inside, "the unit found is centred in the window"
    dialog.find_element("css selector", "form button").click()
    # the list of everyone: sorted by name, then back
    browser.find_element("css selector", "#roster summary").click()
    by_name = browser.find_element("css selector", '#roster th button[data-key="name"]')
    by_name.click()
    names = [td.text for td in browser.find_elements("css selector", "#roster tbody td:nth-child(2)")]
    assert str(len(names)) == browser.find_element("css selector", "#roster .count").text
    ordered = browser.execute_script("return arguments[0].slice().sort((a, b) => a.localeCompare(b, undefined, "
                                     "{numeric: true}))", names)
    assert names == ordered
    by_name.click()
    assert [td.text for td in browser.find_elements("css selector", "#roster tbody td:nth-child(2)")] == \
        ordered[::-1] or len(set(names)) < len(names)  # a tie keeps its order both ways
    assert _errors(browser) == []


def test_a_space_typed_in_the_finder_or_on_a_fold_is_a_space(browser: Any, sites: Sites) -> None:
    """Space keeps the information area while the pointer moves, but not where a key means something of its own: a
    player typing her army's name ("Keldon Horde", "Coal 150") got "KeldonHorde" and nobody found, and Space on a
    fold's title (the latest results' moves) did not open it. Each is now what it is elsewhere."""
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(1100, 900)
    _open(browser, sites["coalition"] / "index.html")
    names = browser.execute_script("return window.SHEETS_GM_PLACES.flat().filter(p => p[2]).map(p => p[2])")
    name = next(m[0] for line in names for m in [re.search(r"[^\W\d_]+ [^\W\d_]+", line)] if m)
    find = browser.find_element("id", "find")
    find.send_keys(name)
    assert find.get_attribute("value") == name
    found = browser.find_elements("css selector", "#found button")
    assert found and all(name.lower() in b.text.lower() for b in found), (name, [b.text for b in found])
    assert "kept" not in (browser.find_element("id", "info").get_attribute("class") or "")
    fold = browser.find_element("css selector", "section.latest details summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", fold)
    was = browser.execute_script("return arguments[0].parentNode.open", fold)
    fold.send_keys(Keys.SPACE)
    assert browser.execute_script("return arguments[0].parentNode.open", fold) is not was
    assert _errors(browser) == []


def _orders_drawn(browser: Any) -> list[tuple[str, float]]:
    """The moves, marks and battles the page shown draws on its map: each one's kind (its class) and its size."""
    found: list[tuple[str, float]] = browser.execute_script(
        "return Array.from(document.querySelectorAll('svg.map .orders > *')).map(function (e) {"
        "  var b = e.getBBox(); return [e.getAttribute('class'), b.width + b.height]; })")
    return found


def _orders_seen(name: str, drawn: list[tuple[str, float]]) -> None:
    """A window's moves and battles are drawn on its map: ``drawn`` (``_orders_drawn`` of the latest page and the
    two windows before it) holds some, each drawn where it can be seen, and of the game ``name``'s kind. Walked by
    ``_used`` on the pages it steps through (once a test of its own that loaded the three pages again)."""
    if not drawn and nothing_drawn(name, bot_match(name, 2)[2]):  # a game that logs nothing the page draws
        return
    assert drawn, f"{name}: no move, mark or battle drawn in two windows"
    assert all(size > 0 for _, size in drawn), drawn  # each drawn where it can be seen
    # Win or Die's two first windows deploy and Wesnoth's recruit (a mark each); every other game moves (an arrow)
    assert any(kind == ("mk" if name.startswith(("winordie", "wesnoth")) else "mv") for kind, _ in drawn), drawn


@pytest.mark.parametrize("name", ["champions", "gvg"])
def test_a_clicks_box_says_what_the_pages_log_says_of_who_stands_there(browser: Any, sites: Sites,
                                                                       name: str) -> None:
    _open(browser, sites[name] / "w1.html")
    told = 0
    for place in browser.find_elements("css selector", "svg.map g.p.u")[:8]:
        browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", place)
        place.click()
        dialog = browser.find_element("id", "makeup")
        head, _, lines = dialog.find_element("css selector", ".text").text.partition("In this page's Log:\n")
        who = [w.strip("⚔☗✪✚▼▲ ") for w in head.split("\n")[:4] if w.strip()]
        assert not lines or all(any(w in line for w in who) for line in lines.split("\n")), (who, lines)
        told += bool(lines)
        dialog.find_element("css selector", "form button").click()
    assert told, "no box said what the window's Log says of who stands there"
    assert _errors(browser) == []


def test_the_deadline_reads_in_the_viewers_time_zone(browser: Any, sites: Sites) -> None:
    _open(browser, sites["gvg"] / "index.html")
    shown = browser.find_element("css selector", "time[data-local]")
    assert shown.get_attribute("datetime") == "2026-11-27T19:00:00+00:00"
    local = browser.execute_script(
        "return new Intl.DateTimeFormat(undefined, {weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit',"
        " minute: '2-digit', timeZoneName: 'short'})"
        ".format(new Date('2026-11-27T19:00:00Z'))")
    assert shown.text == local


# a hex map (wesnoth) and a square one of several planes (coalition) in the quick run
@pytest.mark.parametrize("name", soak_but(ruleset_names(), "wesnoth", "coalition"))
def test_a_place_the_grounds_picture_draws_shows_what_it_is_under_the_pointer(browser: Any, sites: Sites,
                                                                             name: str) -> None:
    """The page draws a map's bare places once, as the match's ground picture (``ground-<hash>.svg``), and only who
    stands on it over it: a place of the picture alone is found under the pointer by its coordinates, says its name
    and its ground, and is outlined, on every plane."""
    from selenium.webdriver.common.action_chains import ActionChains

    browser.set_window_size(1100, 900)
    _open(browser, sites[name] / "index.html")
    planes = browser.execute_script("return window.SHEETS_GM_PLACES")
    searched: list[int] = []  # the planes with no bare place
    for k, plane in enumerate(planes):
        svg = browser.find_element("css selector", f'svg.map[data-plane="{k}"]')
        assert svg.find_element("css selector", "image").get_attribute("href").startswith("ground-")
        drawn = {int(g.get_attribute("data-i")) for g in svg.find_elements("css selector", "g.p")}
        bare = [i for i in range(len(plane)) if i not in drawn]
        if not bare:  # a map whose every place has someone on it: nothing the ground picture alone draws
            searched.append(k)
            continue
        i = bare[len(bare) // 2]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", svg)
        x, y = browser.execute_script(
            "var svg = arguments[0], p = arguments[1], side = Number(svg.dataset.side), m = Number(svg.dataset.margin);"
            "var h = Math.sqrt(3) * side, at = svg.dataset.shape === 'hex' ? "
            "[m + side + p[4] * 1.5 * side, m + h / 2 + p[5] * h + (p[4] % 2) * h / 2] : "
            "[m + (p[4] + .5) * side, m + (p[5] + .5) * side];"
            "var c = new DOMPoint(at[0], at[1]).matrixTransform(svg.getScreenCTM());"
            "return [Math.round(c.x), Math.round(c.y)];", svg, plane[i])
        moving = ActionChains(browser)
        moving.w3c_actions.pointer_action.move_to_location(x, y)  # type: ignore[no-untyped-call]
        moving.perform()
        info = browser.find_element("id", "info").text
        assert info.split("\n")[0] == plane[i][0] + (f" · {plane[i][1]}" if plane[i][1] else ""), (name, info)
        cursor = svg.find_element("css selector", "use.cur")
        assert cursor.get_attribute("visibility") == "visible"
        box = browser.execute_script("var b = arguments[0].getBoundingClientRect(); return [b.x, b.y, b.right, "
                                     "b.bottom];", cursor)
        assert box[0] < x < box[2] and box[1] < y < box[3], f"{name}: the outline is not round {plane[i][0]}"
    assert _errors(browser) == []
    if len(searched) == len(planes):
        pytest.skip(f"{name}: every place of its map has someone drawn on it: no place of the ground picture alone "
                    "to find under the pointer")


def test_served_the_page_shows_its_ground_picture(browser: Any, sites: Sites) -> None:
    """Through ``serve --web`` (its policy: images of its own origin only), a page's ground picture is fetched whole
    and no error is logged: a picture refused or missing would be a console error."""
    from sheets_gm.web.server import HostedPage, start_page_server

    server = start_page_server(("127.0.0.1", 0), lambda: {"friday": HostedPage("Friday", sites["wesnoth"])})
    try:
        _open(browser, f"http://127.0.0.1:{server.server_address[1]}/friday/index.html")
        fetched = browser.execute_script(
            "return performance.getEntriesByType('resource').filter(function (e) {"
            "  return /ground-[0-9a-f]+\\.svg$/.test(e.name); }).map(function (e) { return e.decodedBodySize; })")
        assert fetched and all(size > 1000 for size in fetched), fetched
        assert [e for e in _errors(browser) if "/favicon.ico" not in e] == []  # the browser's own ask: no page's
    finally:
        server.shutdown()
        server.server_close()


def _viewport(driver: Any, width: int, height: int) -> None:
    """The page's viewport made ``width`` × ``height`` CSS pixels exactly (a phone's: 390 × 844)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def test_the_wars_page_on_a_phone_and_a_desk_from_disk_and_served(browser: Any, sites: Sites, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 90, as players use the war's page, served by ``serve --web`` and from disk, on a phone (390 × 844) and a
    desk (1280 × 900): no console error (no favicon asked for); the map within the first screen, the latest results
    under it, each battle line a link that shows its square; a name of 180 letters without a space widens nothing;
    the finder finds a name in the page's Log (a killed army is on no square)."""
    from sheets_gm.commands.serve import _pages_served
    from sheets_gm.host.discovery import find_configs
    from tests.matchfiles import local_config

    local_config(tmp_path)
    shutil.copytree(sites["coalition"], tmp_path / "web")
    army = re.search(r"([A-Z][a-z]+ [A-Z][a-z]+) attacks ",
                     (tmp_path / "web" / "index.html").read_text(encoding="utf-8"))
    assert army is not None
    for page in (tmp_path / "web").glob("*.html"):  # one army's name made 180 letters long, without a space
        page.write_text(page.read_text(encoding="utf-8").replace(army[1], "W" * 180), encoding="utf-8")
    try:
        with _pages_served("127.0.0.1:0", lambda: find_configs([tmp_path])):
            port = int(capsys.readouterr().out.split("http://127.0.0.1:")[1].split("/")[0])
            for where in (f"http://127.0.0.1:{port}/match/", tmp_path / "web" / "index.html"):
                for width, height in ((390, 844), (1280, 900)):
                    _viewport(browser, width, height)
                    _open(browser, where if isinstance(where, Path) else where + "index.html")
                    assert _errors(browser) == [], (where, width)
                    top = browser.find_element("css selector", ".map-box").rect["y"]
                    assert top < height - 100, f"{where} at {width}: the map starts {top} px down"
                    assert browser.find_element("css selector", "section.latest").rect["y"] > top
                    wide = browser.execute_script("document.querySelectorAll('details').forEach(function (d) "
                                                  "{ d.open = true; }); return document.documentElement.scrollWidth")
                    assert wide <= width, f"{where} at {width}: the page is {wide} px wide"
            browser.save_screenshot(str(tmp_path / "desk.png"))
            _viewport(browser, 390, 844)
            _open(browser, f"http://127.0.0.1:{port}/match/")
            battles = browser.find_element("css selector", "section.latest details.battles")
            if battles.get_attribute("open") is None:
                battles.find_element("css selector", "summary").click()
            link = battles.find_element("css selector", "li a[data-at]")
            plane, index = link.get_attribute("data-at").split(":")
            browser.execute_script("arguments[0].scrollIntoView()", link)
            link.click()
            browser.find_element("css selector", "#makeup button").click()
            shown = browser.find_element("css selector", "svg.map g.p.found")
            assert shown.get_attribute("data-i") == index
            assert shown.find_element("xpath", "ancestor::*[local-name()='svg']").get_attribute("data-plane") == plane
            word = browser.find_element("css selector", "section.latest details.log td:last-child").get_attribute(
                "textContent").split()[-1]
            browser.find_element("id", "find").send_keys(word)
            logged = [b for b in browser.find_elements("css selector", "#found button")
                      if b.text.startswith("In the Log: ")]
            assert logged and word in logged[0].text
            browser.save_screenshot(str(tmp_path / "phone.png"))
            # my side: the Coalition's armies alone; a square dimmed holds none of them, a result line kept names one
            from selenium.webdriver.support.ui import Select

            sides = Select(browser.find_element("id", "whose"))
            browser.execute_script(  # (chosen as a phone's own list chooses it: the select's value, then its change)
                "arguments[0].selectedIndex = arguments[1]; arguments[0].dispatchEvent(new Event('change'));",
                sides._el, next(i for i, o in enumerate(sides.options) if o.text.startswith("◆ Coalition")))
            dimmed = browser.execute_script(
                "return Array.prototype.map.call(document.querySelectorAll('svg.map g.p.dim'), function (g) {"
                "  return window.SHEETS_GM_PLACES[Number(g.closest('svg.map').dataset.plane)][Number(g.dataset.i)][2];"
                "});")
            assert dimmed and not any("◆" in who for who in dimmed)
            kept, hidden = browser.execute_script(
                "var lis = Array.prototype.slice.call(document.querySelectorAll('.latest li'));"
                "return [lis.filter(function (li) { return !li.hidden; })"
                "        .map(function (li) { return li.textContent; }),"
                "        lis.filter(function (li) { return li.hidden; }).length];")
            coalition = browser.execute_script(
                "return window.SHEETS_GM_PLACES.flat().map(function (p) { return p[2]; }).join('\\n')"
                ".split(/\\n|\\s{2,}/).filter(function (l) { return l.indexOf('◆') === 0; })"
                ".map(function (l) { return l.slice(2).replace(/ \\(.*$/, ''); });")
            assert hidden and kept and all(any(name in line for name in coalition) for line in kept), kept[:3]
            browser.refresh()  # kept for the next page of this browser, then put back
            assert Select(browser.find_element("id", "whose")).first_selected_option.text.startswith("◆ Coalition")
            browser.execute_script("localStorage.removeItem('sheets-gm-whose')")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
