"""A worksheet's XML written as ``et_xmlfile`` writes it, into a list of text pieces joined once at the end.

openpyxl writes each tab through ``et_xmlfile``'s incremental writer into a text stream over the file: each piece
encoded on its own (a row's text, each element of the tab's head and tail), and each element walked by a serialiser
that works out namespaces and prefixes for every tag and attribute. :class:`PieceWriter` is that writer, its pieces
kept in a list (:func:`encoded` makes the part's bytes of them, as the stream would have); an element whose tags and
attributes have no namespace (all a worksheet's head and tail but a drawing's link) is written by
:func:`plain_element_xml`, the same text the namespaced serialiser writes for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.etree.ElementTree import Element, _escape_attrib, _escape_cdata  # type: ignore[attr-defined]

from et_xmlfile.xmlfile import _IncrementalFileWriter  # type: ignore[import-untyped]  # no type hints


def encoded(pieces: list[str]) -> bytes:
    """The bytes ``et_xmlfile``'s text stream writes of ``pieces`` (UTF-8, a character it cannot encode written as a
    character reference)."""
    return "".join(pieces).encode("utf-8", "xmlcharrefreplace")


def plain_element_xml(element: Any) -> str | None:
    """``element`` (and its children, its tail) as ``et_xmlfile`` writes it inside a worksheet, short empty elements
    closed with `` />``: None when a tag or an attribute has a namespace (``{uri}name``), a value is not text, or the
    tree holds a comment or processing instruction, which the namespaced serialiser writes."""
    out: list[str] = []
    return "".join(out) if _plain_into(element, out) else None


def _plain_into(element: Any, out: list[str]) -> bool:
    """``element`` written into ``out`` as :func:`plain_element_xml` says; False (``out`` half written) for one it
    leaves to the namespaced serialiser."""
    if type(element) is not Element:
        return False
    tag, text, tail = element.tag, element.text, element.tail
    if type(tag) is not str or tag[:1] == "{" or not (text is None or type(text) is str) \
            or not (tail is None or type(tail) is str):
        return False
    out.append("<" + tag)
    for key, value in element.attrib.items():
        if type(key) is not str or key[:1] == "{" or type(value) is not str:
            return False
        out.append(f' {key}="{_escape_attrib(value)}"')
    if text or len(element):
        out.append(">")
        if text:
            out.append(_escape_cdata(text))
        for child in element:
            if not _plain_into(child, out):
                return False
        out.append(f"</{tag}>")
    else:
        out.append(" />")
    if tail:
        out.append(_escape_cdata(tail))
    return True


class PieceWriter(_IncrementalFileWriter):  # type: ignore[misc]  # et_xmlfile has no type hints
    """``et_xmlfile``'s incremental writer, each piece appended to ``write``'s list as it is (no stream to encode it
    into); an element without namespaces written by :func:`plain_element_xml`, any other as ``et_xmlfile`` writes
    it."""

    def __init__(self, write: Callable[[str], object]) -> None:
        super().__init__(write)

    def write(self, arg: Any) -> None:
        """``arg`` (text, or an element and its children) written at this point of the document."""
        if self._element_stack and "" not in self._element_stack[-1][0] and not isinstance(arg, str):
            text = plain_element_xml(arg)  # (under a default namespace the namespaced serialiser refuses plain tags)
            if text is not None:
                self._file(text)
                return
        super().write(arg)
