"""A side's Forum tab read at war size with every line mailed (issue 89, point 4): the answers that name a pasted
post's line name the mail instead, and the read makes its patterns once, not once per mailed row and answer (some
600 mailed rows made the read quadratic, each pattern compiled again as Python's cache of them overflowed: 460 s
of a 576-mail poll)."""

from __future__ import annotations

import difflib
import re
from typing import Any

import pytest

from sheets_gm.rulesets.coalition.sheet import mailed, post_line
from sheets_gm.rulesets.coalition.sheet.read import ReadRows
from sheets_gm.sheets.tables import TypedRow

ROWS = 600


def _post() -> list[TypedRow]:
    rows = []
    for n in range(ROWS):
        text = (f"✉ p{n}@example.org, Sun 22 Nov 12:{n % 60:02d}:00 UTC: moves #abc{n:03d}" if n % 2 == 0 else
                f"Army {n}: Dominaria; 3C > 4C")
        rows.append(TypedRow("post", f"coalition line {n + 1}", n + 3, "1/1", {"line": text}, ""))
    return rows


def _read() -> ReadRows:
    read = ReadRows()
    for n in range(1, ROWS, 2):
        read.notes[f"Army {n}"] = [f"ordered by the pasted post's line in coalition line {n + 1}"]
        read.problems[f"coalition line {n + 1}"] = [f"the pasted post's line for Army {n} (coalition line {n + 1}) "
                                                    "is not read: this row's order wins over the post"]
    return read


class _Counting:
    """``re`` as ``mailed`` uses it, counting the patterns it is asked to make or apply by their text."""

    def __init__(self) -> None:
        self.made = 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(re, name)
        if name in {"compile", "sub", "match", "search", "fullmatch", "findall", "finditer", "split", "subn"}:
            def counted(*args: Any, **kwargs: Any) -> Any:
                self.made += 1
                return found(*args, **kwargs)
            return counted
        return found


def test_every_answer_of_a_war_sized_mailed_forum_tab_names_its_mail(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _Counting()
    monkeypatch.setattr(mailed, "re", counting)
    read = mailed.as_mailed(_read(), _post())
    assert counting.made <= 4, f"{counting.made} patterns for one read of {ROWS} rows"
    assert read.notes["Army 1"] == ["ordered by p0@example.org's mail of Sun 22 Nov 12:00 in coalition line 2"]
    assert read.notes["Army 599"] == ["ordered by p598@example.org's mail of Sun 22 Nov 12:58 in coalition line 600"]
    assert read.problems["coalition line 22"] == [
        "the line for Army 21 in p20@example.org's mail of Sun 22 Nov 12:20 (coalition line 22) is not read: this "
        "row's order wins over the post"]


def test_a_greeting_met_in_hundreds_of_mails_is_compared_with_the_armies_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line of a mail or post that names no army is compared with every army's name for a "did you mean"; at war
    size (576 armies, some 2,000 greetings and sign-offs a turn) that was 42 ms a mail: the same line is compared
    once, whatever the number of mails it comes in."""
    compared: list[str] = []
    near = difflib.get_close_matches

    def counting(word: str, *args: Any, **kwargs: Any) -> Any:
        compared.append(word)
        return near(word, *args, **kwargs)

    monkeypatch.setattr(post_line, "get_close_matches", counting)
    kept = getattr(post_line, "_nearest", None)
    if kept is not None:
        kept.cache_clear()  # nothing kept from another test
    armies = {f"coal {n:03d}": f"Coal {n:03d}" for n in range(576)}
    kinds = {post_line.classify(armies, {"dominaria"}, line).kind for _ in range(300)
             for line in ("Hi judge,", "Thanks!", "Cheers", "Col 007: Dominaria; 3C > 4C")}
    assert kinds == {post_line.Kind.CHATTER, post_line.Kind.ORDER}
    assert sorted(compared) == ["cheers", "col007", "hijudge", "thanks"]
    assert post_line.nearest_names(list(armies.values()), "Col 007")[0] == "Coal 007"
