"""Keyed dice: every roll is a function of the match seed, the turn and a key.

A roll never depends on the order in which the engine asks for it, so a match replays
exactly from its seed, and any roll can be pinned (by a scenario test, or by a GM who
rolled a physical die). Players check the GM with the published seed after the match:

    d6 = first byte b < 252 of HMAC-SHA256(seed, "<turn>/<key>"), as b % 6 + 1

>>> dice = TurnDice(b"seed", 3)
>>> dice.d6("combat/Ann") == TurnDice(b"seed", 3).d6("combat/Ann")
True
>>> TurnDice(b"seed", 3, pins={"combat/Ann": 6}).d6("combat/Ann")
6
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from functools import lru_cache

SIDES = 6
_LIMIT = 256 - 256 % SIDES  # 252: bytes at or above it would bias the result


def seed_hash(seed: bytes) -> str:
    """The SHA-256 of the seed, published at the start of a match."""
    return hashlib.sha256(seed).hexdigest()


def keyed_d6(seed: bytes, turn: int, key: str) -> int:
    """The d6 for ``key`` in ``turn``: unbiased, from HMAC-SHA256 of the seed."""
    message = f"{turn}/{key}".encode()
    counter = 0
    while True:
        digest = hmac.digest(seed, message, "sha256")
        for b in digest:
            if b < _LIMIT:
                return b % SIDES + 1
        # All 32 bytes were >= 252 (probability about 1e-60): extend the stream.
        counter += 1
        message = f"{turn}/{key}#{counter}".encode()


_BLOCK = 64  # SHA-256's block size in bytes


@lru_cache(maxsize=64)
def _hmac_pads(seed: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """SHA-256 already fed with the seed's inner and outer HMAC pads (RFC 2104), for ``_TurnMac``.

    ``hmac.HMAC.copy`` is Python code; copying these two C hash states halves the cost of a
    roll, and a turn rolls about ten dice. Keys longer than a block are hashed first, as ``hmac`` does:

    >>> import hmac
    >>> all(_TurnMac(s, 3).digest("k") == hmac.digest(s, b"3/k", "sha256") for s in (b"", b"seed", bytes(100)))
    True
    """
    key = (hashlib.sha256(seed).digest() if len(seed) > _BLOCK else seed).ljust(_BLOCK, b"\0")
    return hashlib.sha256(bytes(b ^ 0x36 for b in key)), hashlib.sha256(bytes(b ^ 0x5C for b in key))


class _TurnMac:
    """HMAC-SHA256(seed, "<turn>/<key>") for the keys of one turn, the "<turn>/" prefix fed once."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, seed: bytes, turn: int) -> None:
        inner, self._outer = _hmac_pads(seed)
        self._inner = inner.copy()
        self._inner.update(f"{turn}/".encode())

    def digest(self, key: str) -> bytes:
        """The HMAC of ``"<turn>/<key>"``: the same bytes as ``hmac.digest``."""
        inner = self._inner.copy()
        inner.update(key.encode())
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


class PinnedDieError(ValueError):
    """A pinned value that is not a face of the die."""


class TurnDice:
    """The dice of one turn: keyed rolls, some of them pinned, with a record of what was rolled."""

    __slots__ = ("_mac", "_values", "pins", "rolled", "seed", "turn")

    def __init__(self, seed: bytes, turn: int, pins: Mapping[str, int] | None = None) -> None:
        self.seed = seed
        self.turn = turn
        self.pins: dict[str, int] = dict(pins or {})
        for key, value in self.pins.items():
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= SIDES:
                raise PinnedDieError(f"pinned die {key!r} is {value!r}; a die shows 1 to {SIDES}")
        self.rolled: dict[str, int] = {}
        self._values: dict[str, int] = dict(self.pins)  # every value computed so far, rolled or peeked
        self._mac = _TurnMac(seed, turn)

    def peek(self, key: str) -> int:
        """The roll for ``key`` without recording it (to publish a roll ahead of its turn)."""
        value = self._values.get(key)
        if value is None:
            for b in self._mac.digest(key):  # the same first byte below 252 as keyed_d6
                if b < _LIMIT:
                    value = b % SIDES + 1
                    break
            else:
                value = keyed_d6(self.seed, self.turn, key)
            self._values[key] = value
        return value

    def d6(self, key: str) -> int:
        """The roll for ``key`` this turn (the pinned value if pinned); remembered in ``rolled``."""
        value = self.rolled.get(key)
        if value is None:
            value = self.rolled[key] = self.peek(key)
        return value
