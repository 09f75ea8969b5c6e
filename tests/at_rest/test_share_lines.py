"""What ``init`` prints of whom a spreadsheet is shared with stays a line at war size (issue 89, item 7): a side of
288 players is counted with a few of its addresses, never listed whole (the roster keeps them all)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from sheets_gm.sync.life.share import Grant, share_match


def test_a_war_sides_addresses_are_counted_not_listed() -> None:
    side = tuple(f"p{n:03d}@war.example" for n in range(288))
    board = cast(Any, SimpleNamespace(name="board.xlsx"))  # a local file: no sharing of its own
    (line,) = share_match([Grant(board, "reader", side)])
    assert "288 addresses" in line and "p000@war.example" in line and "p287@war.example" not in line, line
    assert len(line) < 300, line
    (few,) = share_match([Grant(board, "reader", side[:2])])
    assert few.endswith("reader for p000@war.example, p001@war.example"), few
