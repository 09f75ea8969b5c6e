"""Notices under ``serve`` as under cron (issue 62, item 5), against the real local servers: secrets read from the
host's one environment file by serve and by a GM's hand-typed ``resolve``, each match by its own variable names; a
failing webhook rested for every match on the host at once, its retries minutes apart however fast serve looks.
The host's clock is the test's own: nothing sleeps."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.match.env_file import host_env_path
from sheets_gm.notify.host_channels import HostChannels
from sheets_gm.notify.outbox import Outbox
from tests.host.hosting import Clock, new_host
from tests.notify.servers import PASSWORD, Fault, Hook, smtp_server, webhook_server
from tests.notify.test_notices_every_game import NOON, new_match, play

__all__ = ["clock"]
from tests.notify.test_notices_every_game import clock  # the commands' clock, shared

pytestmark = pytest.mark.xdist_group("notices")  # one worker runs these: it makes each game's new_match once a run


def _match_named(folder: Path, name: str, smtp_port: int) -> MatchConfig:
    """A Win or Die match in ``folder`` whose secrets are named for it alone (``NOTICES_WEBHOOK_<NAME>``)."""
    folder.mkdir()
    config, _ = new_match("winordie", folder, smtp_port)
    text = config.path.read_text(encoding="utf-8")
    config.path.write_text(text.replace('"NOTICES_WEBHOOK"', f'"NOTICES_WEBHOOK_{name}"').replace(
        '"NOTICES_SMTP_PASSWORD"', f'"NOTICES_SMTP_PASSWORD_{name}"'), encoding="utf-8")
    return load_config(config.path)


def _host_env(lines: dict[str, str]) -> None:
    path = host_env_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{k}={v}\n" for k, v in lines.items()), encoding="utf-8")
    path.chmod(0o600)


def _chat_posts(hook: Hook, word: str) -> list[str]:
    return [t for t in hook.texts() if word in t]


def test_serve_and_a_hand_typed_resolve_read_each_match_s_secrets_from_the_host_s_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two matches, each its own webhook under its own variable name, both in the host's environment file and in
    no process's environment: serve posts each to its own channel, and ``resolve`` typed by hand (no
    ``--env-file``) sends the resolution's notices (issue 62.5: serve and resolve ignored the file)."""
    monkeypatch.delenv("NOTICES_SMTP_PASSWORD", raising=False)
    with smtp_server() as (box, port), webhook_server() as friday_hook, webhook_server() as sunday_hook:
        friday = _match_named(tmp_path / "friday", "FRIDAY", port)
        _match_named(tmp_path / "sunday", "SUNDAY", port)
        _host_env({"NOTICES_WEBHOOK_FRIDAY": friday_hook.url, "NOTICES_WEBHOOK_SUNDAY": sunday_hook.url,
                   "NOTICES_SMTP_PASSWORD_FRIDAY": PASSWORD, "NOTICES_SMTP_PASSWORD_SUNDAY": PASSWORD})
        host_clock, lines = Clock(NOON), list[str]()
        host = new_host(tmp_path, host_clock, lines)
        host.step()
        assert _chat_posts(friday_hook, " is open") and _chat_posts(sunday_hook, " is open"), lines
        assert box.messages, lines  # the mail password came from the host's file too
        assert not any("not set" in line for line in lines), lines
        play(friday)
        clock.now = NOON + dt.timedelta(minutes=1)
        assert main(["resolve", "-c", str(friday.path)]) == 0, capsys.readouterr()
        assert _chat_posts(friday_hook, " resolved"), capsys.readouterr().out
        assert not _chat_posts(sunday_hook, " resolved")


def test_a_failing_webhook_rests_for_every_match_on_the_host_with_waits_in_minutes(
        tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two matches posting to one webhook that answers 500: serve looks every ten seconds for ten minutes, and the
    webhook is asked four times in all (after 0, 1, 3 and 7 minutes: one rest for the host, doubling), not by
    each match at each look (issue 62.5: 11-13 connections a minute for two matches). When it works again both
    matches' posts go."""
    monkeypatch.setenv("NOTICES_SMTP_PASSWORD", PASSWORD)
    with smtp_server() as (_box, port), webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        for name in ("friday", "sunday"):
            (tmp_path / name).mkdir()
            new_match("winordie", tmp_path / name, port)
        faults = 100
        hook.faults += [Fault(500, body=b"upstream down") for _ in range(faults)]
        host_clock, lines = Clock(NOON), list[str]()
        host = new_host(tmp_path, host_clock, lines)
        asked: list[float] = []
        for _ in range(60):
            before = len(hook.faults)
            host.step()
            asked += [(host_clock.now - NOON).total_seconds() / 60] * (before - len(hook.faults))
            host_clock.tick(10)
        print(f"webhook asked {len(asked)} times in 10 minutes by 2 matches, at minutes {asked}")
        assert len(asked) == 4 and [round(a) for a in asked] == [0, 1, 3, 7], asked
        rest = HostChannels().held(next(iter(HostChannels()._read())), host_clock.now)
        assert rest is not None and rest.failures == 4
        hook.faults.clear()
        for _ in range(60):
            host.step()
            host_clock.tick(10)
        assert len(_chat_posts(hook, " is open")) == 2, hook.texts()
        assert all(Outbox.of(tmp_path / name / "match.toml").waiting() == [] for name in ("friday", "sunday"))


def test_a_host_record_that_cannot_be_written_still_rests_the_channel(tmp_path: Path) -> None:
    """A read-only state folder: the failure still rests the channel a minute for this match (the waits hold), and
    a channel that works again is no error."""
    folder = tmp_path / "state"
    folder.mkdir()
    (folder / "channels.json").mkdir()  # a record that can be neither read nor replaced
    host = HostChannels(folder / "channels.json")
    rest = host.failed("mail h:587 u", NOON, "connection refused")
    assert rest.until == NOON + dt.timedelta(minutes=1) and rest.failures == 1
    host.worked("mail h:587 u")


def test_matches_failing_in_the_same_minute_are_one_failure_of_the_channel(tmp_path: Path) -> None:
    """Three matches cron starts in one minute each find the mail server free, try it and fail: that is one
    failure of the channel, a rest of one minute, and the next failure after it two (found measuring under the
    real cron daemon: each match's failure counted, so three matches rested the mail four minutes after its
    first minute down, past a deadline; a host of ten, two hours). Fails with every failure counted."""
    host = HostChannels(tmp_path / "channels.json")
    minute = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
    rests = [host.failed("mail x:587 gm", minute + dt.timedelta(seconds=n), "refused") for n in range(3)]
    assert {(r.failures, r.until) for r in rests} == {(1, minute + dt.timedelta(minutes=1))}, rests
    later = host.failed("mail x:587 gm", minute + dt.timedelta(minutes=1, seconds=5), "refused")
    assert later.failures == 2 and later.until == minute + dt.timedelta(minutes=3, seconds=5), later
