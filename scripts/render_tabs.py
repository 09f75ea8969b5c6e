"""Print a local match's tabs as LibreOffice prints them: a PDF and a PNG per page of each tab, to look at.

    .venv/bin/python scripts/render_tabs.py MATCH_FOLDER [--out FOLDER] [--tabs Board,Log] [--workbooks board]
    .venv/bin/python scripts/render_tabs.py demo-out/board.xlsx --tabs Board

MATCH_FOLDER is a local match's folder (every ``*.xlsx`` in it, ``gm/`` too) or one workbook. Each tab is printed
on its own (a copy of its workbook with every other tab hidden, which LibreOffice does not print), with the tab's
own print settings (orientation, fit to width, repeated rows), so its page count is the tab's alone. The script
prints a line per tab: its pages, the scale it prints at (its shown columns against the pages' width, as fit to
width shrinks it, and the default font's size at that scale), the smallest text in its PDF, and the first picture;
the pictures are ``<workbook>-<tab>-<page>.png`` under ``--out`` (default: ``render`` in the match folder).
Needs LibreOffice (``soffice``) and poppler (``pdftoppm``, ``pdftotext``).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter


def pdf_pages(pdf: Path) -> int:
    """The number of pages of a PDF LibreOffice wrote (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


#: The width in points a Letter page prints (the narrower of Letter and A4, less the .xlsx default margins of .75
#: inch either side), landscape and portrait.
PAGE_POINTS = {"landscape": 684.0, "portrait": 504.0}
#: The default font's size (Calibri 11): the printed type is this times the scale.
FONT_POINTS = 11.0


def print_scale(ws: Any) -> float:
    """The scale the worksheet ``ws`` prints at (1: its own size): fit to N pages wide, its shown columns' width in
    points against N pages' printable width, never above 1; a tab not fit to pages prints at its own size."""
    if not ws.sheet_properties.pageSetUpPr or not ws.sheet_properties.pageSetUpPr.fitToPage:
        return 1.0
    wide = ws.page_setup.fitToWidth or 0
    if wide == 0:
        return 1.0  # fit to pages tall only: LibreOffice does not shrink it for its width
    widths = []
    for col in range(1, ws.max_column + 1):
        dimension = ws.column_dimensions.get(get_column_letter(col))
        if dimension is not None and dimension.hidden:
            continue
        chars = dimension.width if dimension is not None and dimension.width else 8.43
        widths.append((col, (chars * 7 + 5) * 0.75))  # Excel's character width to pixels, pixels to points
    # the columns repeated on each page across (a table's first, a plane's row letters) take room on every page
    repeated = ws.print_title_cols or ""
    last = ws[repeated.split(":")[-1].replace("$", "") + "1"].column if repeated else 0
    points = sum(w for _c, w in widths) + (wide - 1) * sum(w for c, w in widths if c <= last)
    page = PAGE_POINTS.get(ws.page_setup.orientation or "portrait", PAGE_POINTS["portrait"])
    return min(1.0, wide * page / points) if points else 1.0


def smallest_text(pdf: Path) -> float:
    """The height in points of the smallest word LibreOffice printed in ``pdf`` (its type size; 0 if no text):
    ``pdftotext -bbox``'s boxes are as tall as their font."""
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=False)
    heights = [float(m.group(2)) - float(m.group(1))
               for m in re.finditer(r'<word [^>]*yMin="([\d.]+)" [^>]*yMax="([\d.]+)"', done.stdout)]
    return round(min(heights), 1) if heights else 0.0


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "tab"


def single_tab_copies(workbook: Path, tabs: set[str] | None, into: Path) -> list[tuple[str, Path, float]]:
    """A copy of ``workbook`` per visible tab (those named in ``tabs``, or all), every other tab hidden, with the
    scale the tab prints at (``print_scale``)."""
    out = []
    book = openpyxl.load_workbook(workbook)
    shown = [ws.title for ws in book.worksheets if ws.sheet_state == "visible"]
    for title in shown:
        if tabs is not None and title not in tabs:
            continue
        book = openpyxl.load_workbook(workbook)
        for ws in book.worksheets:
            ws.sheet_state = "visible" if ws.title == title else "hidden"
            if ws.title != title:
                ws.print_area = None  # LibreOffice prints a hidden tab that has a print range
        book.active = book.sheetnames.index(title)
        path = into / f"{workbook.stem}-{_slug(title)}.xlsx"
        book.save(path)
        out.append((title, path, print_scale(book[title])))
    return out


def main(argv: list[str] | None = None) -> int:
    """Render every (or the named) tab of the match's workbooks; print pages per tab."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", type=Path, help="a local match's folder, or one .xlsx workbook")
    parser.add_argument("--out", type=Path, help="folder for the PDFs and PNGs (default: MATCH/render)")
    parser.add_argument("--tabs", help="comma-separated tab names to render (default: every visible tab)")
    parser.add_argument("--workbooks", help="comma-separated workbook names without .xlsx (default: all)")
    parser.add_argument("--dpi", type=int, default=60, help="PNG resolution (default 60)")
    parser.add_argument("--max-pages", type=int, default=6, help="PNGs per tab at most (default 6)")
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
        subprocess.run(["pdftoppm", "-png", "-r", str(args.dpi), "-l", str(min(pages, args.max_pages)), str(pdf),
                        str(out / path.stem)], check=True)
        first = sorted(out.glob(f"{path.stem}-*.png"))
        print(f"{book.name} · {title}: {pages} page{'s' if pages != 1 else ''} · scale {scale:.2f} "
              f"({FONT_POINTS * scale:.1f} pt) · smallest text {smallest_text(pdf)} pt"
              f"{' · ' + str(first[0]) if first else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
