"""YAML is read on libyaml's parser where PyYAML has it: the same mappings, each key's line included, as the
pure-Python loader gives, and the pure-Python loader's words for a text it refuses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from sheets_gm import yamlio
from sheets_gm.lined import LinedDict
from tests.paths import ROOT


def _lined(value: Any) -> Any:
    """A parsed document with each mapping's lines spelled out, to compare two loaders' results."""
    if isinstance(value, LinedDict):
        return {"line": value.line, "lines": dict(value.lines), "items": {k: _lined(v) for k, v in value.items()}}
    if isinstance(value, list):
        return [_lined(v) for v in value]
    return value


@pytest.mark.parametrize("path", ["templates/coalition/map.yaml", "templates/wesnoth/layout.yaml"])
def test_a_shipped_file_reads_as_the_pure_python_loader_reads_it(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert _lined(yamlio.load_yaml_text(text, "x")) == _lined(yaml.load(text, Loader=yamlio._LineLoader))


@pytest.mark.parametrize("text", ["a: 'unclosed\nb: 2\n", "a: [1, 2\n", "a:\n\t- 1\n", "a: 1\na: 2\n", "{1: 2}: x\n"])
def test_a_text_refused_is_told_in_the_pure_python_loader_s_words(text: str) -> None:
    with pytest.raises(yamlio.YamlError) as fast:
        yamlio.load_yaml_text(text, "where.yaml")
    fast_loader = yamlio._FastLoader
    try:
        yamlio._FastLoader = yamlio._LineLoader
        with pytest.raises(yamlio.YamlError) as slow:
            yamlio.load_yaml_text(text, "where.yaml")
    finally:
        yamlio._FastLoader = fast_loader
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("where.yaml: ")


def test_libyaml_is_used_where_pyyaml_has_it() -> None:
    assert (yamlio._FastLoader is not yamlio._LineLoader) == bool(getattr(yaml, "__with_libyaml__", False))


def test_a_simulation_imports_no_yaml_parser(tmp_path: Path) -> None:
    """``simulate`` reads no YAML file, so it loads no PyYAML: the games' fields and scenarios take the lined mapping
    from a module of its own (PyYAML's import was a tenth of a G instructions of the command's own start-up)."""
    script = ("import sys; from sheets_gm.cli import main; "
              f"code = main(['simulate', 'gvg', '--matches', '2', '--workers', '1', '--out', {str(tmp_path)!r}]); "
              "print(code, 'yaml' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.stdout.split()[-2:] == ["0", "False"], done.stdout + done.stderr
