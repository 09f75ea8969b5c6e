"""What the server ``serve``'s polls are forked from holds (``commands.serve.poll_preload``, ``host.poll_server``):
a poll of any game's match, forked from it as ``serve`` forks one, imports nothing of the project's nor of the
workbook library (each import a poll makes is made again by the next: GvG's sheet adapter was 25 ms a poll), and,
forked after another match's poll from the same server, answers the save as a cold poll in a process of its own
does (the server holds nothing of a match: what it builds is read from the shipped files alone). Checked with the
defect put back: without ``host.poll_server`` in the preload, a GvG poll imports its sheet adapter and the test
fails."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.serve import poll_preload
from sheets_gm.rulesets.registry import ruleset_names
from tests.quick import soak_but
from tests.sheets.practice import practice_copy, seen_files, type_practice_orders

#: The server: it imports the preload, then forks one poll a config named (``VISIT``, as ``serve`` hands it over);
#: each child prints how the poll ended, the modules it imported, and whether the workbooks' library was in it.
SERVER = """
import importlib, json, os, sys
from datetime import UTC, datetime
from pathlib import Path
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
for config in sys.argv[2:]:
    pid = os.fork()
    if pid == 0:
        from sheets_gm.host.outcome import VISIT
        before = set(sys.modules)
        done = VISIT(Path(config), None, lambda: datetime.now(UTC)).done
        print(json.dumps([str(done), sorted(set(sys.modules) - before), "openpyxl" in sys.modules]), flush=True)
        os._exit(0)
    os.waitpid(pid, 0)
"""


@pytest.mark.parametrize("google", soak_but([True, False], False), ids=["google-too", "local-only"])
@pytest.mark.parametrize("game", soak_but(ruleset_names(), "gvg"))
def test_a_poll_forked_from_the_server_imports_nothing_and_answers_as_a_cold_poll(game: str, google: bool,
                                                                                   tmp_path: Path) -> None:
    forked, cold, other = tmp_path / "forked", tmp_path / "cold", tmp_path / "other"
    forked.mkdir()
    practice_copy(forked, game)
    assert main(["sync", "-c", str(forked / "match.toml"), "--quiet"]) == 0
    shutil.copytree(forked, cold)
    shutil.copytree(forked, other)
    for folder, seed in ((forked, "forked"), (cold, "forked"), (other, "other")):
        type_practice_orders(folder / "match.toml", ready=seed == "other", seed=seed)
    configs = [str(other / "match.toml"), str(forked / "match.toml")]  # another match's poll first
    out = subprocess.run([sys.executable, "-c", SERVER, json.dumps(poll_preload(google)), *configs],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    done, imported, _ = json.loads(out.stdout.splitlines()[-1])
    assert done == "read"
    assert [m for m in imported if m.startswith(("sheets_gm", "openpyxl"))] == []
    assert main(["sync", "-c", str(cold / "match.toml"), "--quiet"]) == 0
    assert seen_files(forked) == seen_files(cold)


#: Imports the modules named and prints which of Google's client's packages came with them.
GOOGLE_LOADED = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & {"gspread", "google", "requests"})))
"""


@pytest.mark.parametrize("google", [True, False])
def test_the_server_of_a_local_only_host_loads_no_google_client(google: bool) -> None:
    """A host whose last run served no Google match (``commands.serve.serves_google``) forks its polls from a server
    without Google's client (a fifth of the server's imports, paid before its first poll of a restart); one that
    serves Google matches preloads it, so that none of their polls loads it. Checked with the defect put back: with
    ``host.visit`` importing ``host.shared_log`` at its top, the local-only server loads all three packages."""
    out = subprocess.run([sys.executable, "-c", GOOGLE_LOADED, json.dumps(poll_preload(google))],
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout) == (["google", "gspread", "requests"] if google else [])


