"""The match config file, the deadline schedule and a GvG roster file: good input loads, bad input is named."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from sheets_gm.engine.ruleset import Roster
from sheets_gm.match.config import BackendKind, ConfigError, load_config
from sheets_gm.match.schedule import DeadlineSchedule, ScheduleError
from sheets_gm.match.seat_roster import SeatRosterError, parse_seat_roster, read_seat_roster, seat_emails
from sheets_gm.rulesets.registry import create_ruleset, ruleset_names

HEAD = 'ruleset = "gvg"\nteams = ["red", "blue"]\n'
TEAMS = ("red", "blue")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_full_config_loads_with_paths_relative_to_its_folder(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + 'roster = "people.csv"\n[sheets]\nbackend = "google"\nboard = "KEY1"\n'
                 'engine = "KEY2"\norders = { red = "KEY3", blue = "KEY4" }\n[google]\nservice_account = "sa.json"\n'
                 '[deadlines]\ntimes = ["20:00", "08:30"]\ndays = ["Friday", "mon"]\ntimezone = "Europe/Paris"\n'
                 '[settings]\nmovement = "rook"\n[sync]\ninterval = 30\nmax_interval = 300\n')
    config = load_config(path)
    assert config.backend is BackendKind.GOOGLE
    assert (config.board, config.engine, config.orders) == ("KEY1", "KEY2", ("KEY3", "KEY4"))
    assert config.roster == tmp_path / "people.csv"
    assert config.service_account == tmp_path / "sa.json"
    assert config.settings == {"movement": "rook"}
    assert config.schedule.describe() == "every Mon, Fri at 08:30, 20:00 (Europe/Paris)"
    assert (config.interval, config.max_interval) == (30, 300)
    assert config.lock_path.parent == tmp_path / ".sheets-gm"


def test_the_shipped_starter_config_loads() -> None:
    config = load_config(Path("templates/gvg/match.toml"))
    assert config.backend is BackendKind.LOCAL and config.schedule.empty


@pytest.mark.parametrize(("text", "message"), [
    (HEAD + '[sheets]\nbord = "x.xlsx"\n', "unknown key [sheets] bord; the keys accepted there are backend, board"),
    (HEAD + '[sheet]\nboard = "x.xlsx"\n', "unknown key sheet"),
    (HEAD, "sheets is missing"),
    ('ruleset = "chess"\nteams = ["a", "b"]\n[sheets]\nboard = "x"\n',
     f"unknown ruleset 'chess'; this build knows: {', '.join(ruleset_names())}"),
    ('ruleset = "gvg"\nteams = ["a"]\n[sheets]\nboard = "x"\n', "teams"),
    ('ruleset = "gvg"\nteams = ["Red", "red"]\n[sheets]\nboard = "x"\n', "teams must be distinct names"),
    ('ruleset = "gvg"\nteams = ["a", "b", "c"]\n[sheets]\nboard = "x"\n', "a gvg match has 2 teams, not 3"),
    ('ruleset = "gvg"\n[sheets]\nboard = "x"\n', "seats: missing; name the teams in turn order"),
    ('ruleset = "gvg"\nteams = ["a", "b"]\nseats = ["a", "b"]\n[sheets]\nboard = "x"\n', "teams or seats, not both"),
    (HEAD + '[sheets]\nboard = "x"\norders = { green = "g" }\n',
     "names 'green', which is not a seat; the seats are red, blue"),
    (HEAD + '[sheets]\nbackend = "excel"\nboard = "x"\n', "[sheets] backend: input should be 'local' or 'google'"),
    (HEAD + '[sheets]\nbackend = "google"\nboard = "x"\n', "[google] needs service_account"),
    (HEAD + '[sheets]\nboard = "x"\n[deadlines]\ntimes = ["8pm"]\n', "'8pm' is not a time of day; write it as HH:MM"),
    (HEAD + '[sheets]\nboard = "x"\n[deadlines]\ndays = ["someday"]\n', "'someday' is not a weekday"),
    (HEAD + '[sheets]\nboard = "x"\n[deadlines]\ntimezone = "Mars/Base"\n', "'Mars/Base' is not a time zone"),
    (HEAD + '[sheets]\nboard = "x"\n[sync]\ninterval = 0\n', "[sync] interval: input should be greater than 0"),
    (HEAD + '[sheets]\nboard = "x"\n[sync]\ninterval = 90\nmax_interval = 60\n', "max_interval (60.0) is below"),
    ('ruleset = "gvg"\nteams = [\n', "is not valid TOML"),
])
def test_a_bad_config_names_the_file_the_key_and_what_is_accepted(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_a_missing_or_unreadable_config_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no config file at"):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="is a folder"):
        load_config(tmp_path)
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(tmp_path / "bin.toml")


@pytest.mark.parametrize("nested", ["x = " + "[" * 5000 + "]" * 5000, "x = " + "{a = " * 400 + "1" + "}" * 400,
                                    "x = " + "[" * 30 + "]" * 30])
def test_a_deeply_nested_config_is_one_line_not_a_traceback(tmp_path: Path, nested: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from sheets_gm.cli import main

    path = write(tmp_path, HEAD + nested + '\n[sheets]\nboard = "x"\n')
    with pytest.raises(ConfigError, match="nests tables or arrays") as err:
        load_config(path)
    assert "\n" not in str(err.value)
    for command in ("sync", "doctor", "status"):
        assert main([command, "-c", str(path)]) == 1
        out, errors = capsys.readouterr()
        assert "nests tables or arrays" in out + errors and "Traceback" not in out + errors


def test_a_device_a_fifo_or_a_huge_file_is_refused_without_reading_it(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import os
    import subprocess
    import sys

    from sheets_gm.cli import main

    fifo = tmp_path / "match.toml"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(ConfigError, match="is not a regular file"):
            load_config(path)
    # From the command line too: the device here (load_config above read neither), the FIFO in a process of its own,
    # where a regression hangs (a FIFO nobody writes to) rather than the test run.
    assert main(["sync", "-c", "/dev/zero"]) == 1 and "is not a regular file" in capsys.readouterr().err
    done = subprocess.run([sys.executable, "-m", "sheets_gm.cli", "sync", "-c", str(fifo)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 1 and "is not a regular file" in done.stderr and "Traceback" not in done.stderr
    huge = tmp_path / "huge.toml"
    huge.write_text(HEAD + "# padding\n" * 200_000, encoding="utf-8")
    with pytest.raises(ConfigError, match="a match config is a few kilobytes"):
        load_config(huge)


def test_a_parse_error_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + '[sheets]\nboard = "x\nengine = 3\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path} is not valid TOML: ") and "\n" not in str(err.value)
    path = write(tmp_path, HEAD + '[sheets]\nboard = "x"\n[sync]\ninterval = "' + "long\\n" * 500 + '"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "\n" not in str(err.value) and len(str(err.value)) < 300


# --------------------------------------------------------------------------- the schedule

def test_the_next_deadline_follows_the_days_times_and_zone() -> None:
    schedule = DeadlineSchedule.parse(["20:00", "08:00"], ["mon", "wed"], "Europe/Paris")
    monday_noon_utc = datetime(2026, 11, 23, 11, 0, tzinfo=UTC)  # 12:00 in Paris
    assert schedule.next_deadline(monday_noon_utc) == "2026-11-23T20:00+01:00[Europe/Paris]"
    assert schedule.next_deadline(datetime(2026, 11, 23, 19, 0, tzinfo=UTC)) == "2026-11-25T08:00+01:00[Europe/Paris]"
    sunday = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # Monday 00:30 in Paris
    assert schedule.next_deadline(sunday) == "2026-11-30T08:00+01:00[Europe/Paris]"


def test_a_deadline_exactly_now_is_not_the_next_one() -> None:
    schedule = DeadlineSchedule.parse(["12:00"], [], "UTC")
    assert schedule.next_deadline(datetime(2026, 11, 22, 12, 0, tzinfo=UTC)) == "2026-11-23T12:00+00:00[UTC]"


def test_summer_time_is_respected() -> None:
    schedule = DeadlineSchedule.parse(["20:00"], [], "Europe/Paris")
    assert schedule.next_deadline(datetime(2026, 7, 1, 10, tzinfo=UTC)) == "2026-07-01T20:00+02:00[Europe/Paris]"


def test_an_empty_schedule_has_no_deadline() -> None:
    schedule = DeadlineSchedule.parse([], [], "UTC")
    assert schedule.next_deadline(datetime(2026, 1, 1, tzinfo=UTC)) == ""
    assert "no deadline" in schedule.describe()


@pytest.mark.parametrize("text", ["24:00", "20", "20:61", "soon", ""])
def test_bad_times_are_refused(text: str) -> None:
    with pytest.raises(ScheduleError, match="HH:MM"):
        DeadlineSchedule.parse([text])


# --------------------------------------------------------------------------- the roster

def gvg_roster(rows: list[list[str]]) -> Roster:
    """``rows`` read as a GvG roster, then checked by the GvG rules as ``init`` does (roles, bases)."""
    roster = parse_seat_roster(rows, TEAMS, where="roster.csv", seat_word="team")
    create_ruleset("gvg").new_match(roster, b"check")
    return roster


def test_a_roster_csv_with_any_column_order_case_and_separator_loads(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text("\ufeffTeam;Name;Role;Captain;E-mail\nRED;Ann;DPS;yes;ann@example.org\n;;;;\n"
                    "blue;Ben;healer;;\nBlue;Cat;Tank;x;cat@example.org\n", encoding="utf-8")
    roster = read_seat_roster(path, TEAMS, seat_word="team")
    assert [(m.name, m.seat, m.fields["role"]) for m in roster.members] == [
        ("Ann", "red", "DPS"), ("Ben", "blue", "healer"), ("Cat", "blue", "Tank")]
    assert seat_emails(roster) == {"red": ("ann@example.org",), "blue": ("cat@example.org",)}
    state = create_ruleset("gvg").new_match(roster, b"roles")
    assert [(p.name, p.team, p.role.value) for p in state.players] == [
        ("Ann", 0, "dps"), ("Ben", 1, "healer"), ("Cat", 1, "tank")]


@pytest.mark.parametrize(("rows", "message"), [
    ([["name", "team"], ["Ann", "red"]], "roster line 2: Ann: unknown role ''; use dps, tank or healer"),
    ([["name", "role"], ["Ann", "dps"]], "roster.csv line 1 should name the columns name and seat (or team, player, "
                                         "side), then email and the ruleset's own; it names name, role"),
    ([["name", "team", "role"]], "a GvG match needs its players: a roster line per player with name, team and role"),
    ([["name", "team", "role"], ["", "red", "dps"]], "roster.csv line 2: the name is empty"),
    ([["name", "team", "role"], ["Ann", "red", "dps"], ["ann", "blue", "tank"]],
     "roster.csv line 3: ann is already on line 2"),
    ([["name", "team", "role"], ["Ann", "green", "dps"]],
     "roster.csv line 2: Ann is in 'green'; the seats are red, blue"),
    ([["name", "team", "role"], ["Ann", "red", "dps"], ["Ben", "red", "mage"]],
     "roster line 3: Ben: unknown role 'mage'; use dps, tank or healer"),
    ([["name", "team", "role", "email"], ["Ann", "red", "dps", "ann at home"]],
     "roster.csv line 2: 'ann at home' is not an e-mail address"),
    ([], "roster.csv is empty"),
])
def test_a_bad_roster_names_the_line_and_what_is_accepted(rows: list[list[str]], message: str) -> None:
    with pytest.raises(ValueError) as err:
        gvg_roster(rows)
    assert message in str(err.value)


def test_a_missing_or_binary_roster_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SeatRosterError, match="no roster file at"):
        read_seat_roster(tmp_path / "nope.csv", TEAMS, seat_word="team")
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(SeatRosterError, match=r"bin\.csv cannot be read as a CSV file"):
        read_seat_roster(tmp_path / "bin.csv", TEAMS, seat_word="team")
