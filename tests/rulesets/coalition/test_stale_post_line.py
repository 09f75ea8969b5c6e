"""A Coalition post's line typed in turn 1 and cleared before turn 1 resolved never comes back from an older copy of
the side's workbook saved over the live one (issue 60): it is not carried out in turn 2 and does not hold the side's
Ready. The core binds a line to the window it was read for; the copy's line was read for turn 1, not for turn 2."""

from __future__ import annotations

import os
from pathlib import Path

from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.read import read_match
from tests.rulesets.coalition.test_forum_tab import CLS, NOW, _forum, _paste, _seed_match

#: A good line and a misspelt one (refused, with the nearest names): both typed in turn 1, cleared before it resolved.
LINES = ["The Frogettes: 2C > 2D", "Frogetes: 2C > 2D"]


def _tick_ready(sheets: object) -> None:
    seat = read_match(sheets, CLS).seats["coalition"]  # type: ignore[arg-type]
    table = seat.tab.table("side")
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(0, "ready")), [[True]])])  # type: ignore[attr-defined]


def test_a_line_cleared_before_its_turn_resolved_does_not_come_back_from_an_older_copy(tmp_path: Path) -> None:
    config, sheets = _seed_match(tmp_path)
    side = sheets.of("coalition")
    assert isinstance(side, LocalWorkbookBackend)
    _paste(sheets, LINES)
    sync_once(config, sheets, now=NOW)  # read for turn 1, each line answered
    lines = _forum(sheets)
    assert lines["coalition line 1"][1].startswith("✔ read as The Frogettes' order"), lines["coalition line 1"]
    assert lines["coalition line 2"][1].startswith("✘"), lines["coalition line 2"]
    held = side.path.read_bytes()  # her office program holds the file with the two lines
    _paste(sheets, ["", ""])  # she clears them: turn 1 is to go without them
    sync_once(config, sheets, now=NOW)
    assert sync_once(config, sheets, now=NOW, force=True).resolved  # turn 1, nothing posted
    before = read_match(sheets, CLS).record.state
    frogettes = next(a.at for a in before.armies if a.name == "The Frogettes")
    copy = tmp_path / "copy.xlsx"
    copy.write_bytes(held)
    os.replace(copy, side.path)  # the copy of before saved over the sync's write
    report = sync_once(config, sheets, now=NOW)
    assert report.older_copies == ["coalition"] and not report.resolved
    lines = _forum(sheets)
    assert lines["coalition line 1"][0] == "" and lines["coalition line 2"][0] == "", lines  # not in her rows
    _tick_ready(sheets)
    report = sync_once(config, sheets, now=NOW)
    read = read_match(sheets, CLS)
    side_row = next(r for r in read.seats["coalition"].rows if r.table == "side")
    assert "not taken" not in side_row.feedback, side_row.feedback  # no revived line holds her Ready
    assert sync_once(config, sheets, now=NOW, force=True).resolved or read.record.resolved == 2
    after = read_match(sheets, CLS).record.state
    assert after.turn == before.turn + 1
    assert next(a.at for a in after.armies if a.name == "The Frogettes") == frogettes  # not carried out in turn 2
    assert not [m for m in after.movement if m.order], after.movement  # nor printed in its Movement Results
