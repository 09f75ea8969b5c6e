"""Words for counted things in logs and messages: ``1 coin``, ``2 coins``, never ``1 coins`` or ``coin(s)``."""

from __future__ import annotations

from collections.abc import Sequence


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one (``plural``: an irregular one).

    >>> counted(1, "coin"), counted(0, "coin"), counted(3, "ballista charge"), counted(2, "army", "armies")
    ('1 coin', '0 coins', '3 ballista charges', '2 armies')
    """
    if count == 1 or count == -1:
        return f"{count} {noun}"
    return f"{count} {plural if plural is not None else noun + 's'}"


def some_of(names: Sequence[str], most: int = 5) -> str:
    """``names`` joined with commas, the first ``most`` of them and a count of the rest: a line never grows with a
    war's size.

    >>> some_of(["ann@x.org", "bo@x.org"]), some_of([f"p{n}" for n in range(288)], 3)
    ('ann@x.org, bo@x.org', 'p0, p1, p2 and 285 more')
    """
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def possessive(name: str) -> str:
    """``name`` owning something, in English: ``Various Puppies'``, ``Ann's``.

    >>> possessive("Various Puppies"), possessive("Grim Legion")
    ("Various Puppies'", "Grim Legion's")
    """
    return f"{name}'" if name.endswith("s") else f"{name}'s"


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


def describe_left(seconds: float) -> str:
    """The time left before a deadline in words a reader can count on: whole minutes rounded down (1 min 44 s is
    ``1 min``, never a minute she does not have), and under a minute ``less than a minute``; the same words in a
    reminder as queued and as sent, ``status`` and ``doctor``.

    >>> [describe_left(s) for s in (59, 60, 104, 113, 119, 120, 7500)]
    ['less than a minute', '1 min', '1 min', '1 min', '1 min', '2 min', '2 h 05 min']
    """
    return "less than a minute" if seconds < 60 else describe_wait(seconds)


def plural_label(label: str) -> bool:
    """Whether a window's label ends in a plural and takes a plural verb ("turn 1 · orders", "turn 1 · battle
    results"), not "turn 3", "deployment · Ann", "round 1 · move and loot", "turn 2 · Bo's".

    >>> [plural_label(x) for x in ("turn 1 · orders", "turn 1 · battle results", "deployment · Ann", "turn 2 · Bo's")]
    [True, True, False, False]
    """
    last = label.rsplit(" ", 1)[-1]
    return last.islower() and last.endswith("s") and not last.endswith(("ss", "us", "'s"))


def label_verb(label: str, one: str, many: str) -> str:
    """A window's ``label`` with the verb it takes, ``many`` after a label ending in a plural, ``one`` else: the one
    phrase the notices, ``status`` and ``doctor`` say a window is open or closes with.

    >>> label_verb("turn 1 · orders", "is", "are"), label_verb("turn 3", "closes", "close")
    ('turn 1 · orders are', 'turn 3 closes')
    """
    return f"{label} {many if plural_label(label) else one}"
