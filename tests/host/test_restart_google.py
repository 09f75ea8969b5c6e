"""A restarted ``serve`` asks each Google account's change log from the page token the last run kept
(``host.drive_tokens``): the matches whose spreadsheets changed while no host ran are polled first, named by the log
even when Drive's file index cannot tell (more than a page of files: stubbed here to hint nothing). The kept token
is the latest after which every change listed was answered: a save the log named but no poll answered before the
stop is named again. A token Drive refuses is said and replaced. The GM's own sign-in (``drive.file``):
test_serve_unseen."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from sheets_gm.host import scheduler
from sheets_gm.host.accounts import AccountWatcher, config_keys
from sheets_gm.host.drive_tokens import Where, read_tokens, read_where, tokens_path, where_path, where_text
from sheets_gm.host.scheduler import Host
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from tests.fakes.google_api import START_TOKEN, GoogleApiFake, write_service_account_key
from tests.host.hosting import Clock, new_host, starts
from tests.host.test_serve_google import _polled_then_stopped, account, fake, league_on_fake  # noqa: F401
from tests.matchfiles import type_orders


def _player_saves(config: Path, tmp_path: Path) -> None:
    """A player's save in the match of ``config``, in her own name (not the host's account)."""
    player = write_service_account_key(tmp_path / "player.json", "player@sheets-gm-test.iam.gserviceaccount.com")
    type_orders(open_match_sheets(replace(load_config(config), service_account=player)), ready=False)


def _blind_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drive's file index tells nothing at a start (as when more than a page of files changed), and no match is
    looked at by its moment: only what the change log names is polled in the first pass."""
    monkeypatch.setattr(AccountWatcher, "hints", lambda self: set())
    monkeypatch.setattr("sheets_gm.host.scheduler.LOOKS_A_PASS", 0)


def _stopped_league(fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
                    monkeypatch: pytest.MonkeyPatch) -> tuple[Clock, Path, dict[str, Path]]:
    """The league on the fake (``league_on_fake``), served, then stopped for 10 minutes."""
    clock, league, configs = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    _polled_then_stopped(league, clock)
    return clock, league, configs


def _restarted(league: Path, clock: Clock) -> list[str]:
    """A host started on ``league`` with one worker, after its first pass: the matches whose polls it started."""
    cold = new_host(league, clock, [], interval=15, workers=1)
    order = starts(cold)
    cold.step()
    cold.close()
    return order


@pytest.mark.parametrize("tokens", ["kept", "lost"])
def test_a_restart_polls_first_the_match_the_kept_change_log_names(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, tokens: str) -> None:
    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    kept = tokens_path(league / ".sheets-gm" / "serve-status.json")
    assert set(read_tokens(kept)[0]) == {f"service account {account(a)}" for a in ("club", "guild")}
    if tokens == "lost":  # the defect put back: no token kept, each account's log begins afresh
        kept.unlink()
    _player_saves(configs["two"], tmp_path)
    clock.tick(30)
    _blind_index(monkeypatch)
    fake.reset_counters()
    order = _restarted(league, clock)
    if tokens == "kept":
        assert order == ["two"] and fake.calls(START_TOKEN) == 0  # asked from the kept tokens, none afresh
    else:
        assert order == [] and fake.calls(START_TOKEN) == 2


@pytest.mark.parametrize("behind", [480, 0])
def test_a_save_the_log_named_but_no_poll_answered_is_named_again_after_a_restart(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, behind: int) -> None:
    # Unless the kept token would lag more than KEPT_BEHIND questions (0 here: the latest token kept, the save
    # left to Drive's file index, blind here).
    monkeypatch.setattr("sheets_gm.host.accounts.KEPT_BEHIND", behind)
    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    host = new_host(league, clock, [], interval=15)
    host.step()
    clock.tick(15)
    host.step()  # the watchers asked from the kept tokens
    _player_saves(configs["one"], tmp_path)
    clock.tick(15)
    watcher = host.accounts.named(f"service account {account('club')}")
    assert watcher is not None and watcher.ask(clock())  # the log names one's save; the host stops before its poll
    host.close()
    clock.tick(60)
    _blind_index(monkeypatch)
    assert _restarted(league, clock) == (["one"] if behind else [])


