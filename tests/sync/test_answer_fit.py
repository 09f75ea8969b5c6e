"""An answer too long for its feedback cell (a war's whole post pasted in one cell): the refusals first, and what did
not fit said, with where it is, never cut mid-sentence (issue 53, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.engine.ruleset import Verdict, Window
from sheets_gm.rulesets.registry import get_ruleset, sheet_spec
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.read import read_match
from sheets_gm.sync.rows import fate_words
from sheets_gm.sync.rows.fate_words import READ_AS_REST, read_as_words
from sheets_gm.sync.rows.fates import row_feedback
from tests.rulesets.coalition.test_forum_tab import NOW, _seed_match

WINDOW = Window("1", "turn 1 · orders", "orders", ("coalition", "phyrexia"), 1)


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_a_300_line_posts_answer_fits_its_cell_with_the_refusal_first_and_says_where_the_rest_is() -> None:
    """300 armies' lines read from one cell: their answers pass an .xlsx cell's 32,767 characters. The one refusal,
    last in the post, is the first thing the cell says; the answers left out are counted, and each is in its army's
    own row."""
    post = next(t for t in sheet_spec("coalition").inputs if t.name == "post")  # the Forum table as laid out
    verdicts = [Verdict("coalition", "coalition line 1", "move", True,
                        read_as_words(f"Army {n:03d}", f"Army {n:03d} moves Dominaria 3A > 3B > 3C, then holds "
                                                       "there (route drawn among the shortest)"))
                for n in range(300)]
    verdicts.append(Verdict("coalition", "coalition line 1", "move", False,
                            read_as_words("Army 300", "Army 300: '99Z' is off Dominaria")))
    row = TypedRow("post", "coalition line 1", 5, "1", {"line": "…"}, "")
    whole = " · ".join(("✔ " if v.accepted else "✘ ") + v.message for v in verdicts)
    assert _units(whole) > 32_767  # the case of the issue
    said = row_feedback(row, "coalition", WINDOW, post, {}, verdicts, False)
    assert _units(said) <= 32_767
    assert said.startswith("✘ read as Army 300's order: Army 300: '99Z' is off Dominaria · ✔ read as Army 000")
    assert said.endswith(f"more answers not shown here (a cell holds 32,767 characters): {READ_AS_REST}.")
    shown = said.count("✔ read as")
    assert f"… {300 - shown} more answers" in said and "(route drawn among the shortest) · …" in said


def test_a_post_whose_answer_passes_the_cell_is_written_fitted_in_a_local_workbook(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The poll writes the fitted answer, not one the workbook cuts: with the cell's room made small, the refused
    line comes first in the answer of a post pasted in one cell, and the answer ends saying what it left out."""
    monkeypatch.setattr(fate_words, "ANSWER_UNITS", 700)
    config, sheets = _seed_match(tmp_path)
    cls = get_ruleset("coalition")
    seat = read_match(sheets, cls).seats["coalition"]
    table = seat.tab.table("post")
    post = "\n".join(["Frank, the Intergalactic Space Toad: 3A > 3B - none",
                      *(f"Nobody {n}: Dominaria; 1A > 1B" for n in range(5)), "The Frogettes: Dominaria; 2C > 99Z"])
    sheets.of("coalition").write([RangeWrite(table.at(table.cell(0, "line")), [[post]])])
    sync_once(config, sheets, now=NOW)
    said = next(r.feedback for r in read_match(sheets, cls).seats["coalition"].rows
                if r.table == "post" and r.subject == "coalition line 1")
    assert said.startswith("✘ the pasted post's line 'Nobody 0: Dominaria; 1A > 1B' names no army"), said
    assert said.endswith(f"{READ_AS_REST}.") and "more answers not shown here" in said and len(said) <= 700, said
    assert "✔" not in said  # the refusals first: what was left out is the answers that carry out
