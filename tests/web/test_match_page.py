"""The match page of a configured match: written by the poll that resolves, a page per resolution; an undo's next
poll takes the undone page back; a poll that finds the match as the page was built writes nothing; a config that
says ``web = ""`` has none; a folder that cannot be written is a warning, never a failed poll."""

from __future__ import annotations

from pathlib import Path

from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import get_game
from sheets_gm.running.poll_words import poll_warnings
from sheets_gm.running.run import sync_once
from sheets_gm.sync.life.adjust_undo import adjust_match, undo_window
from tests.matchfiles import GVG, NOW, local_match, type_orders


def _pages(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("w*.html"))


def test_a_resolution_writes_its_page_and_an_undo_takes_it_back(tmp_path: Path) -> None:
    path, sheets = local_match(tmp_path)
    config = load_config(path)
    assert config.web == tmp_path / "web/"
    sync_once(config, sheets, now=NOW)
    index = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert "Now: turn 1" in index and _pages(tmp_path / "web") == ["w0.html"]  # the start's, for the first resolution
    assert "w0.html" not in (tmp_path / "web" / "windows.js").read_text(encoding="utf-8").split("\n")[0]  # not listed
    type_orders(sheets)
    report = sync_once(config, sheets, now=NOW)
    assert report.resolved and report.page == ""
    assert _pages(tmp_path / "web") == ["w0.html", "w1.html"]
    resolved = (tmp_path / "web" / "w1.html").read_text(encoding="utf-8")
    assert "Resolved: turn 1" in resolved and "Now: turn 2" in (tmp_path / "web" / "index.html").read_text()
    stamp = (tmp_path / "web" / "index.html").stat().st_mtime_ns
    sync_once(config, sheets, now=NOW)  # nothing changed: nothing written
    assert (tmp_path / "web" / "index.html").stat().st_mtime_ns == stamp
    undo_window(sheets, GVG, "a test")
    sync_once(config, sheets, now=NOW)
    assert _pages(tmp_path / "web") == ["w0.html"]
    assert "Now: turn 1" in (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert "w1.html" not in (tmp_path / "web" / "windows.js").read_text(encoding="utf-8")


def test_a_match_without_a_page_writes_none(tmp_path: Path) -> None:
    path, sheets = local_match(tmp_path, body='web = ""\n')
    config = load_config(path)
    assert config.web is None
    sync_once(config, sheets, now=NOW)
    assert not (tmp_path / "web").exists()


def test_a_page_that_cannot_be_written_is_a_warning_and_the_poll_stands(tmp_path: Path) -> None:
    path, sheets = local_match(tmp_path, body='web = "taken"\n')
    (tmp_path / "taken").write_text("a file where the folder would be", encoding="utf-8")
    config = load_config(path)
    type_orders(sheets)
    report = sync_once(config, sheets, now=NOW)
    assert report.resolved
    assert any("match page" in w and "taken" in w for w in poll_warnings(config, report))


def test_the_gms_adjustments_show_on_the_page_now_then_on_the_resolution_that_files_them(tmp_path: Path) -> None:
    path, sheets = local_match(tmp_path)
    config = load_config(path)
    sync_once(config, sheets, now=NOW)
    seats = tuple(config.seats)
    adjust_match(sheets, GVG, get_game("gvg").gm_events(seats, {"coins": [f"{seats[0]}=7"]}, "a prize for the map"))
    sync_once(config, sheets, now=NOW)
    index = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert "The GM&#39;s adjustments" in index and "a prize for the map" in index, index
    type_orders(sheets)
    assert sync_once(config, sheets, now=NOW).resolved
    resolved = (tmp_path / "web" / "w1.html").read_text(encoding="utf-8")
    assert "Before it, the GM&#39;s adjustments" in resolved and "a prize for the map" in resolved
    assert "a prize for the map" not in (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
