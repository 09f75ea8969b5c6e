"""The Champions benchmark script runs and prints resolved rounds per second for sixteen bot players."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.paths import SCRIPTS


def test_the_benchmark_prints_rounds_per_second(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bench_champions", SCRIPTS / "bench_champions.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_champions", bench)  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    assert bench.main(["--matches", "1", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "16 affinity bots" in out and "repeat 1:" in out and "rounds per second (median of 1):" in out
