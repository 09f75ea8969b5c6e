"""The host's status at 10,000 matches: a small status file rewritten as things change (the count by state, the
matches whose record changed, what fails), the list of every match rewritten every ten minutes and at the stop,
and ``serve --status`` printing the count, what fails and the matches asked for, not 10,001 lines. The host's
clock moves when the test says; nothing sleeps."""

from __future__ import annotations

import errno
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from datetime import timedelta
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.serve import serves_google
from sheets_gm.host.scheduler import STATUS_ALL_EVERY
from sheets_gm.host.status import (
    AccountStatus,
    HostStatus,
    MatchStatus,
    last_local,
    matches_path,
    read_status,
    status_lines,
    write_status,
)
from sheets_gm.sheets import private_files
from tests.host.hosting import Clock, hosted, new_host
from tests.matchfiles import NOW, local_match, type_orders


def listed(path: Path) -> list[str]:
    return [m["config"] for m in json.loads(path.read_text(encoding="utf-8"))]


def test_the_status_file_names_what_changed_and_the_list_of_every_match_is_written_seldom(tmp_path: Path) -> None:
    league = tmp_path / "league"
    made = {name: local_match(league / name)[1] for name in ("a", "b", "c")}
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10)
    host.step()
    small, every = host.status_file, matches_path(host.status_file)
    assert listed(every) == ["a/match.toml", "b/match.toml", "c/match.toml"]
    assert json.loads(small.read_text(encoding="utf-8"))["matches"] == []  # all in the list: none changed since
    listed_at = every.stat().st_mtime_ns
    type_orders(made["b"], ready=False)
    clock.tick(10)
    host.step()
    head = json.loads(small.read_text(encoding="utf-8"))
    assert [m["config"] for m in head["matches"]] == ["b/match.toml"] and head["counts"] == {"read": 3}
    assert every.stat().st_mtime_ns == listed_at  # the list of every match: not rewritten for one poll
    status = read_status(small)
    assert status is not None and [m.config for m in status.matches] == listed(every)
    assert hosted(host, league, "b").read_at == clock() and status.matches[1].read_at == clock().isoformat()
    clock.tick(STATUS_ALL_EVERY.total_seconds())
    host.step()
    assert every.stat().st_mtime_ns != listed_at
    assert json.loads(small.read_text(encoding="utf-8"))["matches"] == []


def test_the_polls_server_loads_googles_client_and_the_workbooks_library_as_the_last_run_served(
        tmp_path: Path) -> None:
    # The status names the accounts served (Google's client preloaded unless none) and says whether a match hosted is
    # local (``HostStatus.local``: the local backend and ``openpyxl`` preloaded only then; a host of Google matches
    # alone: test_serve_google). A status that does not say (none, unreadable, written before it said) counts as both.
    league = tmp_path / "league"
    local_match(league / "a")
    host = new_host(league, Clock(NOW), [], interval=10)
    assert serves_google(host.status_file) and last_local(host.status_file)  # a first start: nothing says
    host.step()
    assert not serves_google(host.status_file)  # a host of local matches alone
    assert last_local(host.status_file)
    status = read_status(host.status_file)
    assert status is not None
    status.accounts = [AccountStatus("gm@example.com", matches=1)]
    write_status(host.status_file, status)
    assert serves_google(host.status_file)
    raw = json.loads(host.status_file.read_text(encoding="utf-8"))
    assert raw["local"] is True
    del raw["local"]  # a status written before it said
    host.status_file.write_text(json.dumps(raw), encoding="utf-8")
    assert last_local(host.status_file)
    host.status_file.write_text("{not json", encoding="utf-8")
    assert serves_google(host.status_file) and last_local(host.status_file)  # unreadable: as a first start


