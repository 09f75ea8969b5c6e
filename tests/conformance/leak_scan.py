"""The leak scan: every file a seat can open, unzipped, every XML part searched for what it must not hold.

A local match's files are .xlsx archives; a part is any XML file inside (a sheet, hidden or not,
the shared strings, the workbook's defined names, comments, data validations live in the sheet
parts). The seed is searched in the raw bytes of every part (hex and base64); other texts in the
parts' text nodes, so that a cell reference such as ``r="G9"`` never counts as the text ``G9``.
"""

from __future__ import annotations

import base64
import html
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

_TEXT = re.compile(rb">([^<]+)<")


@dataclass(frozen=True, slots=True)
class Hit:
    """One secret found where it must not be."""

    file: Path
    part: str
    what: str  # which secret, for people
    text: str  # the string found

    def __str__(self) -> str:
        tab = tab_of_part(self.file, self.part) if self.file.suffix == ".xlsx" else ""  # else data: find_in_data
        return f"{self.file.name}: part {self.part}{f' (tab {tab!r})' if tab else ''}: {self.what}: {self.text!r}"


def xml_parts(path: Path) -> dict[str, bytes]:
    """Every XML part of the .xlsx at ``path``, by name inside the archive."""
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name.endswith((".xml", ".rels", ".vml"))}


def tab_of_part(path: Path, part: str) -> str:
    """The tab whose sheet part is ``part`` (``xl/worksheets/sheet3.xml``), or '' for another part."""
    parts = xml_parts(path)
    rels = parts.get("xl/_rels/workbook.xml.rels", b"")
    targets = dict(re.findall(rb'Id="([^"]+)"[^>]*Target="/?(?:xl/)?([^"]+)"', rels))
    targets |= {k: v for v, k in re.findall(rb'Target="/?(?:xl/)?([^"]+)"[^>]*Id="([^"]+)"', rels)}
    for name, rid in re.findall(rb'<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"', parts.get("xl/workbook.xml", b"")):
        if "xl/" + targets.get(rid, b"").decode() == part:
            return html.unescape(name.decode())
    return ""


def texts(part: bytes) -> list[str]:
    """The text nodes of an XML part, entities decoded."""
    return [html.unescape(t.decode("utf-8", "replace")) for t in _TEXT.findall(part)]


def seed_forms(seed: bytes) -> dict[str, bytes]:
    """The seed as it could be stored: hex (either case) and base64."""
    return {"the seed (hex)": seed.hex().encode(), "the seed (HEX)": seed.hex().upper().encode(),
            "the seed (base64)": base64.b64encode(seed).rstrip(b"=")}


def find_seed(path: Path, seed: bytes) -> list[Hit]:
    """The seed in any form, in any part of ``path``."""
    return [Hit(path, name, what, form.decode())
            for name, raw in xml_parts(path).items() for what, form in seed_forms(seed).items() if form in raw]


def find_texts(path: Path, wanted: dict[str, str]) -> list[Hit]:
    """Each of ``wanted`` (text → what it is) found in a text node of any part of ``path``."""
    hits: list[Hit] = []
    for name, raw in xml_parts(path).items():
        nodes = texts(raw)
        hits += [Hit(path, name, what, text) for text, what in wanted.items() if any(text in n for n in nodes)]
    return hits


def count_texts(path: Path, wanted: set[str]) -> dict[tuple[str, str], int]:
    """How often each of ``wanted`` occurs in the text nodes of each part of ``path``, by (part, text)."""
    return count_parts(xml_parts(path), wanted)


def count_parts(parts: dict[str, bytes], wanted: set[str]) -> dict[tuple[str, str], int]:
    """How often each of ``wanted`` occurs in the text nodes of each of ``parts``, by (part, text)."""
    out: dict[tuple[str, str], int] = {}
    for name, raw in parts.items():
        nodes = texts(raw)
        for text in wanted:
            out[(name, text)] = sum(n.count(text) for n in nodes)
    return out


@dataclass(frozen=True, slots=True)
class NoticeHit:
    """One secret found in a notice whose readers may not know it."""

    key: str  # the notice's key: match/window/kind/recipient
    what: str
    text: str

    def __str__(self) -> str:
        return f"notice {self.key}: {self.what}: {self.text!r}"


def find_in_notice(key: str, text: str, wanted: dict[str, str], seed: bytes | None = None) -> list[NoticeHit]:
    """Each of ``wanted`` (text → what it is) found in a notice's ``text``, and the seed in any form (when given:
    the seed may be told only once the match is over)."""
    hits = [NoticeHit(key, what, secret) for secret, what in wanted.items() if secret in text]
    if seed is not None:
        hits += [NoticeHit(key, what, form.decode()) for what, form in seed_forms(seed).items()
                 if form.decode() in text]
    return hits


def find_in_data(label: str, data: str, seed: bytes, wanted: dict[str, str]) -> list[Hit]:
    """The seed in any form and each of ``wanted`` (text → what it is) in ``data``: what a program was given (a
    bot's input as JSON), named ``label``."""
    raw = data.encode()
    hits = [Hit(Path(label), "data", what, form.decode()) for what, form in seed_forms(seed).items() if form in raw]
    return hits + [Hit(Path(label), "data", what, text) for text, what in wanted.items() if text in data]
