"""``serve`` on matches played on GMs' own sign-ins (OAuth): one Drive change-log watcher per Google account,
whatever number of sign-in files name it (``doctor`` saves one in each match's folder by default), the account
asked of Drive's ``about`` once a file. Two files of one GM: any one that works serves, one refused gives way; a
token kept under a sign-in file's name (a host of before) is used by its account; a file replaced by another GM's
moves its matches to that GM's watcher; ``about`` not answering is said, the file watched on its own meanwhile."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
import requests

from sheets_gm.host.access_kept import access_path, read_access
from sheets_gm.host.account_set import CHECK_SIGN_INS, account_name
from sheets_gm.host.accounts import IDENTIFY_AGAIN, account_of
from sheets_gm.host.drive_tokens import read_sign_ins, read_tokens, sign_ins_path, tokens_path, write_tokens
from sheets_gm.host.scheduler import Host
from sheets_gm.match.config import load_config
from sheets_gm.sheets.google.drive import DRIVE_ABOUT_URL
from sheets_gm.sheets.google.signin import SIGN_IN_SCOPES, SPREADSHEETS_SCOPE
from tests.commands.test_commands_google import ROSTER, run
from tests.fakes.google_api import (
    ABOUT,
    CHANGES,
    START_TOKEN,
    TOKEN,
    TOKEN_URL,
    FaultKind,
    GoogleApiFake,
    permission_id,
    signed_in_fake,
    write_service_account_key,
)
from tests.host.hosting import Clock, new_host
from tests.host.test_restart_google import _blind_index, _player_saves, _restarted
from tests.host.test_serve_google import START, by_account, keys, read_keys
from tests.made import made_on_fake
from tests.quick import soak_but

#: The GMs and their matches.
GMS = {"ann": ("a1", "a2", "a3"), "bob": ("b1", "b2"), "cy": ("c1",)}


def email(gm: str) -> str:
    return f"{gm}@example.com"


def named(gm: str) -> str:
    """The account of ``gm`` as the host names it."""
    return account_name(permission_id(email(gm)), email(gm))


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    spreadsheets = {key: f"{match} · {role}" for matches in GMS.values() for match in matches
                    for role, key in keys(match).items()}
    monkeypatch.setattr("sheets_gm.host.visit._CLIENTS", {})
    with signed_in_fake(monkeypatch, spreadsheets) as f:
        for ss in f.spreadsheets.values():
            ss.by_app = True  # made by sheets-gm (init --create): her drive.file sign-in sees them
        yield f


def sign_in(fake: GoogleApiFake, token_file: Path, gm: str, refresh: str) -> None:
    """A GM's sign-in saved at ``token_file`` (as ``doctor`` saves it), its refresh token ``refresh`` hers."""
    fake.users[refresh] = email(gm)
    token_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    token_file.write_text(json.dumps({"refresh_token": refresh, "client_id": "cid", "client_secret": "secret",
                                      "token_uri": TOKEN_URL, "scopes": list(SIGN_IN_SCOPES)}), encoding="utf-8")
    token_file.chmod(0o600)


def _head(match: str) -> str:
    """``match``'s config but for its ``[google]`` table."""
    k = keys(match)
    sheets = (f'[sheets]\nbackend = "google"\nboard = "{k["board"]}"\nengine = "{k["engine"]}"\n'
              f'orders = {{ red = "{k["red"]}", blue = "{k["blue"]}" }}\n')
    return 'ruleset = "gvg"\nteams = ["red", "blue"]\nroster = "roster.csv"\n' + sheets


