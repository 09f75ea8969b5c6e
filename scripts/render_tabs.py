"""Print a local match's tabs as LibreOffice prints them: a PDF and a PNG per page of each tab, to look at.

    .venv/bin/python scripts/render_tabs.py MATCH_FOLDER [--out FOLDER] [--tabs Board,Log] [--workbooks board]
    .venv/bin/python scripts/render_tabs.py demo-out/board.xlsx --tabs Board

MATCH_FOLDER is a local match's folder (every ``*.xlsx`` in it, ``gm/`` too) or one workbook. Each tab is printed
on its own (a copy of its workbook holding that tab alone, or with every other tab hidden where it holds a formula:
LibreOffice does not print a hidden tab), with the tab's own print settings (orientation, fit to width, repeated
rows), so its page count is the tab's alone. The script prints a line per tab: its pages, the scale it prints at
(its shown columns against the pages' width, as fit to width shrinks it, and the default font's size at that scale),
the smallest text in its PDF, and the first picture; the pictures are ``<workbook>-<tab>-<page>.png`` under ``--out``
(default: ``render`` in the match folder; ``--max-pages 0``: none).
Needs LibreOffice (``soffice``) and poppler (``pdftoppm``, ``pdftotext``).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter

from sheets_gm.sheets.printed_sizes import PRINT_HEADINGS_POINTS, pages_laid


def pdf_pages(pdf: Path) -> int:
    """The number of pages of a PDF LibreOffice wrote (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


#: The width in points a Letter page prints (the narrower of Letter and A4, less the .xlsx default margins of .75
#: inch either side), landscape and portrait.
PAGE_POINTS = {"landscape": 684.0, "portrait": 504.0}
#: The default font's size (Arial 10, ``sheets_gm.sheets.local.layout.DEFAULT_FONT_NAME``): the printed type is this
#: times the scale.
FONT_POINTS = 10.0


#: A column's printed width in points (unscaled) per character of its width in the .xlsx, and added to them: Excel's
#: measure (7 pixels a character and 5, three quarters of a point a pixel), and LibreOffice's in DejaVu Sans, which
#: it prints in where Calibri and Carlito are missing (measured in its PDFs: 7.29 characters 51.3 points, 62.14
#: characters 414), whose wider characters make LibreOffice shrink a fit-to-width tab further than Excel's measure
#: says (a Wesnoth map at 8.1 pt where Excel's measure says 10).
#: ``LIBERATION``: LibreOffice's in Liberation Sans, Arial's metric twin, which it prints the workbooks' default font
#: (Arial 10) in (measured in its PDFs: 7.29 characters 40.4 points, 62.14 characters 344.9, 20 characters 111.0).
#: A workbook made before in Calibri 11 prints in DejaVu Sans here (``DEJAVU``).
EXCEL = (5.25, 3.75)
DEJAVU = (6.62, 3.0)
LIBERATION = (5.55, 0.0)


def measure_of(ws: Any) -> tuple[float, float]:
    """How wide the columns of ``ws`` print here: in Liberation Sans where its workbook's default font is Arial
    (ours), else in DejaVu Sans (Calibri, openpyxl's default and our workbooks' before, is missing here)."""
    return LIBERATION if ws.parent._fonts[0].name in ("Arial", "Liberation Sans") else DEJAVU


def printed_type(ws: Any) -> float:
    """The type size in points the worksheet ``ws`` prints at, estimated: its default font's size at its
    ``printed_scale`` by ``measure_of`` its font (the PDF's own is ``smallest_type``)."""
    return float(ws.parent._fonts[0].sz or FONT_POINTS) * printed_scale(ws, measure_of(ws))


#: What LibreOffice takes off the zoom of a tab fit to pages wide but not tall that prints over pages down, where
#: that saves a page down (its tdf#103516: the zoom, a whole percent, times 0.98, to a whole percent below).
LIBREOFFICE_SHRINK = 0.98


def printed_scale(ws: Any, measure: tuple[float, float] = LIBERATION) -> float:
    """The least scale LibreOffice may print the worksheet ``ws`` at: its ``print_scale`` to the whole percent
    below (LibreOffice looks for the largest whole percent its columns fit at), and for a tab fit to pages wide
    but not tall, ``LIBREOFFICE_SHRINK`` less, which it takes where that saves a page down: whether it does turns
    on the rows' heights, which LibreOffice sets itself for wrapped text and a match's rows grow (a Win or Die
    Orders tab laid out for 80% printed at 78%, 7.8 pt, with its Feedback wrapped on two lines)."""
    scale = print_scale(ws, measure)
    if not ws.sheet_properties.pageSetUpPr or not ws.sheet_properties.pageSetUpPr.fitToPage:
        return scale
    zoom = math.floor(scale * 100 + 1e-9)
    if ws.page_setup.fitToWidth and not ws.page_setup.fitToHeight:
        zoom = math.floor(zoom * LIBREOFFICE_SHRINK)
    return zoom / 100


def print_scale(ws: Any, measure: tuple[float, float] = LIBERATION) -> float:
    """The scale the worksheet ``ws`` prints at (1: its own size): fit to N pages wide, its shown columns' width in
    points against N pages' printable width, never above 1, and smaller where its columns, none split, do not fall
    on N pages at that (LibreOffice shrinks it until they do: a map of 17 columns and 10 with the legend); a tab not
    fit to pages prints at its own size. ``measure``: how wide a column prints (``LIBERATION``, ``EXCEL``,
    ``DEJAVU``)."""
    if not ws.sheet_properties.pageSetUpPr or not ws.sheet_properties.pageSetUpPr.fitToPage:
        return 1.0
    wide = ws.page_setup.fitToWidth or 0
    if wide == 0:
        return 1.0  # fit to pages tall only: LibreOffice does not shrink it for its width
    widths = [(col, points) for col in range(1, ws.max_column + 1) if (points := _column_points(ws, col, measure))]
    # the columns repeated on each page across (a table's first, a plane's row letters) take room on every page
    last = _title_cols(ws)
    points = (sum(w for _c, w in widths) + (wide - 1) * sum(w for c, w in widths if c <= last)
              + wide * _headings_points(ws))
    page = PAGE_POINTS.get(ws.page_setup.orientation or "portrait", PAGE_POINTS["portrait"])
    # a hair below the exact fit: the columns summed at it come to the page's width give or take a rounding, which
    # once laid them on a page more, the scale then taken 1% down (a Wesnoth View at 8.17 where it fits at 8.26)
    scale = min(1.0, wide * page / points) * (1 - 1e-9) if points else 1.0
    while scale > 0.1 and _pages_across(ws, scale, measure) > wide:
        scale *= 0.99
    return scale


#: The height in points a page prints (Letter's, the shorter of Letter and A4), before its margins.
PAGE_HEIGHT_POINTS = {"landscape": 612.0, "portrait": 792.0}


def _column_points(ws: Any, col: int, measure: tuple[float, float] = LIBERATION) -> float:
    """A column's printed width in points at scale 1 (0 if hidden), by ``measure``."""
    dimension = ws.column_dimensions.get(get_column_letter(col))
    if dimension is not None and dimension.hidden:
        return 0.0
    chars = dimension.width if dimension is not None and dimension.width else 8.43
    return chars * measure[0] + measure[1]


def _title_cols(ws: Any) -> int:
    """The last column each page across repeats (0: none)."""
    repeated = ws.print_title_cols or ""
    return int(ws[repeated.split(":")[-1].replace("$", "") + "1"].column) if repeated else 0


def _print_corner(ws: Any) -> tuple[int, int]:
    """The last column and row printed: the print area's, else the worksheet's."""
    area = (ws.print_area or "").split("!")[-1].replace("$", "").split(":")
    if len(area) == 2:
        return int(ws[area[1]].column), int(ws[area[1]].row)
    return int(ws.max_column), int(ws.max_row)


def _headings_points(ws: Any) -> float:
    """The width at scale 1 of the row numbers LibreOffice prints on each page of a tab printed with its headings."""
    return PRINT_HEADINGS_POINTS if ws.print_options.headings else 0.0


def _pages_across(ws: Any, scale: float, measure: tuple[float, float]) -> int:
    widths = [_column_points(ws, c, measure) * scale for c in range(1, _print_corner(ws)[0] + 1)]
    title = _title_cols(ws)
    return pages_laid(widths[title:], sum(widths[:title]) + _headings_points(ws) * scale,
                      PAGE_POINTS[ws.page_setup.orientation or "portrait"])


def estimated_pages(ws: Any, measure: tuple[float, float] = LIBERATION) -> tuple[int, int]:
    """The pages across and down the worksheet ``ws`` prints to at its ``print_scale`` by ``measure``, on Letter
    with its own margins, without LibreOffice: its print area's columns and rows laid on pages, none split, each
    page repeating its title rows and columns, as LibreOffice lays them; a row counted at its height in the .xlsx
    (LibreOffice grows a row of wrapped text that has none). ``render_tabs.py`` prints the real count to compare."""
    scale = print_scale(ws, measure)
    default = ws.sheet_format.defaultRowHeight or 15.0
    heights = [(ws.row_dimensions[r].height or default) * scale for r in range(1, _print_corner(ws)[1] + 1)]
    title_rows = int((ws.print_title_rows or "").split(":")[-1].replace("$", "") or 0)
    margins = ws.page_margins
    room = PAGE_HEIGHT_POINTS[ws.page_setup.orientation or "portrait"] - 72 * ((margins.top or 0)
                                                                             + (margins.bottom or 0))
    return _pages_across(ws, scale, measure), pages_laid(heights[title_rows:], sum(heights[:title_rows]), room)


def smallest_text(pdf: Path) -> float:
    """The height in points of the smallest word LibreOffice printed in ``pdf`` (its type size; 0 if no text):
    ``pdftotext -bbox``'s boxes are as tall as their font."""
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=False)
    heights = [float(m.group(2)) - float(m.group(1))
               for m in re.finditer(r'<word [^>]*yMin="([\d.]+)" [^>]*yMax="([\d.]+)"', done.stdout)]
    return round(min(heights), 1) if heights else 0.0


