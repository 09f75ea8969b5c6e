"""The match page's folder: a page per resolution (``w3.html``: the map after it, its Log, what was resolved), one
for the board before the first (``w0.html``), the page of the match now (``index.html``: the open window, its
deadline, the standings, the other public tabs, opening on the latest results), each map's ground picture and its
places' names (``ground-<hash>.svg``, ``ground-<hash>.js``: ``ground``), the script and style every page shares,
beside each resolution's page its Log (``w3.log.json``: what the page of now opens on, and the Log row after it),
and ``windows.js``: the list of windows the pages step through, and the record (the windows the folder holds, each
one's standings and the Log row after its lines, what it was last built for, the stamp of the shared files: a build
reads the sidecar of the last resolution only, and not the one it has just written; one file written a build for
both, where an older version wrote ``record.json`` too). Read in order, the pages' Log lines are the board's public
Log: each GM's adjustment's lines stand on the page of the window whose Log rows hold them.

A resolution's page is written when the poll that made it builds the folder (over the page of a resolution of its
number that an undo took back: ``undo``, ``adjust`` and the commands that resolve build the page, each after its own
change); an undo's build drops the pages past the resolutions the match still counts; a build whose ``marker`` the
folder was last built for writes nothing.
The page of the start is written by the builds before the first resolution (``_keep_start``: drawn again when what
it is of changes, a GM's adjustment; listed only once a resolution follows it), so that the first resolution's build
draws only its own window, unless the board it started from is not the one the start's page shows.
Every file is written whole in its place (a temporary file renamed), and only when its bytes change. The templates
escape every text they are given (jinja2's autoescape): a name or an Aim a player typed is shown, never run."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any

from jinja2 import Environment, FunctionLoader, select_autoescape
from markupsafe import Markup, escape

from sheets_gm.engine.ruleset import BoardKind
from sheets_gm.engine.words import counted
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.web.compiled import compiled_cache
from sheets_gm.web.ground import ground_file, ground_key, ground_names_js, ground_svg, grounds_in, names_file
from sheets_gm.web.latest import Latest, latest_bytes, read_latest, sidecar
from sheets_gm.web.orders import Positions, moving, overlays, positions, routes, squares_of, with_overlay
from sheets_gm.web.page import LogLine, PageInput, Resolved, RowLine
from sheets_gm.web.scene import Plane, Scene, Table, marked_places, scene_of
from sheets_gm.web.standings import Chart, Figures, charts, end_lines, figures_of, war_figures
from sheets_gm.web.svg import plane_svg
from sheets_gm.web.trail import TRAIL_HEAD, gone_of, steps, trail_file

WINDOWS = "windows.js"
RECORD = "record.json"  # where an older version kept the record (read, then removed)
_RECORD_HEAD = "window.SHEETS_GM_RECORD = "
INDEX = "index.html"
SHARED = ("page.js", "page.css")
#: Where everyone on the map of now stands (``orders.positions``), and after how many resolutions: the next
#: resolution's moves are drawn from it.
#: Hidden: no page reads it, and ``serve --web`` serves no hidden file.
WHERE = ".where.json"


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _asset(name: str) -> str:
    return resources.files("sheets_gm.web").joinpath("assets", name).read_text(encoding="utf-8")


@cache
def _shared_bytes(name: str) -> bytes:
    """A file every page shares (``SHARED``), read from the package once per process, as the templates are."""
    return _asset(name).encode()


@cache
def environment() -> Environment:
    """The templates, every one escaping what it is given (HTML and SVG alike), compiled once per machine
    (``compiled``)."""
    env = Environment(loader=FunctionLoader(_asset), autoescape=select_autoescape(["html", "svg", "j2"]),
                      trim_blocks=False, keep_trailing_newline=True, bytecode_cache=compiled_cache())
    env.filters["log_rows"] = log_rows
    env.filters["result_item"] = result_item
    return env


@dataclass(frozen=True, slots=True)
class _Window:
    number: int
    label: str
    file: str
    logged: bool = True  # the page of a resolution, with its Log; False: a board before one the page did not see
    figures: Figures | None = None  # each side's figures after it (standings.figures_of its status line)
    ends: tuple[LogLine, ...] = ()  # its Log lines saying who is out or who won
    grounds: tuple[str, ...] = ()  # the ground files its page shows
    end: int = -1  # the Log row after its lines (-1: not kept here, its sidecar says it: a folder of an older build)
    trail: bool = False  # its steps are beside its page (``trail.trail_file``; an older build wrote none)
    gone: tuple[tuple[Any, ...], ...] = ()  # who left the map in it (``trail.gone_of``)

    def to_json(self) -> dict[str, Any]:
        """The window as the record keeps it."""
        return {"n": self.number, "label": self.label, "file": self.file, "log": self.logged,
                **({"figures": self.figures} if self.figures is not None else {}),
                **({"ends": [list(line) for line in self.ends]} if self.ends else {}),
                **({"grounds": list(self.grounds)} if self.grounds else {}),
                **({"end": self.end} if self.end >= 0 else {}), **({"trail": True} if self.trail else {}),
                **({"gone": [list(g) for g in self.gone]} if self.gone else {})}

    @staticmethod
    def from_json(data: dict[str, Any]) -> _Window:
        """A window as the record keeps it."""
        figures = data.get("figures")
        return _Window(int(data["n"]), str(data["label"]), str(data["file"]), bool(data.get("log", True)),
                       {str(k): {str(m): float(v) for m, v in f.items()} for k, f in figures.items()}
                       if isinstance(figures, dict) else None,
                       tuple((str(t), str(k), str(s)) for t, k, s in data.get("ends", [])),
                       tuple(str(name) for name in data.get("grounds", [])), int(data.get("end", -1)),
                       bool(data.get("trail", False)), tuple(tuple(g) for g in data.get("gone", [])))


def record_of(folder: Path) -> Any:
    """The folder's record as its last build wrote it (the second statement of ``windows.js``; ``record.json`` in a
    folder an older version built), or None."""
    try:
        script = (folder / WINDOWS).read_text(encoding="utf-8")
    except OSError:
        script = ""
    at = script.find(_RECORD_HEAD)
    try:
        if at >= 0:
            return json.loads(script[at + len(_RECORD_HEAD):].removesuffix(";\n"))
        return json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _load(folder: Path) -> tuple[str, list[_Window], str, Any]:
    """What the folder was last built for, its resolutions' pages, the stamp of the shared files it holds
    (``_shared_stamp``; '' and none for a new or unreadable one), and what it keeps of the page of the start written
    before the first resolution (``_keep_start``; None for none)."""
    data = record_of(folder)
    try:
        return (str(data["built"]), [_Window.from_json(w) for w in data["windows"]], str(data.get("shared", "")),
                data.get("start"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return "", [], "", None


def built_for(folder: Path) -> str:
    """What the page in ``folder`` was last built for ('' for none)."""
    return _load(folder)[0]


@cache
def _shared_stamp() -> str:
    """A hash of the files every page shares (``SHARED``), as this version writes them: a folder whose record holds
    it, and holds the files, has them as they are (not read again to compare)."""
    return hashlib.sha256(b"\0".join(_shared_bytes(name) for name in SHARED)).hexdigest()[:20]


def _keep_shared(folder: Path, stamp: str, there: set[str]) -> None:
    """The files every page shares, in ``folder`` as this version writes them (``stamp``: the folder's record's;
    ``there``: the names the folder held when the build began)."""
    for name in SHARED:
        if stamp != _shared_stamp() or name not in there:
            write_if_changed(folder / name, _shared_bytes(name))


def write_if_changed(path: Path | str, data: bytes, new: bool = False) -> bool:
    """Write ``data`` to ``path`` whole (a temporary file renamed), unless it holds those bytes already (read only
    when its size is theirs: a page that changed is rarely as long as it was; not looked at when the caller knows
    the folder lacked it: ``new``)."""
    try:
        if not new and os.stat(path).st_size == len(data) and _read(path) == data:
            return False
    except OSError:
        pass
    handle, temporary = _temporary(path)
    try:  # (the descriptor written at once: no file object's buffer over it)
        os.fchmod(handle, 0o644)  # readable by the web server whatever the umask
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view):]
    finally:
        os.close(handle)
    os.replace(temporary, path)
    return True


def _read(path: Path | str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


_NUMBERS = itertools.count()


def _temporary(path: Path | str) -> tuple[int, str]:
    """A new file beside ``path`` to write it in, open for writing: named by this process and a count (made at once,
    none other can have it: no name drawn at random to try, as ``tempfile.mkstemp`` does), or ``mkstemp``'s when a
    file of that name is left from a process that had this one's number."""
    parent, _, base = os.fspath(path).rpartition("/")
    name = f"{parent}/.{base}.{os.getpid()}.{next(_NUMBERS)}"
    try:
        return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600), name
    except FileExistsError:
        return tempfile.mkstemp(dir=parent, prefix=f".{base}.")


