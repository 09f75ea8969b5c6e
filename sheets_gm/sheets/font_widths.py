"""How wide a text of the workbooks' default font prints: Arial 10, which LibreOffice prints in Liberation Sans, its
metric twin (the same advance width for every letter), and Excel in Arial itself.

The widths are the fonts' own advance widths in thousandths of an em (Liberation Sans 2.1, regular and bold, read
from its files; they are Arial's and Helvetica's), so a text's width in points at 10 pt is the sum of its
characters' widths over 100. A character the tables do not hold is taken as wide as the widest letter of the
font's Latin, Greek and Cyrillic (1,094), or, a sign or an emoji drawn from another font, wider still: a text is
never measured narrower than it prints.
"""

from __future__ import annotations

#: Advance widths (thousandths of an em) of the printable ASCII characters, space (32) to tilde (126).
_REGULAR_ASCII = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556,
    556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667,
    556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556,
    556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722,
    500, 500, 500, 334, 260, 334, 584)
_BOLD_ASCII = (
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556,
    556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722,
    611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556,
    611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778,
    556, 556, 500, 389, 280, 389, 584)
#: Signs sheets-gm writes in running text (a log's ·, →, −, ×), in both faces but the quotes.
_SIGNS = {"·": 278, "→": 1000, "←": 1000, "−": 584, "×": 584, "—": 1000, "–": 556, "…": 1000, "é": 556, "°": 400,
          "±": 549, "½": 834}
_REGULAR = {**{chr(32 + i): w for i, w in enumerate(_REGULAR_ASCII)}, **_SIGNS,
            "’": 222, "‘": 222, "“": 333, "”": 333}
_BOLD = {**{chr(32 + i): w for i, w in enumerate(_BOLD_ASCII)}, **_SIGNS, "’": 278, "‘": 278, "“": 500, "”": 500}
#: The width taken for a letter the tables do not hold (the widest of the font's Latin, Greek and Cyrillic), and for
#: a sign past them (U+2000 on: arrows, ✔, ⚔, emoji), which LibreOffice draws from another font, wider.
OTHER_LETTER = 1100
OTHER_SIGN = 1300
#: The default font's size in points.
FONT_POINTS = 10.0


def text_points(text: str, bold: bool = False, size: float = FONT_POINTS) -> float:
    """The width in points of ``text`` on one line in the default font at ``size`` points (bold or regular).

    >>> text_points("Dice:"), text_points("Dice:", bold=True)
    (22.78, 24.45)
    >>> text_points("⚔") > text_points("W")
    True
    """
    widths = _BOLD if bold else _REGULAR
    units = sum(widths.get(c, OTHER_LETTER if c < "\u2000" else OTHER_SIGN) for c in text)
    return round(units * size / 1000, 2)
