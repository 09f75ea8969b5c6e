"""``sheets-gm doctor``: one line per check, a fix for every problem, exit 1 on any failure, never a write."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.doctor import checks as doctor_checks
from sheets_gm.doctor.checks import run_doctor
from sheets_gm.doctor.checkup import Verdict
from sheets_gm.doctor.sheets import deadline_sentence
from sheets_gm.engine.words import label_verb
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import create_ruleset, ruleset_names
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.layout import WorkbookLayout
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.clock import FakeClock
from tests.fakes.google_api import (
    BATCH_UPDATE,
    GET,
    WRITE,
    FaultKind,
    GoogleApiFake,
    fake_client,
    signed_in_fake,
    write_service_account_key,
)
from tests.made import made_on_fake
from tests.matchfiles import NOW, SEED, TEAMS, local_config, local_match, roster
from tests.window_labels import english_problems, verb_after, window_labels

SA_EMAIL = "doctor-bot@sheets-gm-test.iam.gserviceaccount.com"
KEYS = {
    "board": "1BoardKey_doctor_test_00000000000000000000",
    "engine": "1EngineKey_doctor_test_0000000000000000000",
    "red": "1RedOrdersKey_doctor_test_000000000000000",
    "blue": "1BlueOrdersKey_doctor_test_00000000000000",
}

Doctor = Callable[..., tuple[int, str]]


@pytest.fixture
def doctor(capsys: pytest.CaptureFixture[str]) -> Doctor:
    """Run ``sheets-gm doctor -c PATH``: (exit code, what it printed)."""

    def run(config: Path, *extra: str) -> tuple[int, str]:
        code = main(["doctor", "-c", str(config), *extra])
        captured = capsys.readouterr()
        assert captured.err == ""
        return code, captured.out

    return run


def line(out: str, mark: str, name: str) -> str:
    """The printed check called ``name`` with ``mark``, and its fix line if any."""
    lines = out.splitlines()
    for i, text in enumerate(lines):
        if text.startswith(f"{mark} {name}: "):
            fix = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].startswith("    fix: ") else ""
            return text + "\n" + fix
    raise AssertionError(f"no {mark} {name} line in:\n{out}")


def check_names(out: str) -> list[str]:
    """The name of every check printed, in order (the words before the first ': ' of each line that starts with a
    verdict's mark): a word of a message, or of a path the message names, is no check's name."""
    return [text[2:].split(": ", 1)[0] for text in out.splitlines() if text[:2] in ("✔ ", "⚠ ", "✘ ")]


def test_check_names_reads_the_name_of_each_check_only() -> None:
    out = ("✔ config: /tmp/layout/match.toml is valid\n✘ spreadsheet (orders red): cannot open it\n"
           "    fix: share it; the layout is read next\n⚠ secret files: /tmp/layout/key.json\n1 problem to fix.")
    assert check_names(out) == ["config", "spreadsheet (orders red)", "secret files"]
    assert "layout" not in check_names(out) and "layout" in check_names("✔ layout: every header cell\n")


# --------------------------------------------------------------------------- a local workbook


def test_a_healthy_local_match_passes_every_check(tmp_path: Path, doctor: Doctor) -> None:
    config, _ = local_match(tmp_path, private=True)
    workbook = tmp_path / "match.xlsx"
    before = workbook.stat().st_mtime_ns
    files = sorted(tmp_path.iterdir())
    code, out = doctor(config)
    assert code == 0, out
    assert "✘" not in out and "⚠" not in out
    for name in ("config", "ruleset", "house rules", "deadlines", "workbook (board)", "workbook (engine)",
                 "workbook (orders red)", "config vs match", "layout", "deadline", "privacy", "quota"):
        assert f"✔ {name}: " in out
    assert "local workbooks use no Google quota" in out
    assert "✔ layout: every header cell is in place; turn 1 is open (window 1)\n" in out  # the label, then its key
    assert out.rstrip().endswith("Everything checked is fine.")
    assert workbook.stat().st_mtime_ns == before
    assert sorted(tmp_path.iterdir()) == files  # not even a lock file


@pytest.mark.parametrize(
    ("text", "name", "says", "fix"),
    [
        ('ruleset = "gvg"\nteams = ["a", "b"\n', "config", "is not valid TOML", "fix the syntax"),
        ('ruleset = "gvg"\nteams = ["a", "b"]\ncolour = "red"\n[sheets]\nboard = "m.xlsx"\n', "config",
         "unknown key colour", "correct the key's spelling or remove it"),
        ('ruleset = "gvg"\nteams = ["a", "b"]\n[sheets]\nbaord = "m.xlsx"\n', "config",
         "unknown key [sheets] baord", "correct the key's spelling"),
        ('ruleset = "chess"\nteams = ["a", "b"]\n[sheets]\nboard = "m.xlsx"\n', "ruleset",
         "unknown ruleset 'chess'", "set ruleset to one of " + ", ".join(f'"{n}"' for n in ruleset_names())),
        ('ruleset = "gvg"\nteams = ["a", "b"]\n', "config", "sheets is missing", "add it to"),
        ('ruleset = "gvg"\nteams = ["a", "b"]\n[sheets]\nboard = "m.xlsx"\n[deadlines]\ntimes = ["25:99"]\n',
         "config", "is not a time of day", "edit"),
        ('ruleset = "gvg"\nteams = ["a", "b"]\n[sheets]\nbackend = "google"\nboard = "k"\n', "config",
         "needs service_account", "edit"),
    ],
    ids=["bad-toml", "unknown-key", "misspelt-key", "unknown-ruleset", "missing-sheets", "bad-time", "no-credentials"],
)
def test_a_bad_config_is_one_failed_line_with_a_fix(tmp_path: Path, doctor: Doctor, text: str, name: str, says: str,
                                                    fix: str) -> None:
    config = tmp_path / "match.toml"
    config.write_text(text, encoding="utf-8")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", name)
    assert says in found and f"fix: {fix}" in found
    assert out.rstrip().endswith("1 problem to fix.")


def test_a_missing_config_says_how_to_make_one(tmp_path: Path, doctor: Doctor) -> None:
    code, out = doctor(tmp_path / "nope.toml")
    assert code == 1
    assert "no config file at" in line(out, "✘", "config")
    assert "create it" in line(out, "✘", "config")
    code, out = doctor(tmp_path)
    assert code == 1
    assert "is a folder" in line(out, "✘", "config")


@pytest.mark.parametrize(
    ("rules", "says"),
    [('movement = "queen"', "'queen' is not accepted; use 'king' or 'rook'"),
     ("max_turns = 0", "out of range"),
     ("speed = 3", "unknown setting 'speed'")],
)
def test_a_bad_house_rule_fails_but_the_match_is_still_checked(tmp_path: Path, doctor: Doctor, rules: str,
                                                               says: str) -> None:
    config, _ = local_match(tmp_path, body=f"[settings]\n{rules}\n")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "house rules")
    assert says in found and "fix: correct [settings]" in found and "docs/rules-gvg.md" in found
    assert "✔ layout: " in out


def test_house_rules_that_differ_from_the_match_are_a_warning(tmp_path: Path, doctor: Doctor) -> None:
    config, _ = local_match(tmp_path, settings=GvgSettings(max_turns=30), body='[settings]\nmovement = "rook"\n',
                            private=True)
    code, out = doctor(config)
    assert code == 0
    found = line(out, "⚠", "house rules vs match")
    assert "max_turns = 60 in the config but 30 in the match" in found
    assert "movement = 'rook' in the config but 'king' in the match" in found
    assert "fixed when the match is created" in found
    assert "(1 warning)" in out


def test_teams_that_differ_from_the_match_fail(tmp_path: Path, doctor: Doctor) -> None:
    _, _ = local_match(tmp_path)
    config = tmp_path / "match.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('"blue"', '"green"'), encoding="utf-8")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "config vs match")
    assert "the config names a gvg match of teams red, green, but the match was created as gvg with red, blue" in found
    assert 'fix: write teams = ["red", "blue"] and ruleset = "gvg"' in found


def test_a_missing_workbook_says_run_init(tmp_path: Path, doctor: Doctor) -> None:
    config = local_config(tmp_path, workbook="gone.xlsx")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "workbook (board, engine, orders red, orders blue)")
    assert "gone.xlsx does not exist" in found and "sheets-gm init gvg -c" in found


def test_a_file_that_is_not_xlsx_fails(tmp_path: Path, doctor: Doctor) -> None:
    (tmp_path / "match.ods").write_bytes(b"")
    code, out = doctor(local_config(tmp_path, workbook="match.ods"))
    assert code == 1
    assert "save it as Excel 2007-365 (.xlsx)" in line(out, "✘", "workbook (board, engine, orders red, orders blue)")


def test_a_damaged_workbook_fails(tmp_path: Path, doctor: Doctor) -> None:
    (tmp_path / "match.xlsx").write_bytes(b"not a zip")
    code, out = doctor(local_config(tmp_path))
    assert code == 1
    found = line(out, "✘", "workbook (board, engine, orders red, orders blue)")
    assert "is not a readable .xlsx workbook" in found and "fix: restore the file" in found


def test_a_workbook_without_a_match_says_run_init(tmp_path: Path, doctor: Doctor) -> None:
    openpyxl.Workbook().save(tmp_path / "match.xlsx")
    code, out = doctor(local_config(tmp_path))
    assert code == 1
    found = line(out, "✘", "match")
    assert "no match in" in found and "'Engine'" in found
    assert "fix: create the match with `sheets-gm init gvg -c" in found


def test_a_workbook_open_in_libreoffice_fails_with_how_to_close_it(tmp_path: Path, doctor: Doctor) -> None:
    config, _ = local_match(tmp_path)
    lock = tmp_path / ".~lock.match.xlsx#"
    lock.write_text("u,Ann,laptop,22.11.2026 12:00,file:///x;", encoding="utf-8")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "workbook (board, engine, orders red, orders blue)")
    assert "is open in LibreOffice (lock file .~lock.match.xlsx#)" in found
    assert f"fix: save and close it in LibreOffice; if it is open nowhere, delete {lock}" in found
    assert "✔ layout: " in out  # reading an open workbook is safe: the other checks still ran


def test_a_drifted_header_names_the_tab_and_the_cell(tmp_path: Path, doctor: Doctor) -> None:
    config, _ = local_match(tmp_path)
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    book["Orders blue"]["D4"] = "Where to?"
    book.save(tmp_path / "match.xlsx")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "layout")
    assert "tab 'Orders blue' cell D4" in found and "fix: put the cell back" in found


def test_a_renamed_tab_names_the_config_doctor_was_given(tmp_path: Path, doctor: Doctor) -> None:
    """Issue 64: a tab renamed in a player's workbook made doctor pass on the sync's words, which name the config
    by a stand-in: '… run sheets-gm repair -c MATCH.toml, which lays every tab out again …' over a fix naming
    match.toml. Every line doctor prints names the file it was given."""
    config, _ = local_match(tmp_path, private=True)
    friday = config.rename(tmp_path / "friday.toml")
    book = openpyxl.load_workbook(tmp_path / "red.xlsx")
    book[book.sheetnames[-1]].title = "Renamed"
    book.save(tmp_path / "red.xlsx")
    code, out = doctor(friday)
    assert code == 1
    found = line(out, "✘", "layout")
    assert "repair -c MATCH.toml" not in out and f"repair -c {friday}, which lays every tab out" in found, out


def test_doctor_lists_every_layout_break_as_repair_mends_them_all(tmp_path: Path, doctor: Doctor) -> None:
    """Issue 54: three header cells typed over in two tabs: doctor named only the first; now a line each."""
    config, _ = local_match(tmp_path)
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    book["Orders blue"]["D4"] = "Where to?"
    book["Orders blue"]["E4"] = "What?"
    book["Orders red"]["D4"] = "Go"
    book.save(tmp_path / "match.xlsx")
    code, out = doctor(config)
    assert code == 1
    broken = [ln for ln in out.splitlines() if ln.startswith("✘ layout")]
    assert len(broken) == 3, out
    for cell in ("'Orders blue' cell D4", "'Orders blue' cell E4", "'Orders red' cell D4"):
        assert sum(cell in ln for ln in broken) == 1, (cell, broken)


def test_a_deleted_settings_tab_is_a_layout_break_and_repair_puts_its_rows_back(tmp_path: Path, doctor: Doctor,
                                                                               capsys: pytest.CaptureFixture[str]
                                                                               ) -> None:
    """Issue 54, tried as a GM: a Settings tab deleted by hand passed every check ('Everything checked is fine'),
    and repair laid it out again empty, the house rules gone from the players' sight. Checked to fail without
    either fix."""
    config, _ = local_match(tmp_path)
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    rules = [[c.value for c in row] for row in book["Settings"].iter_rows()]
    del book["Settings"]
    book.save(tmp_path / "match.xlsx")
    code, out = doctor(config)
    assert code == 1 and "has no tab 'Settings'" in line(out, "✘", "layout"), out
    assert main(["repair", "-c", str(config)]) == 0
    assert "tab 'Settings' was missing" in capsys.readouterr().out
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    again = [[c.value for c in row] for row in book["Settings"].iter_rows()]
    assert again[:-1] == rules[:-1] and again[-1][0] == "deadlines"  # the deadlines in the config's words, as init
    assert doctor(config)[0] == 0


def test_every_edit_of_the_public_board_is_a_line_of_the_board_check(tmp_path: Path, doctor: Doctor,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 60, item 4: a tab added to the board's file, text beside a Log line, a Settings value changed, a Log
    line in white on white: each named by its tab and cell, with the mend; repair writes the house rules back."""
    config, _ = local_match(tmp_path)
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    book.create_sheet("Announcement")["A1"] = "Blue surrenders."
    book["Log"]["F1"] = "blue surrenders"
    book["Settings"]["B2"] = "99"
    book["Settings"]["A1"].font = openpyxl.styles.Font(color="FFFFFFFF")
    book.save(tmp_path / "match.xlsx")
    code, out = doctor(config)
    found = line(out, "✘", "board")
    assert code == 1
    for said in ("tab 'Announcement' of ", "is no tab of the match (cell A1 says 'Blue surrenders.')",
                 "tab 'Log' cell F1 says 'blue surrenders', beside the Log's header", "delete it",
                 "tab 'Settings' cell B2 says '99' but the match plays with", "writes the match's settings back",
                 "tab 'Settings' cell A1 ('Setting') cannot be read: its text is #FFFFFF on a", "fix: as each says"):
        assert said in found, (said, found)
    assert main(["repair", "-c", str(config)]) == 0
    capsys.readouterr()
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    del book["Announcement"]
    book["Log"]["F1"] = None
    book["Settings"]["A1"].font = openpyxl.styles.Font()
    book.save(tmp_path / "match.xlsx")
    code, out = doctor(config)
    assert code == 0 and "✔ board: " in out, out


def test_an_edited_engine_tab_fails_without_a_crash(tmp_path: Path, doctor: Doctor) -> None:
    config, _ = local_match(tmp_path)
    book = openpyxl.load_workbook(tmp_path / "match.xlsx")
    book["Engine"]["B4"] = "{broken"
    book.save(tmp_path / "match.xlsx")
    code, out = doctor(config)
    assert code == 1
    assert "the engine tab cannot be read" in line(out, "✘", "match")


def test_a_passed_deadline_nobody_resolved_is_a_warning(tmp_path: Path, doctor: Doctor) -> None:
    config, _ = local_match(tmp_path, deadline="2020-01-01T20:00+00:00",
                            body='[deadlines]\ntimes = ["20:00"]\ndays = ["mon", "thu"]\ntimezone = "Europe/Paris"\n')
    code, out = doctor(config)
    assert code == 0
    assert "✔ deadlines: every Mon, Thu at 20:00 (Europe/Paris)" in out
    found = line(out, "⚠", "deadline")
    assert "the deadline of turn 1, Wed 1 Jan, 20:00 (UTC), passed" in found and "sheets-gm sync -c" in found


def test_a_deadline_to_come_is_fine(tmp_path: Path) -> None:
    config, _ = local_match(tmp_path, deadline="2026-11-22T20:00+00:00")
    checks = {c.name: c for c in run_doctor(config, now=NOW)}
    assert checks["deadline"].verdict is Verdict.OK
    assert checks["deadline"].message == "turn 1 closes at Sun 22 Nov, 20:00 (UTC)"


@pytest.mark.parametrize("label", window_labels())
def test_the_deadline_line_reads_as_english_for_every_window_of_every_game(label: str) -> None:
    """Every case of the deadline line names the window in its label's words, with no "battle results's orders"."""
    for deadline in ("", "next Thursday", "2020-01-01T20:00+00:00", "2026-11-22T20:00+00:00"):
        case, sentence = deadline_sentence(label, deadline, NOW)
        assert english_problems(label, sentence) == [], (case, sentence)
    assert not verb_after(label, sentence, "closes", "close")
    layout = f"{label_verb(label, 'is', 'are')} open (window 1)"  # doctor's layout line, status, the notices
    assert not english_problems(label, layout) and not verb_after(label, layout, "is", "are")


def test_an_unforeseen_error_is_a_failed_check_not_a_crash(tmp_path: Path, doctor: Doctor,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    config, _ = local_match(tmp_path)

    def boom(*_: Any, **__: Any) -> Any:
        raise RuntimeError("surprise")

    monkeypatch.setattr("sheets_gm.doctor.sheets.read_match", boom)
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "spreadsheets")
    assert "unexpected RuntimeError: surprise" in found and "--debug" in found
    assert "✔ quota: " in out  # the checks after it still ran


def test_doctor_refuses_to_write_through_its_read_only_sheets(tmp_path: Path) -> None:
    from sheets_gm.doctor.sheets import ReadOnlyBackend
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    _, _ = local_match(tmp_path)
    backend = ReadOnlyBackend(LocalWorkbookBackend(tmp_path / "match.xlsx"))
    assert backend.read(["'Engine'!A2"]) == [[["ruleset"]]]
    with pytest.raises(AssertionError, match="must not write"):
        backend.write([])
    with pytest.raises(AssertionError, match="must not change"):
        backend.apply_layout(WorkbookLayout("x", ()))


def test_help_ends_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    assert "example: sheets-gm doctor -c match.toml" in capsys.readouterr().out


# --------------------------------------------------------------------------- Google (the fake)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    """The fake Google, with service-account clients whose token lookups stay inside it."""
    with signed_in_fake(monkeypatch, {}) as f:
        yield f


def google_match(fake: GoogleApiFake, folder: Path, *, interval: int = 60, key: str = "key.json") -> Path:
    """Four spreadsheets holding a match (made once a test process and copied, the fake's state with it:
    ``tests.made``), a service-account key and the match.toml naming them."""
    def make(_into: Path) -> None:
        for role, sheet_key in KEYS.items():
            fake.create_spreadsheet(sheet_key, f"Doctor test · {role}", ("Sheet1",))
        client = fake_client()
        backend = {role: GoogleSheetBackend(client, sheet_key, title=role) for role, sheet_key in KEYS.items()}
        sheets = MatchSheets(TEAMS, backend["board"], backend["engine"], (backend["red"], backend["blue"]))
        create_match(sheets, create_ruleset("gvg", GvgSettings()), roster(), seed=SEED)

    made_on_fake(fake, folder, "doctor: a match on Google", make)
    write_service_account_key(folder / "key.json", SA_EMAIL)
    config = folder / "match.toml"
    config.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n'
        f'[google]\nservice_account = "{key}"\n[sync]\ninterval = {interval}\nmax_interval = 600\n',
        encoding="utf-8",
    )
    return config


