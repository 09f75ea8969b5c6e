"""Text struck through in a cell, by the cell's font or by runs of it (what a forum post pasted keeps, what
LibreOffice saves): the text as it is, and which of its characters are struck.

A backend asked to read a range with its strikethrough (``SheetBackend.read``'s ``struck``) gives such a cell as a
:class:`StruckText`: a ``str`` equal to the cell's text, so every comparison, echo and clear of it is the text's,
that also carries the struck spans. Where a read is kept as JSON (a poll's kept reads, a row's copy in a record)
the spans are kept beside the text (:func:`cell_to_json`, :func:`cell_from_json`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sheets_gm.sheets.layout import CellValue, Grid

Span = tuple[int, int]  # struck characters [start, end) of a text, Python's indexes


class StruckText(str):
    """A cell's text with the spans of it that are struck through (``spans``: sorted, apart, none empty)."""

    spans: tuple[Span, ...]

    def __new__(cls, text: str, spans: tuple[Span, ...]) -> StruckText:
        made = super().__new__(cls, text)
        made.spans = spans
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (StruckText, (str(self), self.spans))


def struck(text: str, spans: Iterable[Span]) -> str:
    """``text`` with ``spans`` struck through (merged, cut to the text): a :class:`StruckText`, or ``text`` as a
    plain ``str`` when nothing of it is struck.

    >>> s = struck("Frank: 3A > 3B", [(0, 5), (5, 6)]); s, s.spans
    ('Frank: 3A > 3B', ((0, 6),))
    >>> type(struck("Frank", [(3, 3)])).__name__
    'str'
    """
    merged: list[Span] = []
    for start, end in sorted((max(0, a), min(len(text), b)) for a, b in spans):
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return StruckText(text, tuple(merged)) if merged else str(text)


def spans_of(value: CellValue) -> tuple[Span, ...]:
    """The struck spans of a cell's value (none for anything but a :class:`StruckText`)."""
    return value.spans if isinstance(value, StruckText) else ()


def stripped(value: str) -> str:
    """``value.strip()``, its struck spans kept where they fall.

    >>> stripped(struck("  Frank ", [(2, 7)])).spans
    ((0, 5),)
    """
    text = value.strip()
    spans = spans_of(value)
    if not spans:
        return text
    start = len(value) - len(value.lstrip())
    return struck(text, [(a - start, b - start) for a, b in spans])


def from_runs(text: str, cell_struck: bool, runs: Sequence[tuple[int, bool | None]]) -> str:
    """``text`` struck as its cell's font (``cell_struck``) and its runs say: each run (where it starts, in UTF-16
    code units as Google counts them; whether it is struck, None where it keeps the cell's) lasts to the next.

    >>> from_runs("Frank: 3A > 3B", False, [(0, None), (12, True)]).spans
    ((12, 14),)
    >>> from_runs("🐸 Frank", False, [(3, True)]).spans  # the frog is two UTF-16 units, one character
    ((2, 7),)
    """
    if not runs:
        return struck(text, [(0, len(text))] if cell_struck else [])
    at_unit = _unit_to_index(text)
    bounds = [(at_unit(start), cell_struck if strike is None else strike) for start, strike in runs]
    if bounds[0][0] > 0:
        bounds.insert(0, (0, cell_struck))
    ends = [b[0] for b in bounds[1:]] + [len(text)]
    return struck(text, [(start, end) for (start, on), end in zip(bounds, ends, strict=True) if on])


def _unit_to_index(text: str) -> Any:
    """The function from a UTF-16 code unit's index in ``text`` to its character's (past the end: the length)."""
    if text.isascii():
        return lambda unit: min(unit, len(text))
    starts: list[int] = []
    for i, ch in enumerate(text):
        starts += [i] * (2 if ord(ch) > 0xFFFF else 1)
    return lambda unit: starts[unit] if unit < len(starts) else len(text)


def lines_with_spans(text: str) -> list[tuple[str, tuple[Span, ...]]]:
    """Each line of ``text`` (as ``str.splitlines`` cuts it) with the struck spans that fall in it, from its start.

    >>> lines_with_spans(struck("Frank: 3A > 3B\\nAnn: 5C > 5D", [(0, 14)]))
    [('Frank: 3A > 3B', ((0, 14),)), ('Ann: 5C > 5D', ())]
    """
    spans = spans_of(text)
    out: list[tuple[str, tuple[Span, ...]]] = []
    at = 0
    for whole in str(text).splitlines(keepends=True):
        line = whole.splitlines()[0] if whole.splitlines() else ""
        out.append((line, tuple((max(a, at) - at, min(b, at + len(line)) - at) for a, b in spans
                                if a < at + len(line) and b > at)))
        at += len(whole)
    return out


def joined_lines(lines: Sequence[tuple[str, tuple[Span, ...]]]) -> str:
    """The text of ``lines`` (as :func:`lines_with_spans` gives them) one under the other, each line's struck spans
    kept where they fall.

    >>> joined = joined_lines(lines_with_spans(struck("Frank: 3A > 3B\\nAnn: 5C > 5D", [(17, 19)]))[::-1])
    >>> joined, joined.spans
    ('Ann: 5C > 5D\\nFrank: 3A > 3B', ((2, 4),))
    """
    spans: list[Span] = []
    at = 0
    for line, line_spans in lines:
        spans += [(at + a, at + b) for a, b in line_spans]
        at += len(line) + 1
    return struck("\n".join(line for line, _spans in lines), spans)


def cell_to_json(value: CellValue) -> Any:
    """A cell's value as JSON keeps it: a struck text as ``{"text": …, "struck": [[start, end], …]}``."""
    if isinstance(value, StruckText):
        return {"text": str(value), "struck": [list(span) for span in value.spans]}
    return value


def cell_from_json(value: Any) -> CellValue:
    """A cell's value from :func:`cell_to_json` (a struck text back as a :class:`StruckText`)."""
    if isinstance(value, dict):
        return struck(str(value.get("text", "")), [(int(a), int(b)) for a, b in value.get("struck", [])])
    return value  # type: ignore[no-any-return]  # (a cell's value as JSON gave it)


def grid_to_json(grid: Grid) -> list[list[Any]]:
    """A grid as JSON keeps it (:func:`cell_to_json`); the grid itself when nothing in it is struck."""
    if not any(isinstance(v, StruckText) for row in grid for v in row):
        return grid
    return [[cell_to_json(v) for v in row] for row in grid]


def grid_from_json(grid: list[list[Any]]) -> Grid:
    """A grid from :func:`grid_to_json`."""
    if not any(isinstance(v, dict) for row in grid for v in row):
        return grid
    return [[cell_from_json(v) for v in row] for row in grid]
