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


def describe_wait(seconds: float) -> str:
    """A duration for people: ``2 h 05 min``, ``4 min``, ``30 s``.

    >>> describe_wait(7500), describe_wait(240), describe_wait(30.5)
    ('2 h 05 min', '4 min', '30 s')
    """
    seconds = max(0, int(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"
