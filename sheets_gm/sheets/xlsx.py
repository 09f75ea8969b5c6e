"""openpyxl, imported without numpy.

openpyxl imports numpy when it is installed, only to accept numpy numbers as cell values;
sheets-gm never writes one. numpy is installed beside the test and plot extras, and importing
it is the largest part of a local sync's start-up (cron starts one every few minutes), so
openpyxl is imported with numpy hidden, and numpy stays importable for whoever needs it.
"""

from __future__ import annotations

import sys
from types import ModuleType


def _import_without_numpy() -> ModuleType:
    """openpyxl, imported while ``import numpy`` fails; numpy importable again afterwards."""
    hide = "numpy" not in sys.modules
    if hide:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # makes ``import numpy`` fail at once
    try:
        import openpyxl
    finally:
        if hide:
            del sys.modules["numpy"]
    module: ModuleType = openpyxl
    return module


openpyxl = _import_without_numpy()
