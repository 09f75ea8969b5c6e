"""bench_sync_windows plays each game on the generic sync on the fake Google and meets bench_sync's bars."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.paths import SCRIPTS


@pytest.mark.parametrize("ruleset", ["winordie", "coalition", "champions", "wesnoth"])
def test_the_sync_bars_hold(ruleset: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SCRIPTS))  # it shares bench_sync's meters, next to it
    spec = importlib.util.spec_from_file_location("bench_sync_windows", SCRIPTS / "bench_sync_windows.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_sync_windows", bench)
    spec.loader.exec_module(bench)
    assert bench.main(["--ruleset", ruleset, "--windows", "6", "--seed", "test"]) == 0
    out = capsys.readouterr().out
    assert "idle poll" in out and "1R" in out and "Bars met" in out and "FAIL" not in out
