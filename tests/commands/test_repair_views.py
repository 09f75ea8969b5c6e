"""``repair`` of a deleted View tab puts back the lines the replay cannot recompute: the public ones the sync
wrote of itself (a seat handed to a bot, an undo) and those of a window an undo took back, copied from the Log."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.match.config import load_config
from sheets_gm.match.connect import open_match_sheets
from sheets_gm.rulesets.registry import bots_of, create_ruleset
from tests.commands.test_commands import ROSTER
from tests.commands.test_repair_records import ROSTERS, _played, run


def _view(path: Path, tab: str) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(path)[tab]
    return [tuple(r) for r in ws.iter_rows(values_only=True) if any(v not in (None, "", False) for v in r)]


@pytest.mark.parametrize(("game", "bot"), [("wesnoth", "skirmisher"), ("gvg", "")])
def test_a_deleted_view_gets_back_the_public_lines_the_replay_cannot_recompute_from_the_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str,
        bot: str) -> None:
    monkeypatch.setitem(ROSTERS, "gvg", ROSTER)
    config = _played(tmp_path, capsys, game, 3)
    sheets = open_match_sheets(load_config(config))
    seat = sheets.seats[0]
    kind = bot or next(iter(bots_of(create_ruleset(game))))
    code, out, err = run(capsys, "adjust", "-c", config, "--bot", f"{seat}={kind}", "--reason", "away for a day")
    assert code == 0, out + err
    assert run(capsys, "undo", "-c", config, "--reason", "a misread order")[0] == 0
    path = next(p for p in tmp_path.glob("*.xlsx") if f"View {seat}" in openpyxl.load_workbook(p).sheetnames)
    view = _view(path, f"View {seat}")
    book = openpyxl.load_workbook(path)
    del book[f"View {seat}"]
    book.save(path)
    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    log = {r[:3] for r in _view(tmp_path / "board.xlsx", "Log")}
    private = [r for r in view if r[1] in ("undo", "set aside") and r[:3] not in log]  # this seat's alone
    assert _view(path, f"View {seat}") == [r for r in view if r not in private], out
    assert "copied from tab 'Log'" in out, out
    if private:  # in no other tab: counted, and said to be so
        assert f"({len(private)} line{'s' * (len(private) != 1)} the sync wrote to this seat alone" in out, out
    else:
        assert "cannot be recomputed" not in out, out
