"""Ruling "The players' deadline, then the judge" (issue 89, point 3): the strategies close at the players' deadline;
only then is the judge's results window open, until she ticks Results in (or her own deadline, ``judge_hours``);
the stratless battles are listed for her with the side that sent a strategy, she confirms or changes each, and
nothing is applied to a battle before her window closes. Played as the program tells the judge to, on local
workbooks, with the strategies by mail (the door) and typed in the sheet alike."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from sheets_gm.cli import main
from sheets_gm.commands.polls import window_status_lines
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.announce import seen_of
from sheets_gm.notify.notices import Notice, NoticeRules, poll_notices
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.poll_words import describe_report
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match, read_record
from tests.made import made_into
from tests.rulesets.coalition.helpers import looking
from tests.rulesets.coalition.test_mail_door import Box, _match, mail

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)  # the players' deadline of the results window: 20:00 that day
PLAYERS = NOW.replace(hour=20)
CLS = get_ruleset("coalition")
pytestmark = pytest.mark.xdist_group("coalition-judge-window")  # one worker runs these: it makes _war's once a run


def _war(tmp_path: Path, judge_hours: int = 0) -> MatchConfig:
    """A match with a daily 20:00 deadline whose turn 1 announced Rabid Cat attacks Various Puppies (Dominaria 4C),
    Ann (coalition) mailing a strategy for it and Phyrexia none: made once a test process and copied
    (``tests.made``)."""
    made_into(tmp_path, ("judge window war", judge_hours), lambda into: _make_war(into, judge_hours))
    return load_config(tmp_path / "match.toml")


def _make_war(tmp_path: Path, judge_hours: int) -> None:
    """``_war``'s match made in ``tmp_path``: created, then its two polls with Ann's mails."""
    _match(tmp_path)  # the mail door tests' match: made once a process for all of them
    path = tmp_path / "match.toml"
    text = path.read_text(encoding="utf-8").replace("times = []", 'times = ["20:00"]', 1)
    if judge_hours:
        text = text.replace("[settings]", f"[settings]\njudge_hours = {judge_hours}", 1)
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    box = Box([mail(1, "ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW, force=True), box)
    box = Box([mail(2, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies", "Charge!", minutes=10)])
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW), box)


def _sync(config: MatchConfig, at: dt.datetime, said: list[str] | None = None) -> WindowReport:
    """One poll at ``at`` through the judge's mailbox's door (no new mail), as cron's."""
    box = Box([])
    report = with_mail(config, lambda: at, lambda: sync_once(config, open_match_sheets(config), now=at), box)
    if said is not None:
        said += box.said
    return report


def _status(config: MatchConfig, at: dt.datetime) -> list[str]:
    report = poll(looking(config), CLS, now=at, dry_run=True, schedule=config.schedule.rule())
    return window_status_lines(report, at)


def _type(config: MatchConfig, table: str, subject: str, column: str, value: str | int | bool) -> None:
    """The judge types ``value`` in her ``table``'s row of ``subject``, as she would in LibreOffice."""
    judge = read_match(looking(config), CLS).seats[JUDGE]
    (row,) = [r for r in judge.rows if r.table == table and r.subject == subject]
    placed = judge.tab.table(table)
    looking(config).judge_sheet().write(
        [RangeWrite(placed.at(placed.cell(row.row - placed.first_row, column)), [[value]])])


def _judge_row(config: MatchConfig, table: str, subject: str) -> str:
    judge = read_match(looking(config), CLS).seats[JUDGE]
    return next(r.text("stratless") for r in judge.rows if r.table == table and r.subject == subject)


def _phase(config: MatchConfig) -> str:
    return str(read_record(looking(config), CLS).state.phase.value)


