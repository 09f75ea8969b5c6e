"""The bounded stores of a workbook's parts kept by what they are made of (``sheets/xlsx.py``'s writer,
``sheets/xlsx_read_cache.py``'s reader): a part of a match's workbooks is the same save after save, so it is made
once and kept; a host loads and saves many matches' workbooks, so each store holds at most so many.

:func:`kept` bounds a plain dictionary by its count, the oldest dropped first; :class:`KeptParts` bounds a store by
its count and its bytes too, the least recently used dropped first, its bytes kept as a running total (each part
weighed once, when it is kept), not summed again at each part kept."""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["KeptParts", "kept"]

_Key = TypeVar("_Key", bound=Hashable)
_Part = TypeVar("_Part")
_KEEPING = threading.Lock()  # a host's threads load and save workbooks at once


def kept(parts: dict[_Key, _Part], key: _Key, part: _Part, most: int) -> _Part:
    """``part`` kept in ``parts`` by ``key``, the oldest dropped first while ``parts`` holds ``most``."""
    with _KEEPING:
        while parts and len(parts) >= most:
            del parts[next(iter(parts))]
        parts[key] = part
    return part


class KeptParts(Generic[_Key, _Part]):
    """A store of parts by key holding at most so many parts and so many bytes (given at each :meth:`keep`: a
    process may lower them), the least recently used dropped first. Its bytes (:attr:`weight`) are the sum of
    each part's weight as it was kept, kept up as parts come and go. Safe for a host's threads."""

    def __init__(self) -> None:
        self._parts: dict[_Key, tuple[_Part, int]] = {}  # each part and its weight, the least recently used first
        self._lock = threading.Lock()
        self.weight = 0  # the weights of the parts held, together

    def get(self, key: _Key) -> _Part | None:
        """The part kept by ``key`` (now the most recently used), or None."""
        with self._lock:
            held = self._parts.pop(key, None)
            if held is None:
                return None
            self._parts[key] = held
        return held[0]

    def keep(self, key: _Key, part: _Part, *, most: int, weight: int = 0, most_weight: int = 0) -> _Part:
        """``part`` kept by ``key``, weighing ``weight`` bytes; the least recently used parts dropped first while
        the store holds ``most`` parts or the parts with ``part`` would weigh more than ``most_weight`` (a part
        heavier than that alone is not kept). ``part`` either way."""
        if weight > most_weight:
            return part
        with self._lock:
            held = self._parts.pop(key, None)
            if held is not None:
                self.weight -= held[1]
            while self._parts and (len(self._parts) >= most or self.weight + weight > most_weight):
                self.weight -= self._parts.pop(next(iter(self._parts)))[1]
            self._parts[key] = (part, weight)
            self.weight += weight
        return part

    def weights(self) -> dict[_Key, int]:
        """Each part's weight as it was kept, by key, the least recently used first."""
        with self._lock:
            return {key: weight for key, (_, weight) in self._parts.items()}

    def items(self) -> list[tuple[_Key, _Part]]:
        """Each part kept and its key, the least recently used first."""
        with self._lock:
            return [(key, part) for key, (part, _) in self._parts.items()]

    def __len__(self) -> int:
        return len(self._parts)

    def __iter__(self) -> Iterator[_Key]:
        return iter(self.weights())

    def __contains__(self, key: object) -> bool:
        return key in self._parts
