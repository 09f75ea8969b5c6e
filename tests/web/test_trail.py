"""One army's trail over the turns (issue 90), from what is public alone: each resolution's steps beside its page
(``w3.trail.js``), every one's step starting where its step before ended and ending where the resolution's own page
draws it; who left the map listed in the windows' list with what became of it, as the Log says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.web.trail import steps, trail_key
from tests.web.pages import bot_match, build_pages, war_with_players, windows_listed

_STORE = re.compile(r'^window\.SHEETS_GM_TRAILS\["(w\d+\.html)"\] = (.*);$', re.M)


def trails_of(folder: Path) -> dict[str, Any]:
    """Each resolution's steps in ``folder``, by its page's file, as the page's script reads them."""
    out = {}
    for path in sorted(folder.glob("w*.trail.js")):
        found = _STORE.search(path.read_text(encoding="utf-8"))
        assert found is not None, path
        out[found[1]] = json.loads(found[2])
    return out


def _drawn_at(page: str) -> dict[str, tuple[int, str]]:
    """Who a page's map draws where, by trail key (its places' JSON and its ground's names file)."""
    folder = Path(page).parent
    html = Path(page).read_text(encoding="utf-8")
    places = json.loads(re.search(r'id="places">(.*?)</script>', html, re.S)[1])  # type: ignore[index]
    out: dict[str, tuple[int, str]] = {}
    for k, (key, marked) in enumerate(places):
        names = json.loads(re.search(r"= (\[.*\]);", next(
            p for p in folder.glob("ground-*.js") if key in p.read_text(encoding="utf-8")).read_text(
            encoding="utf-8"), re.S)[1])  # type: ignore[index]
        for index, _, who, _ in marked:
            for line in re.split(r"\n|\s{2,}", who):
                name = re.sub(r"\s*\(\d+ · \d+\)\s*$", "", re.sub(r"^[^\w]+", "", line))
                if name and not line.startswith("⚔ "):
                    out.setdefault(trail_key(name), (k, names[index][0]))
    return out


@pytest.mark.parametrize("name", ["coalition", "gvg", "wesnoth"])
def test_each_step_starts_where_the_one_before_ended_and_ends_where_its_page_draws_it(name: str,
                                                                                    tmp_path: Path) -> None:
    folder = build_pages(tmp_path / name, *bot_match(name, 4, roster=war_with_players() if name == "coalition"
                                                         else None))
    trails = trails_of(folder)
    assert list(trails) == [f"w{n}.html" for n in range(1, 5)]
    ended: dict[str, Any] = {}
    moved = 0
    for file, data in trails.items():
        drawn = _drawn_at(str(folder / file))
        for key, (was, now, _way, lines, _result) in data["armies"].items():
            if key in ended:
                assert was == ended[key], (file, key)
            assert (tuple(now) if now else None) == drawn.get(key), (file, key)
            assert all(key in data["lines"][i][2] for i in lines), (file, key)
            moved += was != now
            ended[key] = now
        for key in set(drawn) - set(data["armies"]):  # a step left out: it stayed where it stood
            assert tuple(ended.get(key) or drawn[key]) == drawn[key], (file, key)
            ended[key] = list(drawn[key])
    assert moved


def test_the_wars_killed_and_disbanded_armies_are_listed_with_their_fate(tmp_path: Path) -> None:
    folder = build_pages(tmp_path / "war", *bot_match("coalition", 6, roster=war_with_players()))
    gone = [(w["file"], *g) for w in windows_listed(folder) for g in w.get("gone", [])]
    assert {fate for _, _, fate, _, _ in gone} >= {"killed", "disbanded"}, gone
    for file, army, fate, _, _ in gone:
        log = json.loads((folder / file.replace(".html", ".log.json")).read_text(encoding="utf-8"))["log"]
        said = {"killed": f"{army} is killed", "disbanded": "disbands"}.get(fate, "")
        assert any(said in text and army in text for _, _, text in log), (file, army, fate)


def test_a_step_is_made_of_the_public_lines_and_maps_alone() -> None:
    log = [("1", "route", "Ann's Host's route drawn: 2B 3B"), ("1", "order", "Ann's Host: moved at Dominaria 3C"),
           ("1", "battle", "Ann's Host attacks Bo's Band, Dominaria 3C"),
           ("1", "result", "Ann's Host attacks Bo's Band, Dominaria 3C: Ann's Host wins"),
           ("1", "kill", "Bo's Band is killed"), ("1", "dice", "Dice: 1/kill/Ann's Host = 7")]
    data = steps(log, "coalition", {"Ann's Host": [0, "1B"], "Bo's Band": [0, "3C"], "battle (attacks)": [0, "3C"]},
                 {"Ann's Host": [0, "3C"]}, {"Ann's Host": [(0, "2B"), (0, "3B"), (0, "3C")]})
    assert data["armies"] == {"Ann's Host": [[0, "1B"], [0, "3C"], [[0, "2B"], [0, "3B"]], [0, 1], "won"],
                              "Bo's Band": [[0, "3C"], None, [], [0, 1, 2], "killed"]}
    assert "Cy's Guard" not in steps(log, "coalition", {"Cy's Guard": [0, "9A"]}, {"Cy's Guard": [0, "9A"]},
                                     {})["armies"]  # stayed, in no battle: no step
    assert [text for _, _, text in data["lines"]][2] == "Bo's Band is killed"
    assert trail_key("Ann-R1 Skeleton 34/34 HP") == "Ann-R1" and trail_key("red1▼") == "red1"
    assert trail_key("Sky-Watch Legion") == "Sky-Watch Legion"


def test_a_unit_revealed_goes_on_from_the_token_it_was() -> None:
    """Win or Die: a face-down token revealed is a unit from then on (its Log line says which): one trail."""
    log = [("1", "moved", "Ann token 4 moves from B2 to E6."),
           ("1", "revealed", "Ann token 4 is revealed (it attacks): Ann-7 (Lancer).")]
    data = steps(log, "winordie", {"Ann token 4 face down": [0, "B2"]},
                 {"Ann-7 Lancer 0/5 damage ●●": [0, "E6"], "Ann-7": [0, "E6"]}, {})
    assert data["revealed"] == {"Ann-7": "Ann token 4 face down"}
    assert data["armies"]["Ann-7"][:2] == [[0, "B2"], [0, "E6"]]
    assert data["armies"]["Ann token 4 face down"][4] == "revealed as Ann-7"
