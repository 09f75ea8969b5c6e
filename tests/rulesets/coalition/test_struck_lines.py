"""Issue 93, item 4 (rulings, "Forum posts as they are pasted"): a Forum line struck through by its cell's font, as a
paste from the forum keeps it, is no order; words struck in part of a cell (a run) strike only their line, and the
row says the line was read as struck through. Read from the Google fake here (one read request per spreadsheet
still); a file LibreOffice saved is read in ``tests/office/test_libreoffice_struck.py``."""

from __future__ import annotations

from sheets_gm.rulesets.coalition.sheet.read import read_side_rows
from sheets_gm.rulesets.coalition.state import ArmyOrder
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.snapshot import STRUCK_FIELDS
from sheets_gm.sheets.struck import struck
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.poll import poll
from tests.fakes.google_api import GET, READ, GoogleApiFake
from tests.rulesets.coalition.helpers import army, board, state
from tests.sync.test_refused_force import _google_match
from tests.sync.test_typed_row_lifecycle import NOW


def _line(subject: str, text: str) -> TypedRow:
    return TypedRow("post", subject, 5, "1", {"line": text}, "")


def test_a_line_struck_through_in_its_cell_is_no_order_and_a_struck_word_is_not_read() -> None:
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"), army("Bo", "coalition", "6C"))
    lines = [struck("Frank: 3A > 3B", [(0, 14)]),  # the whole cell struck
             struck("Ann: 5C > 5D 6D\nBo: 6C > 6D", [(10, 13), (16, 27)]),  # a word of one line, and a line
             struck("Frank: 3A > 4A", [])]
    read = read_side_rows(board(), s, [], [_line(f"coalition line {n}", t) for n, t in enumerate(lines, 1)],
                          "coalition")
    assert read.problems == {}, read.problems
    assert read.orders == {"Ann": ArmyOrder(line="Ann: 5C > 6D"), "Frank": ArmyOrder(line="Frank: 3A > 4A")}
    assert read.notes["coalition line 1"] == ["passed over: 'Frank: 3A > 3B' is struck through in its cell, so it "
                                              "is no order"]
    assert "the words struck through in its cell are not read: '5D'" in read.notes["coalition line 2"], read.notes
    assert "passed over: 'Bo: 6C > 6D' is struck through in its cell, so it is no order" \
        in read.notes["coalition line 2"], read.notes


def test_a_forum_line_struck_through_on_google_is_no_order_and_costs_no_request_more() -> None:
    with GoogleApiFake() as fake:
        match, _engine = _google_match(fake, "coalition")
        armies = [a for a in match.read().record.state.armies if a.side.value == "coalition"][:3]
        ann, bo, cy = (f"{a.name}: {a.at.split()[-1]} - none" for a in armies)
        forum = match.sheets.of("coalition")
        assert isinstance(forum, GoogleSheetBackend)
        fake.set_values(forum.key, "'Forum coalition'!C5:C7", [[ann], [f"{bo}\n{cy}"], ["Good luck all"]])
        fake.set_format(forum.key, "'Forum coalition'!C5", {"textFormat": {"strikethrough": True}})
        fake.strike_words(forum.key, "'Forum coalition'!C6", [(len(bo) + 1, len(bo) + 1 + len(cy))])
        fake.reset_counters()
        report = poll(match.sheets, match.cls, now=NOW)
        assert not report.rejected, report.rejected
        reads = [c for c in fake.log if c.endpoint in (READ, GET) and "ranges" in c.query]
        assert len(reads) == len(match.sheets.write_order()), [c.url for c in reads]  # one read a spreadsheet
        gets = [c for c in reads if c.endpoint == GET]
        assert {c.query["fields"][0] for c in gets} == {STRUCK_FIELDS}
        assert sorted(c.url.split("/spreadsheets/")[1].split("?")[0] for c in gets) == sorted(
            b.key for b in (match.sheets.of("coalition"), match.sheets.of("phyrexia"))
            if isinstance(b, GoogleSheetBackend))  # only the sides' spreadsheets, which hold a Forum tab
        lines = {r.subject: r.feedback for r in match.read().seats["coalition"].rows if r.table == "post"}
        assert "is struck through in its cell, so it is no order" in lines["coalition line 1"], lines
        said = lines["coalition line 2"]
        assert said.startswith(f"✔ read as {armies[1].name}'s order") or f"{armies[1].name}" in said, said
        assert f"passed over: {cy!r} is struck through in its cell" in said, said
        assert not fake.violations, fake.violations
