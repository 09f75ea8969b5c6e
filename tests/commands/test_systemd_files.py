"""The systemd timer shipped in scripts/: matches on one machine poll at offsets of their own."""

from __future__ import annotations

import configparser

from sheets_gm.host.scheduler import STOP_GRACE
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


def test_the_serve_unit_runs_one_long_process_that_stops_on_sigterm_after_its_polls() -> None:
    """``sheets-gm serve`` is one long-running process (no timer): restarted when it fails or its watchdog is not
    fed (it says READY=1, then WATCHDOG=1 every few seconds: ``host/systemd.py``), stopped by SIGTERM, and given
    time to finish the resolution under way (a minute at most: then the host stops it) before systemd kills it."""
    unit = _unit("sheets-gm-serve.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and service["Restart"] == "on-failure"
    assert service["NotifyAccess"] == "main" and int(service["WatchdogSec"]) >= 30
    assert " serve " in service["ExecStart"] and " sync " not in service["ExecStart"]
    assert service["KillSignal"] == "SIGTERM" and int(service["TimeoutStopSec"]) > STOP_GRACE
    assert service["KillMode"] == "mixed"  # the host's SIGTERM only: its polls' processes finish or it stops them
    assert unit["Install"]["WantedBy"] == "default.target"
    assert not (SCRIPTS / "sheets-gm-serve.timer").exists()
