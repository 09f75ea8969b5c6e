"""``sheets-gm demo --notices`` prints what each poll of the bot match would send, each with its recipient."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.cli import main


def test_the_demo_prints_the_notices_it_would_send(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "winordie", "--out", str(tmp_path / "demo"), "--turns", "2", "--notices"]) == 0
    out = capsys.readouterr().out
    assert "→ the channel (chat): [sheets-gm demo · Win or Die] Deployment · Bo is open" in out, out
    assert "→ Bo's e-mail: [sheets-gm demo · Win or Die] Deployment · Bo resolved: news for Bo" in out
    assert "What to type:" in out and "The rest of the public log:" in out
    assert not (tmp_path / "demo" / ".sheets-gm").exists(), "the demo sends nothing and queues nothing"


def test_without_the_option_the_demo_prints_no_notice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "winordie", "--out", str(tmp_path / "demo"), "--turns", "1"]) == 0
    assert "→ the channel" not in capsys.readouterr().out
