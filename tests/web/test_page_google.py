"""The page of a Google match: built from what the poll already holds, it costs no API call (every API bar stays as
it was), and links the public spreadsheet by its URL."""

from __future__ import annotations

from pathlib import Path

import pytest

import sheets_gm.running.run as match_run
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.page import publish_page
from tests.commands.test_commands_google import KEYS, fake, match_toml, run
from tests.fakes.google_api import GoogleApiFake
from tests.matchfiles import type_orders

__all__ = ["fake", "match_toml"]  # the Google fake and a match's config, as the command tests make them


def test_the_page_of_a_google_match_costs_no_api_call(fake: GoogleApiFake, match_toml: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    type_orders(open_match_sheets(load_config(match_toml)))
    built: list[int] = []
    def counted(*args: object) -> str:
        before = fake.calls()
        said = publish_page(*args)  # type: ignore[arg-type]
        built.append(fake.calls() - before)
        return said

    monkeypatch.setattr(match_run, "publish_page", counted)
    code, _, err = run(capsys, "resolve", "-c", match_toml, "--force", "--turn", "1")
    assert code == 0, err
    assert built == [0]
    page = (match_toml.parent / "web" / "w1.html").read_text(encoding="utf-8")
    assert "Resolved: turn 1" in page and f"https://docs.google.com/spreadsheets/d/{KEYS['board']}/edit" in page


def test_the_page_of_a_google_match_after_an_undo(fake: GoogleApiFake, match_toml: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "init", "gvg", "-c", match_toml, "--no-share")[0] == 0
    type_orders(open_match_sheets(load_config(match_toml)))
    assert run(capsys, "resolve", "-c", match_toml, "--force", "--turn", "1")[0] == 0
    web = match_toml.parent / "web"
    assert (web / "w1.html").exists() and "Latest results: Turn 1" in (web / "index.html").read_text("utf-8")
    code, _, err = run(capsys, "undo", "-c", match_toml, "--reason", "a misread order")
    assert code == 0, err
    code, _, err = run(capsys, "sync", "-c", match_toml)
    assert code == 0, err
    index = (web / "index.html").read_text(encoding="utf-8")
    assert not (web / "w1.html").exists() and "Now: turn 1" in index and "Latest results" not in index
    assert "GM undoes turn 1: a misread order" in index  # the undo's Log line, among the GM's adjustments
