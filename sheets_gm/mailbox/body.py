"""A mail's new text: an HTML body read as its text, and what a reply carries of older mail left out (lines quoted
with ``>``, an ``On … wrote:`` line and all below it, an Outlook-style ``-----Original Message-----``), with the
sender's signature (``-- `` and all below it).

>>> print(new_text("Rabid Cat: Mirrodin; 3A > 4A - engage\\n\\nOn Mon, 1 Jan, Ann wrote:\\n> Old line\\n"))
Rabid Cat: Mirrodin; 3A > 4A - engage
>>> print(new_text("Hold the line.\\n-- \\nBo, Phyrexia's Thane"))
Hold the line.
>>> print(html_text("<p>Flank <b>left</b></p><p>Then charge<br>at dawn</p><blockquote>older mail</blockquote>"))
Flank left
Then charge
at dawn
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: A line that opens the quoted older mail of a reply: ``On Mon, 1 Jan 2026, Ann <ann@x.org> wrote:`` (which a
#: client may wrap over two lines) or Outlook's marker.
_ATTRIBUTION = re.compile(r"^\s*On\s.*\bwrote:\s*$", re.IGNORECASE)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(Original Message|Forwarded message)\s*-{2,}\s*$", re.IGNORECASE)
#: Tags whose end (or, for ``br``, whose place) ends a line of text.
_BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol",
                     "dt", "dd", "hr"})
#: Tags whose content is never text to read: code, styles, and quoted older mail.
_SKIPPED = frozenset({"script", "style", "head", "title", "blockquote"})


def _is_signature(line: str) -> bool:
    """The signature separator: ``-- `` (which some clients send without its space)."""
    return line.rstrip() == "--"


def new_text(text: str) -> str:
    """``text`` without what is quoted from older mail and without the signature (see the module notes), trailing
    white space and blank lines at either end taken off."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for n, line in enumerate(lines):
        two = f"{line} {lines[n + 1]}" if n + 1 < len(lines) else line
        if _is_signature(line) or _ORIGINAL.match(line) or _ATTRIBUTION.match(line) or (
                line.lstrip().startswith("On ") and _ATTRIBUTION.match(two)):
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line.rstrip())
    return "\n".join(kept).strip("\n")


class _Text(HTMLParser):
    """The text of an HTML document, a line per block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(re.sub(r"\s+", " ", data))


def html_text(html: str) -> str:
    """What a reader sees of the HTML ``html``: its text, a line per paragraph, line break or list item, without
    scripts, styles or quoted older mail (``blockquote``)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = (line.strip() for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line)
