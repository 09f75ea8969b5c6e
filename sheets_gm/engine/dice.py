"""Keyed dice and keyed draws: every roll is a function of the match seed, the turn and a key.

A roll never depends on the order in which the engine asks for it, so a match replays
exactly from its seed, and any roll can be pinned (by a scenario test, or by a GM who
rolled a physical die). Players check the GM with the published seed after the match.

Which game uses what: the guild game, Wesnoth and Win or Die roll d6 only; the Coalition game rolls
d6 (weather) and d100 (kills, escapes, squads) and draws routes, raiders, bump squares and
pairings; Champions rolls d4 to d20 and draws spawn tiles, loot and pairings.

**The formula.** Let ``stream(key)`` be the 32 bytes of HMAC-SHA256(seed, "<turn>/<key>"),
followed if ever needed by those of "<turn>/<key>#1", "<turn>/<key>#2", … After the GM's
``undo``, a window is dealt afresh: its dice carry the deal number ``n`` (1, 2, … counted over
the match's undos) and every message starts "<turn>.<n>/" instead of "<turn>/"; deal 0, a match
never undone, is the plain formula.

- a d6 is the first byte ``b < 252`` of the stream, as ``b % 6 + 1``;
- a die of ``sides`` faces (2 to 10,000), up to 256 sides: the first byte
  ``b < 256 - 256 % sides``, as ``b % sides + 1`` (a d6 is the case sides = 6); above 256
  sides: the stream read as two-byte big-endian numbers ``n``, the first ``n < 65536 - 65536
  % sides``, as ``n % sides + 1`` (each block of 32 bytes gives 16 numbers);
- a draw among named candidates orders them by HMAC-SHA256(seed, "<turn>/<key>/<candidate>"),
  smallest first (the 32 bytes compared as one big-endian number), so the order does not
  depend on how the caller lists them; a pick is the first of that order.

>>> dice = TurnDice(b"seed", 3)
>>> dice.d6("combat/Ann") == TurnDice(b"seed", 3).d6("combat/Ann")
True
>>> TurnDice(b"seed", 3, pins={"combat/Ann": 6}).d6("combat/Ann")
6
>>> dice = TurnDice(b"seed", 3, die_sides=None)
>>> dice.roll("combat/Ann", 6) == dice.d6("combat/Ann")
True
>>> import hmac
>>> TurnDice(b"seed", 3).dealt(2).roll("heal/Ann", 100) == _face(hmac.digest(b"seed", b"3.2/heal/Ann", "sha256"), 100)
True
>>> 1 <= dice.roll("heal/Ann.healer/1", 20) <= 20
True

A draw pinned as a list puts those candidates first, in that order, and the rest after in
the caller's order, which the caller makes the canonical one (names alphabetical, squares
and hexes in reading order, routes by their squares in reading order):

>>> TurnDice(b"s", 1).draw("pair/B2", ["Ann", "Bo", "Cy"]) == TurnDice(b"s", 1).draw("pair/B2", ["Cy", "Bo", "Ann"])
True
>>> TurnDice(b"s", 1, {"pair/B2": ["Cy"]}).draw("pair/B2", ["Ann", "Bo", "Cy"])
['Cy', 'Ann', 'Bo']
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

SIDES = 6
_LIMIT = 256 - 256 % SIDES  # 252: bytes at or above it would bias the result


def new_seed() -> bytes:
    """A fresh secret match seed (32 random bytes)."""
    return secrets.token_bytes(32)


def seed_hash(seed: bytes) -> str:
    """The SHA-256 of the seed, published at the start of a match."""
    return hashlib.sha256(seed).hexdigest()


def deal_prefix(turn: int, deal: int = 0) -> str:
    """What every message of a turn's dice starts with: ``"<turn>/"``, or ``"<turn>.<deal>/"`` once the
    window is dealt afresh (no turn number holds a dot, so no two deals share a message)."""
    return f"{turn}/" if deal == 0 else f"{turn}.{deal}/"


def keyed_d6(seed: bytes, turn: int, key: str, deal: int = 0) -> int:
    """The d6 for ``key`` in ``turn`` (of deal ``deal``): unbiased, from HMAC-SHA256 of the seed."""
    prefix = deal_prefix(turn, deal)
    message = f"{prefix}{key}".encode()
    counter = 0
    while True:
        digest = hmac.digest(seed, message, "sha256")
        for b in digest:
            if b < _LIMIT:
                return b % SIDES + 1
        # All 32 bytes were >= 252 (probability about 1e-60): extend the stream.
        counter += 1
        message = f"{prefix}{key}#{counter}".encode()


_BLOCK = 64  # SHA-256's block size in bytes


def _python_sha256() -> Callable[[bytes], hashlib._Hash]:
    """CPython's own SHA-256 (``_sha2`` from 3.12, ``_sha256`` before), else hashlib's (OpenSSL's).

    The same digests; for a roll, which copies a hash state twice and finishes two, Python's own is about a quarter
    cheaper: a state is a small struct copied in place, where OpenSSL allocates each copy's context and wipes it
    when it is freed.

    >>> _python_sha256()(b"abc").digest() == hashlib.sha256(b"abc").digest()
    True
    """
    for name in ("_sha2", "_sha256"):
        try:
            found: Callable[[bytes], hashlib._Hash] = importlib.import_module(name).sha256
            return found
        except (ImportError, AttributeError):  # a Python built without it: the next, then hashlib's
            pass
    return hashlib.sha256


_SHA256 = _python_sha256()


@lru_cache(maxsize=64)
def _hmac_pads(seed: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """SHA-256 already fed with the seed's inner and outer HMAC pads (RFC 2104), for ``_TurnMac``.

    ``hmac.HMAC.copy`` is Python code; copying these two C hash states halves the cost of a
    roll, and a turn rolls about ten dice. Keys longer than a block are hashed first, as ``hmac`` does:

    >>> import hmac
    >>> all(_TurnMac(s, "3/").digest("k") == hmac.digest(s, b"3/k", "sha256") for s in (b"", b"seed", bytes(100)))
    True
    """
    key = (hashlib.sha256(seed).digest() if len(seed) > _BLOCK else seed).ljust(_BLOCK, b"\0")
    return _SHA256(bytes(b ^ 0x36 for b in key)), _SHA256(bytes(b ^ 0x5C for b in key))


class _TurnMac:
    """HMAC-SHA256(seed, "<turn>/<key>") for the keys of one turn, the ``prefix`` "<turn>/" (or a later deal's
    "<turn>.<deal>/") fed once."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, seed: bytes, prefix: str) -> None:
        inner, self._outer = _hmac_pads(seed)
        self._inner = inner.copy()
        self._inner.update(prefix.encode())

    def digest(self, key: str) -> bytes:
        """The HMAC of ``"<turn>/<key>"``: the same bytes as ``hmac.digest``."""
        inner = self._inner.copy()
        inner.update(key.encode())
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()



class PinnedDieError(ValueError):
    """A pinned value that is not a face of its die, or a pinned draw that is not one of its candidates."""


MAX_SIDES = 10_000


def _face(stream: bytes, sides: int) -> int | None:
    """The first unbiased face of a ``sides``-sided die in ``stream`` (None if every byte or chunk is too high)."""
    if sides <= 256:
        limit = 256 - 256 % sides
        for b in stream:
            if b < limit:
                return b % sides + 1
        return None
    limit = 65536 - 65536 % sides
    for i in range(0, len(stream) - 1, 2):
        chunk = stream[i] << 8 | stream[i + 1]
        if chunk < limit:
            return chunk % sides + 1
    return None


def _names(values: Sequence[str]) -> str:
    return ", ".join(map(str, values)) or "(none)"


class TurnDice:
    """The dice of one turn: keyed rolls and draws, some of them pinned, with a record of what was rolled
    (``rolled``: key → value) and drawn (``drawn``: key → order), for the log."""

    #: Whether these are ``BlindDice`` (a check's dice, which tell nothing): a game's resolution run as its check
    #: words a part whose outcome the dice decide without that outcome.
    blind = False

    __slots__ = ("_die_sides", "_kept", "_mac", "_prefix", "_sides", "_values", "deal", "drawn", "peeked", "pins",
                 "rolled", "seed", "turn")

    def __init__(self, seed: bytes, turn: int, pins: Mapping[str, int | list[str]] | None = None, *,
                 die_sides: int | None = SIDES, deal: int = 0) -> None:
        """``pins`` fix rolls (a whole number) and draws (a list of candidates). With ``die_sides`` every
        whole-number pin is checked now against a die of that size (a d6 game's scenarios reject a
        pinned 7 when they load); None checks each against its die when it is rolled. ``deal`` numbers
        the deal (see the formula): 0 but for a window dealt afresh after an undo."""
        if not isinstance(deal, int) or isinstance(deal, bool) or deal < 0:
            raise ValueError(f"a deal number is a whole number from 0, not {deal!r}")
        self.seed = seed
        self.turn = turn
        self.deal = deal
        self._die_sides = die_sides
        self.pins: dict[str, int | list[str]] = {}
        self.rolled: dict[str, int] = {}
        self.drawn: dict[str, list[str]] = {}
        self._sides: dict[str, int] = {}  # the keys rolled with a die other than a d6, and its sides
        self.peeked: dict[str, int] = {}  # every key looked at ahead (``peek``: a roll published), and its sides
        self._kept: dict[str, int] = {}  # a key whose roll stays that of an earlier deal, and that deal
        # every message's start but a kept roll's (``deal_prefix``, without its call for the first deal)
        prefix = self._prefix = f"{turn}/" if deal == 0 else deal_prefix(turn, deal)
        self._mac = _TurnMac(seed, prefix)
        if not pins:  # a simulation's every turn: nothing pinned to check
            self._values: dict[str, int] = {}  # every d6 value computed so far, rolled or peeked (and the d6 pins)
            return
        for key, value in pins.items():
            if isinstance(value, list | tuple):
                self.pins[key] = [str(v) for v in value]
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                accepted = (f"a d{die_sides} shows 1 to {die_sides}" if die_sides is not None else
                            "pin a die as a whole number or a draw as a list of candidates")
                raise PinnedDieError(f"pinned die {key!r} is {value!r}; {accepted}")
            if die_sides is not None and not 1 <= value <= die_sides:
                raise PinnedDieError(f"pinned die {key!r} is {value}; a d{die_sides} shows 1 to {die_sides}")
            self.pins[key] = value
        self._values = {k: v for k, v in self.pins.items() if isinstance(v, int) and 1 <= v <= SIDES}

    def message(self, key: str) -> str:
        """The whole HMAC message of ``key``'s die or draw, as the Log prints it and ``verify`` computes it:
        ``"<turn>/<key>"``, or ``"<turn>.<deal>/<key>"`` in a window dealt afresh (a roll kept from an earlier
        deal names that deal). Anyone can check the die by hand with it once the seed is revealed.

        >>> TurnDice(b"s", 7).message("combat/Elif"), TurnDice(b"s", 7).dealt(1).message("combat/Elif")
        ('7/combat/Elif', '7.1/combat/Elif')
        >>> TurnDice(b"s", 7).dealt(2, {"move/Ann": (0, 6)}).message("move/Ann")
        '7/move/Ann'
        """
        kept = self._kept
        if kept and key in kept:
            return f"{deal_prefix(self.turn, kept[key])}{key}"
        return self._prefix + key

    def dealt(self, deal: int, keep: Mapping[str, tuple[int, int]] | None = None) -> TurnDice:
        """The same turn's dice dealt afresh as deal ``deal`` (the same pins; nothing rolled yet); deal 0 is
        the first deal. The sync deals a window afresh after an undo: its first dice were in the log. ``keep``
        holds the keys whose roll stays that of an earlier deal (key → that deal and the die's sides): the
        rolls that were public before anyone typed orders, pinned to their value there.

        >>> first = TurnDice(b"seed", 4)
        >>> shown = first.peek("move/Ann")
        >>> again = first.dealt(1, {"move/Ann": (0, 6)})
        >>> again.d6("move/Ann") == shown, again.d6("combat/Ann") == TurnDice(b"seed", 4, deal=1).d6("combat/Ann")
        (True, True)
        """
        pins = dict(self.pins)
        kept: dict[str, int] = {}
        for key, (old, sides) in (keep or {}).items():
            if key not in pins:
                pins[key] = TurnDice(self.seed, self.turn, die_sides=None, deal=old).peek(key, sides)
                kept[key] = old
        dice = TurnDice(self.seed, self.turn, pins, die_sides=self._die_sides, deal=deal)
        dice._kept = kept
        return dice

    def blinded(self, shown: Mapping[str, int] | None = None) -> BlindDice:
        """Dice for checking orders before the window resolves: they tell nothing of this match's rolls but
        ``shown``, the rolls already published (``Ruleset.rolls_shown``: key → value), which they give as they are.

        >>> dice = TurnDice(b"seed", 3, {"combat/Ann": 6})
        >>> blind = dice.blinded({"move/Ann": 4})
        >>> blind.blind, blind.d6("combat/Ann"), blind.d6("move/Ann"), blind.roll("heal/Bo", 20)
        (True, 1, 4, 1)
        >>> blind.draw("pair/B2", ["Cy", "Ann"]) == TurnDice(b"other", 3).blinded().draw("pair/B2", ["Cy", "Ann"])
        True
        """
        return BlindDice(self.turn, shown, die_sides=self._die_sides, deal=self.deal)

    def record_mark(self) -> tuple[int, int]:
        """How many rolls and draws are recorded so far: give it to ``take_back`` to forget the ones after it."""
        return len(self.rolled), len(self.drawn)

    def take_back(self, mark: tuple[int, int]) -> None:
        """Forget the rolls and draws recorded after ``mark`` (from ``record_mark``), as if they were never made:
        an action tried and taken back. The dice do not change: a key rolled again gives the same value.

        >>> dice = TurnDice(b"seed", 1)
        >>> first = dice.d6("a")
        >>> mark = dice.record_mark()
        >>> again = dice.d6("b")
        >>> dice.take_back(mark)
        >>> list(dice.rolled), dice.d6("b") == again
        (['a'], True)
        """
        rolled, drawn = mark
        for key in list(self.rolled)[rolled:]:
            del self.rolled[key]
            self._sides.pop(key, None)
        for key in list(self.drawn)[drawn:]:
            del self.drawn[key]

    def peek(self, key: str, sides: int = SIDES) -> int:
        """The roll for ``key`` on a ``sides``-sided die without recording it as rolled (to publish a roll ahead):
        noted in ``peeked``."""
        self.peeked[key] = sides
        if sides != SIDES:
            return self._other_die(key, sides)
        value = self._values.get(key)  # a d6 is computed once (pinned, or from the formula); a bot peeks ~7 a turn
        return self._new_d6(key) if value is None else value

    def _new_d6(self, key: str) -> int:
        """The d6 value of ``key``, not computed yet: from the formula (a pin that is no face of a d6 raises)."""
        if self.pins and key in self.pins:  # a pin that is no face of a d6, or a draw's
            self._other_die(key, SIDES)  # raises, naming the key
        # the same first byte below 252 as keyed_d6: 63 times in 64 the first, with no loop over the stream; else
        # the next bytes of the same digest (``keyed_d6``'s loop, without hashing the message again through
        # Python's ``hmac``), and ``keyed_d6`` itself only when all 32 are too high
        stream = self._mac.digest(key)
        first = stream[0]
        if first < _LIMIT:
            value = first % SIDES + 1
        else:
            value = _face(stream, SIDES) or keyed_d6(self.seed, self.turn, key, self.deal)
        self._values[key] = value
        return value

    def d6(self, key: str) -> int:
        """The d6 for ``key`` this turn (the pinned value if pinned); remembered in ``rolled``."""
        value = self.rolled.get(key)
        if value is None:
            value = self._values.get(key)  # peeked or pinned: no call to compute it
            if value is None:
                value = self._new_d6(key)
            self.rolled[key] = value
        elif self._sides and key in self._sides:
            raise self._rolled_as_another_die(key, SIDES)
        return value

    def roll(self, key: str, sides: int) -> int:
        """A ``sides``-sided die for ``key`` (2 to 10,000 sides; the pinned value if pinned), remembered
        in ``rolled``. A d6 is exactly ``d6``: the same value, the same record."""
        if sides == SIDES:
            return self.d6(key)
        value = self.rolled.get(key)
        if value is not None:
            if self._sides.get(key) != sides:
                raise self._rolled_as_another_die(key, sides)
            return value
        value = self.rolled[key] = self._other_die(key, sides)
        self._sides[key] = sides
        return value

    def _other_die(self, key: str, sides: int) -> int:
        """The value of a die other than a d6: pinned (and checked against its faces) or from the formula."""
        if not isinstance(sides, int) or not 2 <= sides <= MAX_SIDES:
            raise ValueError(f"a die has 2 to {MAX_SIDES:,} sides, not {sides!r} (rolling {key!r})")
        pinned = self.pins.get(key)
        if pinned is not None:
            if isinstance(pinned, list):
                raise self._draw_pinned_as_die(key, pinned, sides)
            if not 1 <= pinned <= sides:
                raise PinnedDieError(f"pinned die {key!r} is {pinned}; a d{sides} shows 1 to {sides}")
            return pinned
        value = _face(self._mac.digest(key), sides)
        counter = 0
        while value is None:  # every byte or chunk too high (vanishingly rare): extend the stream
            counter += 1
            value = _face(self._mac.digest(f"{key}#{counter}"), sides)
        return value

    @staticmethod
    def _draw_pinned_as_die(key: str, pinned: list[str], sides: int) -> PinnedDieError:
        return PinnedDieError(f"pinned die {key!r} is a list ({_names(pinned)}), which pins a "
                              f"draw; {key!r} is a d{sides}: pin it as a whole number 1 to {sides}")

    def _rolled_as_another_die(self, key: str, sides: int) -> ValueError:
        return ValueError(f"die {key!r} was rolled as a d{self._sides.get(key, SIDES)} this turn, not a "
                          f"d{sides}: give each die a key of its own")

    def draw(self, key: str, candidates: Sequence[str]) -> list[str]:
        """A keyed random order of the distinct ``candidates``, or the pinned order; remembered in ``drawn``.

        The candidates are given in their canonical order (names alphabetical, squares in reading
        order…): an unpinned draw does not depend on it, a pinned one lists the rest in it."""
        names = list(candidates)
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise ValueError(f"draw {key!r}: {twice!r} is listed twice among the candidates {_names(names)}")
        pinned = self.pins.get(key)
        if pinned is None:
            order = sorted(names, key=lambda name: self._mac.digest(f"{key}/{name}"))
        elif isinstance(pinned, int):
            raise PinnedDieError(f"pinned draw {key!r} is {pinned}, which pins a die; {key!r} is a draw among "
                                 f"{_names(names)}: pin it as a list of them")
        else:
            unknown = [p for p in pinned if p not in names]
            if unknown:
                raise PinnedDieError(f"pinned draw {key!r}: {unknown[0]!r} is not a candidate; the candidates "
                                     f"are {_names(names)}")
            if len(set(pinned)) != len(pinned):
                twice = next(p for p in pinned if pinned.count(p) > 1)
                raise PinnedDieError(f"pinned draw {key!r} names {twice!r} twice")
            order = pinned + [n for n in names if n not in pinned]
        self.drawn[key] = order
        return order

    def pick(self, key: str, candidates: Sequence[str]) -> str:
        """The first of ``draw(key, candidates)``: one candidate picked at random (or as pinned)."""
        order = self.draw(key, candidates)
        if not order:
            raise ValueError(f"nothing to pick from for {key!r}: no candidates")
        return order[0]

    def unused_pins(self) -> list[str]:
        """The pinned keys this turn neither rolled nor drew (a scenario runner may note them)."""
        return [k for k in self.pins if k not in self.rolled and k not in self.drawn]


class BlindDice(TurnDice):
    """Dice that reveal nothing: every roll not published gives its lowest face and every draw the candidates in
    the caller's order, whatever the seed, the pins (a GM's physical die is not shown before it is used) or the
    deal. A game whose check is its resolution run on a copy checks with them (``TurnDice.blinded``), so that the
    feedback written before a window resolves never tells a roll: ``blind`` tells it to word a part that the dice
    decide without its outcome ("will attack …: the dice are rolled as the turn resolves")."""

    __slots__ = ()
    blind = True

    def __init__(self, turn: int, shown: Mapping[str, int] | None = None, *, die_sides: int | None = SIDES,
                 deal: int = 0) -> None:
        super().__init__(b"", turn, dict(shown or {}), die_sides=die_sides, deal=deal)

    def _new_d6(self, key: str) -> int:
        value = self.pins.get(key)
        return value if isinstance(value, int) else 1

    def _other_die(self, key: str, sides: int) -> int:
        value = self.pins.get(key)
        if isinstance(value, int) and 1 <= value <= sides:
            return value
        if not isinstance(sides, int) or not 2 <= sides <= MAX_SIDES:
            raise ValueError(f"a die has 2 to {MAX_SIDES:,} sides, not {sides!r} (rolling {key!r})")
        return 1

    def draw(self, key: str, candidates: Sequence[str]) -> list[str]:
        """The candidates in the caller's (canonical) order: a draw decides nothing in a check."""
        names = list(candidates)
        if len(set(names)) != len(names):
            return super().draw(key, names)  # the same error as a real draw
        self.drawn[key] = names
        return names