def made_by_init(league: Path, match: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A GvG match made by init on a service account, in ``league/match``."""
    folder = league / match
    folder.mkdir(parents=True)
    write_service_account_key(folder / "sa.json", "maker@sheets-gm-test.iam.gserviceaccount.com")
    (folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
    (folder / "client_secret.json").write_text(json.dumps(
        {"installed": {"client_id": "cid", "client_secret": "secret", "token_uri": TOKEN_URL}}), encoding="utf-8")
    config = folder / "match.toml"
    config.write_text(_head(match) + '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    assert run(capsys, "init", "gvg", "-c", config, "--no-share")[0] == 0


def gm_match(fake: GoogleApiFake, league: Path, gm: str, match: str, shared_file: bool) -> Path:
    """The match ``made_by_init`` in ``league/match``, then played on ``gm``'s own sign-in: saved in the match's
    own folder (``doctor``'s default), or one file for all her matches (``shared_file``)."""
    folder = league / match
    token = league / f"{gm}-token.json" if shared_file else folder / ".sheets-gm" / "oauth-token.json"
    if not token.exists():
        sign_in(fake, token, gm, f"refresh-{gm}" if shared_file else f"refresh-{gm}-{match}")
    (folder / "match.toml").write_text(_head(match) + '[google]\noauth_client = "client_secret.json"\n'
                                       + (f'oauth_token = "{token}"\n' if shared_file else ""), encoding="utf-8")
    return folder / "match.toml"


def _made_league(into: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for matches in GMS.values():
        for match in matches:
            made_by_init(into, match, capsys)


def league(fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch, shared: dict[str, bool]) -> tuple[Clock, Path, dict[str, Path]]:
    """Every match of ``GMS`` under ``tmp_path/league``, each on its GM's sign-in (``shared``: by match, one file
    for all the GM's matches that say so); one clock for the host, the commands and Drive. The matches are made by
    init once a process (``made_on_fake``): each test a copy of its own, files and fake."""
    clock = Clock(START, on_move=lambda now: setattr(fake, "now", now))
    fake.now = START
    monkeypatch.setattr("sheets_gm.commands.base.clock", clock)
    root = tmp_path / "league"
    made_on_fake(fake, root, "gm sign-ins league", lambda into: _made_league(into, capsys))
    configs = {match: gm_match(fake, root, gm, match, shared[match])
               for gm, matches in GMS.items() for match in matches}
    return clock, root, configs


def settle(host: Host, clock: Clock, passes: int = 4) -> None:
    for _ in range(passes):
        host.step()
        clock.tick(15)


def watchers(host: Host) -> dict[str, int]:
    """The host's change-log watchers that serve matches, with how many each serves."""
    return {w.name: w.matches for w in host.accounts.all() if w.matches}


def one_watcher_per_account(host: Host, configs: dict[str, Path]) -> None:
    """The property: one watcher per Google account, serving every match of its GM, whatever the files."""
    assert watchers(host) == {named(gm): len(matches) for gm, matches in GMS.items()}
    for gm, matches in GMS.items():
        for match in matches:
            sign = account_of(load_config(configs[match]))
            watcher = host.accounts.named(sign)
            assert watcher is not None and watcher.name == named(gm), (match, sign)


#: Whether a match's sign-in is its GM's one file (True) or its own, by layout.
LAYOUTS: dict[str, Callable[[random.Random], bool]] = {
    "a file a match": lambda rng: False, "a file a GM": lambda rng: True, "mixed": lambda rng: rng.random() < 0.5}


# "a file a GM" names all of a GM's matches in one file; "mixed" gives Ann three files for her three matches and Bob
# two (his own file and his GM file): both in the quick run. "a file a match" (several files an account, as "mixed"
# has) runs under -m soak.
@pytest.mark.parametrize("layout", soak_but(sorted(LAYOUTS), "a file a GM", "mixed"))
def test_one_change_log_watcher_per_google_account_whatever_number_of_sign_in_files_name_it(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        layout: str) -> None:
    rng = random.Random(layout)
    shared = {match: LAYOUTS[layout](rng) for matches in GMS.values() for match in matches}
    clock, root, configs = league(fake, tmp_path, capsys, monkeypatch, shared)
    files = {account_of(load_config(c)) for c in configs.values()}
    fake.reset_counters()
    host = new_host(root, clock, [], interval=15)
    settle(host, clock)
    one_watcher_per_account(host, configs)
    assert fake.calls(ABOUT) == len(files)  # once a sign-in file, not once a question nor a match
    fake.reset_counters()
    settle(host, clock)  # a minute of idle: 4 questions an account, whatever its files
    assert by_account(fake, CHANGES) == {email(gm): 4 for gm in GMS}
    assert fake.calls(ABOUT) == fake.calls(START_TOKEN) == 0
    _player_saves(configs["a2"], tmp_path)  # a player's save: answered through the GM's one watcher
    fake.reset_counters()
    host.step()
    assert read_keys(fake) == {keys("a2")["red"], keys("a2")["blue"]}  # that match alone, its orders alone


def test_a_gms_refused_sign_in_gives_way_to_her_other_file_and_its_match_is_said_as_before(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, root, configs = league(fake, tmp_path, capsys, monkeypatch, dict.fromkeys(configs_of(), False))
    lines: list[str] = []
    host = new_host(root, clock, lines, interval=15)
    settle(host, clock)
    ann = host.accounts.named(named("ann"))
    assert ann is not None and len(ann.sign_ins) == 3
    in_use = ann.sign_ins[0]
    refused = next(m for m in GMS["ann"] if account_of(load_config(configs[m])) == in_use)
    fake.revoked.add(f"refresh-ann-{refused}")  # she revoked the sign-in of one match (or it expired)
    fake.reset_counters()
    settle(host, clock)
    assert not ann.error and ann.sign_ins[0] != in_use and ann.sign_ins[-1] == in_use
    assert any(f"Google refused the sign-in {in_use}" in line for line in lines)
    assert by_account(fake, CHANGES) == {**{email(gm): 4 for gm in GMS}, email("ann"): 5}  # once a question, and
    # the one refused (asked again at once with her next file)
    other = next(m for m in GMS["ann"] if m != refused)
    _player_saves(configs[other], tmp_path)
    _player_saves(configs[refused], tmp_path)
    fake.reset_counters()
    settle(host, clock, 2)
    assert {keys(other)["red"], keys(other)["blue"]} <= read_keys(fake)  # her other files serve
    failed = host.matches[configs[refused].resolve()]
    assert failed.error and failed.failures  # the refused match is said, as before
    assert any(line.startswith(f"{refused}/match.toml: ") and "failure 1" in line for line in lines)


def configs_of() -> list[str]:
    return [match for matches in GMS.values() for match in matches]


def served_then_stopped(fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> tuple[Clock, Path, dict[str, Path], Path]:
    """The league, a sign-in file a match, served a minute and stopped; the host's status file."""
    clock, root, configs = league(fake, tmp_path, capsys, monkeypatch, dict.fromkeys(configs_of(), False))
    warm = new_host(root, clock, [], interval=15)
    settle(warm, clock)
    warm.close()
    return clock, root, configs, root / ".sheets-gm" / "serve-status.json"


def test_a_token_kept_under_a_sign_in_file_by_a_host_of_before_is_used_by_its_account(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, root, configs, status = served_then_stopped(fake, tmp_path, capsys, monkeypatch)
    kept = read_tokens(tokens_path(status))[0]
    assert set(kept) == {named(gm) for gm in GMS}
    # What a host of before kept: each account's token under the name of one of its sign-in files.
    old = {account_of(load_config(configs[GMS[gm][0]])): kept[named(gm)] for gm in GMS}
    write_tokens(tokens_path(status), old)
    sign_ins_path(status).unlink()  # nor did it keep what Drive named each file
    _player_saves(configs["b2"], tmp_path)  # a save while no host ran
    clock.tick(60)
    fake.reset_counters()
    _blind_index(monkeypatch)  # the kept change log alone names it
    assert _restarted(root, clock) == ["b2"]  # first, from Bob's token kept under his first file's name
    assert fake.calls(START_TOKEN) == 0  # no account's log asked from now: none of the kept tokens lost
    assert set(read_tokens(tokens_path(status))[0]) == {named(gm) for gm in GMS}  # kept by account from now on


def test_a_restart_knows_each_sign_in_files_account_without_asking_drive_unless_the_file_changed(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, root, configs, status = served_then_stopped(fake, tmp_path, capsys, monkeypatch)
    assert len(read_sign_ins(sign_ins_path(status))) == len(configs_of())
    sign_in(fake, configs["c1"].parent / ".sheets-gm" / "oauth-token.json", "ann", "refresh-ann-c1")  # while down:
    # the match c1 signed in again, as Ann
    clock.tick(60)
    fake.reset_counters()
    cold = new_host(root, clock, [], interval=15)
    settle(cold, clock)
    assert fake.calls(ABOUT) == 1 and fake.calls(START_TOKEN) == 0  # the changed file alone asked about
    assert watchers(cold) == {named("ann"): 4, named("bob"): 2}
    cold.close()


def test_a_sign_in_file_replaced_by_another_gms_moves_its_match_to_that_gms_watcher(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, root, configs = league(fake, tmp_path, capsys, monkeypatch, dict.fromkeys(configs_of(), False))
    host = new_host(root, clock, [], interval=15)
    settle(host, clock)
    token = configs["a3"].parent / ".sheets-gm" / "oauth-token.json"
    replacement = tmp_path / "bob-new.json"
    sign_in(fake, replacement, "bob", "refresh-bob-again")
    shutil.move(replacement, token)  # the GM of a3 handed it to Bob: his sign-in, saved in its folder
    clock.tick(CHECK_SIGN_INS.total_seconds())
    settle(host, clock)
    assert watchers(host) == {named("ann"): 2, named("bob"): 3, named("cy"): 1}
    watcher = host.accounts.named(account_of(load_config(configs["a3"])))
    assert watcher is not None and watcher.name == named("bob")
    fake.reset_counters()
    settle(host, clock)
    assert by_account(fake, CHANGES) == {email(gm): 4 for gm in GMS}


def test_drive_not_naming_a_sign_ins_account_is_said_and_asked_again(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, root, configs = league(fake, tmp_path, capsys, monkeypatch, dict.fromkeys(configs_of(), False))
    fault = fake.inject(FaultKind.UNAVAILABLE, endpoint=ABOUT, at=2, times=None)  # Drive down for about, after
    # it named the first file
    lines: list[str] = []
    host = new_host(root, clock, lines, interval=15)
    settle(host, clock)
    said = [line for line in lines if "Drive did not say which Google account this sign-in is" in line]
    alone = {line.removeprefix("Account ").partition(": ")[0] for line in said}  # each watched on its own
    assert len(said) == len(alone) == len(configs_of()) - 1 and fault.fired > len(said)  # said once each, though
    # asked again (30 s, then 60 s later)
    assert all(watchers(host)[name] == 1 and name.startswith("OAuth sign-in ") for name in alone)
    assert sum(watchers(host).values()) == len(configs_of())
    own = [host.accounts.named(name) for name in alone]
    assert all(w is not None and w.token and not w.error for w in own)  # its matches' saves are still named
    fake.clear_faults()
    clock.tick(IDENTIFY_AGAIN.total_seconds())
    settle(host, clock)
    one_watcher_per_account(host, configs)  # asked again: its match joined its GM's watcher


def _access(refresh: str, scopes: Sequence[str] = SIGN_IN_SCOPES) -> str:
    """An access token for the refresh token ``refresh`` ('' when the token endpoint refuses it)."""
    answer = requests.post(TOKEN_URL, data={"grant_type": "refresh_token", "refresh_token": refresh,
                                            "client_id": "cid", "client_secret": "secret", "scope": " ".join(scopes)},
                           timeout=5)
    return str(answer.json()["access_token"]) if answer.ok else ""


def _about(token: str, fields: str = "user(permissionId,emailAddress)") -> requests.Response:
    return requests.get(DRIVE_ABOUT_URL, params={"fields": fields} if fields else {},
                        headers={"Authorization": f"Bearer {token}"}, timeout=5)


def test_the_fake_answers_drives_about_as_google_does(fake: GoogleApiFake) -> None:
    fake.users.update({"ann-1": email("ann"), "ann-2": email("ann"), "bob-1": email("bob")})
    ann1, ann2, bob = (_access(refresh) for refresh in ("ann-1", "ann-2", "bob-1"))
    answers = [_about(token).json() for token in (ann1, ann2, bob)]
    her = {"user": {"permissionId": permission_id(email("ann")), "emailAddress": email("ann")}}
    assert answers[0] == answers[1] == her  # two sign-ins of one account: one id; only the fields asked
    assert answers[2]["user"]["permissionId"] != her["user"]["permissionId"]
    assert _about(ann1, fields="").status_code == 400  # Google requires fields for about
    assert _about(_access("ann-1", [SPREADSHEETS_SCOPE])).status_code == 403  # a scope that does not reach Drive
    fake.revoked.add("ann-1")  # she revoked that sign-in: its access tokens and its refresh are refused
    assert _about(ann1).status_code == 401 and _access("ann-1") == ""
    assert _about(ann2).status_code == 200


@pytest.mark.parametrize("access", ["kept", "lost"])
def test_a_restart_within_the_hour_refreshes_no_token_its_accounts_had_and_its_polls_refresh_none(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        access: str) -> None:
    # The property: a host started within the hour of its last run's access tokens asks Drive and polls its
    # matches with them (kept beside the status, its owner's alone, never in the status), and a poll signs its
    # requests with its account's token the host holds: no refresh in either. ``lost`` (the file gone): one
    # refresh an account, by its change log, and none by the polls, which are handed the account's token.
    clock, root, configs, status = served_then_stopped(fake, tmp_path, capsys, monkeypatch)
    kept_file = access_path(status)
    kept = read_access(kept_file)
    assert set(kept) == {named(gm) for gm in GMS} and kept_file.stat().st_mode & 0o777 == 0o600
    assert not any(token in status.read_text(encoding="utf-8") for token, _ in kept.values())
    if access == "lost":
        kept_file.unlink()
    for match in ("a2", "b2"):
        _player_saves(configs[match], tmp_path)  # saves while no host ran
    monkeypatch.setattr("sheets_gm.host.visit._CLIENTS", {})  # a poll's new process: no client signed in yet
    clock.tick(60)
    fake.reset_counters()
    cold = new_host(root, clock, [], interval=15)
    settle(cold, clock)
    cold.close()
    assert {keys(m)["red"] for m in ("a2", "b2")} <= read_keys(fake)  # the saves polled
    assert fake.calls(CHANGES) >= len(GMS)  # each account asked its change log
    assert fake.calls(TOKEN) == (0 if access == "kept" else len(GMS))
