"""Each poll of ``serve`` in a process of its own, which the host may stop: a poll that hangs (rules in an endless
loop, a read on a dead mount, a socket that never answers) is killed at its deadline, and one that crashes or
leaks takes only its own process with it.

The processes are forked from a server process started once, with the host's modules already imported
(``multiprocessing``'s *forkserver*: a clean process, never a fork of the host's threads), so a poll's process
starts in milliseconds, and ends when its poll does: nothing a poll leaves in memory outlives it (each process
serves one poll: it is recycled after every task). A poll's result comes back over a pipe; a process that ends
without one (killed, crashed, out of memory) gives :class:`PollDied`, which the host reports and retries later as
any failed poll. The server is started by :meth:`PollProcesses.start` (``serve`` calls it before it imports the
host: the server's imports run beside its own, on the other core), and a poll's process is started on the thread
that waits for its answer, never on the caller's: the host's loop does not wait while the server is still
importing (the first polls of a restart, at a load of 8, would hold it up for seconds). The host hands over a poll
:class:`ByName` (its module and name): the poll's path is imported by the server alone, never by the host. Standard
library only.
"""

from __future__ import annotations

import importlib
import multiprocessing
import signal
import threading
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ByName:
    """A function named by its module and its name, imported where it is called: in a poll's process, forked from a
    server that imported ``module`` beforehand (``preload``), a look-up. The host that hands it over never imports
    that module; two strings cross to the process."""

    module: str
    name: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the function named, with ``args`` and ``kwargs``."""
        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)


class PollDied(RuntimeError):
    """A poll's process ended without a result: killed at its deadline, or crashed."""


def _child(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The poll's process: run ``fn`` and send back its result, or what it raised (as text if it will not pickle).
    Ctrl-C in a terminal reaches every process of its group: the host alone decides when a poll stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        result: tuple[bool, Any] = (True, fn(*args, **kwargs))
    except BaseException as exc:  # sent back, never lost: the host reports it
        result = (False, RuntimeError(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
    try:
        conn.send(result)
    except Exception as exc:  # an unpicklable result: its text instead
        conn.send((False, RuntimeError(f"the poll's result could not be sent back: {exc}")))
    conn.close()


class PollProcesses(Executor):
    """An executor that runs each task in a process of its own (see the module notes); :meth:`kill` stops one.
    The host bounds how many run at once. ``preload``: the modules the server process imports once."""

    def __init__(self, preload: Sequence[str] = ()) -> None:
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(list(preload))
        self._lock = threading.Lock()
        self._starts = threading.Lock()  # one process started at a time (each asks the server for a fork)
        self._starting: set[Future[Any]] = set()  # submitted, its process not started yet
        self._running: dict[Future[Any], multiprocessing.process.BaseProcess] = {}
        self._killed: set[Future[Any]] = set()
        self._waiters: list[threading.Thread] = []
        self._shut = False

    def start(self) -> None:
        """Start the server process now (its imports run beside the caller's), not at the first poll."""
        from multiprocessing import forkserver

        forkserver.ensure_running()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Start ``fn(*args, **kwargs)`` in a new process, from a thread of its own (the caller never waits for the
        server); its future holds the result, or :class:`PollDied`."""
        future: Future[T] = Future()
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot start a poll after shutdown")
            self._starting.add(future)
            waiter = threading.Thread(target=self._run, args=(future, fn, args, kwargs), daemon=True,
                                      name="sheets-gm-poll-waiter")
            self._waiters.append(waiter)
        future.set_running_or_notify_cancel()
        waiter.start()
        return future

    def _run(self, future: Future[Any], fn: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> None:
        """The poll's process started (a poll killed before it started never runs), then its answer awaited."""
        receive, send = self._ctx.Pipe(duplex=False)
        process = self._ctx.Process(target=_child, args=(send, fn, args, kwargs), daemon=True)
        try:
            with self._starts:
                if future not in self._killed:
                    process.start()
        except Exception as exc:  # the server gone, no memory to fork: this poll fails, the host goes on
            receive.close()
            send.close()
            with self._lock:
                self._starting.discard(future)
            future.set_exception(PollDied(f"the poll's process could not start: {exc}"))
            return
        send.close()
        with self._lock:
            self._starting.discard(future)
            started = process.pid is not None
            if started:
                self._running[future] = process
            killed = future in self._killed
        if not started:
            receive.close()
            self._killed.discard(future)
            future.set_exception(PollDied("the poll overran its deadline and was stopped"))
            return
        if killed:
            process.kill()
        self._await(future, process, receive)

    def _await(self, future: Future[Any], process: multiprocessing.process.BaseProcess, receive: Connection) -> None:
        try:
            ok, value = receive.recv()
        except (EOFError, OSError):
            ok, value = False, None
        receive.close()
        process.join()
        with self._lock:
            self._running.pop(future, None)
            killed = future in self._killed
            self._killed.discard(future)
        if killed:
            future.set_exception(PollDied("the poll overran its deadline and was stopped"))
        elif value is None and not ok:
            code = process.exitcode
            how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited with code {code}"
            future.set_exception(PollDied(f"the poll's process {how} before it answered (a crash)"))
        elif ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def kill(self, future: Future[Any]) -> bool:
        """Stop the process of ``future`` (its future then holds :class:`PollDied`); False when it already ended."""
        with self._lock:
            process = self._running.get(future)
            if process is None and future not in self._starting:
                return False
            self._killed.add(future)
        if process is not None:  # (one not started yet never starts: ``_run``)
            process.kill()
        return True

    def running(self) -> list[Future[Any]]:
        """The futures of the polls under way."""
        with self._lock:
            return list(self._running)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Start no more; with ``wait``, wait for the polls under way (the host kills those past their deadline
        first: see ``scheduler.Host.close``)."""
        with self._lock:
            self._shut = True
            waiters = list(self._waiters)
        if wait:
            for waiter in waiters:
                waiter.join()
