"""Issue 93, item 4 (rulings, "Forum posts as they are pasted"): a Coalition Forum line struck through in LibreOffice
(the cell's font, or words of it: Calc saves those as runs of a shared string) is no order, and the row says it was
read as struck through; a word struck in a line takes only that word out. The workbook is typed, struck and saved by
LibreOffice itself, then synced, and resolved by a later sync that reads the file the first one saved (the words
struck stay struck in it).

Skipped where LibreOffice (soffice and python3-uno) is not installed, as ``test_libreoffice_saves`` is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.struck import spans_of
from sheets_gm.sync.read import read_match
from tests.office.office import Office, office_ready
from tests.rulesets.coalition.test_forum_tab import CLS, FRANK, NOW, _seed_match

FORUM = "'Forum coalition'!C5:C6"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not office_ready(), reason="LibreOffice (soffice and python3-uno) is not installed")]


def test_a_forum_line_struck_through_in_libreoffice_is_no_order(tmp_path: Path, office: Office) -> None:
    config, sheets = _seed_match(tmp_path / "match")
    book = sheets.of("coalition")
    assert isinstance(book, LocalWorkbookBackend)
    frogs, jeff = "The Frogettes: 2C > 3C 2D", "Jeff the Owl: 2B - none"
    job = {str(book.path): [
        ["Forum coalition", "C5", {"text": f"{FRANK}: 3A > 2B - engage Jeff the Owl", "strike": "cell"}],
        ["Forum coalition", "C6", {"text": f"{frogs}\n{jeff}",
                                   "strike": [[20, 23], [len(frogs) + 1, len(frogs) + 1 + len(jeff)]]}]]}
    (tmp_path / "job.json").write_text(json.dumps(job), encoding="utf-8")
    typed = office.run("lo_type.py", str(tmp_path / "job.json"), str(tmp_path / "lo-profile"))
    assert typed.returncode == 0, typed.stderr
    report = sync_once(config, sheets, now=NOW)
    assert not report.rejected, report.rejected
    lines = {r.subject: r.feedback for r in read_match(sheets, CLS).seats["coalition"].rows if r.table == "post"}
    assert lines["coalition line 1"] == (f"passed over: '{FRANK}: 3A > 2B - engage Jeff the Owl' is struck through "
                                         "in its cell, so it is no order"), lines["coalition line 1"]
    said = lines["coalition line 2"]
    assert said.startswith("✔ read as The Frogettes' order: "), said
    assert "the words struck through in its cell are not read: '3C'" in said, said
    assert f"passed over: {jeff!r} is struck through in its cell, so it is no order" in said, said
    again = open_match_sheets(config)  # a later sync reads the file the first one saved: the strikes are still there
    (after,) = again.of("coalition").read([FORUM], struck=[FORUM])
    assert [(str(v), spans_of(v)) for line in after for v in line if spans_of(v)] == [
        (f"{FRANK}: 3A > 2B - engage Jeff the Owl", ((0, len(FRANK) + 31),)),
        (f"{frogs}\n{jeff}", ((20, 23), (len(frogs) + 1, len(frogs) + 1 + len(jeff))))]
    assert sync_once(config, again, now=NOW, force=True).resolved
    armies = {a.name: a.at for a in read_match(again, CLS).record.state.armies}
    assert armies[FRANK] == "Dominaria 3A" and armies["The Frogettes"] == "Dominaria 2D", armies