def places_json(scene: Scene, grounds: Sequence[str]) -> Markup:
    """What hovering and clicking show, plane by plane, as JSON safe in HTML (``jinja2``'s ``htmlsafe_json_dumps`` of
    it, the templates' ``tojson``, to the byte): the key of its ground's names file (each place's name, column and row:
    ``ground.ground_names_js``), then each place that is not bare ground alone: its index in the plane, its ground,
    who and makeup (the page's script puts the two together). Written here, each text's JSON made once (a map's
    thousand places share a few grounds, and most have nobody: a thousand small lists, several times faster than
    the encoder's walk of them)."""
    quoted = _Quoted()
    planes = [f"[{quoted[ground_key(ground)]}, [{', '.join(_place_json(plane, quoted))}]]"
              for plane, ground in zip(scene.planes, grounds, strict=True)]
    text = f"[{', '.join(planes)}]"
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                  .replace("'", "\\u0027"))


def _place_json(plane: Plane, quoted: _Quoted) -> list[str]:
    """Each place of ``plane`` that is not bare ground, as ``json.dumps`` writes its index, ground, who (a line each)
    and makeup (p[4], p[5], p[6]: a thousand, indexed)."""
    return [f"[{i}, {quoted[p[4]]}, {quoted[_LINE.join(p[5])]}, {quoted[p[6]]}]" for i, p in marked_places(plane)
            if p[4] or p[5] or p[6]]