def test_the_judge_judges_after_the_players_deadline_and_nothing_is_applied_before_she_marks_it_done(
        tmp_path: Path) -> None:
    """The commands in the order the program tells the judge: the deadline passes (the poll says her window is
    open, and why the deadline moved), she sees the stratless battle listed with the side that sent a strategy,
    confirms it (losses typed), and the battle is applied only once she ticks Results in. Before the fix the
    first poll after the deadline applied the default win itself."""
    config = _war(tmp_path)
    before = _status(config, NOW)
    assert before[0].endswith("; strategies and turn 2 · orders close Sun 22 Nov, 20:00 (UTC) (in 8 h 00 min), then "
                              "the judge judges")
    assert "strategies and turn 2 · orders close Sun 22 Nov, 20:00 (UTC) · results close when the judge marks them " \
           "done" in before[1]
    said: list[str] = []
    report = _sync(config, PLAYERS + dt.timedelta(seconds=6), said)  # the first poll after the players' deadline
    assert not report.resolved and _phase(config) == "results", describe_report(report)
    assert report.deadline == ""  # the gate waits for the judge's tick, not for a deadline
    assert "Strategies and turn 2 · orders closed Sun 22 Nov, 20:00 (UTC) (the players' deadline); the judge's " \
           "window for turn 1 · battle results is open now" in describe_report(report)
    assert said and "1 of the judge's empty cells typed" in said[0]
    lines = _status(config, PLAYERS + dt.timedelta(hours=3))
    assert lines[0].endswith("open (window 1/results, step 2) for the judge; no judge's deadline: it resolves when "
                             "the judge marks it done"), lines
    assert lines[-1] == "Not due yet."
    # the list: the battle, the side with no strategy, the side that sent one, what her Judge tab holds
    book = load_workbook(tmp_path / "gm" / "judge.xlsx")
    notes = [r[5:7] for r in book["Strategies"].iter_rows(values_only=True) if r[0] and "Dominaria 4C" in str(r[0])]
    assert notes == [("stratless: phyrexia", "coalition sent a strategy, phyrexia none: phyrexia is typed as the "
                      "Stratless side in your Judge tab (if you left it empty). Confirm it or change it, then tick "
                      "Results in: nothing is applied before.")]
    assert _judge_row(config, "results", "Dominaria 4C") == "phyrexia"
    # a day later, nothing ticked: still nothing applied
    assert not _sync(config, PLAYERS + dt.timedelta(days=1, hours=1)).resolved and _phase(config) == "results"
    # she confirms (the losses of the loser) and marks the results done
    _type(config, "losses", "Various Puppies", "slot1", 200)
    _type(config, "judge", JUDGE, "ready", True)
    report = _sync(config, PLAYERS + dt.timedelta(days=1, hours=2))
    assert report.resolved and report.reason == "the judge marked the results done", describe_report(report)
    state = read_record(looking(config), CLS).state
    assert state.vp["coalition"] == 5 and state.vp["phyrexia"] == 0


def test_the_judge_changes_a_stratless_battle_before_marking_it_done(tmp_path: Path) -> None:
    """She changes the listed battle (Phyrexia won after all: its strategy came by other means); her word is what
    is applied."""
    config = _war(tmp_path)
    _sync(config, PLAYERS + dt.timedelta(minutes=1))
    _type(config, "results", "Dominaria 4C", "stratless", "")
    _type(config, "results", "Dominaria 4C", "winner", "phyrexia")
    _type(config, "losses", "Rabid Cat", "slot1", 100)
    _type(config, "judge", JUDGE, "ready", True)
    report = _sync(config, PLAYERS + dt.timedelta(minutes=30))
    assert report.resolved, describe_report(report)
    state = read_record(looking(config), CLS).state
    assert state.vp["phyrexia"] == 5 and state.vp["coalition"] == 0


def test_a_results_in_ticked_before_the_players_deadline_waits_for_it(tmp_path: Path) -> None:
    """Typed in the sheet: the judge's results and her tick before the strategies close are not applied until
    they close (the poll says so); then they are, her window closing as it opens."""
    config = _war(tmp_path)
    _type(config, "results", "Dominaria 4C", "winner", "coalition")
    _type(config, "judge", JUDGE, "ready", True)
    report = _sync(config, PLAYERS - dt.timedelta(minutes=5))
    assert not report.resolved and "applied as they stand at Sun 22 Nov, 20:00 (UTC)" in describe_report(report)
    assert _sync(config, PLAYERS).resolved


def test_the_judges_own_deadline_closes_her_window(tmp_path: Path) -> None:
    """``judge_hours``: her window closes that many hours after the players' deadline, whatever she ticked; the
    status line and the poll say when."""
    config = _war(tmp_path, judge_hours=24)
    report = _sync(config, PLAYERS + dt.timedelta(minutes=1))
    assert not report.resolved and report.deadline.startswith("2026-11-23T20:00")
    assert "results close Mon 23 Nov, 20:00 (UTC) (the judge's deadline), or when the judge marks them done" in \
        report.result
    assert not _sync(config, PLAYERS + dt.timedelta(hours=23, minutes=59)).resolved
    report = _sync(config, PLAYERS + dt.timedelta(hours=24))
    assert report.resolved and report.reason == "the judge's deadline Mon 23 Nov, 20:00 (UTC) has passed"


@settings(deadline=None, phases=[Phase.explicit])
@example([60 * 7, 60 * 9, 60 * 50])  # before the players' deadline (8 h on), after it, two days after
@given(st.lists(st.integers(min_value=0, max_value=60 * 72), min_size=1, max_size=4))
def test_no_battle_result_is_applied_while_the_judges_window_is_open(tmp_path_factory: object,
                                                                      minutes: list[int]) -> None:
    """The property: whatever polls run at whatever moments after the results window opens, with the judge's
    results typed but Results in not ticked and no judge's deadline, no poll applies a battle (the state stays in
    the results window, no victory point given). One example here, polls on both sides of the players' deadline (a
    poll costs about a second); the soak run walks forty drawn at random."""
    _no_result_applied(tmp_path_factory, minutes)


