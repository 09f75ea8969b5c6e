"""A GvG match in play on the old layout (``legacy/match.xlsx``), moved by ``repair`` onto the generic sync and
played on: it needs GvG's sheet adapter, so it runs once GvG has one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.engine.registry import create_ruleset
from sheets_gm.sheets.local import LocalWorkbookBackend
from sheets_gm.sync.match_record import engine_read_range, parse_match_record

FIXTURES = Path(__file__).resolve().parent / "legacy"


def _gvg_has_no_sheet() -> bool:
    return create_ruleset("gvg").sheet() is None


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.skipif(_gvg_has_no_sheet(), reason="GvG has no sheet adapter on the generic sync yet")
def test_an_old_local_gvg_match_is_moved_by_repair_and_plays_on(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("match.xlsx", "match.toml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    config = tmp_path / "match.toml"
    before = (tmp_path / "match.xlsx").read_bytes()
    for command in (["sync"], ["status"]):
        code, out, err = run(capsys, *command, "-c", config)
        assert code == 1 and f"this match is on the old GvG layout: run `sheets-gm repair -c {config}`" in err
    assert (tmp_path / "match.xlsx").read_bytes() == before

    code, out, err = run(capsys, "repair", "-c", config)
    assert code == 0, err
    assert "Moved the match from the old GvG layout onto the new one" in out and "4 windows resolved" in out
    assert "Kept a copy of the workbook" in out
    book = LocalWorkbookBackend(tmp_path / "match.xlsx")
    assert "Players" not in book.tab_names()

    continued = json.loads((FIXTURES / "continued.json").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "resolve", "-c", config, "--force", "--window", str(continued["turn"]))
    assert code == 0, err
    (grid,) = book.read([engine_read_range("Engine")])
    record = parse_match_record(grid[1:], "Engine")
    # the orders the teams had typed on the old layout were carried and resolved as the legacy engine did
    assert record.ruleset.state_codec.to_json(record.state) == continued["state_after"]
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0 and "OK: 5 windows" in out
    for _ in range(2):  # the turn played after the move, then one played before it
        code, out, err = run(capsys, "undo", "-c", config, "--reason", "checking undo")
        assert code == 0, err
    code, out, _ = run(capsys, "verify", "-c", config)
    assert code == 0 and "OK: 3 windows" in out
