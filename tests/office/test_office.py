"""The tests' LibreOffice (``tests/office/office.py``): one that crashed is started again at the next test's use, and
one stopped leaves no process behind. Under the soak marker: two LibreOffice starts; the quick run's LibreOffice
tests use it throughout."""

from __future__ import annotations

import glob
import os
import signal
from pathlib import Path

import openpyxl
import pytest

from tests.office.office import Office, office_ready

pytestmark = [pytest.mark.soak,
              pytest.mark.skipif(not office_ready(), reason="LibreOffice (soffice and python3-uno) is not installed")]


def _office_processes(office: Office) -> list[int]:
    """The processes ``office`` started that still run: its ``oosplash`` and the ``soffice.bin`` under it."""
    process = office._process
    if process is None or process.poll() is not None:
        return []
    return [process.pid, *(int(child) for children in glob.glob(f"/proc/{process.pid}/task/*/children")
                           for child in Path(children).read_text().split())]


def test_a_crashed_libreoffice_is_started_again_and_a_stopped_one_leaves_nothing(tmp_path: Path) -> None:
    """Checked to fail with ``Office.run`` not starting a LibreOffice found dead (the conversion after the crash
    finds no LibreOffice on the pipe)."""
    book = openpyxl.Workbook()
    book.active["A1"] = "a cell"
    book.save(tmp_path / "book.xlsx")
    office = Office(tmp_path / "office")
    try:
        (pdf,) = office.convert([tmp_path / "book.xlsx"], "pdf", tmp_path / "first")
        assert pdf.read_bytes().startswith(b"%PDF")
        first = _office_processes(office)
        assert len(first) == 2, first
        os.kill(first[1], signal.SIGKILL)  # soffice.bin crashes: oosplash ends with it
        assert office._process is not None and office._process.wait(timeout=60) != 0
        (page,) = office.convert([tmp_path / "book.xlsx"], "html", tmp_path / "again")
        assert "a cell" in page.read_text(encoding="utf-8")
        again = _office_processes(office)
        assert len(again) == 2 and again[0] != first[0], (first, again)
    finally:
        office.stop()
    assert not _office_processes(office)
    assert not any(Path(f"/proc/{pid}").exists() for pid in again), again