def test_google_unreachable_is_said_at_once_and_once(fake: GoogleApiFake, tmp_path: Path, doctor: Doctor,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 94: with Google's name unresolved, doctor says what it is doing, stops at the first connection failure
    within 10 s, says it once, and blames no quota."""
    config = google_match(fake, tmp_path)
    clock = FakeClock()
    monkeypatch.setattr(doctor_checks, "DOCTOR_RETRY", replace(doctor_checks.DOCTOR_RETRY, time=clock.time,
                                                               sleep=clock.sleep))
    fake.inject(FaultKind.NAME_NOT_RESOLVED, times=None)
    code, out = doctor(config)
    assert code == 1
    assert out.splitlines()[0] == "checking the spreadsheets on Google…"
    assert clock.slept <= 10
    found = line(out, "✘", "google")
    assert found.startswith("✘ google: cannot reach Google from this machine (sheets.googleapis.com: the name does "
                            "not resolve): check the network or proxy")
    assert out.count("cannot reach Google") == 1
    assert "quota" not in found and "spreadsheet (" not in out


def test_a_healthy_google_match_passes_and_reports_its_quota_headroom(fake: GoogleApiFake, tmp_path: Path,
                                                                      doctor: Doctor) -> None:
    config = google_match(fake, tmp_path)
    fake.reset_counters()
    code, out = doctor(config)
    assert code == 0, out
    assert f"✔ credentials: service account {SA_EMAIL}" in out
    for role in ("board", "engine", "orders red", "orders blue"):
        assert f"✔ spreadsheet ({role}): " in out
    assert "✔ layout: " in out
    quota = line(out, "✔", "quota")
    assert ("an idle poll asks Drive once (every 30 minutes its file index, the safety net) and reads no "
            "spreadsheet") in quota
    assert "Idle: 0.011 reads a minute, 5400 matches like this one per service account" in quota
    assert "ask Drive 1 time a minute, far within" in line(out, "✔", "watch")  # a poll every 60 s: not "1 times"
    assert ("Played (2 people save in a window, no deadlines, taken as a window every 2 hours): at least 1 save an "
            "hour (one each a window), realistically 2–4 (two to four each): 0.078–0.11 reads a minute, 540–771 "
            "matches like this one per service account") in quota
    minute = line(out, "✔", "deadline minute")
    assert "each of the 4 spreadsheets once, so 15 matches like this one resolve together within one minute" in minute
    assert "no deadlines" in minute
    assert "developers.google.com/workspace/sheets/api/limits" in quota
    assert "Google does not report the quota left" in quota
    assert fake.calls(WRITE) == fake.calls(BATCH_UPDATE) == 0


def test_a_hidden_log_row_and_a_line_hidden_by_its_format_on_google_fail_the_board_check(
        fake: GoogleApiFake, tmp_path: Path, doctor: Doctor) -> None:
    """On Google the formats are read through spreadsheets.get's field mask, as the real backend reads them: a
    hidden Log row, a Settings cell whose number format shows nothing, a tab hidden; one read of the board."""
    config = google_match(fake, tmp_path)
    fake.hide(KEYS["board"], "Log", rows=[0])
    fake.hide(KEYS["board"], "Settings", tab=True)
    fake.set_format(KEYS["board"], "'Settings'!B2", {"numberFormat": {"type": "NUMBER", "pattern": ";;;"}})
    fake.reset_counters()
    code, out = doctor(config)
    found = line(out, "✘", "board")
    assert code == 1
    for said in ("tab 'Log' row 1 is hidden", "tab 'Settings' is hidden", "tab 'Settings' cell B2",
                 "its number format ';;;' shows nothing"):
        assert said in found, (said, found)
    assert fake.calls(GET) >= 1 and not fake.violations


def with_deadline(config: Path, when: str) -> None:
    """Give the match a daily deadline at ``when``."""
    config.write_text(config.read_text(encoding="utf-8") + f'[deadlines]\ntimes = ["{when}"]\n', encoding="utf-8")


def test_matches_sharing_a_deadline_minute_past_what_it_holds_are_told_to_spread(fake: GoogleApiFake, tmp_path: Path,
                                                                               doctor: Doctor) -> None:
    config = google_match(fake, tmp_path)
    with_deadline(config, "23:59")
    _, out = doctor(config, "--matches", "15")
    assert "15 matches sharing its deadline minute at 23:59 (UTC) fit" in line(out, "✔", "deadline minute")
    _, out = doctor(config, "--matches-per-account", "40")
    minute = line(out, "⚠", "deadline minute")
    assert "15 matches like this one resolve together" in minute
    assert "40 matches sharing its deadline minute at 23:59 (UTC) are more" in minute
    assert "HTTP 429" in minute
    assert "fix: spread the deadlines of the matches on this account over minutes, 15 a minute (23:59, 00:00, " \
           "00:01…)" in minute
    assert "1 windows an hour" not in out and "0.042 windows an hour from [deadlines]" in line(out, "✔", "quota")


def test_an_unshared_spreadsheet_names_the_service_account_to_share_with(fake: GoogleApiFake, tmp_path: Path,
                                                                         doctor: Doctor) -> None:
    config = google_match(fake, tmp_path)
    fake.set_shared(KEYS["red"], False)
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "spreadsheet (orders red)")
    assert f"Share the spreadsheet with {SA_EMAIL}" in found
    assert f"fix: open the spreadsheet, click Share and add {SA_EMAIL} as Editor" in found
    assert "✔ spreadsheet (orders blue): " in out
    assert "layout" not in check_names(out)  # nothing is read further while a spreadsheet cannot be
    assert "config vs match" not in check_names(out) and "table rows" not in check_names(out)


def test_a_missing_key_file_fails_with_how_to_get_one(fake: GoogleApiFake, tmp_path: Path, doctor: Doctor) -> None:
    config = google_match(fake, tmp_path, key="missing.json")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "credentials")
    assert "missing.json does not exist" in found and "fix: put the service account's JSON key at" in found


def test_an_oauth_client_file_given_as_a_key_says_which_setting_it_belongs_to(fake: GoogleApiFake, tmp_path: Path,
                                                                               doctor: Doctor) -> None:
    config = google_match(fake, tmp_path, key="client.json")
    client = {"installed": {"client_id": "x.apps.googleusercontent.com", "client_secret": "s"}}
    (tmp_path / "client.json").write_text(json.dumps(client), encoding="utf-8")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "credentials")
    assert "not a service-account key" in found and "that is an OAuth client file" in found
    assert "oauth_client = " in found


def test_an_oauth_client_nobody_signed_in_with_fails_without_opening_a_browser(tmp_path: Path,
                                                                                doctor: Doctor) -> None:
    client = {"installed": {"client_id": "x.apps.googleusercontent.com", "client_secret": "s",
                            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                            "token_uri": "https://oauth2.googleapis.com/token"}}
    (tmp_path / "client.json").write_text(json.dumps(client), encoding="utf-8")
    config = tmp_path / "match.toml"
    config.write_text('ruleset = "gvg"\nteams = ["red", "blue"]\n[sheets]\nbackend = "google"\nboard = "k"\n'
                      '[google]\noauth_client = "client.json"\n', encoding="utf-8")
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "credentials")
    assert "nobody has signed in" in found and "sign in once" in found


def test_a_short_watch_interval_is_gated_by_drive_as_cron_is(fake: GoogleApiFake, tmp_path: Path,
                                                             doctor: Doctor) -> None:
    config = google_match(fake, tmp_path, interval=4)
    code, out = doctor(config)
    assert code == 0
    found = line(out, "✔", "watch")
    assert "through the same Drive gate every 4 s" in found and "ask Drive 15 times a minute" in found
    assert line(out, "✔", "quota")


@pytest.mark.parametrize(("matches", "mark", "says"), [
    (3, "✔", "3 matches like this one: up to 0.33 reads and 3.4 Drive requests a minute while played"),
    (500, "⚠", "500 matches like this one: up to 55.6 reads"),
    (600, "⚠", "over the 60 a minute Google allows"),
])
def test_matches_sharing_the_account_count_towards_the_quota(fake: GoogleApiFake, tmp_path: Path, doctor: Doctor,
                                                            matches: int, mark: str, says: str) -> None:
    config = google_match(fake, tmp_path)
    code, out = doctor(config, "--matches", str(matches))
    assert code == 0
    found = line(out, mark, "quota")
    assert says in found
    if mark == "⚠":
        assert "fix: run some matches under another service account (each holds 540–771 matches" in found


def test_spreadsheets_without_a_match_say_run_init(fake: GoogleApiFake, tmp_path: Path, doctor: Doctor) -> None:
    config = google_match(fake, tmp_path)
    fake.spreadsheets.pop(KEYS["engine"])
    fake.create_spreadsheet(KEYS["engine"], "Doctor test · engine", ("Sheet1",))
    fake.reset_counters()
    code, out = doctor(config)
    assert code == 1
    found = line(out, "✘", "match")
    assert "no match in" in found and "it has no engine tab 'Engine'" in found
    assert "fix: create the match with `sheets-gm init gvg -c" in found
    assert fake.calls(WRITE) == fake.calls(BATCH_UPDATE) == 0


@pytest.mark.parametrize("option", ["--matches-per-account", "--matches"])
def test_matches_must_be_counted_from_one(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    with pytest.raises(SystemExit) as exited:  # a mistyped command: exit code 2
        main(["doctor", "-c", str(tmp_path / "m.toml"), option, "0"])
    assert exited.value.code == 2
    assert f"{option} takes a whole number from 1 to 10,000,000; got 0" in capsys.readouterr().err


def test_doctor_prints_the_crontab_line_every_minute(tmp_path: Path, doctor: Doctor) -> None:
    from sheets_gm.running.cron import cron_line, cron_offset

    config, _ = local_match(tmp_path)
    code, out = doctor(config)
    assert code == 0
    found = line(out, "✔", "cron")
    assert "* * * * * cd " in found and "sync -c match.toml --quiet" in found
    offset = cron_offset(config)
    assert cron_line(config, "sheets-gm", period=5).startswith(f"{offset}-59/5 * * * * cd ")
    assert cron_offset(config) == offset  # the same file always gets the same minute


def test_the_crontab_line_names_the_match_s_environment_file_only_when_there_is_one(tmp_path: Path) -> None:
    """Issue 75: the line init printed named ``--env-file .sheets-gm/match.env`` whether or not the GM wrote it (her
    secrets in the host's file, which every command reads): a line naming a file that does not exist."""
    from sheets_gm.match.env_file import env_file_path
    from sheets_gm.running.cron import cron_line

    config, _ = local_match(tmp_path)
    assert "--env-file" not in cron_line(config, "sheets-gm", secret_env=True)
    env_file_path(config).parent.mkdir(exist_ok=True)
    env_file_path(config).write_text("SHEETS_GM_WEBHOOK=x\n", encoding="utf-8")
    assert cron_line(config, "sheets-gm", secret_env=True).endswith(" --quiet --env-file .sheets-gm/match.env")
    assert "--env-file" not in cron_line(config, "sheets-gm")
