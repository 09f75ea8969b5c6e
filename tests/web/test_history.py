"""The history the page steps through: a page per resolution and the board before the first; a page started in the
middle of a match names the resolutions it never saw, and draws the board before the first it saw."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sheets_gm.web.page import page_input
from sheets_gm.web.site import build_site, record_of
from tests.web.pages import SHEET, bot_match, build_pages, facts_of, windows_listed


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


def test_the_folders_ground_pictures_are_those_its_pages_show_after_an_undo_too(tmp_path: Path) -> None:
    """GvG's ground changes as coins are taken: each change is a picture of its own (and a names file beside it),
    every one a page shows is there, and an undo's build takes away those only the pages it took back showed."""
    rules, start, steps = bot_match("gvg", 3)
    folder = build_pages(tmp_path, rules, start, steps)
    kept = {path.name for path in folder.glob("ground-*")}
    assert kept == _shown_grounds(folder) and len(kept) > 1
    build_site(folder, page_input(facts_of(rules, steps[0].after, 1), "Friday match", SHEET))  # undo to turn 1
    after = {path.name for path in folder.glob("ground-*")}
    assert after == _shown_grounds(folder) and after < kept
    assert _windows(folder) == ["w0.html", "w1.html", "index.html"]


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