@pytest.mark.parametrize("local", [False, True], ids=["google-only", "local-too"])
def test_a_google_poll_forked_from_the_server_imports_nothing(local: bool, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A Google match's poll that answers a save, forked from a server that preloaded a Google host's poll path
    (``GOOGLE_POLL_PATH``), asks the fake over HTTP as ``serve``'s polls ask Google, and imports nothing: not the
    project's Drive gate or Sheets backend, nor Google's client, nor the ``netrc`` module ``requests`` reads at
    each request. Checked with the defect put back: with the path as it was (the watcher's log and the sign-in
    alone), the poll imported ten modules (``poll_gate.drive``, ``sheets.google.backend`` and its parts,
    ``netrc``). The server of a host whose last run served no local match (``local=False``) holds no workbook
    library (``openpyxl``: 0.2 of its 1.3 CPU s of imports before the first poll of a restart), and the poll
    imports none either: a Google poll lays out its tabs with ``sheets.printed_sizes`` alone. Checked with each
    defect put back: ``sheets.tables`` importing ``one_page_widths`` from ``sheets.local.layout`` (as before),
    ``host.polls`` importing ``poll_gate.local_reads`` at its top or tidying every match's workbooks
    (``running.connect.tidy_local_workbooks`` imports the local backend), or ``poll_preload`` naming the local
    backend whatever ``local`` says: ``openpyxl`` was in the poll's process."""
    from tests.fakes.google_api import signed_in_fake
    from tests.fakes.google_http import served_over_http
    from tests.host.test_serve_google import create, keys
    from tests.matchfiles import type_orders

    with signed_in_fake(monkeypatch, {key: f"one · {role}" for role, key in keys("one").items()}) as fake:
        config = create(tmp_path / "league", "one", capsys)
        from sheets_gm.match.config import load_config
        from sheets_gm.running.connect import open_match_sheets

        type_orders(open_match_sheets(load_config(config)), ready=False)
        with served_over_http(fake) as server:
            out = subprocess.run([sys.executable, "-c", SERVER, json.dumps(poll_preload(True, ["gvg"], local)),
                                  str(config)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                                 env=server.environment())
    assert out.returncode == 0, out.stderr
    done, imported, workbooks = json.loads(out.stdout.splitlines()[-1])
    assert done == "read"
    assert [m for m in imported if m.startswith(("sheets_gm", "gspread", "google", "requests", "urllib3", "netrc",
                                                 "openpyxl"))] == []
    assert workbooks is local


#: Imports the modules named and prints which games' rules came with them (the server's warming included).
GAMES_LOADED = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted(m.split(".")[2] for m in sys.modules if m.startswith("sheets_gm.rulesets.")
                        and m.endswith(".game"))))
"""


def test_the_server_imports_the_games_the_last_run_played_alone(tmp_path: Path) -> None:
    """The host's status names the games its matches play (``HostStatus.games``), and the next start's polls'
    server imports and warms those alone (``poll_preload``, ``host.poll_server``): at 10,000 GvG matches the other
    four games were 0.5 CPU s of the server's start, before its first poll of a restart. With no status, every
    game. Checked with each defect put back: ``poll_preload`` naming every game, the server imported all five; the
    server warming every game whatever was preloaded, the same."""
    from sheets_gm.host.status import last_games
    from sheets_gm.rulesets.registry import GAMES
    from tests.host.hosting import Clock, new_host
    from tests.matchfiles import local_match

    league = tmp_path / "league"
    local_match(league / "m", private=True)
    host = new_host(league, Clock(datetime(2026, 11, 28, 4, tzinfo=UTC)), [], interval=10)
    host.step()
    host.close()  # (its status written as it stops)
    status = league / ".sheets-gm" / "serve-status.json"
    assert last_games(status) == ["gvg"]
    assert last_games(tmp_path / "none.json") is None
    out = subprocess.run([sys.executable, "-c", GAMES_LOADED, json.dumps(poll_preload(False, last_games(status)))],
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout) == ["gvg"]
    assert len(poll_preload(False, None)) == len(poll_preload(False, ["gvg"])) + len(GAMES) - 1
