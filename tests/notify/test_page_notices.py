"""The notices and the match page (issue 61): every e-mail and chat notice of a match whose config names its page
(``[sheets] web_url``) ends with the link to it, once (a chat post in parts carries it in its last part); a Discord
post of a resolution carries the turn's map as a PNG on the same webhook (a multipart upload, kept beside its letter
in the outbox and posted alike when retried); Slack's hook takes no file, so there the link alone; without cairosvg,
the post goes without a picture. Against the real local servers of ``tests/notify``; the clock is the tests' own."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.config_tables import SecretSource
from sheets_gm.match.notify_settings import ChatSettings, ChatStyle, NoticeKind, NotifySettings
from sheets_gm.notify.announce import letters_of, page_line
from sheets_gm.notify.notices import CHANNEL, Notice
from sheets_gm.notify.outbox import Outbox
from sheets_gm.web.picture import can_draw_pictures
from tests.notify.servers import Fault, Hook, Mailbox
from tests.notify.test_delivery import notified_match
from tests.notify.test_notices_every_game import NOON, Clock, play, sync

__all__ = ["clock", "secrets"]
from tests.notify.test_notices_every_game import clock, secrets  # the fixtures, shared

pytestmark = pytest.mark.xdist_group("notices")  # one worker runs these: it makes each game's new_match once a run

URL = "https://example.org/friday/"
LINE = page_line(URL)
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def small_maps() -> None:
    """Every map drawn whole, as a GM's host draws it: these tests are about the map a post carries (the other
    notice tests attach one small picture, ``tests/notify/conftest.py``)."""


def name_the_page(config_path: Path, style: str = "discord") -> None:
    """The config names where players open the match's page (and, for ``slack``, a Slack-style webhook)."""
    text = config_path.read_text(encoding="utf-8").replace("\n[sheets]\n", f'\n[sheets]\nweb_url = "{URL}"\n', 1)
    config_path.write_text(text.replace('style = "discord"', f'style = "{style}"'), encoding="utf-8")


def first_turn_told(config: MatchConfig, capsys: pytest.CaptureFixture[str], clock: Clock, hook: Hook,
                    style: str = "discord", fault: Fault | None = None) -> str:
    """The match names its page; its first window is told open, then played and resolved a minute later (the
    webhook answering the first post after the play with ``fault``): what that poll printed."""
    name_the_page(config.path, style)
    sync(config, capsys)
    play(config)
    if fault is not None:
        hook.faults.append(fault)
    clock.now = NOON + dt.timedelta(minutes=1)
    return sync(config, capsys)


def mail_bodies(box: Mailbox) -> list[str]:
    bodies = []
    for _, message in box.messages:
        assert isinstance(message, EmailMessage)
        bodies.append(str(message.get_content()))
    return bodies


def resolved_posts(hook: Hook) -> list[dict[str, Any]]:
    return [p for p in hook.posts if " resolved*" in str(p.get("content", p.get("text", "")))]


def pictures_of(post: dict[str, Any]) -> dict[str, bytes]:
    return {name: data for name, data in post.get("files", {}).items() if name.endswith(".png")}


