"""Every docstring example in the package runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.paths import ROOT


def modules_with_examples() -> list[str]:
    """The package's modules whose source holds an example (``>>>``), by name: found by their text, so that
    collecting the tests does not import every module of the package in each worker (the test imports its own)."""
    package = ROOT / "sheets_gm"
    return sorted(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for path in package.rglob("*.py") if ">>>" in path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module)
    assert any(t.examples for t in tests), f"{name} holds '>>>' but no docstring example: make it one, or reword it"
    result = doctest.testmod(module, verbose=False, report=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} fail"
