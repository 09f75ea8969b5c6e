"""The one bounded store of a workbook's parts kept by what they are made of (``sheets/xlsx.py``'s writer,
``sheets/xlsx_read_cache.py``'s reader): a part of a match's workbooks is the same save after save, so it is made
once and kept; a host loads and saves many matches' workbooks, so each store holds at most so many, the oldest
dropped first."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

__all__ = ["kept"]

_Key = TypeVar("_Key", bound=Hashable)
_Part = TypeVar("_Part")
_KEEPING = threading.Lock()  # a host's threads load and save workbooks at once


def kept(parts: dict[_Key, _Part], key: _Key, part: _Part, most: int, *,
         weigh: Callable[[_Key, _Part], int] | None = None, most_weight: int = 0) -> _Part:
    """``part`` kept in ``parts`` by ``key``, the oldest dropped first while ``parts`` holds ``most`` or, given
    ``weigh`` (a kept part's bytes), while the parts with ``part`` would weigh more than ``most_weight`` (a part
    heavier than that alone is not kept)."""
    weight = weigh(key, part) if weigh is not None else 0
    if weigh is not None and weight > most_weight:
        return part
    with _KEEPING:
        held = sum(weigh(k, p) for k, p in parts.items()) if weigh is not None else 0  # (once, not once a part dropped)
        while parts and (len(parts) >= most or (weigh is not None and held + weight > most_weight)):
            oldest = next(iter(parts))
            dropped = parts.pop(oldest)
            if weigh is not None:
                held -= weigh(oldest, dropped)
        parts[key] = part
    return part
