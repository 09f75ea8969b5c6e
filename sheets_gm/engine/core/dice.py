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

Dice of other sizes (d4, d20, d100…) use the same stream: the first byte ``b`` below
``256 - 256 % sides`` gives ``b % sides + 1`` (for more than 256 sides, two-byte big-endian
chunks below ``65536 - 65536 % sides``); a d6 is exactly the formula above.

>>> dice = TurnDice(b"seed", 3, die_sides=None)
>>> dice.roll("combat/Ann", 6) == dice.d6("combat/Ann")
True
>>> 1 <= dice.roll("heal/Ann.healer/1", 20) <= 20
True

A draw is a keyed random order of named candidates (a pairing, a route, a raid): each
candidate's place is decided by HMAC-SHA256(seed, "<turn>/<key>/<candidate>"), so the order
does not depend on how the caller lists them. A draw pinned as a list puts those candidates
first, in that order, and the rest after in the caller's (canonical) order.

>>> TurnDice(b"s", 1).draw("pair/B2", ["Ann", "Bo", "Cy"]) == TurnDice(b"s", 1).draw("pair/B2", ["Cy", "Bo", "Ann"])
True
>>> TurnDice(b"s", 1, {"pair/B2": ["Cy"]}).draw("pair/B2", ["Ann", "Bo", "Cy"])
['Cy', 'Ann', 'Bo']
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
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
    """A pinned value that is not a face of the die, or a pinned draw that is not one."""


def _face(byte_stream: bytes, sides: int) -> int | None:
    """The first unbiased face of a ``sides``-sided die in ``byte_stream`` (None if every chunk is too high)."""
    if sides <= 256:
        limit = 256 - 256 % sides
        for b in byte_stream:
            if b < limit:
                return b % sides + 1
        return None
    limit = 65536 - 65536 % sides
    for i in range(0, len(byte_stream) - 1, 2):
        chunk = byte_stream[i] << 8 | byte_stream[i + 1]
        if chunk < limit:
            return chunk % sides + 1
    return None


class TurnDice:
    """The dice of one turn: keyed rolls, some of them pinned, with a record of what was rolled."""

    __slots__ = ("_mac", "_values", "drawn", "pins", "rolled", "seed", "turn")

    def __init__(self, seed: bytes, turn: int, pins: Mapping[str, int | Sequence[str]] | None = None, *,
                 die_sides: int | None = SIDES) -> None:
        """``pins`` fix rolls (an int) and draws (a list of candidates). With ``die_sides`` every
        int pin is checked now against a die of that size (GvG's d6); None checks each when rolled."""
        self.seed = seed
        self.turn = turn
        self.pins: dict[str, int | Sequence[str]] = dict(pins or {})
        for key, value in self.pins.items():
            if isinstance(value, list | tuple):
                continue  # a pinned draw: checked against its candidates when drawn
            if not isinstance(value, int) or isinstance(value, bool) or (
                    die_sides is not None and not 1 <= value <= die_sides):
                shown = f"1 to {die_sides}" if die_sides is not None else "a whole number"
                raise PinnedDieError(f"pinned die {key!r} is {value!r}; a die shows {shown}")
        self.rolled: dict[str, int] = {}
        self.drawn: dict[str, list[str]] = {}
        # every d6 value computed so far, rolled or peeked (pinned ones first)
        self._values: dict[str, int] = {k: v for k, v in self.pins.items() if isinstance(v, int)}
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
            if not 1 <= value <= SIDES:
                raise PinnedDieError(f"pinned die {key!r} is {value}; a d6 shows 1 to {SIDES}")
        return value

    def roll(self, key: str, sides: int) -> int:
        """A ``sides``-sided die for ``key`` (2 to 10,000 sides; the pinned value if pinned), remembered
        in ``rolled``. A d6 is exactly ``d6``."""
        if sides == SIDES:
            return self.d6(key)
        if not 2 <= sides <= 10_000:
            raise ValueError(f"a die has 2 to 10,000 sides, not {sides}")
        value = self.rolled.get(key)
        if value is not None:
            return value
        pinned = self.pins.get(key)
        if pinned is not None:
            if not isinstance(pinned, int) or not 1 <= pinned <= sides:
                raise PinnedDieError(f"pinned die {key!r} is {pinned!r}; a d{sides} shows 1 to {sides}")
            value = pinned
        else:
            value = _face(self._mac.digest(key), sides)
            counter = 0
            while value is None:  # every chunk too high (vanishingly rare): extend the stream
                counter += 1
                value = _face(self._mac.digest(f"{key}#{counter}"), sides)
        self.rolled[key] = value
        return value

    def draw(self, key: str, candidates: Sequence[str]) -> list[str]:
        """A keyed random order of the distinct ``candidates`` (given in their canonical order), or the
        pinned order; remembered in ``drawn``."""
        names = list(dict.fromkeys(candidates))
        pinned = self.pins.get(key)
        if pinned is None:
            order = sorted(names, key=lambda name: self._mac.digest(f"{key}/{name}"))
        elif isinstance(pinned, int):
            raise PinnedDieError(f"{key!r} is a draw among {', '.join(names)}; pin it as a list, not {pinned}")
        else:
            first = [str(p) for p in pinned]
            unknown = [p for p in first if p not in names]
            if unknown or len(set(first)) != len(first):
                raise PinnedDieError(f"pinned draw {key!r}: {', '.join(unknown) or 'a repeated name'} is not one of "
                                     f"the candidates {', '.join(names)}")
            order = first + [n for n in names if n not in first]
        self.drawn[key] = order
        return order

    def pick(self, key: str, candidates: Sequence[str]) -> str:
        """The first of ``draw(key, candidates)``: one candidate picked at random (or as pinned)."""
        order = self.draw(key, candidates)
        if not order:
            raise ValueError(f"nothing to pick from for {key!r}")
        return order[0]
