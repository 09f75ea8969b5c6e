"""``sheets-gm serve`` on Google matches (the fake): one change-log request per account an interval serves every
match of that account, only the match whose spreadsheets changed is read, Drive's file index is asked once per
account, not per match, and a question Drive does not answer loses nothing."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sheets_gm.host.accounts import account_of, config_keys
from sheets_gm.host.scheduler import phase
from sheets_gm.match.config import load_config, read_spreadsheets
from sheets_gm.running.connect import open_match_sheets
from tests.commands.test_commands_google import ROSTER, run
from tests.fakes.google_api import (
    CHANGES,
    FILE_GET,
    FILES,
    READ,
    START_TOKEN,
    FaultKind,
    GoogleApiFake,
    signed_in_fake,
    write_service_account_key,
)
from tests.host.hosting import Clock, hosted, new_host, starts
from tests.made import made_on_fake
from tests.matchfiles import type_orders

START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
ROLES = ("board", "engine", "red", "blue")
#: Three matches on two accounts: two on the club's service account, one on a second.
MATCHES = {"one": "club", "two": "club", "three": "guild"}


def keys(match: str) -> dict[str, str]:
    """The spreadsheet keys of a match, by role."""
    return {role: f"1{role}_{match}_serve_test_".ljust(44, "0") for role in ROLES}


def account(name: str) -> str:
    return f"{name}-bot@sheets-gm-test.iam.gserviceaccount.com"


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    spreadsheets = {key: f"{match} · {role}" for match in MATCHES for role, key in keys(match).items()}
    monkeypatch.setattr("sheets_gm.host.visit._CLIENTS", {})  # no client signed in on another test's fake
    with signed_in_fake(monkeypatch, spreadsheets) as f:
        yield f


def create(league: Path, match: str, capsys: pytest.CaptureFixture[str]) -> Path:
    """A GvG match on the fake, created by init on its account's key."""
    folder = league / match
    folder.mkdir(parents=True)
    write_service_account_key(folder / "sa.json", account(MATCHES[match]))
    (folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
    k = keys(match)
    config = folder / "match.toml"
    config.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
        f'[sheets]\nbackend = "google"\nboard = "{k["board"]}"\nengine = "{k["engine"]}"\n'
        f'orders = {{ red = "{k["red"]}", blue = "{k["blue"]}" }}\n[google]\nservice_account = "sa.json"\n',
        encoding="utf-8")
    assert run(capsys, "init", "gvg", "-c", config, "--no-share")[0] == 0
    return config


def league_on_fake(fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch) -> tuple[Clock, Path, dict[str, Path]]:
    """The three matches created under ``tmp_path/league``, and one clock for the host, the commands and Drive."""
    clock = Clock(START, on_move=lambda now: setattr(fake, "now", now))
    fake.now = START
    monkeypatch.setattr("sheets_gm.commands.base.clock", clock)
    league = tmp_path / "league"
    made_on_fake(fake, league, "serve google league",
                 lambda into: [create(into, match, capsys) for match in MATCHES])  # once a process, then copied
    return clock, league, {match: league / match / "match.toml" for match in MATCHES}


def by_account(fake: GoogleApiFake, endpoint: str) -> dict[str, int]:
    """Requests to ``endpoint`` by the account that made them."""
    out: dict[str, int] = {}
    for call in fake.log:
        if call.endpoint == endpoint:
            out[call.caller] = out.get(call.caller, 0) + 1
    return out


def read_keys(fake: GoogleApiFake) -> set[str]:
    return {m.group(1) for c in fake.log if c.endpoint == READ
            and (m := re.search(r"/spreadsheets/([^/:?]+)", c.url)) is not None}