_LINE = "\n"


class _Quoted(dict[str, str]):
    """Texts as JSON strings, as ``json.dumps`` writes them (non-ASCII as escapes), each made once."""

    def __missing__(self, text: str) -> str:
        self[text] = quoted = encode_basestring_ascii(text)
        return quoted


#: A table of more rows than this is folded under its title (Wesnoth's unit types: a page's height of rows).
FOLDED_ROWS = 25


def shown_table(table: Table, default: str) -> dict[str, Any]:
    """A table as the page writes it: its title, each row with its kind (a caption: a first row of one cell; a line
    of one cell; the header: the first row of several; cells), its width, whether it is folded, and its rows'
    HTML (``markupsafe.escape`` on every cell: a thousand cells at a time, faster than the template's loop)."""
    rows: list[tuple[str, tuple[str, ...]]] = []
    headed = False  # a row of several cells came before: the header
    for row in table.rows:
        if row.count("") >= len(row) - 1 and not any(row[1:]):  # (the count: a table's cells are text)
            rows.append(("caption" if not rows else "line", row[:1]))
        else:
            rows.append(("cells" if headed else "head", row))
            headed = True
    width = max((len(row) for row in table.rows), default=1)
    return {"title": table.title or default, "rows": rows, "width": width, "count": len(rows),
            "folded": len(rows) > FOLDED_ROWS, "html": Markup(_rows_html(rows, width))}


def _rows_html(rows: Sequence[tuple[str, Sequence[str]]], width: int) -> str:
    """A table's rows as HTML, every cell escaped: the whole table's cells at once, joined by separators no escaping
    writes and split again after it (a hundred rows of unit types at a time), or each cell alone when one holds a
    separator."""
    joined = _ROW_END.join(_SEPARATOR.join(row) for _, row in rows)
    if joined.count(_SEPARATOR) + joined.count(_ROW_END) != sum(len(row) for _, row in rows) - 1:
        return "\n".join(_row_html(kind, [_cell_html(cell) for cell in row], width) for kind, row in rows)
    texts, out, at = _cell_html(joined).split(_ROW_END), [], 0
    for kind, run in itertools.groupby(kind for kind, _ in rows):
        count = sum(1 for _ in run)
        if kind == "cells":  # a run of rows of cells (most of a table): its separators made boundaries at once
            out.append("<tr><td>" + "</td></tr>\n<tr><td>".join(texts[at:at + count]).replace(_SEPARATOR, "</td><td>")
                       + "</td></tr>")
        else:
            out += [_row_html(kind, text.split(_SEPARATOR), width) for text in texts[at:at + count]]
        at += count
    return "\n".join(out)


