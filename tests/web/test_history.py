"""The history the page steps through: a page per resolution and the board before the first; a page started in the
middle of a match names the resolutions it never saw, and draws the board before the first it saw."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sheets_gm.rulesets.gvg.sheet.draw import GvgLook
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.web.page import page_input
from sheets_gm.web.site import build_site, record_of
from sheets_gm.web.svg import lasting_mark
from tests.web.pages import SHEET, Step, bot_match, build_pages, facts_of, windows_listed


def _windows(folder: Path) -> list[str]:
    return [w["file"] for w in windows_listed(folder)]


def test_every_resolution_has_its_page_in_order(tmp_path: Path) -> None:
    folder = build_pages(tmp_path, *bot_match("gvg", 3))
    assert _windows(folder) == ["w0.html", "w1.html", "w2.html", "w3.html", "index.html"]
    assert "came before this page" not in (folder / "index.html").read_text(encoding="utf-8")
    assert "Resolved: turn 2" in (folder / "w2.html").read_text(encoding="utf-8")


def test_a_page_started_late_names_the_resolutions_it_never_saw(tmp_path: Path) -> None:
    rules, _, steps = bot_match("gvg", 3)
    build_site(tmp_path, page_input(facts_of(rules, steps[2].after, 3, steps[2]), "Late", SHEET))
    assert _windows(tmp_path) == ["w2.html", "w3.html", "index.html"]
    assert "Before resolution 3" in (tmp_path / "w2.html").read_text(encoding="utf-8")
    assert "2 resolutions of this match came before this page was kept" in (tmp_path / "index.html").read_text(
        encoding="utf-8")


def _shown_grounds(folder: Path) -> set[str]:
    return {name for page in folder.glob("*.html")
            for name in re.findall(r'<(?:image href|script src)="(ground-[0-9a-f]+\.(?:svg|js))"',
                                   page.read_text(encoding="utf-8"))}


def _razed(state: Any) -> Any:
    """A GvG state with every structure brought to 0 HP (its sign gone from the ground)."""
    state = state.copy()
    for structure in state.structures.values():
        structure.hp = 0
    return state


def test_the_folders_ground_pictures_are_those_its_pages_show_after_an_undo_too(tmp_path: Path) -> None:
    """GvG's ground changes as its structures fall: each change is a picture of its own (and a names file beside it),
    every one a page shows is there, and an undo's build takes away those only the pages it took back showed."""
    rules, start, steps = bot_match("gvg", 3)
    build_site(tmp_path, page_input(facts_of(rules, start, 0), "Friday match", SHEET))
    for number, step in enumerate(steps, 1):
        after, before = (step.after, step.before) if number < 2 else (_razed(step.after), _razed(step.before))
        shown = Step(step.window, before, after, step.events)
        build_site(tmp_path, page_input(facts_of(rules, after, number, shown), "Friday match", SHEET))
    kept = {path.name for path in tmp_path.glob("ground-*")}
    assert kept == _shown_grounds(tmp_path) and len(kept) > 2
    build_site(tmp_path, page_input(facts_of(rules, steps[0].after, 1), "Friday match", SHEET))  # undo to turn 1
    after = {path.name for path in tmp_path.glob("ground-*")}
    assert after == _shown_grounds(tmp_path) and after < kept
    assert _windows(tmp_path) == ["w0.html", "w1.html", "index.html"]


def test_coins_taken_keep_the_ground_the_page_draws_them_over_it(tmp_path: Path) -> None:
    """A coin is no part of GvG's ground picture (its square's colour is a conditional fill's, which follows the
    coin): a match whose coins are taken keeps one ground picture, and each page draws its coins over it, each
    square in the colour the board shows it in, with the coin's sign."""
    rules, start, steps = bot_match("gvg", 3)
    folder = build_pages(tmp_path, rules, start, steps)
    assert len(start.jungle) > len(steps[-1].after.jungle)  # coins were taken
    assert len(list(folder.glob("ground-*.svg"))) == 1
    coin = lasting_mark(GvgLook.of(sheet_spec("gvg")).sign("coin"))  # (its sign, as a page writes it: ●)
    for page, state in (("w0.html", start), ("index.html", steps[-1].after)):
        html = (folder / page).read_text(encoding="utf-8")
        assert html.count(f">{coin}</text>") == len(state.jungle), page
    ground = next(folder.glob("ground-*.svg")).read_text(encoding="utf-8")
    assert f">{coin}</text>" not in ground


def test_the_shared_files_are_written_again_when_missing_or_of_another_version(tmp_path: Path) -> None:
    """The files every page shares are not read again at each build (the record keeps a stamp of them): one removed,
    or a folder whose record's stamp is another version's, is written again."""
    rules, start, steps = bot_match("gvg", 2)
    folder = build_pages(tmp_path, rules, start, steps[:1])
    script = (folder / "page.js").read_bytes()
    (folder / "page.css").unlink()
    (folder / "page.js").write_text("// an older version's", encoding="utf-8")
    build_site(folder, page_input(facts_of(rules, steps[1].after, 2, steps[1]), "Friday match", SHEET))
    assert (folder / "page.css").is_file() and (folder / "page.js").read_text(encoding="utf-8").startswith("//")
    listed = (folder / "windows.js").read_text(encoding="utf-8")
    record = record_of(folder)
    (folder / "windows.js").write_text(listed.replace(json.dumps(record["shared"]), '"another"'), encoding="utf-8")
    assert record_of(folder)["shared"] == "another"
    build_site(folder, page_input(facts_of(rules, steps[1].after, 2, steps[1]), "Friday match", SHEET))
    assert (folder / "page.js").read_bytes() == script


def test_a_resolution_made_again_writes_its_page_over_the_one_taken_back(tmp_path: Path) -> None:
    """A resolution of the number of one an undo took back (the page not built since: an undo of an older version,
    or a page that could not be written then) writes its own page, Log and standings over the old one's."""
    rules, start, steps = bot_match("gvg", 2)
    folder = build_pages(tmp_path, rules, start, steps)
    _, _, other = bot_match("gvg", 2, seed=b"another roll")
    again = Step(other[1].window, steps[0].after, other[1].after, other[1].events)
    assert again.events != steps[1].events
    build_site(folder, page_input(facts_of(rules, again.after, 2, again), "Friday match", SHEET))
    fresh = tmp_path / "fresh"
    build_pages(fresh, rules, start, [steps[0], again])
    for name in ("w2.html", "w2.log.json", "windows.js", "index.html"):
        assert (folder / name).read_bytes() == (fresh / name).read_bytes(), name


def test_two_resolutions_of_one_window_are_told_apart_in_the_history(tmp_path: Path) -> None:
    """Win or Die resolves a player's turn a step at a time: the history's labels name the step, none twice."""
    folder = build_pages(tmp_path, *bot_match("winordie", 4))
    labels = [w["label"] for w in windows_listed(folder)]
    assert "4. turn 1 · Ann, step 2" in labels and "3. turn 1 · Ann" in labels
    words = [label.partition(". ")[2] for label in labels if ". " in label]
    assert len(set(words)) == len(words), labels
