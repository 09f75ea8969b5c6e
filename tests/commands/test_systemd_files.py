"""The systemd timer shipped in scripts/: matches on one machine poll at offsets of their own."""

from __future__ import annotations

import configparser

from tests.paths import SCRIPTS


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, comment_prefixes=("#", ";"))
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    unit.read(SCRIPTS / name, encoding="utf-8")
    return unit


def test_each_timer_polls_every_minute_at_an_offset_of_its_own() -> None:
    """Every minute, as cron's line does (an idle poll reads nothing): without a randomized, fixed delay every
    systemd match on a machine would poll at the same second. The delay stays under the one-minute period, so no
    poll is skipped, and no boot-relative trigger puts timers started together back in step."""
    timer = _unit("sheets-gm-sync.timer")["Timer"]
    assert timer["OnCalendar"] == "*:*:00"
    assert 0 < int(timer["RandomizedDelaySec"]) < 60
    assert timer["FixedRandomDelay"] == "true"
    assert timer["AccuracySec"] == "1s"
    assert "OnBootSec" not in timer and "OnUnitActiveSec" not in timer
    assert _unit("sheets-gm-sync.service")["Service"]["Type"] == "oneshot"  # never started again while running
