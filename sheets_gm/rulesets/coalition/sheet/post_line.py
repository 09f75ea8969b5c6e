"""What one line of a pasted forum post is, before it is read as an order: an army's order, chatter (a title, a
greeting, prose), a struck-out line (no order), an army's order withdrawn (the army holds), a quoted line (someone
else's words: ``> …``, ``[quote]…[/quote]``), or ``ignore my last`` (the sender takes back her earlier line).

A forum post is edited in place: a player strikes an order out (``~~Army: …~~``, ``[s]…[/s]``, ``<del>…</del>``,
or the strikethrough a paste from the forum keeps in the cell: :func:`lines_as_read`) and perhaps writes ``withdrawn``
after it, or writes ``Army: withdrawn``. Struck-out words are never read; what is left of the line is read as if
typed without them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from enum import Enum
from functools import lru_cache

from sheets_gm.sheets.struck import lines_with_spans

#: Struck-out text as forums write it: Markdown's ``~~…~~``, BBCode's ``[s]``, ``[strike]``, ``[del]``, HTML's
#: ``<s>``, ``<strike>``, ``<del>``.
#: Words the cell's font strikes through (``sheets.struck``) are marked so for :func:`classify` by
#: :func:`lines_as_read`: two characters of Unicode's private use area, never typed, never shown (a note quotes the line
#: as it stands).
CELL_STRUCK = ("\ue000", "\ue001")
_STRUCK = re.compile(r"~~.*?~~|\[(s|strike|del)\].*?\[/\1\]|<(s|strike|del)>.*?</\2>|\ue000.*?\ue001",
                     re.IGNORECASE | re.DOTALL)
#: What says an order is taken back: ``withdrawn`` (or ``withdraw``, ``cancelled``), alone or with punctuation.
_WITHDRAWN = re.compile(r"^[\W_]*(?:order\s+)?(?:withdrawn|withdraw|cancell?ed)[\W_]*$", re.IGNORECASE)
#: A quoted line, someone else's words: a forum's ``> …`` (e-mail's too), or a line inside ``[quote…]…[/quote]``.
_QUOTE_MARK = re.compile(r"^\s*>")
QUOTE_OPEN = re.compile(r"\[quote(?:=[^\]]*)?\]", re.IGNORECASE)
QUOTE_CLOSE = re.compile(r"\[/quote\]", re.IGNORECASE)
#: The sender taking back her earlier line: ``ignore my last`` (``disregard my last``), perhaps naming the army.
_RETRACT = re.compile(r"^\W*(?:please\s+)?(?:ignore|disregard)\s+my\s+last\b(?:\s+(?:line|order|post))?"
                      r"[\s:,.\-–—]*(.*)$", re.IGNORECASE)
#: What may stand between an army's name and its order at the start of a post's line: the colon, or a dash typed
#: for it (``Tolarian Fleet - Dominaria; 10F > 10E``, a common forum slip).
AFTER_NAME = re.compile(r"\s*(?::|[-–—](?=\s))\s*")
#: What only an order has: a square (``10F``, ``3C``) or a ``>`` (a route, an engage's bump).
_ORDER_SHAPE = re.compile(r"(?<![\w'’])\d{1,2}[A-Za-z](?![\w'’])|>")


class Kind(Enum):
    """What a post's line is."""

    BLANK = "blank"
    ORDER = "order"  # read (or refused) as an order: it begins with an army's name, or has an order's shape
    CHATTER = "chatter"  # a title, a greeting, prose: passed over
    STRUCK = "struck"  # struck out whole: no order
    WITHDRAWN = "withdrawn"  # the army named takes its order back: it holds
    QUOTED = "quoted"  # someone else's words, quoted: passed over, holding nothing
    RETRACT = "retract"  # "ignore my last": takes back the sender's earlier line (for the army it names, if any)


@dataclass(frozen=True)
class PostLine:
    """One line of a post as classified: its kind, its text with the struck-out words taken out, and the army whose
    exact name begins it (for a struck-out line, the army its struck words named), with the line as read for it
    (``Army: …``, a dash after the name read as the colon)."""

    kind: Kind
    text: str
    army: str | None = None
    as_read: str = ""


