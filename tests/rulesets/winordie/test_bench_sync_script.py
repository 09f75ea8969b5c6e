"""bench_sync_winordie plays a whole match on the fake Google and meets bench_sync's bars."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.paths import SCRIPTS


def test_the_sync_bars_hold_for_a_whole_match(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SCRIPTS))  # it shares bench_sync's meters, next to it
    spec = importlib.util.spec_from_file_location("bench_sync_winordie", SCRIPTS / "bench_sync_winordie.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_sync_winordie", bench)
    spec.loader.exec_module(bench)
    assert bench.main(["--seed", "test"]) == 0
    out = capsys.readouterr().out
    assert "idle poll       1R      1R      1R      1R" in out and "Bars met" in out and "FAIL" not in out
