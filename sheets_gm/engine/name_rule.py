"""The rule every name in a match obeys (a seat of the config, a member of the roster): visible characters only.

A newline, a tab or any other control character, a right-to-left or left-to-right mark or override, a
zero-width space or joiner, a soft hyphen, a byte-order mark: each is invisible, or turns the text around it, so a
name holding one can pass for another ("Ann" and "Ann" with a zero-width space; a name that reads backwards) and
one seat's cells or messages for another's. Such a name is refused, naming the character.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories a name may not hold: controls, formats (direction marks, zero-width characters), surrogates,
#: private use, unassigned code points, and the line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: What the refusal says is accepted.
NAME_RULE = ("a name is letters, digits, spaces and punctuation you can see: no line break, tab, direction mark or "
             "invisible character, which would let one name pass for another")


def _character(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character as people can look it up."""
    name = unicodedata.name(char, "") or {"\n": "LINE FEED", "\r": "CARRIAGE RETURN", "\t": "TAB"}.get(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def name_problem(name: str) -> str:
    """Why ``name`` breaks the rule ('' when it does not): the first character refused, named.

    >>> name_problem("Ann-2 (red)")
    ''
    >>> name_problem("Ann\\u202e")
    'it holds U+202E RIGHT-TO-LEFT OVERRIDE'
    >>> name_problem("Bo\\nAnn")
    'it holds U+000A LINE FEED'
    """
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return f"it holds {_character(char)}"
    return ""
