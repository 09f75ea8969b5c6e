"""The names a match gives its local workbook files."""

from __future__ import annotations

import re


def file_stem(name: str) -> str:
    """``name`` as part of a file name (letters, digits, ``-`` and ``_`` kept; anything else becomes ``_``)."""
    return re.sub(r"[^\w-]", "_", name) or "seat"


def orders_file(seat: str) -> str:
    """The name of ``seat``'s own orders workbook, the one name the starter configs, ``init --private``, the
    privacy advice, the demo and the export all give it.

    >>> orders_file("red"), orders_file("Ann Lee")
    ('orders-red.xlsx', 'orders-Ann_Lee.xlsx')
    """
    return f"orders-{file_stem(seat)}.xlsx"
