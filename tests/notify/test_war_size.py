"""A war at full size tells its channel in a few posts (issue 63, item 1): a 300-a-side Coalition war whose every
army a bot plays is counted, not named, in the status line of every notice, and no post is cut inside a word. The
test command plays the war at 25 armies a side (the same paths: 50 armies are far past the six bots a status line
names, and the one named army checked for would be there); the 300 of the issue and 100 a side under ``-m soak``."""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.chat import split_message
from tests.notify.servers import Hook, webhook_server
from tests.notify.test_notices_every_game import NOON, Clock, sync
from tests.quick import soak_but
from tests.sync.test_table_sizes import _squares, coalition_war

__all__ = ["clock", "secrets"]
from tests.notify.test_notices_every_game import clock, secrets  # the fixtures, shared

#: Armies a side: the war of the issue (597 bot armies), a war of 100 a side, and the war the test command plays (for
#: the same paths: 1.9 CPU seconds against 2.7 at 100 a side and 5.2 at 300).
A_SIDE = 300
QUICK_A_SIDE = 25
#: The posts a war turn may take at most: the resolution's summary and the next turn's "is open".
POSTS_A_TURN = 3


def bot_armies(roster: Path, a_side: int) -> None:
    """A Coalition roster of ``a_side`` armies a side (several to a square where the side's squares run out), the
    commander bot playing every army."""
    with roster.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "side", "rank", "at", "units", "factions", "primary", "bot"])
        for side, cols in (("coalition", range(1, 13)), ("phyrexia", range(13, 25))):
            squares = _squares(cols)
            for n in range(1, a_side + 1):
                factions = ("white blue", "white") if side == "coalition" else ("", "")
                out.writerow([f"{side[:4].title()} {n:03d}", side, 1 + n % 6, squares[n % len(squares)],
                              "500/250/150/100", *factions, "commander"])


def _war_of_bots(tmp_path: Path, a_side: int) -> Path:
    """``coalition_war`` at ``a_side`` armies a side (``bot_armies``), a deadline at 20:00 and the chat to the
    local webhook."""
    path = coalition_war(tmp_path, 1)
    bot_armies(path.parent / "armies.csv", a_side)
    text = path.read_text(encoding="utf-8").replace("times = []", 'times = ["20:00"]', 1)
    path.write_text(text + '\n[notify]\n[notify.chat]\nstyle = "discord"\nurl_env = "NOTICES_WEBHOOK"\n'
                    'timeout = 5\n', encoding="utf-8")
    return path


@contextlib.contextmanager
def war_on_the_hook(path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                    seed: bytes) -> Iterator[tuple[Hook, MatchConfig]]:
    """The war configured at ``path`` (its chat to ``NOTICES_WEBHOOK``) created at noon with a local webhook, and
    its first sync done: the webhook and the config."""
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICES_WEBHOOK", hook.url)
        config = load_config(path)
        init_match(config, now=NOON, share=False, seed=seed)
        sync(config, capsys)
        yield hook, config


@pytest.mark.slow
@pytest.mark.parametrize("a_side", soak_but([A_SIDE, 100, QUICK_A_SIDE], QUICK_A_SIDE))
def test_a_war_of_hundreds_of_armies_a_side_played_by_bots_is_a_few_posts_a_turn(
        a_side: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: Clock, secrets: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with war_on_the_hook(_war_of_bots(tmp_path, a_side), monkeypatch, capsys, b"a war of bots") as (hook, config):
        opened = list(hook.posts)
        clock.now += dt.timedelta(hours=9)  # past the deadline: the bots' orders resolve
        sync(config, capsys)
        turn = hook.posts[len(opened):]
    texts = [str(p.get("content")) for p in [*opened, *turn]]
    print(f"posts: first window {len(opened)}, a war turn {len(turn)}, longest {max(map(len, texts))} characters")
    assert len(opened) <= 2 and len(turn) <= POSTS_A_TURN, [t[:60] for t in texts]
    assert any("played by bots (commander)" in t for t in texts), texts[0]
    assert all("Phyr 002 (commander)" not in t for t in texts)
    assert all(len(t) <= 2000 for t in texts)


_WORDS = st.lists(st.text(st.sampled_from("abcXYZ(),·-\\*"), min_size=1, max_size=12), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(_WORDS, min_size=1, max_size=5), limit=st.integers(12, 60))
def test_a_long_message_is_split_between_words_never_inside_one(lines: list[list[str]], limit: int) -> None:
    """Every part fits the limit, and the parts hold the message's words, each whole and in order (a word longer
    than a message is the one cut). Put back the cut every ``limit`` characters and it fails."""
    text = "\n".join(" ".join(words) for words in lines)
    parts = split_message(text, limit)
    assert all(len(part) <= limit for part in parts)
    if all(len(word) <= limit for words in lines for word in words):
        assert " ".join(" ".join(parts).split()) == " ".join(text.split())
        assert [w for part in parts for w in part.split()] == text.split()
