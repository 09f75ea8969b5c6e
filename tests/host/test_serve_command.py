"""The real ``sheets-gm serve`` command, as systemd runs it: a process of its own on a folder of local matches. A
save is answered, ``serve --status`` names each match by its path, SIGTERM stops it within its limit, and a
restart carries on from what the last one left (an idle match is not read again; a new save is answered).

Nothing sleeps but the waits for the subprocess (a twentieth of a second at a time, bounded); the host's own
intervals are bounded by its options (``--interval 1 --rescan 1``). The walk with a restart is a soak test (two
process starts); the quick one starts ``serve`` once."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from sheets_gm.cli import main as cli
from sheets_gm.sync.sheets import MatchSheets
from tests.matchfiles import local_match, state_of, type_orders

#: Seconds a wait for the subprocess may take before the test fails (a loaded machine starts Python slowly).
LIMIT = 60.0


def wait_for(done: Callable[[], bool], what: str, limit: float = LIMIT) -> None:
    """Wait until ``done`` (looked at every 50 ms), failing with ``what`` after ``limit`` seconds."""
    start = time.monotonic()
    while not done():
        assert time.monotonic() - start < limit, f"not within {limit:g} s: {what}"
        time.sleep(0.05)


def command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "sheets_gm.cli", *map(str, args)]


@contextmanager
def serving(league: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``sheets-gm serve league`` running, its output in ``log``; killed if the test left it running."""
    with log.open("ab") as out:
        proc = subprocess.Popen(command("serve", league, "--interval", "1", "--rescan", "1", "--workers", "2"),
                                stdout=out, stderr=subprocess.STDOUT, cwd=league, env={**os.environ})
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def status(league: Path) -> str:
    """What ``serve --status`` prints of the running host (asked in this process: the command only reads the
    status file the host writes; '' before it wrote one)."""
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = cli(["serve", "--status", str(league)])
    return out.getvalue() if code == 0 else ""


def stop(proc: subprocess.Popen[bytes], log: Path) -> None:
    """SIGTERM: the host stops, cleanly, and says so. (How soon is a figure for the benchmarks, not a test's: on this
    shared machine a loaded minute once stretched the host's last pass past ten seconds.)"""
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=LIMIT) == 0
    assert "SIGTERM: stopping" in log.read_text(encoding="utf-8") and log.read_text(encoding="utf-8").rstrip() \
        .endswith("Stopped.")


def turn_of(sheets: MatchSheets) -> int:
    return state_of(sheets).turn


def league_of(tmp_path: Path, names: tuple[str, ...]) -> tuple[Path, dict[str, MatchSheets]]:
    league = tmp_path / "league"
    made = {name: local_match(league / name)[1] for name in names}
    return league, made


