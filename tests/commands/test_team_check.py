"""init and doctor name a team nobody can play, on local workbooks; the roster's captain column is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.engine.ruleset import Member, Roster, SeatKind
from sheets_gm.match.team_check import captain_emails, team_warnings
from tests.matchfiles import PRIVATE_SHEETS, local_config


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_init_and_doctor_name_a_team_without_a_captain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = local_config(tmp_path, PRIVATE_SHEETS, head='roster = "roster.csv"')
    (tmp_path / "roster.csv").write_text("name,team,role,captain\nAnn,red,dps,yes\nBen,red,healer,\n"
                                         "Cat,blue,tank,maybe\nDan,blue,dps,\n", encoding="utf-8")
    code, out = run(capsys, "init", "gvg", "-c", path)
    assert code == 0
    assert "Warning: team blue has no captain: mark one of its players captain = yes in the roster" in out
    assert "Warning: Cat's captain cell says 'maybe': write yes (or x) for the captain" in out
    assert "team red has no captain" not in out and "no e-mail" not in out  # local workbooks: no sign-in
    code, out = run(capsys, "doctor", "-c", path)
    assert code == 0 and "⚠ teams: team blue has no captain" in out and "fix: correct the roster" in out


def test_a_roster_without_a_captain_column_is_named_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = local_config(tmp_path, PRIVATE_SHEETS, head='roster = "roster.csv"')
    (tmp_path / "roster.csv").write_text("name,team,role\nAnn,red,dps\nCat,blue,tank\n", encoding="utf-8")
    code, out = run(capsys, "init", "gvg", "-c", path)
    assert code == 0 and out.count("Warning: the roster has no captain column, so no team has a captain") == 1


def test_a_side_without_an_email_is_named_and_players_have_nothing_to_say() -> None:
    sides = Roster(("coalition", "phyrexia"), (Member("Frank", "coalition", {}, "frank@example.org"),
                                               Member("Jeff", "phyrexia")))
    assert team_warnings(SeatKind.SIDE, sides, google=True) == [
        "side phyrexia has no e-mail in the roster: on Google nobody on it can type its orders or tick its Ready box, "
        "so each of its turns waits for the deadline (give its members' e-mails in the email column)"]
    assert team_warnings(SeatKind.SIDE, sides, google=False) == []
    players = Roster(("Ann", "Bo"), (Member("Ann", "Ann"), Member("Bo", "Bo")))
    assert team_warnings(SeatKind.PLAYER, players, google=True) == []


def test_the_captains_row_is_the_captains() -> None:
    roster = Roster(("red", "blue"), (Member("Ann", "red", {"captain": "Yes"}, "ann@example.org"),
                                      Member("Ben", "red", {"captain": ""}, "ben@example.org"),
                                      Member("Cat", "blue", {"captain": "x"})))
    assert captain_emails(roster) == {"red": ("ann@example.org",)}