@pytest.mark.soak
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=60 * 72), min_size=1, max_size=6))
def test_soak_no_battle_result_is_applied_while_the_judges_window_is_open(tmp_path_factory: object,
                                                                           minutes: list[int]) -> None:
    _no_result_applied(tmp_path_factory, minutes)


def _no_result_applied(tmp_path_factory: object, minutes: list[int]) -> None:
    folder = tmp_path_factory.mktemp("judge")  # type: ignore[attr-defined]
    config = _war(folder)
    _type(config, "results", "Dominaria 4C", "winner", "coalition")
    for m in sorted(minutes):
        report = _sync(config, NOW + dt.timedelta(minutes=m))
        assert not report.resolved, (m, describe_report(report))
    state = read_record(looking(config), CLS).state
    assert state.phase.value == "results" and state.vp == {"coalition": 0, "phyrexia": 0}


def test_the_notices_tell_the_channel_and_the_judge_once_that_the_strategies_closed(tmp_path: Path) -> None:
    """A changed deadline is said where it is read: the notices tell why the deadline the players read moved (the
    strategies closed; the judge's window open, until when), once, to the channel and to the judge."""
    config = _war(tmp_path)
    assert not [n for n in _notices(config, PLAYERS - dt.timedelta(minutes=1)) if "@judge" in n.key]
    told = [n for n in _notices(config, PLAYERS + dt.timedelta(minutes=1)) if "@judge" in n.key]
    assert sorted(n.recipient for n in told) == ["#channel", JUDGE]
    assert told[0].subject == "[sheets-gm match] Strategies and turn 2 · orders closed: the judge's window is open"
    assert told[0].body.startswith("Strategies and turn 2 · orders closed Sun 22 Nov, 20:00 (UTC) (the players' "
                                   "deadline); the judge's window for turn 1 · battle results is open now")
    again = [n.key for n in _notices(config, PLAYERS + dt.timedelta(hours=5)) if "@judge" in n.key]
    assert again == [n.key for n in told]  # the same keys: the outbox sends each once


def _notices(config: MatchConfig, at: dt.datetime) -> list[Notice]:
    report = _sync(config, at)
    assert report.facts is not None
    return poll_notices(report.facts, seen_of(report), NoticeRules(), at)


def test_the_judge_is_reminded_before_her_own_deadline_not_before_the_players(tmp_path: Path) -> None:
    """Before the players' deadline her Ready is not taken: no reminder to tick it; before her own deadline, one."""
    config = _war(tmp_path, judge_hours=24)
    assert not [n for n in _notices(config, PLAYERS - dt.timedelta(hours=1)) if n.kind.value == "reminder"]
    told = [n for n in _notices(config, PLAYERS + dt.timedelta(hours=23)) if n.kind.value == "reminder"]
    assert sorted(n.recipient for n in told) == ["#channel", JUDGE]
    assert "(Mon 23 Nov, 20:00 (UTC))" in told[0].body


def test_the_commands_in_the_order_the_program_tells_the_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Typed in the sheet, through the commands themselves (``sheets-gm sync`` and ``status`` at a fake clock): the
    players' deadline passes, the judge is told her window is open and why the deadline moved, she types her
    results (the stratless side among them), the next syncs apply nothing, she ticks Results in, the next sync
    applies them."""
    config = _war(tmp_path)
    now = [PLAYERS + dt.timedelta(seconds=6)]
    monkeypatch.setattr("sheets_gm.commands.base.clock", lambda: now[0])

    def command(*args: str) -> str:
        capsys.readouterr()
        assert main([*args, "-c", str(config.path)]) == 0
        return capsys.readouterr().out

    said = command("sync")
    assert "Strategies and turn 2 · orders closed Sun 22 Nov, 20:00 (UTC) (the players' deadline); the judge's " \
           "window for turn 1 · battle results is open now" in said and "resolved" not in said, said
    assert "for the judge; no judge's deadline: it resolves when the judge marks it done" in command("status")
    _type(config, "results", "Dominaria 4C", "stratless", "phyrexia")
    _type(config, "losses", "Various Puppies", "slot1", 300)
    now[0] += dt.timedelta(hours=20)
    assert "resolved" not in command("sync") and _phase(config) == "results"
    _type(config, "judge", JUDGE, "ready", True)
    now[0] += dt.timedelta(minutes=1)
    said = command("sync")
    assert "Turn 1 · battle results resolved (the judge marked the results done)" in said, said
    assert read_record(looking(config), CLS).state.vp["coalition"] == 5