def test_every_notice_of_a_match_with_a_page_links_it_once_at_its_foot_and_a_resolution_shows_the_map(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if not can_draw_pictures():
        pytest.skip("cairosvg is not installed (pip install '.[picture]')")
    with notified_match("gvg", tmp_path, monkeypatch) as (box, hook, config, _addresses):
        assert "resolved" in first_turn_told(config, capsys, clock, hook)
        bodies = mail_bodies(box)
        assert bodies and hook.posts
        for body in bodies:
            assert body.count(URL) == 1 and body.rstrip().endswith(LINE), body
        for post in hook.posts:
            assert post["content"].count(URL) == 1 and post["content"].endswith(LINE), post["content"]
        (resolved,) = resolved_posts(hook)
        ((name, picture),) = pictures_of(resolved).items()
        assert name.startswith("map-") and picture.startswith(PNG)
        assert not any(pictures_of(p) for p in hook.posts if p is not resolved), "only a resolution has a map"
        main(["doctor", "-c", str(config.path), "--send-test"])  # the GM's test notice shows the link players get
        capsys.readouterr()
        assert hook.texts()[-1].endswith(LINE) and mail_bodies(box)[-1].rstrip().endswith(LINE)


def test_a_match_without_a_page_address_links_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      clock: Clock, secrets: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    with notified_match("gvg", tmp_path, monkeypatch) as (box, hook, config, _addresses):
        sync(config, capsys)
        assert box.messages and hook.posts
        assert not any("match's page" in body for body in mail_bodies(box))
        assert not any("match's page" in text for text in hook.texts())


def test_a_map_waits_beside_its_post_and_a_retry_posts_the_same_picture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if not can_draw_pictures():
        pytest.skip("cairosvg is not installed (pip install '.[picture]')")
    with notified_match("gvg", tmp_path, monkeypatch) as (_box, hook, config, _addresses):
        first_turn_told(config, capsys, clock, hook, fault=Fault(status=500))  # the webhook down for the resolution
        assert resolved_posts(hook) == []
        outbox = Outbox.of(config.path)
        (waiting,) = [w for w in outbox.waiting() if w.picture]
        kept = outbox.picture(waiting)
        assert kept is not None and kept.startswith(PNG)
        assert all(b"PNG" not in path.read_bytes() for path in outbox.letters_dir.glob("*.json"))
        clock.now += dt.timedelta(hours=3)  # the channel's rest is over
        sync(config, capsys)
        (resolved,) = resolved_posts(hook)
        assert list(pictures_of(resolved).values()) == [kept]
        assert list(outbox.letters_dir.glob("*.png")) == [], "a picture outlived its letter"


def test_without_cairosvg_a_resolution_is_posted_without_a_picture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheets_gm.web.picture.can_draw_pictures", lambda: False)
    with notified_match("gvg", tmp_path, monkeypatch) as (_box, hook, config, _addresses):
        out = first_turn_told(config, capsys, clock, hook)
        assert "Notices: not" not in out, out
        (resolved,) = resolved_posts(hook)
        assert pictures_of(resolved) == {} and resolved["content"].endswith(LINE)
        assert Outbox.of(config.path).waiting() == []


def test_slack_gets_the_link_and_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock,
                                         secrets: None, monkeypatch: pytest.MonkeyPatch) -> None:
    with notified_match("gvg", tmp_path, monkeypatch) as (_box, hook, config, _addresses):
        first_turn_told(config, capsys, clock, hook, "slack")
        (resolved,) = resolved_posts(hook)
        assert "files" not in resolved and resolved["text"].endswith(LINE)
        assert list(Outbox.of(config.path).letters_dir.glob("*.png")) == []


@pytest.mark.parametrize("style", list(ChatStyle))
def test_a_chat_post_in_parts_carries_the_link_once_in_its_last_part(style: ChatStyle) -> None:
    notify = NotifySettings(frozenset(NoticeKind), None, {}, chat=ChatSettings(style, SecretSource(env="HOOK")))
    long = "\n".join(f"Army {n:03d} moves to D{n % 24 + 1}." for n in range(400))
    notice = Notice("m/1@1/resolved/#channel", NoticeKind.RESOLVED, CHANNEL, "[War] Turn 1 resolved", long)
    letters = letters_of([notice], notify, {}, NOON, URL, picture=True)
    assert len(letters) > 2
    assert [letter.body.count(URL) for letter in letters] == [0] * (len(letters) - 1) + [1]
    assert letters[-1].body.endswith(LINE)
    pictured = [letter.picture for letter in letters]
    assert pictured == (["map-1@1.png"] if style is ChatStyle.DISCORD else [""]) + [""] * (len(letters) - 1)
