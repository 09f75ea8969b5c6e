"""The mail watch's restart test, run again and again with the test Dovecot's restart as it was and as it is.

``tests/mailbox/test_mail_watch.py::test_a_server_restart_is_said_once_and_the_watch_comes_back_at_once`` stops its
Dovecot and starts it again at once. Before: ``stop`` returned when the master was dead, while an IMAP process that
had watched the folder for IDLE was still dying (the kernel tears its inotify watch down, tens of milliseconds)
with the server's sockets; the new master found them taken and stopped at once, and ``start``, which waited only
for the ports to answer, could return on the moment they did before it stopped: no server, the watch refused in
silence, the test's 20 s gone. Now ``stop`` waits until every process of the server is gone and ``start`` until
the server greets.

The runs alternate, old then new, in one process. Printed for each: the failures (and what each said first), how
often a process of the old server was left when ``stop`` returned, and the median time of a run. Put CPU load
beside it for a run like the suite's (two busy processes: ``--busy 2``); the load is printed before and after.

The test fails only when a process left outlives the new master's first steps, rarely even under load. So the
second figure forces that moment: the config socket, which the master takes after its IMAP ports, held while it
starts (``--held`` starts of each ``start``), and counted how often ``start`` returned with the master dead.

    .venv/bin/python scripts/bench_dovecot_restart.py [--runs 200] [--busy 2] [--held 20]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakes import dovecot  # noqa: E402
from tests.mailbox import test_mail_watch  # noqa: E402

NEW_START, NEW_STOP = dovecot.Dovecot.start, dovecot.Dovecot.stop


def old_start(self: dovecot.Dovecot) -> None:
    """``start`` as it was: it returned once both ports answered."""
    log = (self.root / "dovecot.out").open("wb")
    self.process = subprocess.Popen([str(dovecot.DOVECOT), "-F", "-c", str(self.root / "dovecot.conf")],
                                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 20
    while not all(dovecot._answers(self.host, port) for port in (self.port, self.tls_port)):
        if self.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"Dovecot did not start: {self.log()}")
        time.sleep(0.02)


def counting(stop: Callable[..., None], left: list[bool]) -> Callable[..., None]:
    """``stop`` that notes, in ``left``, for each stop of a running server whether a process of it was still there
    when it returned."""
    def stop_and_count(self: dovecot.Dovecot, **kwargs: float) -> None:
        running = self.process is not None and self.process.returncode is None
        group = self.process.pid if self.process is not None else 0
        stop(self, **kwargs)
        if running:
            left.append(bool(dovecot.living(group)))
    return stop_and_count


def old_stop(self: dovecot.Dovecot, **_: float) -> None:
    """``stop`` as it was: it returned when the master was dead."""
    if self.process is not None and self.process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def run_once(arm: str, left: list[bool]) -> tuple[float, str]:
    """One run of the test with the ``arm``'s restart; its seconds and its first failure's words ('' when none)."""
    start, stop = (old_start, old_stop) if arm == "old" else (NEW_START, NEW_STOP)
    dovecot.Dovecot.start, dovecot.Dovecot.stop = start, counting(stop, left)  # type: ignore[method-assign]
    began = time.monotonic()
    try:
        with tempfile.TemporaryDirectory() as folder:
            test_mail_watch.test_a_server_restart_is_said_once_and_the_watch_comes_back_at_once(Path(folder))
        failure = ""
    except (AssertionError, RuntimeError) as exc:
        failure = str(exc).splitlines()[0][:120]
    finally:
        dovecot.Dovecot.start, dovecot.Dovecot.stop = NEW_START, NEW_STOP  # type: ignore[method-assign]
    return time.monotonic() - began, failure


def held_config(start: Callable[[dovecot.Dovecot], None], tries: int) -> int:
    """How many of ``tries`` starts returned while another process held the config socket (the master then dies)."""
    returned = 0
    with dovecot.running_dovecot() as server:
        for _ in range(tries):
            server.stop()
            path = server.root / "run" / "config"
            path.unlink(missing_ok=True)
            with socket.socket(socket.AF_UNIX) as holder:
                holder.bind(str(path))
                holder.listen()
                with contextlib.suppress(RuntimeError):
                    start(server)
                    returned += 1
                assert server.process is not None
                server.process.wait(timeout=20)  # it dies of the socket held, whatever start said
            path.unlink()
            NEW_START(server)
    return returned


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` processes that keep a core busy for the time of the ``with``."""
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(count)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.join()


def main() -> None:
    """Run the pairs and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs of each arm")
    parser.add_argument("--busy", type=int, default=0, help="busy processes beside the runs")
    parser.add_argument("--held", type=int, default=20, help="starts of each start() with the config socket held")
    args = parser.parse_args()
    print("load before:", Path("/proc/loadavg").read_text().strip())
    seconds: dict[str, list[float]] = {"old": [], "new": []}
    failures: dict[str, list[str]] = {"old": [], "new": []}
    left: dict[str, list[bool]] = {"old": [], "new": []}
    with busy(args.busy):
        for number in range(args.runs):
            for arm in ("old", "new"):
                took, failure = run_once(arm, left[arm])
                seconds[arm].append(took)
                if failure:
                    failures[arm].append(failure)
                    print(f"  run {number + 1} {arm}: {failure}", flush=True)
    print("load after:", Path("/proc/loadavg").read_text().strip())
    for arm in ("old", "new"):
        print(f"{arm}: failed {len(failures[arm])}/{args.runs}; a process left after stop() in "
              f"{sum(left[arm])}/{len(left[arm])} stops; median run {statistics.median(seconds[arm]):.2f} s")
    for arm, start in (("old", old_start), ("new", NEW_START)):
        print(f"{arm}: start() returned with no server in {held_config(start, args.held)}/{args.held} starts "
              "with the config socket held")


if __name__ == "__main__":
    main()
