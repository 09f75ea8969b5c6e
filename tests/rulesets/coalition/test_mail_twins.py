"""Strategies by mail never reach the other side, the board, the page, the notices or a bot (issue 73, item 3),
proved by difference: twin matches differing only in one side's strategy mail give every seat the same files,
notices, page and bot input, and every other sender the same receipt; only the judge's Strategies tab differs."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from pathlib import Path

from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.run import sync_once
from sheets_gm.sync.bot_seats import bot_input
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.read import read_match
from tests.conformance.leak_scan import workbook_differences
from tests.conformance.noninterference import canonical
from tests.conformance.test_noninterference_files import Received, received, unstamped
from tests.rulesets.coalition.helpers import looking
from tests.rulesets.coalition.test_mail_door import Box, _match, mail

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")


def _battle_match(folder: Path) -> None:
    """A match whose orders window resolved into the battle Rabid Cat attacks Various Puppies, by a mailed order."""
    config, sheets = _match(folder)  # the mail door tests' match: made once a process for all of them
    box = Box([mail(1, "ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW, force=True), box)
    assert read_match(sheets, CLS).record.state.battles


def _strategy_poll(config: MatchConfig, text: str) -> WindowReport:
    """The poll that reads Ann's strategy (``text``) and Bo's, the same in both twins."""
    box = Box([mail(2, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies [Kill Attempt]", text, minutes=5),
               mail(3, "bo@example.org", "Bo: Various Puppies vs. Rabid Cat", "Dig in.", minutes=6)])
    sheets = open_match_sheets(config)
    return with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)


def _seen(config: MatchConfig, seat: str, report: WindowReport) -> tuple[Received, str, str]:
    record = read_match(looking(config), CLS).record
    given = bot_input(record, record.state, seat)
    bot = canonical({"state": record.ruleset.state_codec.to_json(given.state), "rolls": given.dice.pins})
    return received(config, seat, report), bot, report.page


def test_twins_differing_in_one_sides_strategy_give_everyone_but_the_judge_the_same(tmp_path: Path) -> None:
    _battle_match(tmp_path / "base")
    configs = []
    for twin, text in (("a", "Flank left at dawn, then the kill."), ("b", "Hold the river.")):
        shutil.copytree(tmp_path / "base", tmp_path / twin)
        config = load_config(tmp_path / twin / "match.toml")
        configs.append((config, _strategy_poll(config, text)))
    (a, report_a), (b, report_b) = configs
    for seat in ("coalition", "phyrexia"):
        mine, theirs = _seen(a, seat, report_a), _seen(b, seat, report_b)
        assert mine[0].differences(theirs[0]) == [], seat
        assert mine[1:] == theirs[1:], seat  # its bot's input, the page
    letters = [{x.recipient: dataclasses.replace(x, queued_at="") for x in Outbox.of(c.path).waiting()}
               for c, _r in configs]
    assert letters[0]["bo@example.org"] == letters[1]["bo@example.org"]  # the other side's receipt
    judge = [unstamped(c.local_path(c.judge or "")) for c, _r in configs]  # the test can fail: the judge's differs
    assert any("Flank left" in d for d in workbook_differences("judge.xlsx", judge[0], judge[1]))
