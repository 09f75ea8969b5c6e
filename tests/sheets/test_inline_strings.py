"""A text cell saved as an inline string reads back as openpyxl's own reader reads it (``sheets/xlsx.py`` reads such
a cell straight from its elements, a third of a text workbook's load; issue 66)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from sheets_gm.sheets import xlsx
from sheets_gm.sheets.xlsx import openpyxl

from openpyxl.worksheet._reader import WorkSheetParser  # isort: skip  # after sheets.xlsx: openpyxl without numpy

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

#: Cells as an office program or openpyxl may save them: plain, spaced, empty, rich runs, phonetic runs, several
#: ``<t>``, a formula beside the string, no ``<is>`` at all, a style, no coordinate, another prefix.
CELLS = [
    '<c r="A1" t="inlineStr"><is><t>junk1</t></is></c>',
    '<c r="B2" s="3" t="inlineStr"><is><t xml:space="preserve">  two  spaces </t></is></c>',
    '<c r="C3" t="inlineStr"><is><t/></is></c>',
    '<c r="D4" t="inlineStr"><is></is></c>',
    '<c r="E5" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r><r><t> then plain</t></r></is></c>',
    '<c r="F6" t="inlineStr"><is><t>base</t><r><t>+run</t></r><rPh sb="0" eb="1"><t>ふり</t></rPh></is></c>',
    '<c r="G7" t="inlineStr"><is><t>first</t><t>last</t></is></c>',
    '<c r="H8" t="inlineStr"><f>1+1</f><is><t>2</t></is></c>',
    '<c r="I9" t="inlineStr"/>',
    '<c t="inlineStr"><is><t>no coordinate</t></is></c>',
    '<c r="K11" s="0" t="inlineStr"><is><t>=SUM(A1:A2)</t></is></c>',
    '<c r="L12" t="inlineStr"><is><t>Zoë ✘ 💥\nline two</t></is></c>',
    '<c r="M13" t="inlineStr"><is><r><t>only runs</t></r><r><t/></r></is></c>',
    '<c r="N14" t="n"><v>3</v></c>',
]


def _parser(data_only: bool = False, rich_text: bool = False) -> object:
    parser = WorkSheetParser(io.BytesIO(b""), [], data_only=data_only, rich_text=rich_text)
    parser.row_counter, parser.col_counter = 7, 2
    return parser


@pytest.mark.parametrize("xml", CELLS)
@pytest.mark.parametrize("data_only", [False, True])
def test_a_cell_reads_as_openpyxls_own_reader_reads_it(xml: str, data_only: bool) -> None:
    """Each cell of ``CELLS``, in the main namespace and under another prefix, reads to the same row, column, value,
    type and style as openpyxl's own ``parse_cell`` gives (this test fails if the rich runs are left out, if the
    first of two ``<t>`` is taken, or if a formula's cell is read as its text)."""
    for source in (xml.replace("<c ", f'<c xmlns="{NS}" ', 1),
                   xml.replace("<", "<x:").replace("<x:/", "</x:").replace("</x:", "</x:")
                   .replace("<x:c ", f'<x:c xmlns:x="{NS}" ', 1)):
        element = ET.fromstring(source)
        ours, theirs = _parser(data_only), _parser(data_only)
        assert xlsx._parse_cell(ours, element) == xlsx._openpyxl_parse_cell(theirs, element)
        assert (ours.row_counter, ours.col_counter) == (theirs.row_counter, theirs.col_counter)  # type: ignore[attr-defined]


def test_rich_text_is_left_to_openpyxl() -> None:
    """A load asking for rich text gets openpyxl's rich text objects, not plain text."""
    element = ET.fromstring(f'<c xmlns="{NS}" r="A1" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r></is></c>')
    ours, theirs = _parser(rich_text=True), _parser(rich_text=True)
    assert xlsx._parse_cell(ours, element) == xlsx._openpyxl_parse_cell(theirs, element)


def test_a_saved_workbook_of_text_loads_back_whole() -> None:
    """Text openpyxl saves (spaces, line breaks, formula-like text, other scripts) loads back as it was written."""
    book = openpyxl.Workbook()
    texts = ["junk0", "  spaced  ", "two\nlines", "=not a formula", "ünïcødé ✘", "x" * 300]
    for row, text in enumerate(texts, start=1):
        book.active.cell(row, 1).value = text
    buffer = io.BytesIO()
    book.save(buffer)
    back = openpyxl.load_workbook(io.BytesIO(buffer.getvalue()), rich_text=False)
    assert [back.active.cell(row, 1).value for row in range(1, len(texts) + 1)] == texts
