"""Every docstring example in the package runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import sheets_gm


def modules_with_examples() -> list[ModuleType]:
    """The package's modules whose docstrings hold an example (``>>>``)."""
    found = []
    for info in pkgutil.walk_packages(sheets_gm.__path__, "sheets_gm."):
        module = importlib.import_module(info.name)
        if doctest.DocTestFinder().find(module) and any(t.examples for t in doctest.DocTestFinder().find(module)):
            found.append(module)
    return found


@pytest.mark.parametrize("module", modules_with_examples(), ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, verbose=False, report=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {module.__name__} fail"