def _fold(name: str) -> str:
    """A name as compared for a suggestion: lower case, letters and digits only (``Urzas Vanguard`` and ``Urza's
    Vanguard`` fold alike)."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def nearest_names(names: Sequence[str], name: str, cutoff: float = 0.75) -> list[str]:
    """The ``names`` nearest ``name`` (at most three, the nearest first), for a "did you mean".

    >>> nearest_names(["Urza's Vanguard", "Benalish Host", "Jeff"], "Urzas Vanguard")
    ["Urza's Vanguard"]
    >>> nearest_names(["Urza's Vanguard", "Benalish Host"], "Our moves this turn")
    []
    """
    return list(_nearest(tuple(names), _fold(name), cutoff))


@lru_cache(maxsize=4096)
def _nearest(names: tuple[str, ...], folded: str, cutoff: float) -> tuple[str, ...]:
    """``nearest_names`` of a folded name, kept: a war's mail and posts bring the same greetings and sign-offs
    hundreds of times, each compared with every one of its hundreds of armies."""
    by_fold = _by_fold(names)
    return tuple(by_fold[f] for f in get_close_matches(folded, list(by_fold), n=3, cutoff=cutoff))


@lru_cache(maxsize=16)
def _by_fold(names: tuple[str, ...]) -> dict[str, str]:
    """The ``names`` by their folded form (made once for a match's armies)."""
    return {_fold(n): n for n in names}


@lru_cache(maxsize=16)
def _longest_first(names: tuple[str, ...]) -> tuple[str, ...]:
    """The ``names`` longest first (sorted once for a match's armies)."""
    return tuple(sorted(names, key=len, reverse=True))


def army_line(by_lower: Mapping[str, str], line: str) -> tuple[str, str] | None:
    """(army, its line with a colon after the name) when ``line`` begins with an army's exact name (any case, the
    longest name that fits, a whole word), whatever follows; None when it begins with no army's name."""
    low = line.lower()
    for name in _longest_first(tuple(by_lower)):
        rest = line[len(name):]
        if low.startswith(name) and not (rest[:1].isalnum() or (rest[:1] and rest[:1] in "'’")):
            army = by_lower[name]
            sep = AFTER_NAME.match(rest)
            return army, (f"{army}: {rest[sep.end():]}" if sep else line)
    return None


def is_chatter(names: Sequence[str], planes: Collection[str], line: str) -> bool:
    """Whether ``line`` of a post that does not begin with an army's name is chatter, passed over: a title, a
    greeting or prose ("Hi all, here are our moves:", "lol good luck Phyrexia, you'll need it"). It is not when the
    words before its colon (or dash) are near an army's name (a misspelt army, refused with "did you mean"), nor when
    it has an order's shape: a square, a ``>``, or a plane written as an order writes it (``Dominaria;`` or a plane
    before a square); a plane named in a sentence is prose.

    >>> names, planes = ["Urza's Vanguard"], {"dominaria", "phyrexia"}
    >>> [is_chatter(names, planes, t) for t in ("Hi all, here are our moves:", "Turn 3 orders:",
    ...   "lol good luck Phyrexia, you'll need it", "Our plan: Dominaria; hold", "Urzas Vanguard: Dominaria 4C",
    ...   "Vanguard: 4C", "Benalish Host - 10F")]
    [True, True, True, False, False, False, False]
    """
    head = re.split(r":|\s[-–—]\s", line, maxsplit=1)[0].strip()
    if nearest_names(names, head):
        return False
    plane_as_order = any(re.search(rf"\b{re.escape(p)}\s*;", line, re.IGNORECASE) for p in planes)
    return not (_ORDER_SHAPE.search(line) or plane_as_order)


def classify(by_lower: Mapping[str, str], planes: Collection[str], line: str) -> PostLine:
    """What ``line`` is (``by_lower``: the match's armies by their names in lower case; ``planes``: the planes'
    names in lower case). Struck-out words are taken out first; a line struck out whole is no order, and one whose
    words left say ``withdrawn`` (or ``Army: withdrawn``) takes back the order of the army it names.

    >>> armies = {"frank": "Frank"}
    >>> [classify(armies, {"dominaria"}, t).kind.value for t in ("~~Frank: 3A > 3B~~ withdrawn", "~~Frank: 3A > 3B~~",
    ...   "Frank: withdrawn", "Frank: 3A > ~~3B~~ 4A", "good luck Dominaria", "", "Frank - 3A > 3B")]
    ['withdrawn', 'struck', 'withdrawn', 'order', 'chatter', 'blank', 'order']
    >>> classify(armies, (), "Frank: 3A > ~~3B~~ 4A").as_read
    'Frank: 3A > 4A'
    >>> [classify(armies, (), t).kind.value for t in ("> Frank: 3A > 3B", "Frank: ~~3A > 3B~~ oops",
    ...   "ignore my last", "Disregard my last order: Frank")]
    ['quoted', 'struck', 'retract', 'retract']
    """
    if _QUOTE_MARK.match(line):
        return PostLine(Kind.QUOTED, line.strip())
    struck = [m.group(0) for m in _STRUCK.finditer(line)]
    text = " ".join(_STRUCK.sub(" ", line).split()) if struck else line.strip()
    if struck and not re.sub(r"[\W_]", "", text):
        named = army_line(by_lower, _unmark(struck[0]))
        return PostLine(Kind.STRUCK, "", named[0] if named else None)
    if not text:
        return PostLine(Kind.BLANK, "")
    retract = _RETRACT.match(text)
    if retract:
        named = army_line(by_lower, retract.group(1).strip())
        return PostLine(Kind.RETRACT, text, named[0] if named else None)
    named = army_line(by_lower, text)
    if struck and named is not None and _order_struck_out(named):  # "Army: ~~3A > 3B~~ oops": its order struck out
        return PostLine(Kind.STRUCK, "", named[0])
    if struck and named is None and _WITHDRAWN.match(text):
        first = army_line(by_lower, _unmark(struck[0]))
        return PostLine(Kind.WITHDRAWN, text, first[0], first[1]) if first else PostLine(Kind.STRUCK, "")
    if named is not None and named[1].startswith(f"{named[0]}:") and _WITHDRAWN.match(named[1][len(named[0]) + 1:]):
        return PostLine(Kind.WITHDRAWN, text, *named)
    if named is None and is_chatter(list(by_lower.values()), planes, text):
        return PostLine(Kind.CHATTER, text)
    return PostLine(Kind.ORDER, text, *(named or (None, text)))


def _order_struck_out(named: tuple[str, str]) -> bool:
    """Whether what is left of an army's line after its struck-out words (``Army: oops``) has no order's shape: its
    order was struck out, and the words after it are the writer's note."""
    army, as_read = named
    rest = as_read[len(army) + 1:] if as_read.startswith(f"{army}:") else as_read[len(army):]
    return not _ORDER_SHAPE.search(rest) and not re.search(r";", rest)


def _unmark(struck: str) -> str:
    """The words of a struck-out span without its marks: ``~~Frank: 3A~~`` is ``Frank: 3A``."""
    return re.sub(r"^(?:~~|\[\w+\]|<\w+>|\ue000)|(?:~~|\[/\w+\]|</\w+>|\ue001)$", "", struck).strip()


def unquoted(line: str, quoting: bool) -> tuple[str, bool, bool]:
    """``line`` without the words inside ``[quote…]…[/quote]`` (a quote may run over several lines: ``quoting`` says
    whether one is open as the line begins): (what is left to read, whether a quote is still open after it,
    whether anything was quoted).

    >>> unquoted("[quote=Jeff]Jeff: 2B > 2C[/quote] Frank: 3A > 3B", False)
    (' Frank: 3A > 3B', False, True)
    >>> unquoted("Jeff: 2B > 2C", True), unquoted("[/quote]", True)
    (('', True, True), ('', False, True))
    """
    left, quoted, text = "", False, line
    while text:
        if quoting:
            quoted = True
            end = QUOTE_CLOSE.search(text)
            if end is None:
                return left, True, True
            text, quoting = text[end.end():], False
            continue
        start = QUOTE_OPEN.search(text)
        if start is None:
            return left + text, False, quoted
        left, text, quoting, quoted = left + text[:start.start()], text[start.end():], True, True
    return left, quoting, quoted


def lines_as_read(post: str) -> list[tuple[str, str]]:
    """Each line of ``post`` as it stands and as :func:`classify` reads it: the words its cell strikes through
    (``sheets.struck``: a paste from the forum, a line struck in LibreOffice) between :data:`CELL_STRUCK`'s marks.

    >>> from sheets_gm.sheets.struck import struck
    >>> lines_as_read(struck("Frank: 3A > 3B 4A\\nAnn: 5C > 5D", [(12, 15), (18, 30)]))
    [('Frank: 3A > 3B 4A', 'Frank: 3A > \ue0003B \ue0014A'), ('Ann: 5C > 5D', '\ue000Ann: 5C > 5D\ue001')]
    """
    out: list[tuple[str, str]] = []
    for line, spans in lines_with_spans(post):
        marked, at = "", 0
        for start, end in spans:
            marked += f"{line[at:start]}{CELL_STRUCK[0]}{line[start:end]}{CELL_STRUCK[1]}"
            at = end
        out.append((line, marked + line[at:]))
    return out


def cell_struck(marked: str) -> str:
    """The words of a line of :func:`lines_as_read` its cell strikes through, each quoted ('' when none is)."""
    return ", ".join(repr(m.strip()) for m in re.findall("\ue000(.*?)\ue001", marked, re.DOTALL) if m.strip())
