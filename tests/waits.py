"""Where the test command waits rather than computes: ``pytest --waits N`` (a plugin loaded by ``tests/conftest.py``).

Each test phase's wall time (pytest's own ``duration``) and the CPU the process and its finished subprocesses spent in
it (``resource.getrusage``, SELF + CHILDREN, before and after) ride on the phase's report to the process that prints
the run's summary, also from the workers of ``pytest -n``. On a shared machine a test also stands ready to run while
other processes have the cores: that time (``/proc/thread-self/schedstat``, the test's thread) is counted apart, as
``queued``, and so is this process's time in ``os.fsync`` (the disk). What is left of the wall, ``waited``, is time
spent waiting on a server, a browser, LibreOffice, a sleep, the disk, a subprocess kept from the cores. The summary
lists the ``N`` tests that waited most, the files and ``xdist_group`` groups with the most wall, and each worker's sums
and the time it finished, so that an idle worker at the end of a run shows. ``--waits-json PATH`` also writes every
test's figures to PATH. A server process that is never waited for (Dovecot's daemons) spends CPU no test is charged
with: judge its tests by their wall.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

_SPENT_KEY = pytest.StashKey[tuple[float, float, float]]()
_PROPERTY = "waits_cpu_queued_fsync_s"
_SCHEDSTAT = Path("/proc/thread-self/schedstat")
_fsync_seconds = [0.0]  # this process's time in os.fsync so far


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--waits N`` and ``--waits-json PATH``."""
    group = parser.getgroup("waits", "where the tests wait (tests/waits.py)")
    group.addoption("--waits", type=int, default=0, metavar="N",
                    help="print the N tests with the most wall time minus CPU time, and each worker's busy time")
    group.addoption("--waits-json", default="", metavar="PATH", help="with --waits, every test's figures to PATH")


def _spent() -> tuple[float, float, float]:
    """User and system CPU of this process and of its finished subprocesses; the time this thread stood ready to run
    while the cores ran others (Linux's schedstat; none elsewhere); this process's time in ``os.fsync``."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        queued = int(_SCHEDSTAT.read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        queued = 0.0
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime, queued, _fsync_seconds[0]


def _timed_fsync(fsync: Callable[..., None]) -> Callable[..., None]:
    """``fsync`` adding the time it takes to ``_fsync_seconds``."""
    def timed(fd: object) -> None:
        start = time.perf_counter()
        try:
            fsync(fd)
        finally:
            _fsync_seconds[0] += time.perf_counter() - start
    return timed


@pytest.hookimpl(wrapper=True)
def _measured(item: pytest.Item) -> Generator[None, None, None]:
    """The CPU, run queue and fsync time one phase of ``item`` spends (setup, call or teardown), kept on the item for
    its report."""
    before = _spent()
    try:
        return (yield)
    finally:
        after = _spent()
        item.stash[_SPENT_KEY] = (after[0] - before[0], after[1] - before[1], after[2] - before[2])


class PhaseFigures:
    """The hooks that measure each phase of a test and put its figures on the phase's report, which pytest-xdist
    carries from the worker (registered with ``--waits`` alone)."""

    pytest_runtest_setup = pytest_runtest_call = pytest_runtest_teardown = staticmethod(_measured)

    @staticmethod
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(item: pytest.Item) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """The phase's figures on its report."""
        report = yield
        if _SPENT_KEY in item.stash:
            report.user_properties = [*report.user_properties, (_PROPERTY, item.stash[_SPENT_KEY])]
            del item.stash[_SPENT_KEY]
        return report


@dataclass
class TestFigures:
    """One test's wall, CPU, run-queue and fsync seconds over its phases, the worker that ran it and when it ended."""

    nodeid: str
    worker: str
    wall: float = 0.0
    cpu: float = 0.0
    queued: float = 0.0
    fsync: float = 0.0
    start: float = 0.0
    stop: float = 0.0

    @property
    def waited(self) -> float:
        """Wall minus CPU and run queue: the time the test neither computed nor was kept from it by other processes."""
        return self.wall - self.cpu - self.queued