def test_a_kept_token_drive_refuses_is_said_and_replaced(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, league, _ = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    kept = tokens_path(league / ".sheets-gm" / "serve-status.json")
    kept.write_text(json.dumps({f"service account {account('club')}": "99999"}), encoding="utf-8")
    lines: list[str] = []
    host = new_host(league, clock, lines, interval=15)
    host.step()
    assert any("Drive refused the change log's page token kept from the last run" in line for line in lines)
    watcher = host.accounts.named(f"service account {account('club')}")
    assert watcher is not None and watcher.token != "99999" and not watcher.error
    kept.write_text("not json", encoding="utf-8")
    lines.clear()
    new_host(league, clock, lines, interval=15)
    assert any("change-log tokens" in line and "does not read" in line for line in lines)



def test_a_change_listed_before_the_search_found_its_match_is_kept_for_it(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # An account asks its log from the kept token when the search finds its first match: a save in one the search
    # reaches later (two, its folder listed last) is kept for it and polled as the search finds it, not left to
    # the next question (the file index, blind here). Dropping the changes no match owns yet (the defect): never.
    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    os.utime(league / "two", ns=(0, 0))  # changed longest ago: listed last
    _player_saves(configs["two"], tmp_path)
    clock.tick(30)
    _blind_index(monkeypatch)
    monkeypatch.setattr("sheets_gm.host.scheduler.WALK_A_PASS", 1)
    cold = new_host(league, clock, [], interval=15, workers=1)
    order = starts(cold)
    club = f"service account {account('club')}"
    while cold.searched_at is None:
        cold.step()
        watcher = cold.accounts.named(club)
        if (league / "two" / "match.toml").resolve() not in cold.matches:
            assert order == [] and (watcher is None or watcher.asked_at is not None or not watcher.matches)
    assert order == ["two"]
    cold.close()


def test_a_start_reads_the_kept_places_without_a_path_or_a_text_made_of_each(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # At 10,000 matches the kept places are 40,000 spreadsheets (``serve-drive-matches.json``, 3.6 MB): the start made a
    # path of each (0.2 CPU s) and wrote them all again as text for their digest (0.03 s), before its first question
    # to Drive. Now a place is made a path when its account's log names it, and the digest is the file's own. Here
    # 3,000 places more than the league's (a bigger host's); the save the kept log names is polled all the same.
    # Checked with each defect put back (a path made of every place, the digest of the places written again): 3,000
    # paths more, and one text.
    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    where = where_path(league / ".sheets-gm" / "serve-status.json")
    places = json.loads(where.read_text(encoding="utf-8"))
    account_of = next(iter(places))
    places[account_of].update({f"1other_{n:05d}".ljust(44, "0"): str(tmp_path / f"gone{n}" / "match.toml")
                               for n in range(3000)})
    where.write_text(json.dumps(places, sort_keys=True), encoding="utf-8")
    made, texts = [0], [0]

    def counted_path(*parts: object) -> Path:
        made[0] += 1
        return Path(*parts)  # type: ignore[arg-type]

    def counted_text(places: Where) -> str:
        texts[0] += 1
        return where_text(places)

    monkeypatch.setattr(scheduler, "Path", counted_path)
    monkeypatch.setattr(scheduler, "where_text", counted_text)
    _player_saves(configs["two"], tmp_path)
    clock.tick(30)
    _blind_index(monkeypatch)
    cold = new_host(league, clock, [], interval=15, workers=1)
    assert made[0] < 10 and texts[0] == 0
    order = starts(cold)
    cold.step()
    assert order == ["two"]
    cold.close()


@pytest.mark.parametrize("kept", [True, False])
def test_a_restart_polls_a_save_typed_while_it_was_down_before_the_search_reaches_its_folder(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, kept: bool) -> None:
    # The last run kept where each account's matches are (``drive_tokens.Where``): one match of each account joins
    # before the search (its account asks the log from the kept token at once), and the match of each spreadsheet
    # that log names joins as it is named. The search here never gets past its first step (a folder that hangs:
    # 10,000 folders take 15-20 s); the save is polled all the same. Without the kept file (the defect put back),
    # it waits for the search.
    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    where = where_path(league / ".sheets-gm" / "serve-status.json")
    assert {key for keys in read_where(where).values() for key in keys} == {
        key for config in configs.values() for key in config_keys(load_config(config))}
    if not kept:
        where.write_text("not json", encoding="utf-8")  # damaged, or gone: nothing kept
    _player_saves(configs["two"], tmp_path)
    clock.tick(30)
    _blind_index(monkeypatch)
    held: list[Callable[[], None]] = []

    def background(task: Callable[[], None], name: str) -> None:
        if name == "sheets-gm-search":
            held.append(task)  # the search hangs
        else:
            task()

    cold = new_host(league, clock, [], interval=15, workers=1, background=background)
    order = starts(cold)
    for _ in range(3):
        cold.step()
        clock.tick(1)
    assert cold.searched_at is None and held
    assert order == (["two"] if kept else [])
    cold.close()


def test_a_restart_answers_the_saves_the_kept_logs_name_before_it_searches(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The first search (a core's work for 15 s and more at 10,000 folders) waits while the accounts joined from the
    # kept places ask their logs and the saves those name are polled (``SAVES_FIRST``): the save of "two" is
    # polled before the search takes its first slice, and the search then goes on. Without the wait (the defect
    # put back: ``SAVES_FIRST`` of 0), the search's first slice comes first.
    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    _player_saves(configs["two"], tmp_path)
    clock.tick(30)
    _blind_index(monkeypatch)
    events: list[str] = []

    def background(task: Callable[[], None], name: str) -> None:
        events.append(name.removeprefix("sheets-gm-").split()[0])
        task()

    cold = new_host(league, clock, [], interval=15, workers=1, background=background)
    order = starts(cold)
    real = cold._submit
    cold._submit = lambda hosted, now: (events.append(f"poll {hosted.path.parent.name}"),  # type: ignore
                                        real(hosted, now))
    for _ in range(3):
        cold.step()
        clock.tick(1)
    assert order[:1] == ["two"]
    assert events.index("poll two") < events.index("search"), events
    assert cold.step() >= 0 and cold.searched_at is not None  # the search went on once the save was polled
    cold.close()


def test_while_the_saves_the_kept_logs_name_wait_no_other_poll_takes_their_place(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Traced at 10,000 matches: a restart's kept logs named 79 matches, 20 of them players' saves and the rest our
    # own answers of the last run read back (``DUE``); polled eight at a time as they were named, the saves waited
    # behind the read-backs. While an account joined from the kept places has not answered, or a save it named
    # waits (``SAVES_FIRST``), only a player's save (``CHANGED``) starts; then the rest. With every rank let through
    # (the defect put back), the read-back starts first.
    from sheets_gm.host.quiet import CHANGED, DUE

    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    cold = new_host(league, clock, [], interval=15, workers=1)
    order = starts(cold)
    cold._search(clock())  # the kept places joined (one match an account), the search held until they answer
    assert cold._first_askers and cold.searched_at is None
    ours = cold.matches[configs["one"].resolve()]
    ours.rank = DUE  # our own answer, named again by the kept log
    cold._waiting[ours.path] = ours
    cold._start_polls(clock())
    assert order == []  # its place is kept: an account not answered yet may name a save
    cold._first_askers = set()  # every account answered; the save it named ("three") waits
    save = cold.matches[configs["three"].resolve()]
    save.rank = CHANGED
    cold._waiting[save.path] = save
    cold._named_first = {save.path}
    cold._start_polls(clock())
    assert order == ["three"]  # the save first ...
    cold._take_outcomes(clock())
    cold._start_polls(clock())
    assert order == ["three", "one"]  # ... then our own answer, read back
    cold.close()


class _AtOnce:
    """A thread whose target runs as it is started, on the caller's thread."""

    def __init__(self, target: Callable[[], None], name: str = "", daemon: bool = False) -> None:
        self.target = target

    def start(self) -> None:
        self.target()


def test_the_file_watches_are_put_once_the_first_search_ends_not_beside_the_saves_first(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Traced at 10,000 Google matches: putting a file watch on each of their 20,000 folders costs the host's
    # process 0.65 CPU s, which serve spent beside the loop from its first moment, while the accounts' first
    # questions and the saves they name waited for that same interpreter (at a load of 8, seconds of wall). The
    # watches now begin once the first search ends: not while the saves the kept logs name come first
    # (``SAVES_FIRST``), nor while the search goes on (the saves found by it are answered meanwhile). With serve's
    # own start of the watches put back (begun with the host), the first assertion fails.
    from sheets_gm.host.file_events import FileEvents

    clock, league, _configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    events = FileEvents([league])
    begun: list[datetime] = []

    def start() -> bool:
        begun.append(clock())
        return True

    monkeypatch.setattr(events, "start", start)
    monkeypatch.setattr("sheets_gm.host.file_events.threading.Thread", _AtOnce)  # its thread run as it starts
    held: list[Callable[[], None]] = []

    def background(task: Callable[[], None], name: str) -> None:
        (held.append if name.startswith("sheets-gm-search") else lambda t: t())(task)

    cold = new_host(league, clock, [], interval=15, workers=1, events=events, background=background)
    cold._search(clock())  # the kept places joined (one match an account), the search held until they answer
    assert cold._first_askers and cold.searched_at is None
    assert begun == [] and not events.begun  # the saves first: no watch yet
    cold._first_askers, cold._named_first = set(), set()  # every account answered, no save waits
    cold._search(clock())  # the search's first slice asked for, under way
    assert held and begun == []  # no watch while it searches
    held.pop()()
    cold._search(clock())  # its slice taken in: the search of a small league ends
    assert cold.searched_at is not None and events.begun and len(begun) == 1
    cold._search(clock())
    assert len(begun) == 1  # once
    cold.close()


def _drained(fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
             monkeypatch: pytest.MonkeyPatch) -> tuple[Host, list[str]]:
    """Saves in every match while no host ran; a host of one worker restarted, its polls held and its search never
    ending, after four passes: the host, and the matches whose polls it started."""
    from tests.host.test_isolation import HangingPool

    clock, league, configs = _stopped_league(fake, tmp_path, capsys, monkeypatch)
    for config in configs.values():
        _player_saves(config, tmp_path)
    clock.tick(30)
    held: list[Callable[[], None]] = []

    def background(task: Callable[[], None], name: str) -> None:
        if name == "sheets-gm-search":
            held.append(task)
        else:
            task()

    cold = new_host(league, clock, [], interval=15, workers=1, background=background,
                    pool=HangingPool(set(configs)), stop_grace=0)  # its close kills the held polls at once
    order = starts(cold)
    for _ in range(4):
        cold.step()
        clock.tick(1)
    assert cold.searched_at is None
    return cold, order


def test_a_restart_drains_google_saves_past_the_workers_one_poll_an_account(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Past the workers' bound (``CATCH_UP``), a Google poll starts for an account none of whose polls is under way
    # (the guild's beside one of the club's), never a second of one account (its quota). With Google kept to the
    # workers' bound (the defect put back), one poll.
    _, order = _drained(fake, tmp_path, capsys, monkeypatch)
    assert sorted(order) in (["one", "three"], ["three", "two"])


def test_a_restart_with_a_save_that_cannot_start_yet_does_not_spin(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The club's second save waits for its account's poll under way (one poll an account past the workers), with
    # a place free under the bound: no pass can start it, so the loop sleeps until that poll ends (its end wakes the
    # loop) or something falls due, never turning at once again and again. With "a match waits and a place is
    # free" taken as "a poll may start" (the defect put back), each pass asks for the next at once: the host spins.
    monkeypatch.setattr("sheets_gm.host.scheduler.CATCH_UP", 3)
    cold, order = _drained(fake, tmp_path, capsys, monkeypatch)
    assert len(order) == 2 and len(cold._waiting) == 1 and len(cold._polling) == 2 < cold._bound()
    assert cold.step() > 0
    cold.close()


def test_where_the_matches_are_not_kept_is_said_and_the_next_start_searches(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, league, _ = league_on_fake(fake, tmp_path, capsys, monkeypatch)
    where = where_path(league / ".sheets-gm" / "serve-status.json")
    where.mkdir(parents=True)  # not a file it can write (as a full disk, or the folder's rights)
    lines: list[str] = []
    host = new_host(league, clock, lines, interval=15)
    host.step()
    host.close()
    assert any(line.startswith("Where the accounts' matches are cannot be kept in ") and str(where) in line
               for line in lines)
    assert read_where(where) == {}  # the next start keeps nothing of it: its search finds the matches
