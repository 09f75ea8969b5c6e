"""The page every notice links to opens on the latest results: the last resolution's public Log, its battles and its
moves, above the open window and its deadline, for every game; after an undo, the resolution the match counts
last."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import ruleset_names, sheet_of
from sheets_gm.web.latest import MOVE_KINDS, Latest, battle_kinds
from sheets_gm.web.page import page_input, public_lines
from sheets_gm.web.site import build_site, record_of
from tests.web.pages import SHEET, bot_match, build_pages, facts_of, files_of, windows_listed


def _text(path: Path) -> str:
    return html.unescape(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ruleset_names())
def test_the_page_of_the_match_now_opens_on_the_last_resolutions_results(tmp_path: Path, name: str) -> None:
    rules, start, steps = bot_match(name, 2)
    folder = build_pages(tmp_path, rules, start, steps)
    page = _text(folder / "index.html")
    head, _, rest = page.partition('<h2 id="heading">')
    assert rest and "Latest results" not in head, "the open window's heading and its map come first"
    top = rest.partition('<section class="latest"')[2]
    shown = next(s for s in reversed(steps) if public_lines(s.events, sheet_of(rules)))  # (an empty round: the one
    label = shown.window.label  # before it, Champions' fight of nobody's)
    assert f"Latest results: {label[:1].upper()}{label[1:]}" in top
    lines = public_lines(shown.events, sheet_of(rules))
    for _, _kind, line in lines:  # every line of its public Log is in the results, under the map
        assert line in top, line
    battles = [line for _, kind, line in lines if kind in battle_kinds(name)]
    moves = [line for _, kind, line in lines if kind in MOVE_KINDS]
    assert f"{len(battles)} battle line" in top and f"{len(moves)} move" in top
    if battles:
        listed = top.partition('<details class="battles"')[2].partition("</ul>")[0]
        assert all(line in listed for line in battles)


def test_after_an_undo_it_opens_on_the_resolution_the_match_counts_last(tmp_path: Path) -> None:
    rules, start, steps = bot_match("gvg", 3)
    folder = build_pages(tmp_path, rules, start, steps)
    assert "Latest results: Turn 3" in _text(folder / "index.html")
    build_site(folder, page_input(facts_of(rules, steps[1].after, 2), "Friday match", SHEET))  # undo of turn 3
    page = _text(folder / "index.html")
    assert "Latest results: Turn 2" in page and not (folder / "w3.log.json").exists()
    assert all(line in page for _, _, line in public_lines(steps[1].events, sheet_of(rules)))


def test_before_the_first_resolution_there_are_no_results_to_open_on(tmp_path: Path) -> None:
    rules, start, _ = bot_match("gvg", 0)
    folder = build_pages(tmp_path, rules, start, [])
    assert "Latest results" not in _text(folder / "index.html")

def test_a_coalition_armys_count_of_turns_in_a_structure_is_no_battle() -> None:
    """The Coalition's Log kind ``counter`` is an army counting its turns in a structure; elsewhere (Wesnoth, Win or
    Die) it is a counter-attack. The Coalition's page does not list it with the battles, nor count it as one: it lists
    it under its own title; a Wesnoth counter-attack is still a battle."""
    army = "Keldon Horde"
    line = ("2", "counter", f"{army} counts turn 2 in Urborg Stronghold")
    latest = Latest("w2.html", "Turn 2", (line, ("2", "battle", f"{army} attacks B, Dominaria 11F")), 0, "coalition")
    assert latest.battles == latest.log[1:]
    assert latest.others == (("Turns counted in structures", (line,)),)
    assert Latest("w2.html", "Round 2", (("2", "counter", "Bo-1 strikes back at Ann-7"),), 0, "wesnoth").battles



def test_the_record_keeps_each_resolutions_end_as_its_sidecar_and_an_older_folder_without_it_builds_alike(
        tmp_path: Path) -> None:
    """A build takes the Log row after a resolution's lines (where the GM's adjustments after it start) from the
    record (in ``windows.js``), not from the resolution's sidecar: each window's kept ``end`` is its sidecar's; a
    folder an older version built (its record in ``record.json``, without ``end``; ``windows.js`` the list of windows
    alone) reads the sidecar and builds the next resolution's pages byte for byte as the folder that kept it, its
    ``record.json`` removed."""
    rules, start, steps = bot_match("gvg", 3)
    kept = build_pages(tmp_path / "kept", rules, start, steps)
    record = record_of(kept)
    logged = [w for w in record["windows"] if w["log"]]
    assert len(logged) == 3
    for window in logged:
        sidecar = json.loads((kept / window["file"].replace(".html", ".log.json")).read_text(encoding="utf-8"))
        assert window["end"] == sidecar["end"]
    older = build_pages(tmp_path / "older", rules, start, steps[:2])
    stripped = record_of(older)
    for window in stripped["windows"]:
        window.pop("end", None)
    del stripped["shared"]
    (older / "record.json").write_text(json.dumps(stripped), encoding="utf-8")
    script = (older / "windows.js").read_text(encoding="utf-8")
    (older / "windows.js").write_text(script[:script.index("\n") + 1], encoding="utf-8")
    step = steps[2]
    build_site(older, page_input(facts_of(rules, step.after, 3, step), "Friday match", SHEET))
    assert "record.json" not in files_of(older) and windows_listed(older) == windows_listed(kept)
    assert {n: b for n, b in files_of(older).items() if n != "windows.js"} == \
        {n: b for n, b in files_of(kept).items() if n != "windows.js"}  # (its record: the older windows keep no end)