def _row_html(kind: str, cells: Sequence[str], width: int) -> str:
    """One row of a table, of its cells escaped."""
    if kind in ("caption", "line"):
        tag, extra = ("th", ' class="caption"') if kind == "caption" else ("td", "")
        return f'<tr><{tag} colspan="{width}"{extra}>{cells[0]}</{tag}></tr>'
    tag = "th" if kind == "head" else "td"
    return f"<tr><{tag}>{f'</{tag}><{tag}>'.join(cells)}</{tag}></tr>"


def log_rows(lines: Sequence[LogLine]) -> Markup:
    """A Log table's rows (turn, kind, what happened), a line each, every cell escaped: the templates' ``log_rows``
    filter (the table's cells escaped at once, ``_rows_html``: a war's Log is hundreds of lines)."""
    if not lines:
        return Markup("")
    return Markup(_rows_html([("cells", line) for line in lines], 3) + "\n")


def result_item(line: LogLine, at: Mapping[LogLine, str]) -> Markup:
    """One line of the latest results as a list item, escaped: its kind, then its words, a link to its square on
    the map when it names one (``at``: each line's ``k:i``, ``orders.squares_of``; the page's script follows it)."""
    _, kind, text = line
    square = at.get(line, "")
    words = f'<a href="#map" data-at="{square}">{escape(text)}</a>' if square else str(escape(text))
    return Markup(f'<li><span class="kind">{escape(kind)}</span> {words}</li>')


#: What each game's finder finds on its map (the page's other games: all three words).
FINDS = {"coalition": "an army or a player", "gvg": "a player", "wesnoth": "a unit", "champions": "a champion",
         "winordie": "a unit"}


#: What joins a row's cells, and a table's rows, while they are escaped at once (control characters: no escaping
#: writes them).
_SEPARATOR = "\x00"
_ROW_END = "\x01"


def _cell_html(cell: str) -> str:
    """A cell's text escaped (``markupsafe.escape``: quotes too, as ``html.escape``)."""
    return str(escape(cell))