def test_serve_starts_its_polls_server_before_it_imports_the_host() -> None:
    """The command line of ``serve`` imports no host (``scheduler``, and the poll's whole path under it) before
    ``run_serve`` starts the server the polls are forked from: their imports run side by side."""
    code = ("import sys; from sheets_gm.cli import build_parser; build_parser(['serve', 'x']); "
            "print(sorted(m for m in sys.modules if m.startswith(('sheets_gm.host.scheduler', "
            "'sheets_gm.sync.poll'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=LIMIT)
    assert out.stdout.strip() == "[]"


#: What a poll imports and the host's own process never does (the poll runs in a process of its own, forked from a
#: server that imported it beforehand): the poll's path, the gate's client and kept reads, the sync, the spreadsheets'
#: backends and libraries, the games' rules.
POLL_PATH = ("sheets_gm.host.visit", "sheets_gm.host.look", "sheets_gm.host.polls", "sheets_gm.host.shared_log",
             "sheets_gm.poll_gate.drive", "sheets_gm.poll_gate.kept_reads", "sheets_gm.poll_gate.run",
             "sheets_gm.sync.sheets", "sheets_gm.sync.poll", "sheets_gm.sync.life", "sheets_gm.sheets.adapter",
             "sheets_gm.sheets.tables", "sheets_gm.sheets.local", "sheets_gm.sheets.google",
             "sheets_gm.running.connect", "sheets_gm.running.run", "sheets_gm.rulesets.gvg",
             "sheets_gm.rulesets.coalition", "openpyxl", "gspread", "requests", "google.auth")

#: ``serve`` run in this process until the first poll's answer is taken in (SIGTERM then, as systemd stops it); the
#: parts of the poll's path it imported are printed.
HOST_ONLY = """
import os, signal, sys
from sheets_gm.cli import main
from sheets_gm.commands import serve
said = serve._say
def say(line):
    said(line)
    if line.startswith("friday/"):
        print("IMPORTED", sorted({p for p in POLL_PATH for m in sys.modules if m == p or m.startswith(p + ".")}),
              flush=True)
        os.kill(os.getpid(), signal.SIGTERM)
serve._say = say
sys.exit(main(["serve", sys.argv[1], "--interval", "1", "--rescan", "1", "--workers", "1"]))
"""


def test_the_hosts_process_never_imports_the_poll_path(tmp_path: Path) -> None:
    """The host only walks folders, looks at files' stamps and records, schedules and hands polls over: its own
    process imports none of the poll's path (the 1.3 CPU s of a restart spent before its first pass), neither at
    its start nor once a save waiting at its start was answered and the poll's outcome taken in."""
    league, made = league_of(tmp_path, ("friday",))
    type_orders(made["friday"])  # a save typed while no host ran
    code = f"POLL_PATH = {POLL_PATH!r}\n{HOST_ONLY}"
    out = subprocess.run([sys.executable, "-c", code, str(league)], capture_output=True, text=True, timeout=LIMIT,
                         cwd=league)
    assert out.returncode == 0, out.stdout + out.stderr
    assert turn_of(made["friday"]) == 2  # the save was answered (by the poll's own process)
    assert "IMPORTED []" in out.stdout.splitlines(), out.stdout


def test_the_polls_server_imports_every_game_and_the_poll_path_once() -> None:
    """What the server the polls are forked from imports once: every game's rules (a poll that reads a match
    imports none of its own then), the poll's path and the local backend, each a module that exists."""
    import importlib.util

    from sheets_gm.commands.serve import poll_preload
    from sheets_gm.rulesets.registry import ruleset_names

    preload = poll_preload()
    assert {f"sheets_gm.rulesets.{game}.game" for game in ruleset_names()} <= set(preload)
    assert "sheets_gm.host.visit" in preload
    assert all(importlib.util.find_spec(name) is not None for name in preload)


def test_serve_names_its_matches_by_path_and_stops_on_sigterm(tmp_path: Path) -> None:
    # The quick one: one process start, no poll waited for (the soak walk below answers saves across a restart).
    league, _ = league_of(tmp_path, ("friday",))
    log = tmp_path / "serve.log"
    with serving(league, log) as proc:
        wait_for(lambda: "Found 1 match under" in log.read_text(encoding="utf-8"), "the match found")
        wait_for(lambda: "friday/match.toml" in status(league), "the status naming it")  # by its path
        stop(proc, log)


@pytest.mark.soak
def test_a_restarted_serve_carries_on_where_the_last_left_off(tmp_path: Path) -> None:
    league, made = league_of(tmp_path, ("friday", "monday"))
    log = tmp_path / "serve.log"
    with serving(league, log) as proc:
        wait_for(lambda: "Found 2 matches under" in log.read_text(encoding="utf-8"), "found")
        type_orders(made["friday"])
        wait_for(lambda: turn_of(made["friday"]) == 2, "friday's save answered")
        wait_for(lambda: "monday/match.toml" in status(league) and "friday/match.toml" in status(league), "status")
        stop(proc, log)
    first = log.read_text(encoding="utf-8")
    restart = tmp_path / "restart.log"
    with serving(league, restart) as proc:
        wait_for(lambda: "Found 2 matches" in restart.read_text(encoding="utf-8"), "the restart's search")
        type_orders(made["monday"])
        wait_for(lambda: turn_of(made["monday"]) == 2, "monday's save answered after the restart")
        stop(proc, restart)
    said = [line for line in restart.read_text(encoding="utf-8").splitlines() if line.startswith("friday/")]
    assert said == []  # idle since: not read, nor resolved again (the search's one line names no match)
    assert turn_of(made["friday"]) == 2 and "Found 2 matches" in first


def test_a_host_of_local_matches_alone_puts_its_file_watches_at_its_start(tmp_path: Path) -> None:
    """A host whose last run served no Google account puts its file watches at once (its local saves typed after the
    start are watched the sooner); one that served accounts, or never ran, puts them when its first search ends,
    after the saves the accounts' change logs name. Fails with the watches always left to the search's end."""
    import json

    from sheets_gm.commands.serve import watches_at_start

    status = tmp_path / "serve-status.json"
    assert not watches_at_start(status)  # never ran: what it serves is not known
    status.write_text(json.dumps({"accounts": []}), encoding="utf-8")
    assert watches_at_start(status)
    status.write_text(json.dumps({"accounts": [{"name": "gm@example.org"}]}), encoding="utf-8")
    assert not watches_at_start(status)
    status.write_text("{broken", encoding="utf-8")
    assert not watches_at_start(status)
