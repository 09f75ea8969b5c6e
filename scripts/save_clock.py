"""A pytest plugin that clocks every workbook save of a test run: the CPU seconds (``time.process_time``) spent in
openpyxl's ``Workbook.save`` and the number of saves, printed when the run ends. It measures a save's cost in the
tests' own workload, where a benchmark's rounds save the same workbooks again and again.

    PYTHONPATH=scripts .venv/bin/python -m pytest -n 0 -p no:randomly -p save_clock tests/sync/test_sync_local.py
"""

from __future__ import annotations

import sys
import time
from typing import Any

_SPENT: list[float] = [0.0, 0.0]  # CPU seconds in saves, saves


def pytest_configure(config: Any) -> None:
    """``Workbook.save`` wrapped to add its CPU to the clock (openpyxl imported as the product imports it)."""
    from sheets_gm.sheets.xlsx import openpyxl

    workbook = openpyxl.workbook.workbook.Workbook
    save = workbook.save

    def clocked(book: Any, filename: Any) -> Any:
        start = time.process_time()
        try:
            return save(book, filename)
        finally:
            _SPENT[0] += time.process_time() - start
            _SPENT[1] += 1

    workbook.save = clocked


def pytest_unconfigure(config: Any) -> None:
    """The clock printed: the saves and their CPU."""
    print(f"\nsave clock: {int(_SPENT[1])} saves, {_SPENT[0]:.2f} CPU s", file=sys.stderr)
