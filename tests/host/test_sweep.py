"""The sweep of the local matches no file event covers: each one's own files looked at once a round, the round the
interval where that is cheap, stretched where it is not, so that it never costs more than its share of a core. Its
CPU is a counter the test moves (a look costs what the test says): nothing is timed."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

import sheets_gm.host.scheduler as scheduler
import sheets_gm.host.sweep as sweep_module
from sheets_gm.host.scheduler import SEARCH_SHARE
from sheets_gm.host.seen import identity
from sheets_gm.host.sweep import SHARE, Sweep
from tests.host.hosting import Clock, new_host
from tests.matchfiles import NOW, local_match
from tests.quick import soak_but


class CostlyLooks:
    """Each look at a match's files costs ``cost`` CPU seconds on the test's counter; the matches looked at are kept."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cost: float) -> None:
        self.cpu = 0.0
        self.looked: Counter[tuple[str, ...]] = Counter()

        def identity(files: tuple[str, ...]) -> int:
            self.cpu += cost
            self.looked[files] += 1
            return 0

        monkeypatch.setattr(sweep_module, "identity", identity)


@pytest.mark.parametrize(("matches", "cost"), soak_but([(100, 30e-6), (10_000, 30e-6), (10_000, 3e-6)],
                                                       (100, 30e-6), (10_000, 30e-6)))
def test_every_match_is_looked_at_each_round_and_the_rounds_keep_within_their_share(
        monkeypatch: pytest.MonkeyPatch, matches: int, cost: float) -> None:
    looks = CostlyLooks(monkeypatch, cost)
    sweep = Sweep(timedelta(seconds=10), cpu=lambda: looks.cpu)
    for i in range(matches):
        sweep.note(Path(f"/m/{i}/match.toml"), (f"/m/{i}/match.toml",), 0)
    now, seconds = NOW, 600
    for _ in range(seconds):  # ten minutes of passes a second apart: 24 to 60 rounds
        now += timedelta(seconds=1)
        assert sweep.take(now) == []
    assert looks.cpu <= SHARE * seconds * 1.01  # its share of a core, whatever the matches
    round_ = max(10.0, cost * matches / SHARE)
    assert sweep.round() == timedelta(seconds=round_)
    fewest = min(looks.looked.values())
    assert len(looks.looked) == matches and fewest >= seconds // round_ - 2  # each match once a round


def test_a_match_whose_files_were_touched_is_given_back_once_and_swept_no_more(tmp_path: Path) -> None:
    workbook = tmp_path / "red.xlsx"
    workbook.write_bytes(b"orders")
    sweep = Sweep(timedelta(seconds=10))
    match = tmp_path / "match.toml"
    sweep.note(match, (str(workbook),), identity((str(workbook),)))
    sweep.take(NOW)
    assert sweep.take(NOW + timedelta(seconds=10)) == []
    workbook.write_bytes(b"orders typed")
    assert sweep.take(NOW + timedelta(seconds=20)) == [match]
    assert match not in sweep and sweep.take(NOW + timedelta(seconds=30)) == []


def test_without_file_events_the_whole_search_comes_as_seldom_as_keeps_it_within_its_share(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole search is the only way a new match is found without events: every minute where it is cheap, as
    seldom as keeps its CPU within ``SEARCH_SHARE`` where it is not (a slice costs 1 CPU s on the test's counter)."""
    league = tmp_path / "league"
    local_match(league / "m1", private=True)

    class Cpu:
        spent = 0.0

        def thread_time(self) -> float:
            self.spent += 0.5
            return self.spent

    monkeypatch.setattr(scheduler, "time", Cpu())
    clock = Clock(NOW)
    host = new_host(league, clock, [], interval=10, workers=1)
    host.step()
    first = host.scanned_at
    assert host._search_every() == timedelta(seconds=0.5 / SEARCH_SHARE)  # 100 s, not the minute
    for _ in range(9):
        clock.tick(10)
        host.step()
    assert host.scanned_at == first
    clock.tick(10)
    host.step()
    assert host.scanned_at == NOW + timedelta(seconds=100)
