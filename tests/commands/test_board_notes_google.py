"""A Coalition match on the Google fake: each army's makeup is the note of its square on the plane tabs, set in
the board spreadsheet's one write (a spreadsheets.batchUpdate, the tabs' ids kept from init's layout)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.commands.test_commands_google import ACCOUNT, run
from tests.fakes.google_api import (
    BATCH_UPDATE,
    GET,
    READ,
    WRITE,
    GoogleApiFake,
    signed_in_fake,
    write_service_account_key,
)

KEYS = {role: f"1{role.capitalize()}Key_notes_test".ljust(44, "0")
        for role in ("board", "engine", "judge", "coalition", "phyrexia")}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {key: f"notes test · {role}" for role, key in KEYS.items()}) as f:
        yield f


def test_an_armys_makeup_is_its_squares_note_written_in_the_boards_one_write(
        fake: GoogleApiFake, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_service_account_key(tmp_path / "sa.json", ACCOUNT)
    config = tmp_path / "match.toml"
    config.write_text(
        'ruleset = "coalition"\nseats = ["coalition", "phyrexia"]\n'
        f'[sheets]\nbackend = "google"\nboard = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'judge = "{KEYS["judge"]}"\n'
        f'orders = {{ coalition = "{KEYS["coalition"]}", phyrexia = "{KEYS["phyrexia"]}" }}\n'
        '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    assert run(capsys, "init", "coalition", "-c", config, "--no-share")[0] == 0
    board = fake.spreadsheets[KEYS["board"]]
    notes = {tab: [cell["note"] for cell in board.sheet(tab).cells.values() if cell.get("note")]
             for tab in ("Dominaria", "Phyrexia", "Mirrodin")}
    vanguard = next(n for n in notes["Dominaria"] if "Urza's Vanguard: Coalition, General (6)" in n)
    assert vanguard.startswith("Dominaria 4C · ") and "legend Urza" in vanguard
    assert all(notes.values()) and all(n.startswith(tab + " ") for tab, ns in notes.items() for n in ns)
    assert (tmp_path / ".sheets-gm" / "match.sheet-ids.json").is_file()
    fake.reset_counters()
    code, _out, err = run(capsys, "adjust", "-c", config, "--position", "Urza's Vanguard=Dominaria 5E",
                          "--reason", "judge's call")  # written like a resolution; the ids come from the file
    assert code == 0, err
    assert "Urza's Vanguard" in board.sheet("Dominaria").cells[(5, 5)]["note"]  # 5E: row E, column 5
    assert not any("Urza's Vanguard" in c.get("note", "") and not c.get("note", "").startswith("Dominaria 5E")
                   for c in board.sheet("Dominaria").cells.values())  # 4C's note no longer names it
    to_board = [c.endpoint for c in fake.log if KEYS["board"] in c.url]
    assert to_board == [READ, BATCH_UPDATE]  # one read, one write, no request for the tabs' ids
    # no request for the tabs' ids (a side's one read, with its Forum's struck lines, is a spreadsheets.get of ranges)
    assert not [c for c in fake.log if c.endpoint == GET and "ranges" not in c.query]
    assert fake.calls(WRITE) >= 1  # the other spreadsheets' writes stay values writes