def test_serve_status_prints_the_count_by_state_what_fails_and_the_matches_asked_for(tmp_path: Path) -> None:
    matches = [MatchStatus(f"club/m{i:03d}/match.toml", "gvg", "local", "idle", NOW.isoformat()) for i in range(120)]
    matches[7] = MatchStatus("club/m007/match.toml", "gvg", "local", "failed", error="a workbook does not read",
                             failures=2)
    folder = tmp_path / "league"
    where = folder / ".sheets-gm" / "serve-status.json"
    write_status(where, HostStatus(1, [str(folder)], NOW.isoformat(), NOW.isoformat(), 10.0, 4, True, matches, [],
                                   {"idle": 119, "failed": 1}))
    folder.mkdir(exist_ok=True)
    later = NOW + timedelta(seconds=5)
    plain = status_lines(read_status(where) or HostStatus(0, [], "", "", 0, 0), later)
    assert plain[1:] == ["By state: 1 failed, 119 idle",
                         "(120 matches: --match TEXT shows those whose config's path holds TEXT, --failing what "
                         "fails, --all every one.)",
                         "What failed (1):", "  club/m007/match.toml: a workbook does not read"]

    def printed(*options: str) -> list[str]:
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            assert main(["serve", "--status", str(folder), *options]) == 0
        return out.getvalue().splitlines()

    assert [line.split(",")[0] for line in printed("--match", "m042") if line.startswith("club/")] == [
        "club/m042/match.toml [gvg"]
    assert not any(line.startswith("club/") for line in printed("--failing"))
    assert sum(line.startswith("club/") for line in printed("--all")) == 120
    assert "No match's config path holds 'nowhere'." in printed("--match", "nowhere")
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        assert main(["serve", str(folder), "--failing"]) == 2
    assert "give --status with them" in err.getvalue()


def test_a_record_the_full_disk_refused_is_said_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A poll whose only write is its record: on a full disk it failed silently, and the next poll read the whole
    # match again, and again. The host says it once, naming the match, and says nothing more while it lasts.
    league = tmp_path / "league"
    local_match(league / "full")
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines, interval=10)
    real = private_files.write_private

    def full(path: Path, text: str) -> None:
        if path.name.endswith(".poll.json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, text)

    monkeypatch.setattr(private_files, "write_private", full)
    host.step()
    said = [line for line in lines if "could not be written" in line]
    assert said == ["full/match.toml: The poll's record could not be written (match.poll.json (No space left on "
                    "device)): the next poll reads the match again in full; free some space on its disk."]
    clock.tick(10)
    host.step()
    assert hosted(host, league, "full").done == "read"  # read again in full: no record
    assert [line for line in lines if "could not be written" in line] == said  # said once
    monkeypatch.setattr(private_files, "write_private", real)
    clock.tick(10)
    host.step()
    assert not hosted(host, league, "full").warning


def test_a_status_written_by_a_later_version_reads_with_what_it_says_more_left_aside(tmp_path: Path) -> None:
    # A downgrade, or a status a newer host wrote: each record keeps the fields this version knows, the rest is
    # ignored; ``serve --status`` and the next start's preload read it rather than showing no status at all.
    clock = Clock(NOW)
    host = new_host(tmp_path / "league", clock, [], interval=10)
    local_match(tmp_path / "league" / "a")
    host.step()
    small, every = host.status_file, matches_path(host.status_file)
    raw = json.loads(small.read_text(encoding="utf-8"))
    raw["said_by_a_later_version"] = {"anything": 1}
    for account in raw["accounts"]:
        account["later"] = True
    small.write_text(json.dumps(raw), encoding="utf-8")
    every.write_text(json.dumps([{**m, "later": 2} for m in json.loads(every.read_text(encoding="utf-8"))]),
                     encoding="utf-8")
    status = read_status(small)
    assert status is not None and [m.config for m in status.matches] == ["a/match.toml"]
    raw.pop("pid")  # a field it needs is missing: the file does not read, as before
    small.write_text(json.dumps(raw), encoding="utf-8")
    assert read_status(small) is None
