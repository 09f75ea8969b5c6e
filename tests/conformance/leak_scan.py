"""The leak scan: every file a seat can open, unzipped, every XML part searched for what it must not hold; and the
leak check by difference: two twin workbooks compared text by text, each difference named by its tab and cell.

A local match's files are .xlsx archives; a part is any XML file inside (a sheet, hidden or not,
the shared strings, the workbook's defined names, comments, data validations live in the sheet
parts). The seed is searched in the raw bytes of every part (hex and base64); other texts in the
parts' text nodes, so that a cell reference such as ``r="G9"`` never counts as the text ``G9``.

A scan finds only what it is told to look for (a typed order of three characters or more, say); a comparison of
twin matches finds anything, of any length: ``workbook_texts`` reads every text a workbook holds by where it is
(a tab's cell, its note, a validation list, a defined name, the tabs and whether they are hidden), and
``workbook_differences`` names each that differs, with both texts, falling back on the XML part for a difference
no text shows (a format, a hidden row).
"""

from __future__ import annotations

import base64
import functools
import html
import io
import posixpath
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

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
    return dict(_xml_parts_of(path.read_bytes()))


@functools.lru_cache(maxsize=16)
def _xml_parts_of(data: bytes) -> dict[str, bytes]:
    """The XML parts of an .xlsx file's bytes, unzipped once for the scans of one file as it is (a scan looks in each
    file once for every seat and every kind of secret)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
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
    return list(_texts_of(part))


@functools.lru_cache(maxsize=256)
def _texts_of(part: bytes) -> tuple[str, ...]:
    """The text nodes of an XML part, found once for the scans of one part as it is."""
    return tuple(html.unescape(t.decode("utf-8", "replace")) for t in _TEXT.findall(part))


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


# -- the leak check by difference --------------------------------------------------------------------------------
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
#: Where a text of the workbook outside every tab is (its defined names, its list of tabs).
WORKBOOK = ""


def _all_text(node: ElementTree.Element) -> str:
    """The text of every ``<t>`` under ``node`` (a rich text's runs joined)."""
    return "".join(t.text or "" for t in node.iter(f"{_MAIN}t"))


def _relations(parts: dict[str, bytes], part: str) -> dict[str, str]:
    """The relations of ``part`` (its ``_rels`` file), by id, each target as a part's name."""
    folder, name = posixpath.split(part)
    raw = parts.get(posixpath.join(folder, "_rels", f"{name}.rels"))
    if raw is None:
        return {}
    out = {}
    for rel in ElementTree.fromstring(raw).iter(f"{_PKG}Relationship"):
        target = rel.get("Target", "")
        out[rel.get("Id", "")] = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
            posixpath.join(folder, target))
    return out


def sheet_parts(parts: dict[str, bytes]) -> dict[str, str]:
    """Each tab's sheet part, by tab name, in the workbook's order."""
    if "xl/workbook.xml" not in parts:
        return {}
    targets = _relations(parts, "xl/workbook.xml")
    book = ElementTree.fromstring(parts["xl/workbook.xml"])
    return {sheet.get("name", ""): targets.get(sheet.get(f"{_REL}id", ""), "") for sheet in book.iter(f"{_MAIN}sheet")}


def _cell_text(cell: ElementTree.Element, shared: list[str]) -> str:
    """What a cell holds, as text: its value (a shared string looked up), or ``=`` and its formula."""
    formula = cell.find(f"{_MAIN}f")
    if formula is not None:
        return f"={formula.text or ''}"
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        found = cell.find(f"{_MAIN}is")
        return _all_text(found) if found is not None else ""
    value = cell.findtext(f"{_MAIN}v", "")
    return shared[int(value)] if kind == "s" and value.isdigit() and int(value) < len(shared) else value


def _tab_texts(parts: dict[str, bytes], tab: str, part: str, shared: list[str]) -> dict[tuple[str, str], str]:
    """Every text of one tab by (tab, where): its cells by A1, their notes, its validation lists."""
    sheet = ElementTree.fromstring(parts[part])
    out: dict[tuple[str, str], str] = {}
    for cell in sheet.iter(f"{_MAIN}c"):
        text = _cell_text(cell, shared)
        if text:
            out[(tab, cell.get("r", "?"))] = text
    for rule in sheet.iter(f"{_MAIN}dataValidation"):
        listed = " / ".join(f.text or "" for f in (rule.find(f"{_MAIN}formula1"), rule.find(f"{_MAIN}formula2"))
                            if f is not None)
        out[(tab, f"{rule.get('sqref', '?')} (validation)")] = f"{rule.get('type', '')}: {listed}"
    for target in _relations(parts, part).values():
        if "comments" in posixpath.basename(target) and target in parts:
            for note in ElementTree.fromstring(parts[target]).iter(f"{_MAIN}comment"):
                out[(tab, f"{note.get('ref', '?')} (note)")] = _all_text(note)
    return out


def _tab_name(sheet: ElementTree.Element) -> str:
    """A tab's name as the list of tabs says it, ``(hidden)`` after a hidden one."""
    state = sheet.get("state", "visible")
    return f"{sheet.get('name')}{'' if state == 'visible' else f' ({state})'}"


def workbook_texts(parts: dict[str, bytes]) -> dict[tuple[str, str], str]:
    """Every text a workbook holds, by (tab, where): each tab's cells (A1), notes and validation lists, and under
    ``WORKBOOK`` its tabs in order (a hidden one said so) and its defined names."""
    shared = [_all_text(si) for si in ElementTree.fromstring(parts["xl/sharedStrings.xml"]).iter(f"{_MAIN}si")] \
        if "xl/sharedStrings.xml" in parts else []
    out: dict[tuple[str, str], str] = {}
    if "xl/workbook.xml" in parts:
        book = ElementTree.fromstring(parts["xl/workbook.xml"])
        out[(WORKBOOK, "tabs")] = ", ".join(_tab_name(s) for s in book.iter(f"{_MAIN}sheet"))
        out |= {(WORKBOOK, f"defined name {d.get('name')}"): d.text or "" for d in book.iter(f"{_MAIN}definedName")}
    for tab, part in sheet_parts(parts).items():
        if part in parts:
            out |= _tab_texts(parts, tab, part, shared)
    return out


def workbook_differences(file: str, mine: dict[str, bytes], theirs: dict[str, bytes]) -> list[str]:
    """Each text that differs between two twin workbooks (their XML parts), named by the file, the tab and the cell
    with both texts: ``board.xlsx: tab 'Log' cell B7: 'red: B2 5' / 'red: C3 1'``. A part that differs where no
    text does (a format, a hidden row or column, a width) is named by its tab, or by the part outside any tab."""
    texts_a, texts_b = workbook_texts(mine), workbook_texts(theirs)
    out = [f"{file}: {'the workbook' if tab == WORKBOOK else f'tab {tab!r}'} "
           f"{'' if tab == WORKBOOK else 'cell '}{where}: {texts_a.get(at, '')!r} / {texts_b.get(at, '')!r}"
           for at in sorted(set(texts_a) | set(texts_b)) if texts_a.get(at) != texts_b.get(at) for tab, where in [at]]
    if out:
        return out
    tab_of = {part: tab for tab, part in sheet_parts(mine).items()}
    return [f"{file}: " + (f"tab {tab_of[part]!r}: no text differs, its sheet does (a format, a hidden row or column)"
                           if part in tab_of else f"part {part} differs (no text of a tab does)")
            for part in sorted(set(mine) | set(theirs)) if mine.get(part) != theirs.get(part)]
