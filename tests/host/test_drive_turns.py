"""Whose turn it is to ask Drive (``host.drive_turns``): a host on hundreds of GMs' sign-in files Drive has not
named yet (a first start, a file saved in each match's folder) has at most ``DRIVE_ASKERS`` questions under way at
once, the rest asking at later passes, each GM's account (whose change log names the saves) before the files still
to name; a question past the deadline holds no place, so a hung account holds up no other. The clock moves when
the test says; Drive's answers come when the test lets them; nothing sleeps."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Executor, Future
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

from sheets_gm.host.accounts import AccountWatcher
from sheets_gm.host.drive_turns import DRIVE_ASKERS, DriveTurns
from sheets_gm.host.scheduler import DRIVE_DEADLINE
from tests.fakes.google_api import ABOUT, TOKEN_URL, GoogleApiFake
from tests.host.hosting import Clock, new_host
from tests.host.test_serve_gm_sign_ins import email, fake, named, sign_in  # noqa: F401 (the fixture)
from tests.host.test_serve_google import START, keys
from tests.matchfiles import NOW

T = TypeVar("T")

#: The GMs, and how many matches each plays, a sign-in file in each match's folder.
PLAYS = {"ann": 90, "bob": 60, "cy": 30}


class NoPolls(Executor):
    """A pool that starts no poll (this test is about Drive's questions alone)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return Future()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing runs."""


def sign_in_files(fake: GoogleApiFake, root: Path) -> None:  # noqa: F811
    """A GvG match's config for each match of ``PLAYS``, on its GM's own sign-in saved in its folder (its
    spreadsheets never read here: no poll starts)."""
    client = root / "client_secret.json"
    root.mkdir(parents=True)
    client.write_text(json.dumps({"installed": {"client_id": "cid", "client_secret": "secret",
                                                "token_uri": TOKEN_URL}}), encoding="utf-8")
    for gm, count in PLAYS.items():
        for n in range(count):
            folder = root / f"{gm}{n:03d}"
            folder.mkdir()
            (folder / "roster.csv").write_text("name,team\nAnn,red\nBen,blue\n", encoding="utf-8")
            k = keys(f"{gm}{n}")
            (folder / "match.toml").write_text(
                f'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n[sheets]\nbackend = "google"\n'
                f'board = "{k["board"]}"\nengine = "{k["engine"]}"\norders = {{ red = "{k["red"]}", blue = '
                f'"{k["blue"]}" }}\n[google]\noauth_client = "{client}"\n', encoding="utf-8")
            sign_in(fake, folder / ".sheets-gm" / "oauth-token.json", gm, f"refresh-{gm}-{n}")


def test_a_first_start_on_hundreds_of_sign_in_files_asks_drive_a_few_at_a_time_named_accounts_first(
        fake: GoogleApiFake, tmp_path: Path) -> None:  # noqa: F811
    root = tmp_path / "league"
    sign_in_files(fake, root)
    clock = Clock(START, on_move=lambda now: setattr(fake, "now", now))
    fake.now = START
    under_way: list[tuple[str, Callable[[], None]]] = []
    asked: list[str] = []

    def background(task: Callable[[], None], name: str) -> None:
        if name == "sheets-gm-search":
            task()  # the search's slices at once
        else:
            under_way.append((name.removeprefix("sheets-gm-drive "), task))  # Drive answers when the test says

    host = new_host(root, clock, [], interval=10, background=background, pool=NoPolls())
    files = sum(PLAYS.values())
    most = 0
    for _ in range(files):
        host.step()
        most = max(most, len(under_way))
        answering, under_way[:] = list(under_way), []
        for name, task in answering:  # Drive answers each question under way before the next pass
            asked.append(name)
            task()
        clock.tick(0.5)
        if sum(name.startswith("OAuth sign-in ") for name in asked) == files:
            break
    host.step()
    assert most == DRIVE_ASKERS  # never more questions at once, the others at later passes
    assert fake.calls(ABOUT) == files  # every file named, once
    assert {w.name: w.matches for w in host.accounts.all() if w.matches} == {named(gm): n for gm, n in PLAYS.items()}
    files_asked = [n for n, name in enumerate(asked) if name.startswith("OAuth sign-in ")]
    for gm in PLAYS:  # each GM's account asks its change log as soon as Drive named her first file, before the
        first = asked.index(named(gm))  # files still to name
        named_at = min(n for n in files_asked if f"/{gm}" in asked[n])
        assert first < files_asked[-1] and sum(named_at < n < first for n in files_asked) <= 2 * DRIVE_ASKERS


def test_a_question_past_the_deadline_holds_no_place() -> None:
    turns = DriveTurns(timedelta(seconds=DRIVE_DEADLINE), limit=2)
    watchers = [AccountWatcher(f"service account a{n}@b", NOW) for n in range(3)]
    for watcher in watchers:
        turns.plan(watcher, NOW)
    first = turns.take(NOW, lambda w: True)
    assert [w.name for w in first] == [watchers[0].name, watchers[1].name] and turns.held  # the third waits
    assert turns.take(NOW + timedelta(seconds=29), lambda w: True) == [] and turns.soonest() is None
    late = turns.overdue(NOW + timedelta(seconds=DRIVE_DEADLINE))
    assert [name for name, _ in late] == [watchers[0].name, watchers[1].name]  # each said once
    assert turns.overdue(NOW + timedelta(seconds=DRIVE_DEADLINE + 10)) == []
    assert turns.take(NOW + timedelta(seconds=DRIVE_DEADLINE), lambda w: True) == [watchers[2]]  # both hung: the
    # third asks all the same
    turns.answered(watchers[0].name)
    turns.plan(watchers[0], NOW + timedelta(seconds=40))
    assert turns.soonest() == NOW + timedelta(seconds=40)
    gone = AccountWatcher("service account gone@b", NOW)
    turns.plan(gone, NOW + timedelta(seconds=40))
    assert turns.take(NOW + timedelta(seconds=40), lambda w: w is not gone) == [watchers[0]]  # one let go: dropped


@pytest.mark.parametrize("unnamed_first", [False, True])
def test_the_named_accounts_ask_before_the_sign_in_files_to_name(unnamed_first: bool) -> None:
    turns = DriveTurns(timedelta(seconds=DRIVE_DEADLINE), limit=1)
    file = AccountWatcher("OAuth sign-in /m/a/.sheets-gm/oauth-token.json", NOW, identify=True)
    account = AccountWatcher(named("ann"), NOW)
    for watcher in ([file, account] if unnamed_first else [account, file]):
        turns.plan(watcher, NOW)
    assert turns.take(NOW, lambda w: True) == [account]
    turns.answered(account.name)
    assert turns.take(NOW, lambda w: True) == [file]
    assert email("ann") in account.name
