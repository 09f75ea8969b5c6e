"""The GvG engine benchmark's paired mode (``--vs``): both trees run in their own processes and the ratio is printed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "scripts" / "bench_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_vs_a_folder_prints_both_rates_and_their_paired_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert _bench().main(["--vs", str(ROOT), "--matches", "1", "--pairs", "1"]) == 0
    out = capsys.readouterr().out
    assert "pair 1 old:" in out and "pair 1 new:" in out
    ratio = float(out.split("median paired ratio new/old: ")[1].split("x")[0])
    assert ratio > 0


def test_a_tree_that_prints_no_rate_is_named(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bench_engine.py").write_text("print('no figures')\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=str(tmp_path)):
        _bench().run_tree(tmp_path, [])