@dataclass(frozen=True, slots=True)
class Drawn:
    """A state drawn for the page: its scene and each plane's SVG (drawn once, shown by every page of the state)."""

    scene: Scene
    svgs: tuple[str, ...]  # each plane's map: its ground's picture, and the places drawn over it
    places: Markup  # what hovering and clicking show beside the names files (``places_json``), as JSON safe in HTML
    grounds: tuple[str, ...]  # each plane's ground file (``ground.ground_file``)
    #: what its pages show alike, made for the first (``once``)
    made: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def once(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make`` makes of this state, made for the first page that shows it and kept for the others (the
        resolution's page and the page of now draw the same moves and tables)."""
        if key not in self.made:
            self.made[key] = make()
        return self.made[key]


def drawn(kind: BoardKind, drawings: Sequence[BoardDrawing]) -> Drawn:
    """The scene of ``drawings``, each of its planes' SVG over its ground, and its places' JSON (``places_json``)."""
    scene = scene_of(kind, drawings)
    env = environment()
    grounds = tuple(ground_file(plane) for plane in scene.planes)
    return Drawn(scene, tuple(plane_svg(env, plane, i, ground) for i, (plane, ground) in
                              enumerate(zip(scene.planes, grounds, strict=True))), places_json(scene, grounds), grounds)


def _keep_grounds(folder: Path, state: Drawn, there: set[str]) -> None:
    """The ground files of ``state``'s planes in ``folder`` and their names files, each written when it is not there
    (its name is a hash of what it draws; ``there``: the names the folder holds, kept up to date)."""
    for plane, name in zip(state.scene.planes, state.grounds, strict=True):
        if name not in there:
            write_if_changed(f"{folder}/{name}", ground_svg(plane).encode(), new=True)
        if names_file(name) not in there:
            write_if_changed(f"{folder}/{names_file(name)}", ground_names_js(plane, name).encode(), new=True)
        there |= {name, names_file(name)}


def _drop_grounds(folder: Path, kept: set[str], there: set[str]) -> None:
    """Remove the ground files (and their names files) no page of ``folder`` shows any more (an undo took their
    pages back; ``there``: the names the folder holds)."""
    kept = kept | {names_file(name) for name in kept}
    for name in grounds_in(there):
        if name not in kept:
            (folder / name).unlink(missing_ok=True)


def render(page: PageInput, state: Drawn, *, file: str, heading: str, resolved: str = "",
           log: Sequence[LogLine] = (), now: bool = False, earlier: str = "", adjusted: str = "",
           adjustments: Sequence[LogLine] = (), latest: Latest | None = None,
           opening: Sequence[LogLine] = (), standings: Sequence[Chart] = (),
           ends: Sequence[LogLine] = (), starts: Positions | None = None) -> str:
    """One page's HTML: the maps of ``state``, and what ``page`` says of the match (``now``: the open window's
    deadline, the standings and the other public tabs, which only the page of the match now shows); ``adjusted``
    heads the public Log lines of the GM's ``adjustments`` it shows; ``latest``: the last resolution's results, which
    the page of the match now opens on; ``opening``: the set-up's Log lines, which the page of the start shows. The
    resolution's moves and battles (``log``, else ``latest``'s) are drawn on its maps (``orders.overlays``), each
    move from where it started (``starts``, else ``latest``'s)."""
    scene = state.scene
    drawn_log = log if resolved else latest.log if latest is not None else ()
    starts = starts if resolved else latest.starts if latest is not None else None
    drawn_over = state.once(("overlays", tuple(drawn_log)), lambda: overlays(scene, drawn_log, page.rules, starts))
    planes = [{"title": plane.title, "svg": Markup(with_overlay(svg, over))}  # escaped: svg.py and orders.py
              for plane, svg, over in zip(scene.planes, state.svgs, drawn_over, strict=True)]
    link = page.sheet if page.sheet.startswith(("https://", "http://")) else ""
    values: dict[str, Any] = {
        "title": page.title, "game": page.game, "heading": heading, "file": file, "planes": planes,
        "places": state.places, "resolved": resolved, "log": log, "legend": scene.legend, "earlier": earlier,
        "adjusted": adjusted if adjustments else "", "adjustments": adjustments,
        "status": page.status if now or resolved else "", "deadline": page.deadline if now else "",
        "deadline_words": page.deadline_words, "closing": _upper(page.closing),
        "tables": [*state.once("tables", lambda: [shown_table(t, "Standings") for t in scene.tables]),
                   *(shown_table(t, "Turn report") for t in (scene.references if now else ()))], "sheet_url": link,
        "sheet_name": "" if link else os.path.basename(page.sheet.rstrip("/")), "latest": latest,
        "opening": opening, "charts": standings, "ends": ends, "names": [names_file(g) for g in state.grounds],
        "finds": FINDS.get(page.rules, "an army, a unit or a player"),
        "at": {} if latest is None else state.once(("at", latest.file, latest.log), lambda: _squares(scene, latest)),
    }
    return environment().get_template("page.html.j2").render(values)


def _squares(scene: Scene, latest: Latest) -> dict[LogLine, str]:
    """Where each of ``latest``'s battles, moves and lines of the game's own kinds happened on ``scene``'s map."""
    lines = [*latest.battles, *latest.moves, *(line for _, own in latest.others for line in own)]
    return dict(zip(lines, squares_of(scene, lines), strict=True))


def _windows_js(windows: Sequence[_Window], now: str, record: dict[str, Any]) -> bytes:
    """The list of windows the pages step through, and the folder's ``record`` (what the next build reads: one file
    written a build for both), each a statement of JSON."""
    items = [{"file": w.file, "label": w.label, **({"trail": trail_file(w.file)} if w.trail else {}),
              **({"gone": [list(g) for g in w.gone]} if w.gone else {})} for w in windows]
    items.append({"file": INDEX, "label": now})
    return f"window.SHEETS_GM_WINDOWS = {_script_json(items)};\n{_RECORD_HEAD}{_script_json(record)};\n".encode()


def _script_json(data: Any) -> str:
    """``data`` as JSON in a script: '<', '>' and '&' as escapes, so no text a player typed can close the script
    (json's C encoder: no indent)."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


def _since(lines: Sequence[RowLine], first: int, end: int | None = None) -> tuple[LogLine, ...]:
    """The lines of ``lines`` written from Log row ``first`` on (up to ``end``, excluded), and those whose row is not
    kept (-1: recorded by an earlier version)."""
    return tuple(line for row, line in lines if row < 0 or (first <= row and (end is None or row < end)))


def _end_of(folder: Path, windows: Sequence[_Window], number: int) -> int:
    """The Log row after the lines of resolution ``number``'s page (0 when the page has none: the start)."""
    found = next((w for w in windows if w.number == number and w.logged), None)
    if found is not None and found.end >= 0:  # kept in the record: its sidecar need not be read
        return found.end
    latest = read_latest(folder, found.file) if found is not None else None
    return latest.end if latest is not None else 0


def _before_page(folder: Path, page: PageInput, number: int, drawings: Sequence[BoardDrawing],
                 there: set[str], now: Drawn | None = None) -> _Window:
    """The page of the board ``drawings`` draw before resolution ``number`` (``w0.html``, the start, for the
    first), written with its ground files; its window (``now``: the board now, drawn, taken when it is the same)."""
    label = "the start" if number == 1 else f"before resolution {number}"
    file = f"w{number - 1}.html"
    before = now if now is not None and list(drawings) == list(page.drawings) else drawn(page.kind, drawings)
    _keep_grounds(folder, before, there)
    write_if_changed(f"{folder}/{file}", render(page, before, file=file, heading=_upper(label),
                                                opening=page.opening).encode(), new=file not in there)
    there.add(file)
    return _Window(number - 1, label, file, logged=False, grounds=before.grounds)


def _start_stamp(page: PageInput, key: str) -> str:
    """What the page of the start is of: the code that draws it, what ``page`` shows on it (the match's title,
    game and spreadsheet, the set-up's Log lines) and the board's ``state_key`` ('' when it is not known: none)."""
    if not key:
        return ""
    text = json.dumps([_code_stamp(), page.title, page.game, page.sheet, page.kind.name, page.rules,
                       page.opening, key])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@cache
def _code_stamp() -> str:
    """A hash of this version's templates, shared files and number: a page of the start written by another is
    drawn again."""
    from sheets_gm import __version__

    return hashlib.sha256("\0".join([__version__, *(_asset(name) for name in _ASSETS)]).encode()).hexdigest()[:20]


_ASSETS = ("page.html.j2", "map.svg.j2", *SHARED)
START = "w0.html"


def _keep_start(folder: Path, page: PageInput, windows: list[_Window], kept: Any, there: set[str],
                now: Drawn) -> dict[str, Any]:
    """Before the first resolution: the page of the start (``w0.html``, the board now as the first resolution's
    page would draw the board before it) in ``folder``, drawn again only when what it is of changed since the
    record's ``kept`` (a GM's adjustment: ``_start_stamp``) or a file of it is missing; what the record keeps of it
    (its stamp and ground files). The window list shows it only once a resolution follows it (or an undo left it:
    its entry's grounds kept up to date)."""
    stamp = _start_stamp(page, page.start_key)
    if _start_current(kept, stamp, there):
        return dict(kept)
    assert page.start is not None
    window = _before_page(folder, page, 1, page.start(), there, now)  # (most games: the board the page of now shows)
    windows[:] = [window if w.number == 0 else w for w in windows]
    return {"stamp": stamp, "grounds": list(window.grounds)}


def _start_current(kept: Any, stamp: str, there: set[str]) -> bool:
    """Whether the page of the start the record ``kept`` is of ``stamp`` and is in the folder, its ground files too
    (``there``: the names the folder holds)."""
    return bool(stamp) and isinstance(kept, dict) and kept.get("stamp") == stamp and START in there and \
        all(name in there and names_file(name) in there for name in kept.get("grounds", ()))


def _resolution_page(folder: Path, page: PageInput, done: Resolved, state: Drawn, windows: list[_Window],
                     figures: Figures, there: set[str], start: Any, after: Positions) -> Latest:
    """The page of the resolution ``done`` (and the board before it, when the page lacks it: the start's page
    written before the first resolution, ``start`` in the record, when it is of the board before it), added to
    ``windows`` with each side's ``figures`` after it, and its steps beside it (``trail``; ``after``: where everyone
    stands on ``state``); its latest results, as its sidecar keeps them (``read_latest`` of it; ``there``: the names
    the folder holds)."""
    if done.before is not None and all(w.number != done.number - 1 for w in windows):
        if done.number == 1 and _start_current(start, _start_stamp(page, done.before_key), there):
            windows.append(_Window(0, "the start", START, logged=False, grounds=tuple(start["grounds"])))
        else:
            windows.append(_before_page(folder, page, done.number, done.before(), there))
    file = f"w{done.number}.html"
    label = f"{done.number}. {done.label}{_step_words(windows, done)}"
    adjusted = _since(done.adjusted, _end_of(folder, windows, done.number - 1), done.start)
    before = _starts(folder, page, done, there)
    starts = moving(done.log, before)
    html = render(page, state, file=file, heading=f"{_upper(done.label)}: resolved", resolved=f"Resolved: {done.label}",
                  log=done.log, adjusted="Before it, the GM's adjustments", adjustments=adjusted, starts=starts)
    write_if_changed(f"{folder}/{file}", html.encode(), new=file not in there)
    latest = Latest(file, _upper(done.label), tuple((str(t), str(k), str(s)) for t, k, s in done.log), done.end,
                    page.rules, starts)
    write_if_changed(f"{folder}/{sidecar(file)}", latest_bytes(latest), new=sidecar(file) not in there)
    trail = steps(done.log, page.rules, before, after, routes(state.scene, done.log))
    write_if_changed(f"{folder}/{trail_file(file)}", _trail_js(file, trail), new=trail_file(file) not in there)
    windows.append(_Window(done.number, label, file, figures=figures, ends=tuple(end_lines(done.log)),
                           grounds=state.grounds, end=done.end, trail=True,
                           gone=tuple(tuple(g) for g in gone_of(trail))))
    return latest


def _trail_js(file: str, trail: Any) -> bytes:
    """The trail file of the resolution whose page is ``file``: a script adding its steps to the page's store."""
    return f"{TRAIL_HEAD}window.SHEETS_GM_TRAILS[{_script_json(file)}] = {_script_json(trail)};\n".encode()


def _step_words(windows: Sequence[_Window], done: Resolved) -> str:
    """What tells resolution ``done`` from the one before it when both resolved the same window (Win or Die's turn
    of one player, resolved a step at a time): ``, step 2``, ``, step 3``… ('' otherwise)."""
    before = next((w for w in windows if w.number == done.number - 1 and w.logged), None)
    if before is None:
        return ""
    base, _, step = before.label.partition(". ")[2].partition(", step ")
    if base != done.label:
        return ""
    return f", step {int(step) + 1 if step.isdecimal() else 2}"


def _starts(folder: Path, page: PageInput, done: Resolved, there: set[str]) -> Positions:
    """Where everyone stood before the resolution ``done``: as the build before it kept it (``WHERE``), when that
    build was of the resolution before it, else (a folder without it, or built last before resolutions it missed:
    the host was down) drawn from the board before it, when the poll gave it; else what the folder keeps."""
    kept: Any = {}
    if WHERE in there:
        try:
            kept = json.loads(_read(folder / WHERE))
        except (OSError, ValueError):
            kept = {}
    kept = kept if isinstance(kept, dict) else {}
    if "at" in kept and kept.get("resolved") == done.number - 1 and isinstance(kept["at"], dict):
        return kept["at"]
    if done.before is not None:
        return positions(scene_of(page.kind, done.before()))
    return kept.get("at", {}) if isinstance(kept.get("at", {}), dict) else {}


#: How many resolutions back the page of now looks for one with public Log lines to open on.
LOOK_BACK = 4


def _opened_on(folder: Path, windows: Sequence[_Window], latest: Latest | None, game: str) -> Latest | None:
    """The results the page of now opens on: the last resolution's, or when it logged nothing public (Champions'
    fight round of nobody's fight) the last before it that did, ``LOOK_BACK`` at most."""
    if latest is None or latest.log:
        return latest
    logged = [w for w in windows if w.logged and w.file != latest.file][-LOOK_BACK:]
    for window in reversed(logged):
        found = read_latest(folder, window.file, game)
        if found is not None and found.log:
            return found
    return latest


def _standings(windows: Sequence[_Window], now: Figures) -> list[Chart]:
    """The charts of each side's figures over the resolutions the page keeps, and ``now`` (when it differs)."""
    series = [(w.label, w.figures) for w in windows if w.figures is not None]
    if not series or series[-1][1] != now:
        series.append(("now", now))
    return charts(series)


def build_site(folder: Path, page: PageInput) -> bool:
    """Bring the match page's ``folder`` up to ``page`` (see the module notes); whether it wrote anything."""
    built, windows, shared, start = _load(folder)
    if built == page.marker and page.resolution is None:
        return False
    folder.mkdir(parents=True, exist_ok=True)
    there = set(os.listdir(folder))  # (one listing: a name looked up in it costs no call of the system's)
    for gone in [w for w in windows if w.number > page.resolved]:  # an undo took them back
        (folder / gone.file).unlink(missing_ok=True)
        (folder / sidecar(gone.file)).unlink(missing_ok=True)
        (folder / trail_file(gone.file)).unlink(missing_ok=True)
    done = page.resolution  # its page written whole, over one of its number a resolution taken back had left
    windows = [w for w in windows if w.number <= page.resolved and (done is None or w.number < done.number)]
    now_drawn = drawn(page.kind, page.drawings)
    now_where = positions(now_drawn.scene)
    _keep_grounds(folder, now_drawn, there)
    figures = figures_of(page.status, page.seats)  # each side's, now (a war's: its armies and structures too)
    for side, more in (war_figures(now_drawn.scene, page.seats) if page.rules == "coalition" else {}).items():
        side = next((named for named in figures if named.lower() == side.lower()), side)  # as the status names it
        figures[side] = {**figures.get(side, {}), **more}
    written = _resolution_page(folder, page, done, now_drawn, windows, figures, there, start, now_where) \
        if done is not None else None
    start = _keep_start(folder, page, windows, start, there, now_drawn) if page.resolved == 0 and page.start else None
    if start is None and START in there and all(w.file != START for w in windows):  # a start no page shows
        (folder / START).unlink(missing_ok=True)
    windows.sort(key=lambda w: w.number)
    now = f"now: {page.window}" if page.window else "now: the match is over"
    missing = page.resolved - sum(1 for w in windows if w.number > 0 and w.logged)
    earlier = (f"{counted(missing, 'resolution')} of this match came before this page was kept: their Log lines "
               "are in the spreadsheet's Log tab." if missing > 0 else "")
    last = next((w for w in reversed(windows) if w.logged and w.number == page.resolved), None)
    latest = written if written is not None and last is not None and last.file == written.file else \
        read_latest(folder, last.file, page.rules) if last else None
    html = render(page, now_drawn, file=INDEX, heading=_upper(now), now=True, earlier=earlier,
                  adjusted="The GM's adjustments since the last resolution" if page.resolved else
                  "The GM's adjustments", adjustments=_since(page.adjusted, latest.end if latest else 0),
                  latest=_opened_on(folder, windows, latest, page.rules),
                  opening=page.opening if page.resolved == 0 else (),
                  standings=_standings(windows, figures), ends=[line for w in windows for line in w.ends])
    write_if_changed(f"{folder}/{INDEX}", html.encode())
    write_if_changed(f"{folder}/{WHERE}", _script_json({"resolved": page.resolved, "at": now_where}).encode(),
                     new=WHERE not in there)
    _keep_shared(folder, shared, there)
    _drop_grounds(folder, {name for w in windows for name in w.grounds} | set(now_drawn.grounds) |
                  set(start["grounds"] if start else ()), there)
    record = {"built": page.marker, "windows": [w.to_json() for w in windows], "shared": _shared_stamp(),
              **({"start": start} if start else {})}
    write_if_changed(f"{folder}/{WINDOWS}", _windows_js(windows, now, record))
    if built and shared != _shared_stamp():  # a folder an older version built: its record moved into windows.js
        (folder / RECORD).unlink(missing_ok=True)
    return True
