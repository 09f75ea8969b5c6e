"""The judge's Strategies tab has its place: after the judge's own tabs (Judge, Archive, View), drawn there by the
door at the first strategy without moving any other tab; ``doctor`` says, for a match with ``[mailbox]``, whether it
is laid out and where, and ``repair`` lays it out after the judge's own tabs, drawn from the mail record (issue 73)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.run import sync_once
from tests.rulesets.coalition.test_mail_door import NOW, Box, _match, mail
from tests.rulesets.coalition.test_old_layout import run

JUDGE_TABS = ["Judge", "Archive judge", "View judge", "Copies judge"]


def _with_mailbox(tmp_path: Path) -> MatchConfig:
    config, _sheets = _match(tmp_path)
    (tmp_path / "mailbox.password").write_text("secret", encoding="utf-8")
    with (tmp_path / "match.toml").open("a", encoding="utf-8") as f:  # a server nobody listens on: doctor says so
        f.write('\n[mailbox]\nhost = "127.0.0.1"\nport = 9\nsecurity = "none"\nuser = "judge"\n'
                'password_file = "mailbox.password"\n')
    return load_config(config.path)


def _strategies_line(capsys: pytest.CaptureFixture[str], config: MatchConfig) -> str:
    _code, out, _err = run(capsys, "doctor", "-c", config.path)
    (line,) = [line for line in out.splitlines() if "'Strategies' tab" in line]
    return line


def _tabs(tmp_path: Path) -> list[str]:
    return list(map(str, openpyxl.load_workbook(tmp_path / "gm" / "judge.xlsx").sheetnames))


def test_the_strategies_tab_stands_after_the_judges_tabs_and_doctor_and_repair_keep_it_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _with_mailbox(tmp_path)
    assert "yet: the first strategy mail (or the battle deadline) lays it out" in _strategies_line(capsys, config)
    box = Box([mail(1, "ann@example.org", "Turn 1", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW, force=True), box)
    box = Box([mail(2, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies", "Flank left.", minutes=10)])
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW), box)
    assert _tabs(tmp_path) == [*JUDGE_TABS, "Strategies"]  # laid out alone: no other tab moved
    assert "judge.xlsx, after the judge's own tabs" in _strategies_line(capsys, config)

    book = openpyxl.load_workbook(tmp_path / "gm" / "judge.xlsx")  # first, as an earlier version drew it
    book.move_sheet("Strategies", offset=-4)
    book.save(tmp_path / "gm" / "judge.xlsx")
    line = _strategies_line(capsys, config)
    assert "stands before the judge's own tabs" in line
    code, out, err = run(capsys, "repair", "-c", config.path)
    assert code == 0, err
    assert "the judge's Strategies tab is laid out after the judge's own tabs, with 1 strategy" in out
    # the tab is the match's own: repair never calls it one of the GM's, to keep until she moved what she needs
    assert "'Strategies'" not in out and "no part of the match's layout" not in out
    assert _tabs(tmp_path) == [*JUDGE_TABS, "Strategies"]

    book = openpyxl.load_workbook(tmp_path / "gm" / "judge.xlsx")  # deleted by hand
    book.remove(book["Strategies"])
    book.save(tmp_path / "gm" / "judge.xlsx")
    assert "has no 'Strategies' tab, though the judge's mailbox filed 1 strategy" in _strategies_line(capsys,
                                                                                                       config)
    assert run(capsys, "repair", "-c", config.path)[0] == 0
    book = openpyxl.load_workbook(tmp_path / "gm" / "judge.xlsx")
    assert book.sheetnames == [*JUDGE_TABS, "Strategies"]
    assert "Flank left." in [row[6] for row in book["Strategies"].iter_rows(values_only=True)]
