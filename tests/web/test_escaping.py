"""Everything a player typed is shown on the match page, never run: a name, an Aim or an army's name holding
markup, a script, an SVG element, an event handler or a ``javascript:`` link reaches every page file as text. The
property: whatever the board's cells, notes, legend, Log lines, window labels and the match's title hold, the page
files hold only the elements, attributes and links the templates write."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sheets_gm.engine.ruleset import BoardKind
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.sheets.layout import ConditionalFill, Fill, Grid
from sheets_gm.web.page import PageInput, Resolved
from sheets_gm.web.site import build_site

HOSTILE = ("<script>alert(1)</script>", "</text><script>alert(2)</script>", '"><img src=x onerror=alert(3)>',
           "<svg onload=alert(4)>", "javascript:alert(5)", "]]><![CDATA[<script>alert(6)</script>",
           "</script><script>alert(7)</script>", "{{ 7*7 }}", "' onmouseover='alert(8)", "&lt;b&gt;")
#: The elements the page's templates write; nothing a player typed may add one.
ELEMENTS = {"html", "head", "meta", "title", "link", "body", "header", "h1", "h2", "h3", "p", "a", "code", "nav",
            "button", "select", "main", "section", "div", "svg", "style", "text", "g", "rect", "polygon", "use",
            "circle", "defs", "symbol", "path", "span", "script", "table", "thead", "tbody", "tr", "th", "td", "time",
            "dialog", "pre", "form", "ul", "li", "details", "summary", "input", "label", "marker", "polyline", "image",
            "option"}
#: The elements of a map's ground picture (``ground-<hash>.svg``).
GROUND_ELEMENTS = {"svg", "style", "defs", "polygon", "text", "use", "rect"}
LINKS = {"page.css", "windows.js", "page.js", "w1.html",  # w1.html: the latest results' page, from the page of now
         "data:,"}  # the empty icon: no request for a favicon


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.elements: set[str] = set()
        self.handlers: list[str] = []
        self.links: set[str] = set()
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.add(tag)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]
        self.links |= {value or "" for name, value in attrs if name in ("href", "src", "xlink:href")}
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def _page(text: str, sheet: str, kind: BoardKind) -> PageInput:
    cells: Grid = [["", "A", "B"], ["1", f"A1\n{text}", f"◆ {text}"], ["2", text, ""]]
    hexes: Grid = [["", "", ""], ["A", "B", "C"], [f"A1 {text}", "", "C1"], [f"● {text}", "B1", f"■ {text}"]]
    drawing = BoardDrawing(hexes if kind is BoardKind.HEX else cells,
                           (Fill("A1:C3", "#EFEFEF"), Fill("B2:B2", f'#fff" onload="{text}')),
                           legend=[[text]], notes={(1, 2): f"{text}\n  factions {text}"},
                           conditional_fills=(ConditionalFill("A1:C4", "●", "#F4CCCC"),))
    plane = BoardDrawing([[f"{text}", "1", "2"], ["A", f"◆ {text}", f"○ {text}"], ["B", "", f"● {text}"]],
                         notes={(1, 1): f"{text}\n  factions white/{text}"}, tab=text)
    table = BoardDrawing([[text], ["Type", "HP", text], [text, "3", text]], tab=text)
    drawings = [plane, plane, table] if kind is BoardKind.PLANES else [drawing, table]
    return PageInput(title=text, game=text, kind=kind, drawings=drawings, status=text, window=text,
                     deadline="2026-11-27T19:00:00+00:00", deadline_words=text, closing=text, resolved=1, sheet=sheet,
                     marker=text, resolution=Resolved(1, text, ((text, text, text),), lambda: drawings))


@pytest.mark.parametrize("kind", list(BoardKind))
@pytest.mark.parametrize("text", HOSTILE)
def test_what_a_player_typed_is_shown_never_run(kind: BoardKind, text: str, tmp_path: Path) -> None:
    build_site(tmp_path, _page(text, f"javascript:alert('{text}')", kind))
    for page in sorted(tmp_path.glob("*.html")):
        tags = _Tags()
        tags.feed(page.read_text(encoding="utf-8"))
        assert tags.elements <= ELEMENTS, (page.name, tags.elements - ELEMENTS)
        assert tags.handlers == [], page.name
        grounds = {path.name for path in tmp_path.glob("ground-*")}  # each map's picture and its names file
        assert {link for link in tags.links if not link.startswith("#")} <= LINKS | grounds, page.name
        assert all("alert" not in s or s.lstrip().startswith("[[") for s in tags.scripts), page.name
        for data in (s for s in tags.scripts if s.strip()):  # the places' data: JSON the page reads as text
            json.loads(data)
    for ground in tmp_path.glob("ground-*.svg"):  # each map's ground: a picture, its every text escaped
        tags = _Tags()
        tags.feed(ground.read_text(encoding="utf-8"))
        assert tags.elements <= GROUND_ELEMENTS and tags.handlers == [], (ground.name, tags.elements)
        assert tags.links <= {"#hex"}, ground.name
    for names in tmp_path.glob("ground-*.js"):  # each map's places' names: one statement, no '<' to close a script
        text = names.read_text(encoding="utf-8")
        key, _, data = text.partition("] = ")
        assert "<" not in text
        assert key == f'(window.SHEETS_GM_GROUNDS = window.SHEETS_GM_GROUNDS || {{}})["{names.stem}"'
        assert all(len(place) == 3 for place in json.loads(data.removesuffix(";\n"))), names.name
    script = (tmp_path / "windows.js").read_text(encoding="utf-8")
    windows, record = script.removesuffix("\n").split("\n")  # two statements: the list of windows, the record
    head, tail = "window.SHEETS_GM_WINDOWS = ", ";"
    assert "<" not in script and windows.startswith(head) and windows.endswith(tail)
    assert json.loads(windows[len(head):-len(tail)])[-1]["file"] == "index.html"
    assert record.startswith("window.SHEETS_GM_RECORD = {") and record.endswith("};")
    assert json.loads(record.partition(" = ")[2][:-1])["windows"]


def test_the_spreadsheets_link_is_a_link_only_when_it_is_a_web_address(tmp_path: Path) -> None:
    build_site(tmp_path / "google", _page("x", "https://docs.google.com/spreadsheets/d/KEY/edit", BoardKind.SQUARE))
    build_site(tmp_path / "local", _page("x", "match.xlsx", BoardKind.SQUARE))
    assert 'href="https://docs.google.com/spreadsheets/d/KEY/edit"' in (tmp_path / "google/index.html").read_text()
    assert "the workbook <code>match.xlsx</code>" in (tmp_path / "local/index.html").read_text()
