"""Words for counted things in logs and messages: ``1 coin``, ``2 coins``, never ``1 coins`` or ``coin(s)``."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one (``plural``: an irregular one).

    >>> counted(1, "coin"), counted(0, "coin"), counted(3, "ballista charge"), counted(2, "army", "armies")
    ('1 coin', '0 coins', '3 ballista charges', '2 armies')
    """
    if count == 1 or count == -1:
        return f"{count} {noun}"
    return f"{count} {plural if plural is not None else noun + 's'}"