def test_one_change_log_request_an_interval_serves_every_match_of_an_account(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    lines: list[str] = []
    host = new_host(league, clock, lines, interval=15)
    host.step()  # the first polls: each match asks Drive itself once
    type_orders(open_match_sheets(load_config(configs["three"])), ready=False)  # right after three's first poll
    said = []
    for _ in range(4):  # our writes read back, three's save answered, then idle
        clock.tick(15)
        host.step()
        said.append(hosted(host, league, "three").line)
    assert any("feedback cells updated" in line for line in said)  # nothing fell between its first poll and
    # its account's watcher taking over
    clock.tick(15)
    assert {h.account for h in host.matches.values()} == {f"service account {account(a)}" for a in ("club", "guild")}
    fake.reset_counters()
    for _ in range(4):  # a minute of idle
        host.step()
        clock.tick(15)
    club, guild = account("club"), account("guild")
    assert by_account(fake, CHANGES) == {club: 4, guild: 4}  # not one a match
    assert fake.calls(READ) == fake.calls(START_TOKEN) == fake.calls(FILES) == fake.calls(FILE_GET) == 0
    type_orders(open_match_sheets(load_config(configs["two"])), ready=False)  # two's players type
    fake.reset_counters()
    host.step()
    assert by_account(fake, CHANGES) == {club: 1, guild: 1}
    assert read_keys(fake) == {keys("two")["red"], keys("two")["blue"]}  # only the changed match, only its files
    assert hosted(host, league, "two").done == "read"
    assert "feedback cells updated" in hosted(host, league, "two").line
    # Drive's file index, the safety net every 30 minutes: once per account, not once per match.
    fake.reset_counters()
    for _ in range(2 * 60 + 1):
        clock.tick(15)
        host.step()
    assert by_account(fake, FILES) == {club: 1, guild: 1}
    assert by_account(fake, CHANGES) == {club: 120, guild: 120}
    assert fake.calls(READ) == 0  # our answers to two were passed over by their versions
    status = host.status(clock())
    assert sorted((a.name, a.matches) for a in status.accounts) == [
        (f"service account {club}", 2), (f"service account {guild}", 1)]
    # Drive not answering the club's question: nothing is read, it is said, and the next question, from the same
    # token, brings the save made meanwhile.
    type_orders(open_match_sheets(load_config(configs["one"])), ready=False)
    fake.reset_counters()
    fake.inject(FaultKind.UNAVAILABLE, endpoint=CHANGES)  # the club's question comes first (by name)
    clock.tick(15)
    host.step()
    assert fake.calls(READ) == 0 and "Drive did not answer" in host.status(clock()).accounts[0].error
    assert any(line.startswith(f"Account service account {club}: Drive did not answer") for line in lines)
    clock.tick(15)
    host.step()
    assert read_keys(fake) == {keys("one")["red"], keys("one")["blue"]} and not host.status(clock()).accounts[0].error


def _polled_then_stopped(league: Path, clock: Clock) -> None:
    """A host polls the matches of ``league`` (their first polls, our answers read back), then stops for 10 minutes."""
    warm = new_host(league, clock, [], interval=15)
    for _ in range(3):
        warm.step()
        clock.tick(15)
    warm.close()
    clock.tick(600)


def test_a_host_of_google_matches_alone_has_its_next_polls_server_import_no_workbook_library(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Its status says no match hosted is local (``HostStatus.local``), and the next start's polls' server imports
    # neither the local workbooks' backend nor ``openpyxl`` (``poll_preload``; a Google poll needs neither:
    # test_poll_server). Checked with the defect put back (the host writing ``local`` True whatever it serves).
    from sheets_gm.commands.serve import LOCAL_POLL_PATH, poll_preload, serves_google
    from sheets_gm.host.status import last_games, last_local

    clock, league, _ = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    _polled_then_stopped(league, clock)
    status = league / ".sheets-gm" / "serve-status.json"
    assert not last_local(status)
    preload = poll_preload(serves_google(status), last_games(status), last_local(status))
    assert "sheets_gm.host.shared_log" in preload and not set(LOCAL_POLL_PATH) & set(preload)


def test_a_cold_start_answers_a_google_save_before_the_backlog(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A host polled the three matches, then stopped. A save typed while no host ran (three's) and one typed as the
    # new host works through its first polls with one worker (two's) go before the backlog: the first told by
    # Drive's file index against three's last reads, the second by its account's change log, as a file event
    # tells a local match's. Our own writes read back (three's answer) wait behind a player's save. One, which
    # nothing changed, is never polled: that index, one request per account, told it.
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    _polled_then_stopped(league, clock)
    player = write_service_account_key(tmp_path / "player.json", "player@sheets-gm-test.iam.gserviceaccount.com")

    def save(match: str) -> None:  # a player's save, in her own name
        type_orders(open_match_sheets(replace(load_config(configs[match]), service_account=player)), ready=False)

    save("three")
    clock.tick(60)
    fake.reset_counters()
    cold = new_host(league, clock, [], interval=15, workers=1)
    order = starts(cold)
    cold.step()
    assert order == ["three"]
    save("two")
    clock.tick(15)
    cold.step()
    assert order == ["three", "two"]
    assert "feedback cells updated" in hosted(cold, league, "two").line
    assert by_account(fake, FILES) == {}  # the index waits ``INDEX_AFTER_KEPT`` after the kept token's answer
    for _ in range(3):
        clock.tick(15)
        cold.step()
    assert order[2:] == ["three", "two"]  # then our answers read back; no backlog
    assert hosted(cold, league, "one").done == "idle" and "waiting for" in hosted(cold, league, "one").line
    # At most one request an account, and none on the saves' path: each account's first question from its kept
    # token asks the change log alone (the saves it names polled at once); the club's other match, found after
    # it (the search waits for the saves the kept tokens name, ``SAVES_FIRST``), is told by the index its first
    # question ``INDEX_AFTER_KEPT`` later asks; the guild's one match was polled by then (its poll read what the
    # index would have said).
    assert by_account(fake, FILES) == {account("club"): 1}


def test_an_idle_google_match_is_not_polled_for_drives_file_index(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Drive's file index, the safety net every 30 minutes, is asked by each account's watcher for all its matches:
    # an idle match is not polled for its own record's moment (10,000 idle matches were each polled every 30
    # minutes, a process each), not while the host runs, nor when a host starts on records hours old.
    clock, league, _ = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    host = new_host(league, clock, [], interval=300)
    order = starts(host)
    for _ in range(8):  # the first polls, our answers read back; the watchers' first file index lists our
        host.step()  # writes since they started: each match polled once more, reading nothing
        clock.tick(300)
    order.clear()
    fake.reset_counters()
    for _ in range(13):  # an idle hour and more: two of the file index's moments
        host.step()
        clock.tick(300)
    assert order == [] and fake.calls(READ) == 0
    assert by_account(fake, FILES) == {account("club"): 2, account("guild"): 2}  # the watchers' own
    host.close()
    clock.tick(3 * 3600)
    cold = new_host(league, clock, [], interval=300)
    order = starts(cold)
    for _ in range(3):
        cold.step()
        clock.tick(300)
    assert order == []


@pytest.mark.parametrize("records", ["kept", "removed"])
def test_a_restart_answers_a_save_in_the_last_google_match_before_the_others_first_looks(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, records: str) -> None:
    # Each Google match joins its account's watcher when the host finds it, from its config's spreadsheets and
    # account alone (no full config read at its first look): a save typed in the last match (by name) while no
    # host ran is told by Drive's file index at the accounts' first questions and polled before the other
    # matches are even looked at, whatever their number (a first look is capped a pass: here one). With their
    # records removed (a cold start on matches never polled), the index since the host found them tells it.
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    for config in configs.values():  # what the watcher reads of a config is what the poll reads of it
        light, full = read_spreadsheets(config), load_config(config)
        assert (config_keys(light), account_of(light)) == (config_keys(full), account_of(full))
        assert light.ruleset == full.ruleset and light.oauth_token == full.oauth_token
    _polled_then_stopped(league, clock)
    if records == "removed":
        for config in configs.values():
            for record in (config.parent / ".sheets-gm").glob("*.poll.json"):
                record.unlink()
    player = write_service_account_key(tmp_path / "player.json", "player@sheets-gm-test.iam.gserviceaccount.com")
    type_orders(open_match_sheets(replace(load_config(configs["two"]), service_account=player)), ready=False)
    clock.tick(30)
    monkeypatch.setattr("sheets_gm.host.scheduler.LOOKS_A_PASS", 0)  # no first look by its moment at all
    full_reads: list[Path] = []
    monkeypatch.setattr("sheets_gm.host.account_set.load_config", lambda path: full_reads.append(path))
    cold = new_host(league, clock, [], interval=15, workers=1)
    order = starts(cold)
    cold.step()
    assert order == ["two"] and "feedback cells updated" in hosted(cold, league, "two").line
    assert [h.path.parent.name for h in cold.matches.values() if h.looked_at is not None] == ["two"]
    assert {h.account for h in cold.matches.values()} == {f"service account {account(a)}" for a in ("club", "guild")}
    assert full_reads == []  # the watchers sign in from the key files the configs name


def test_an_account_a_player_saved_in_is_asked_sooner_for_two_minutes(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Idle, each account asks Drive every three quarters of the interval (7.5 s, 8 a minute at 10 s: a save's 95th
    # percentile wait for a question is 7.1 s, within the 10 s goal with a margin), at moments of that spacing its
    # name draws (``phase``): accounts found together do not all ask at once. Once its change log named a player's
    # save, an account asks every 5 s for two minutes (11 or 12 in the next minute, as its phase falls): the saves
    # that follow (the same player's, her match's others') wait for a question at most 5 s. Our own writes, read
    # back, do not count; the other account keeps its pace.
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    host = new_host(league, clock, [], interval=10)
    club, guild = account("club"), account("guild")
    asked: dict[str, list[datetime]] = {}

    def minute() -> dict[str, int]:
        """The change-log questions of each account in the next minute, the host's loop waiting as it asks."""
        fake.reset_counters()
        asked.clear()
        end = clock() + timedelta(seconds=60)
        while clock() < end:
            before = by_account(fake, CHANGES)
            wait = host.step()
            for who, count in by_account(fake, CHANGES).items():
                if count > before.get(who, 0):
                    asked.setdefault(who, []).append(clock())
            clock.tick(max(wait, 0.25))
        return by_account(fake, CHANGES)

    minute()  # the first polls, our answers read back (every spreadsheet new: each account asked sooner a while)
    minute()
    assert minute() == {club: 8, guild: 8}
    offset = (asked[guild][0] - asked[club][0]).total_seconds() % 7.5
    drawn = 7.5 * (phase(f"service account {club}") - phase(f"service account {guild}")) % 7.5
    assert offset == pytest.approx(drawn, abs=0.3)  # spread as their names draw (to the loop's quarter second)
    order = starts(host)
    player = write_service_account_key(tmp_path / "player.json", "player@sheets-gm-test.iam.gserviceaccount.com")
    type_orders(open_match_sheets(replace(load_config(configs["two"]), service_account=player)), ready=False)
    busy = minute()
    assert busy[club] in (11, 12) and busy[guild] == 8
    assert {(b - a).total_seconds() for a, b in itertools.pairwise(asked[club][1:])} == {5.0}
    assert order == ["two", "two"]  # the save answered, then our answer read back
    minute()
    assert minute() == {club: 8, guild: 8}
