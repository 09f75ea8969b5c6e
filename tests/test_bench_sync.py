"""bench_sync plays each game with sheets on the fake Google and meets the sync bars."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.paths import SCRIPTS


@pytest.mark.parametrize("ruleset", ["gvg", "winordie", "coalition", "champions", "wesnoth"])
def test_the_sync_bars_hold(ruleset: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SCRIPTS))  # its fake Google is in tests.fakes
    spec = importlib.util.spec_from_file_location("bench_sync", SCRIPTS / "bench_sync.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_sync", bench)
    spec.loader.exec_module(bench)
    assert bench.main(["--ruleset", ruleset, "--windows", "6", "--seed", "test"]) == 0
    out = capsys.readouterr().out
    assert "idle poll" in out and "1R" in out and "Bars met" in out and "FAIL" not in out
