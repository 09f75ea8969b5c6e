"""Mail that behaves like mail (issue 63.7), read back by Python's own mail parser from the real SMTP server: each
notice says it is automatic (no out-of-office reply comes back to the GM), from a list (the match), with replies
and unsubscribes to the GM, a Message-ID in the sender's domain and a Date with its zone; a muted address is mailed
no more. And Debian's SpamAssassin, when it is installed, scores a notice well under its spam threshold."""

from __future__ import annotations

import mailbox
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sheets_gm.cli import main
from tests.notify.servers import USER
from tests.notify.test_delivery import played_notified_match
from tests.notify.test_notices_every_game import GM, NOON, Clock, next_turn

__all__ = ["clock", "secrets"]
from tests.notify.test_notices_every_game import clock, secrets  # the fixtures, shared

pytestmark = pytest.mark.xdist_group("notices")  # one worker runs these: it makes each game's new_match once a run


def test_every_notice_is_automatic_from_a_list_and_answered_to_the_gm(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from email.utils import parsedate_to_datetime

    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync") as (box, _hook, config, _):
        assert box.messages
        domain = USER.split("@")[1]
        lists = set()
        for _rcpts, message in box.messages:
            assert message["Auto-Submitted"] == "auto-generated"
            assert message["Reply-To"] == GM
            assert re.fullmatch(rf"<[0-9a-f]{{40}}@{re.escape(domain)}>", str(message["Message-ID"]))
            assert str(message["Date"]).endswith("+0000") and parsedate_to_datetime(str(message["Date"])) == NOON
            assert str(message["List-Unsubscribe"]).strip().startswith(f"<mailto:{GM}?subject=Mute%20my%20notices")
            lists.add(str(message["List-Id"]).strip())
        (one_list,) = lists
        assert one_list.endswith(f".{domain}>") and config.title in one_list, one_list


def test_an_address_the_gm_mutes_is_mailed_no_more(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync") as (
            box, _hook, config, addresses):
        seat = config.seats[0]
        quiet, *others = sorted(addresses[seat])
        assert main(["notices", "-c", str(config.path), "--mute", quiet.upper()]) == 0
        assert quiet in capsys.readouterr().out
        before = len(box.to(quiet))
        next_turn(config, capsys, clock)
        assert len(box.to(quiet)) == before, "a muted address was mailed"
        assert all(len(box.to(other)) > before for other in others)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("spamassassin") is None, reason="Debian's spamassassin is not installed")
def test_spamassassin_scores_a_notice_well_under_its_threshold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Local rules only (``-L``: no network test), on a turn's "is open" and its news, both in one run of
    SpamAssassin (``--mbox``: its start, loading its rules, is most of its time)."""
    with played_notified_match("gvg", tmp_path, monkeypatch, clock, capsys, "sync", "turn") as (
            box, _hook, _config, _):
        letters = mailbox.mbox(tmp_path / "letters.mbox")
        for _rcpts, message in box.messages[:1] + box.messages[-1:]:
            letters.add(message)
        letters.flush()
        done = subprocess.run(["spamassassin", "-L", "-t", "--mbox", str(tmp_path / "letters.mbox")],
                              capture_output=True, timeout=120, check=False)
        statuses = list(re.finditer(rb"X-Spam-Status: (\w+), score=(-?[\d.]+)[^\n]*(?:\n\s+[^\n]*)*", done.stdout))
        assert len(statuses) == 2, done.stderr[-500:]  # one for each letter
        for status in statuses:
            print(status.group(0).decode())
            assert status.group(1) == b"No" and float(status.group(2)) < 3.0, status.group(0)
