"""A table grown for the lines to type into it (issue 89: a side's Forum tab, for the mail the judge's mailbox types):
its tab alone laid out again with more rows, on local workbooks and the Google fake; what was typed stays, the next
read finds every row, a resolution reads them, and past the table's cap it is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.life import grow
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.grow import LayoutOwners, TableFullError, grow_for_lines
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from tests.fakes.google_api import GoogleApiFake
from tests.matchfiles import NOW
from tests.sync.test_pending_spread import CLS, _roster, _sheets, google  # noqa: F401 (the fixture)


@pytest.mark.parametrize("kind", ["local", "google"])
def test_a_forum_tab_grows_keeps_what_is_typed_and_every_row_is_read(kind: str, tmp_path: Path,
                                                                       google: GoogleApiFake) -> None:  # noqa: F811
    sheets = _sheets(kind, tmp_path, google)
    create_match(sheets, create_ruleset("coalition"), _roster(), seed=b"grow")
    read = read_match(sheets, CLS)
    table = read.seats["coalition"].tab.table("post")
    before = table.rows
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(0, "line")), [["Coalition army 00: Dominaria; "
                                                                                 "1A > 1B"]])])
    read = read_match(sheets, CLS)
    grown = grow_for_lines(sheets, read, "coalition", "post", before + 3, LayoutOwners(), spare=7)
    placed = grown.orders("coalition").table("post")
    assert placed.rows == before + 10
    last = "Coalition army 01: Dominaria; 3A > 3B"
    sheets.of("coalition").write([RangeWrite(placed.at(placed.cell(placed.rows - 1, "line")), [[last]])])
    again = read_match(sheets, CLS)
    posted = {r.text("line"): r.subject for r in again.seats["coalition"].rows if r.table == "post" and r.typed}
    assert again.seats["coalition"].tab.table("post").rows == before + 10
    assert posted == {"Coalition army 00: Dominaria; 1A > 1B": "coalition line 1",
                      last: f"coalition line {before + 10}"}
    report = poll(sheets, CLS, now=NOW, force=True)
    assert report.resolved and not report.rejected, report.rejected
    moved = {a.name: a.at for a in read_match(sheets, CLS).record.state.armies}
    assert moved["Coalition army 00"] == "Dominaria 1B" and moved["Coalition army 01"] == "Dominaria 3B"
    if kind == "google":
        assert not google.violations


def test_a_table_is_not_grown_past_its_cap(tmp_path: Path, google: GoogleApiFake,  # noqa: F811
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    sheets = _sheets("memory", tmp_path, google)
    create_match(sheets, create_ruleset("coalition"), _roster(), seed=b"grow")
    read = read_match(sheets, CLS)
    assert read.tabs.orders("coalition").table("post").rows == 60
    monkeypatch.setattr(grow, "LINES_TABLE_MAX_ROWS", 70)
    with pytest.raises(TableFullError, match="would need 71 rows, and a table grows to 70 at most"):
        grow_for_lines(sheets, read, "coalition", "post", 71, LayoutOwners())
    capped = grow_for_lines(sheets, read, "coalition", "post", 65, LayoutOwners(), spare=20)
    assert capped.orders("coalition").table("post").rows == 70  # the spare as far as the cap allows
