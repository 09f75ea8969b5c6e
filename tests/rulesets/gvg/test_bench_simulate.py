"""The simulate benchmark's paired mode (``--vs``): each tree's run is read back, and a tree that prints no figures
is named."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_simulate", ROOT / "scripts" / "bench_simulate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _tree(root: Path, printed: str) -> Path:
    (root / "scripts").mkdir(parents=True)
    (root / "scripts" / "bench_simulate.py").write_text(f"print({printed!r})\n", encoding="utf-8")
    return root


def test_each_tree_is_read_and_the_paired_ratio_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = "repeat 1: 9.0 s, 1 matches/s (CPU {cpu} s: 1 matches per CPU second; wins A/B 1/1, draws 0, mean 3 turns)"
    old = _tree(tmp_path / "old", line.format(cpu="4.0"))
    new = _tree(tmp_path / "new", line.format(cpu="2.0"))
    _bench().paired([("old", old), ("this tree", new)], [], 1)
    out = capsys.readouterr().out
    assert "pair 1 old: 9.0 s wall, CPU 4.0 s" in out and "pair 1 this tree: 9.0 s wall, CPU 2.0 s" in out
    assert "median paired CPU ratio old/this tree: 2.000x" in out
    assert "same matches in every tree" in out


def test_a_tree_that_prints_no_repeat_is_named(tmp_path: Path) -> None:
    tree = _tree(tmp_path, "no figures")
    with pytest.raises(SystemExit, match=str(tree)):
        _bench().run_tree(tree, [])
