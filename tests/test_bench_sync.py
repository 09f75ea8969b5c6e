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


def test_a_war_of_300_armies_a_side_reads_on_after_the_judge_s_results(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """At 300 armies a side the judge's archive copy of the rows read (100,000 characters of JSON) passed a
    Google cell's 50,000 and the next read stopped the match; packed, it reads on."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    for name in ("bench_sync", "bench_big_war"):
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
    assert sys.modules["bench_big_war"].main(["--armies", "300", "--bots"]) == 0
    out = capsys.readouterr().out
    assert "results resolved" in out and "battles still waiting: 0" in out
