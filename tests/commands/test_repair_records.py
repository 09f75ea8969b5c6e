"""repair brings back the drawn records (issue 38 item 5): after a renamed Log, a deleted View and an inserted column
(Wesnoth), the Log's history is copied back from the renamed tab, the View's log is recomputed from the replay, a
second Feedback column is not left beside the new one, and no note advises deleting the only copy of anything."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from pathlib import Path
from typing import Any
from unittest import mock

import openpyxl
import pytest

import sheets_gm.init.start as match_start
from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.poll import poll
from tests.made import made_into

pytestmark = pytest.mark.xdist_group("repair-played")  # one worker plays _played's matches once a run, not each

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
ROSTERS = {"winordie": "name,player,lineup\nAnn,Ann,Ironclad Defense\nBo,Bo,Firepower Suppression\n"}


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _played(folder: Path, capsys: pytest.CaptureFixture[str], game: str, windows: int,
            seed: str | None = None) -> Path:
    """A match of ``game`` made by ``init`` in ``folder`` (its roster copied in beside the config; its seed from
    ``seed``, as ``_made`` draws it), then ``windows`` windows played by its default bots: made once a test process
    and copied (``tests.made``). A match of more windows than one made before is played on from a copy of it, by its
    bots as they were left (a straight run's), so that the tests that play the same game 2, then 3 windows
    play three in all."""
    roster = ROSTERS.get(game)
    match = (game, roster, seed)

    def make(into: Path) -> None:
        start = max((n for (*m, n) in _BOTS if tuple(m) == match and n < windows), default=None)
        if start is None:
            start = 0
            _made(into, capsys, game, roster, seed)
            sheets = open_match_sheets(load_config(into / "match.toml"))
            kind = next(iter(bots_of(create_ruleset(game)).values()))
            bots = {s: kind.make(f"repair/{s}") for s in sheets.seats}
        else:
            made_into(into, ("repair/_played", *match, start), lambda _into: None)  # made: copied
            sheets = open_match_sheets(load_config(into / "match.toml"))
            bots = _BOTS.pop((*match, start))  # they play on: that match is played on once only
        for _ in range(windows - start):
            type_bot_orders(sheets, get_ruleset(game), bots)
            poll(sheets, get_ruleset(game), now=NOW, force=True)
        _BOTS[(*match, windows)] = bots

    made_into(folder, ("repair/_played", *match, windows), make)
    return folder / "match.toml"


#: The bots of each match ``_played`` made and has not played on yet, as its last window left them.
_BOTS: dict[tuple[str, str | None, str | None, int], dict[str, Any]] = {}


def _made(folder: Path, capsys: pytest.CaptureFixture[str], game: str, roster_text: str | None,
          seed: str | None = None) -> None:
    """``init`` of a ``game`` match in ``folder`` with its roster (``roster_text`` or the game's template) copied in
    beside its config, so that the config names it by a path the match's copies keep. Its secret seed is the hash
    of ``seed`` (by default, of the game's name), not drawn at random: the same match each run, so that a test that
    fails for one match fails again."""
    template = TEMPLATES / game / "roster.csv"
    roster = folder / "roster.csv"
    if roster_text is not None:
        roster.write_text(roster_text, encoding="utf-8")
    elif template.exists():
        shutil.copyfile(template, roster)
    given: list[str | Path] = ["--roster", roster] if roster.exists() else []
    drawn = hashlib.sha256((f"repair/{game}" if seed is None else seed).encode()).digest()
    with mock.patch.object(match_start, "new_seed", lambda: drawn):
        code, _, err = run(capsys, "init", game, "-c", folder / "match.toml", "--no-share", *given)
    assert code == 0, err


def _values(path: Path, tab: str, first: int) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(path)[tab]
    return [tuple(r[:3]) for r in ws.iter_rows(min_row=first, values_only=True) if any(v not in (None, "") for v in r)]


def _feedback_headers(path: Path) -> list[str]:
    ws = openpyxl.load_workbook(path)["Orders Ann"]
    return [c.coordinate for row in ws.iter_rows() for c in row if c.value == "Feedback"]


def test_repair_copies_the_log_back_recomputes_a_deleted_view_and_clears_a_pushed_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _played(tmp_path, capsys, "wesnoth", 3)  # the match other tests play 3 windows: copied
    log = _values(tmp_path / "board.xlsx", "Log", 2)
    view = _values(tmp_path / "orders-Ann.xlsx", "View Ann", 46)
    assert len(log) > 10 and len(view) > 5
    feedback = _feedback_headers(tmp_path / "orders-Ann.xlsx")
    board = openpyxl.load_workbook(tmp_path / "board.xlsx")
    board["Log"].title = "Log (old)"
    board.save(tmp_path / "board.xlsx")
    ann = openpyxl.load_workbook(tmp_path / "orders-Ann.xlsx")
    del ann["View Ann"]
    ann["Orders Ann"].insert_cols(8)
    ann.save(tmp_path / "orders-Ann.xlsx")
    assert run(capsys, "sync", "-c", config)[0] == 1
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "were copied back from tab 'Log (old)' (a renamed copy), which may go" in out
    assert "tab 'View Ann' had 0 of its" in out and "lines the replay recomputes were written back" in out
    assert "delete it" not in out
    assert _values(tmp_path / "board.xlsx", "Log", 2) == log
    assert _values(tmp_path / "orders-Ann.xlsx", "View Ann", 46) == view
    assert _feedback_headers(tmp_path / "orders-Ann.xlsx") == feedback  # one per table, none pushed beside
    assert run(capsys, "sync", "-c", config)[0] == 0
    _verified_once_deleted(tmp_path, capsys, config, "Log (old)")


def _verified_once_deleted(folder: Path, capsys: pytest.CaptureFixture[str], config: Path, tab: str) -> None:
    """``verify -c`` names ``tab``, which repair left in the board's file (players read it as the match's: issue 60,
    item 4), and passes once the GM deleted it."""
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 1 and f"tab {tab!r} of " in out and "is no tab of the match" in out, out
    board = openpyxl.load_workbook(folder / "board.xlsx")
    del board[tab]
    board.save(folder / "board.xlsx")
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0, out


def test_repair_recomputes_a_log_with_no_copy_and_keeps_a_renamed_tab_it_cannot_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _played(tmp_path, capsys, "winordie", 3, "1")  # test_repair_views.py's quick Win or Die match: copied
    log = _values(tmp_path / "board.xlsx", "Log", 2)
    board = openpyxl.load_workbook(tmp_path / "board.xlsx")
    del board["Log"]
    board.create_sheet("Notes")["A1"] = "the GM's own notes"
    board.save(tmp_path / "board.xlsx")
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "no copy was found: the" in out and "lines the replay recomputes were written back" in out
    assert "tab 'Notes' in " in out and "may hold the only copy of what it shows: keep it" in out
    assert _values(tmp_path / "board.xlsx", "Log", 2) == log
    _verified_once_deleted(tmp_path, capsys, config, "Notes")


def test_a_log_renamed_then_lost_again_gets_the_lines_logged_since_from_the_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Log renamed and repaired (copied back from the renamed tab), played on, then deleted: the renamed copy lacks
    what was logged since, which comes back from the replay, never left as empty lines (found by the soak run)."""
    config = _played(tmp_path, capsys, "wesnoth", 2)
    board = openpyxl.load_workbook(tmp_path / "board.xlsx")
    board["Log"].title = "Log (old)"
    board.save(tmp_path / "board.xlsx")
    assert run(capsys, "repair", "-c", config)[0] == 0
    sheets = open_match_sheets(load_config(config))
    bots = {s: next(iter(bots_of(create_ruleset("wesnoth")).values())).make(f"again/{s}") for s in sheets.seats}
    type_bot_orders(sheets, get_ruleset("wesnoth"), bots)  # one window more: lines the renamed copy lacks
    poll(sheets, get_ruleset("wesnoth"), now=NOW, force=True)
    log = _values(tmp_path / "board.xlsx", "Log", 2)
    assert len(log) > len(_values(tmp_path / "board.xlsx", "Log (old)", 2))
    board = openpyxl.load_workbook(tmp_path / "board.xlsx")
    del board["Log"]
    board.save(tmp_path / "board.xlsx")
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "copied back from tab 'Log (old)' (a renamed copy)" in out and "recomputed from the replay" in out, out
    assert _values(tmp_path / "board.xlsx", "Log", 2) == log
    _verified_once_deleted(tmp_path, capsys, config, "Log (old)")
