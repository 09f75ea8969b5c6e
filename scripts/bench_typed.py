"""What the benchmarks of a command as its user types it share: a baseline commit checked out beside this tree, the
command run by each tree as its own process, paired, with its wall and CPU seconds and its peak memory.

A figure is the ``sheets-gm`` command line in a fresh interpreter (``python -m sheets_gm.cli …``, its imports from
the tree's own ``sheets_gm``, compiled once beforehand as an installed package is), in a folder of the files the user
has, its output read as the user reads it. The baseline is ``git worktree add`` of a commit under /tmp, removed
afterwards. Runs alternate which tree goes first; each figure is the median of its runs, and the ratio of two trees
the median of the pairs' ratios. The machine's load is printed with them: absolute times move by 2x and more between
machines, and on a shared machine between minutes; a ratio of two trees run in turn moves much less.

This process stays small: a child's peak memory (``ru_maxrss``) starts from what its parent held when it forked, so
a benchmark that built a big workbook in its own process would report that workbook's memory as the command's.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

HERE = Path(__file__).resolve().parent.parent
#: Types cells and pastes blocks in LibreOffice and saves, as a player does (run by the system python3, with uno).
TYPIST = HERE / "tests" / "office" / "lo_type.py"
K = TypeVar("K")
R = TypeVar("R")


@dataclass(frozen=True)
class Run:
    """One run of a command: wall and CPU seconds (user and system, its children's included), peak MiB of its
    own process, and what it printed (stdout and stderr)."""

    wall: float
    cpu: float
    peak: float
    said: str


@contextlib.contextmanager
def baseline(commit: str) -> Iterator[Path]:
    """``commit`` checked out (``git worktree add --detach``) in a temporary folder under /tmp, removed after; a
    folder given instead (a checkout kept, a compiled copy) is used as it is."""
    if Path(commit).is_dir():
        yield Path(commit).resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-baseline-", dir="/tmp"))
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet", str(tree), commit], check=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def tree_env(tree: Path) -> dict[str, str]:
    """The environment of a command run by ``tree``: its ``sheets_gm`` first on the path, its modules compiled
    and kept as an installed package's are."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    return env


def compiled(tree: Path) -> None:
    """``tree``'s modules compiled once (what ``pip install`` does), so that no run pays for it."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "sheets_gm")], check=True,
                   env=tree_env(tree), stdout=subprocess.DEVNULL)


def command(tree: Path, args: Sequence[str], cwd: Path, *, terminal: bool = False, prefix: Sequence[str] = (),
            env: dict[str, str] | None = None) -> Run:
    """``sheets-gm ARGS`` run by ``tree`` in ``cwd`` as its own process, as typed; its figures from ``wait4``.
    ``terminal``: its output goes to a terminal of 120 columns (a pseudo-terminal read here), so that it draws what
    it draws at a terminal (a progress bar); else to a pipe, as cron's log. ``prefix`` runs it under another program
    (valgrind), ``env`` adds to its environment."""
    start = time.perf_counter()
    argv = [*prefix, sys.executable, "-m", "sheets_gm.cli", *args]
    if terminal:
        reader, writer = pty.openpty()
        fcntl.ioctl(writer, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        child = subprocess.Popen(argv, cwd=cwd, env={**tree_env(tree), "TERM": "xterm-256color", "COLUMNS": "120",
                                                     **(env or {})},
                                 stdin=writer, stdout=writer, stderr=writer, close_fds=True)
        os.close(writer)
        said = _drained(reader)
    else:
        child = subprocess.Popen(argv, cwd=cwd, env={**tree_env(tree), **(env or {})},
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert child.stdout is not None
        with child.stdout:
            said = child.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    wall = time.perf_counter() - start
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, said)


def fresh_run(tree: Path, args: Sequence[str], scratch: Path, made: Path | None, check: Callable[[Path, Run], str],
              *, terminal: bool = False) -> Run:
    """``sheets-gm ARGS`` run by ``tree`` (:func:`command`) in a fresh folder under ``scratch``: a copy of the folder
    ``made``, or an empty one. ``check`` says what is wrong with the run and the folder it left ('' when nothing),
    which stops the benchmark, naming it; the folder is removed after."""
    folder = Path(tempfile.mkdtemp(dir=scratch)) / "run"
    if made is not None:
        shutil.copytree(made, folder, symlinks=True)
    else:
        folder.mkdir()
    got = command(tree, args, folder, terminal=terminal)
    wrong = check(folder, got)
    if wrong:
        raise SystemExit(f"{tree}: {wrong}:\n{got.said[-3000:]}")
    shutil.rmtree(folder.parent)
    return got


def _drained(reader: int) -> str:
    """Everything written to the pseudo-terminal whose reading end is ``reader`` until its last writer closes it
    (it then says EIO); ``reader`` closed."""
    chunks: list[bytes] = []
    try:
        while chunk := os.read(reader, 65536):
            chunks.append(chunk)
    except OSError:  # EIO: the child closed the terminal
        pass
    finally:
        os.close(reader)
    return b"".join(chunks).decode("utf-8", "replace")


def libreoffice(job: dict[str, list[list[object]]], scratch: Path) -> None:
    """Type or paste ``job`` (``lo_type.py``'s: each workbook's cells) in LibreOffice and save, as a player does."""
    if shutil.which("soffice") is None:
        raise SystemExit("LibreOffice (soffice, with python3-uno) is needed to type as a player does")
    path = scratch / "lo-job.json"
    path.write_text(json.dumps(job), encoding="utf-8")
    subprocess.run(["/usr/bin/python3", str(TYPIST), str(path), str(scratch / "lo-profile")], check=True)


def paired(trees: dict[str, Path], keys: Sequence[K], pairs: int, run: Callable[[str, Path, K], R],
           show: Callable[[int, str, K, R], None]) -> dict[tuple[str, K], list[R]]:
    """Each key ``run`` by each tree in turn (given the tree's name, its folder and the key), ``pairs`` times, the
    trees alternating which goes first; every run's figures by tree and key, each given to ``show`` as it comes
    (with its pair's number)."""
    runs: dict[tuple[str, K], list[R]] = {}
    for pair in range(1, pairs + 1):
        for key in keys:
            order = list(trees.items()) if pair % 2 else list(reversed(trees.items()))
            for name, tree in order:
                got = run(name, tree, key)
                runs.setdefault((name, key), []).append(got)
                show(pair, name, key, got)
    return runs


def median(runs: Sequence[Run], field: str) -> float:
    """The median of one figure (``wall``, ``cpu`` or ``peak``) of ``runs``."""
    return statistics.median(float(getattr(r, field)) for r in runs)


def paired_ratio(top: Sequence[Run], bottom: Sequence[Run], field: str) -> float:
    """The median over pairs of ``top``'s figure over ``bottom``'s (runs in the same order, pair by pair)."""
    return statistics.median(float(getattr(a, field)) / float(getattr(b, field))
                             for a, b in zip(top, bottom, strict=True))


def load() -> str:
    """The machine's load average now, and its CPUs."""
    with open("/proc/loadavg", encoding="ascii") as f:
        one, five, fifteen = f.read().split()[:3]
    return f"load {one} {five} {fifteen} (1, 5, 15 min) on {os.cpu_count()} CPUs"