def smallest_type(pdf: Path) -> float:
    """The smallest font size in points LibreOffice set in ``pdf`` (its text operators' ``Tf``, which it writes at
    the printed size): the type as printed, whatever the fonts (a machine without Calibri or Carlito prints in
    DejaVu Sans, whose wider characters widen each column, and LibreOffice shrinks a fit-to-width tab further than
    its columns' widths in Excel's measure say; 0 if no text)."""
    sizes = []
    for stream in re.finditer(rb"stream\r?\n(.*?)endstream", pdf.read_bytes(), re.S):
        try:
            content = zlib.decompress(stream.group(1))
        except zlib.error:
            continue
        sizes += [float(size) for size in re.findall(rb"/F\d+ ([\d.]+) Tf", content)]
    return round(min(sizes), 1) if sizes else 0.0


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "tab"


def single_tab_copies(workbook: Path, tabs: set[str] | None, into: Path) -> list[tuple[str, Path, float]]:
    """A copy of ``workbook`` per visible tab (those named in ``tabs``, or all), with the scale the tab prints at
    (``print_scale``): the other tabs left out, which LibreOffice then neither loads nor prints (a copy of a tab
    holding a formula, which may read another tab, keeps them, hidden, which it does not print)."""
    out = []
    listed = openpyxl.load_workbook(workbook, read_only=True)  # the tabs' names and states, their cells unread
    shown = [ws.title for ws in listed.worksheets if ws.sheet_state == "visible"]
    listed.close()
    for title in shown:
        if tabs is not None and title not in tabs:
            continue
        book = openpyxl.load_workbook(workbook, rich_text=True)  # words struck in a cell printed struck
        alone = not _holds_formula(book[title])
        for ws in book.worksheets:
            if ws.title == title:
                ws.sheet_state = "visible"
            elif alone:
                book.remove(ws)
            else:
                ws.sheet_state = "hidden"
                ws.print_area = None  # LibreOffice prints a hidden tab that has a print range
        book.active = book.sheetnames.index(title)
        path = into / f"{workbook.stem}-{_slug(title)}.xlsx"
        book.save(path)
        out.append((title, path, print_scale(book[title])))
    return out