class Waits:
    """The figures of a run's tests as their reports arrive, and the summary that prints them."""

    def __init__(self, shown: int, json_path: str) -> None:
        self.shown = shown
        self.json_path = json_path
        self.tests: dict[str, TestFigures] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Add one phase's figures to its test's."""
        spent = next((value for name, value in report.user_properties if name == _PROPERTY), None)
        if not isinstance(spent, tuple | list):  # a list once pytest-xdist carried it
            return
        cpu, queued, fsync = (float(part) for part in spent)
        node = getattr(report, "node", None)  # pytest-xdist's worker on the controller's copy of the report
        worker = str(node.gateway.id) if node is not None else "main"
        figures = self.tests.setdefault(report.nodeid, TestFigures(report.nodeid, worker, start=report.start))
        figures.wall += report.duration
        figures.cpu += cpu
        figures.queued += queued
        figures.fsync += fsync
        figures.stop = report.stop

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """The tests that waited most, the costliest files and groups, and each worker's busy time."""
        if not self.tests:
            return
        write = terminalreporter.write_line
        tests = list(self.tests.values())
        terminalreporter.section(f"waits: the {self.shown} tests with the most wall minus CPU and run queue")
        for figures in sorted(tests, key=lambda figures: -figures.waited)[:self.shown]:
            write(f"{_line(figures)}  {figures.nodeid}")
        for title, key in (("files", _file_of), ("groups", _group_of)):
            terminalreporter.section(f"waits: the {self.shown} {title} with the most wall")
            for name, (summed, count) in _sums(tests, key)[:self.shown]:
                write(f"{_line(summed)} {count:5d} tests  {name}")
        terminalreporter.section("waits: the workers (done: seconds after the first test started)")
        first = min(figures.start for figures in tests)
        for name, (summed, count) in sorted(_sums(tests, lambda figures: figures.worker)):
            write(f"{name}: {_line(summed)} {count:5d} tests, done {summed.stop - first:.1f}s")
        if self.json_path:
            Path(self.json_path).write_text(json.dumps([asdict(figures) for figures in tests], indent=0))


def _line(figures: TestFigures) -> str:
    """A test's (or a sum's) figures in a row."""
    return (f"{figures.waited:8.2f}s waited {figures.wall:8.2f}s wall {figures.cpu:8.2f}s cpu "
            f"{figures.queued:7.2f}s queued {figures.fsync:7.2f}s fsync")


def _file_of(figures: TestFigures) -> str:
    """The test's file."""
    return figures.nodeid.split("::")[0]


def _group_of(figures: TestFigures) -> str:
    """The test's ``xdist_group`` (its id's ending under ``--dist loadgroup``), or its file where it has none."""
    return figures.nodeid.rsplit("@", 1)[1] if "@" in figures.nodeid.rsplit("]", 1)[-1] else _file_of(figures)


def _sums(tests: list[TestFigures], key: Callable[[TestFigures], str]) -> list[tuple[str, tuple[TestFigures, int]]]:
    """The summed figures (the last stop) and the number of tests per ``key`` of a test, the most wall first."""
    sums: dict[str, tuple[TestFigures, int]] = {}
    for figures in tests:
        name = key(figures)
        summed, count = sums.get(name, (TestFigures(name, figures.worker, start=figures.start), 0))
        summed.wall += figures.wall
        summed.cpu += figures.cpu
        summed.queued += figures.queued
        summed.fsync += figures.fsync
        summed.stop = max(summed.stop, figures.stop)
        sums[name] = (summed, count + 1)
    return sorted(sums.items(), key=lambda row: -row[1][0].wall)


def pytest_configure(config: pytest.Config) -> None:
    """With ``--waits``, ``os.fsync`` timed in each process that runs tests, and the summary's collector on the
    process that prints (not on a worker)."""
    shown = int(config.getoption("--waits"))
    if not shown:
        return
    untimed = os.fsync
    os.fsync = _timed_fsync(untimed)
    config.add_cleanup(lambda: setattr(os, "fsync", untimed))
    config.pluginmanager.register(PhaseFigures(), "waits-phases")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(Waits(shown, str(config.getoption("--waits-json"))), "waits-summary")