def _holds_formula(ws: Any) -> bool:
    """Whether a cell of the worksheet ``ws`` holds a formula."""
    return any(cell.data_type == "f" for row in ws.iter_rows() for cell in row)


def main(argv: list[str] | None = None) -> int:
    """Render every (or the named) tab of the match's workbooks; print pages per tab."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", type=Path, help="a local match's folder, or one .xlsx workbook")
    parser.add_argument("--out", type=Path, help="folder for the PDFs and PNGs (default: MATCH/render)")
    parser.add_argument("--tabs", help="comma-separated tab names to render (default: every visible tab)")
    parser.add_argument("--workbooks", help="comma-separated workbook names without .xlsx (default: all)")
    parser.add_argument("--dpi", type=int, default=60, help="PNG resolution (default 60)")
    parser.add_argument("--max-pages", type=int, default=6, help="PNGs per tab at most (default 6; 0: none)")
    args = parser.parse_args(argv)
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None or shutil.which("pdftoppm") is None:
        print("needs LibreOffice (soffice) and poppler (pdftoppm): apt install libreoffice-calc poppler-utils",
              file=sys.stderr)
        return 1
    match: Path = args.match
    books = [match] if match.is_file() else sorted([*match.glob("*.xlsx"), *match.glob("gm/*.xlsx")])
    if args.workbooks:
        wanted = set(args.workbooks.split(","))
        books = [b for b in books if b.stem in wanted]
    if not books:
        print(f"no workbooks to render in {match}", file=sys.stderr)
        return 1
    out: Path = args.out or (match.parent if match.is_file() else match) / "render"
    out.mkdir(parents=True, exist_ok=True)
    tabs = set(args.tabs.split(",")) if args.tabs else None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copies = [(book, title, path, scale) for book in books
                  for title, path, scale in single_tab_copies(book, tabs, work)]
        if not copies:
            print("no tab of that name in the workbooks", file=sys.stderr)
            return 1
        # one LibreOffice run for every copy (a private profile: works beside a LibreOffice already open)
        subprocess.run([soffice, f"-env:UserInstallation=file://{work}/profile", "--headless", "--convert-to",
                        "pdf", "--outdir", str(out), *(str(c[2]) for c in copies)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for book, title, path, scale in copies:
        pdf = out / f"{path.stem}.pdf"
        pages = pdf_pages(pdf)
        if args.max_pages > 0:
            subprocess.run(["pdftoppm", "-png", "-r", str(args.dpi), "-l", str(min(pages, args.max_pages)), str(pdf),
                            str(out / path.stem)], check=True)
        first = sorted(out.glob(f"{path.stem}-*.png"))
        print(f"{book.name} · {title}: {pages} page{'s' if pages != 1 else ''} · scale {scale:.2f} "
              f"({FONT_POINTS * scale:.1f} pt) · smallest text {smallest_text(pdf)} pt · type {smallest_type(pdf)} pt"
              f"{' · ' + str(first[0]) if first else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
