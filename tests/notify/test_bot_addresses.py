"""``doctor`` does not ask an address of a seat a bot plays whole (issue 75): the notices tell such a seat nothing
(``notify.notices``: nobody reads its mail), so a roster line without an e-mail for it is no gap; a person's seat
without one still is."""

from __future__ import annotations

from pathlib import Path

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.doctor.notices import _addresses
from sheets_gm.match.config import load_config


def _doctor(tmp_path: Path, bots: str) -> str:
    (tmp_path / "roster.csv").write_text("name,player,email\nAnn,Ann,ann@example.org\nBo,Bo,\n", encoding="utf-8")
    (tmp_path / "match.toml").write_text(
        'ruleset = "winordie"\nseats = ["Ann", "Bo"]\nroster = "roster.csv"\n'
        f'[sheets]\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\n{bots}', encoding="utf-8")
    report = Checkup()
    _addresses(load_config(tmp_path / "match.toml"), report)
    return "\n".join(check.message for check in report.checks)


def test_a_seat_a_bot_plays_needs_no_address(tmp_path: Path) -> None:
    said = _doctor(tmp_path, '[bots]\nBo = "cautious"\n')
    assert "no address" not in said and "every seat has an address" in said, said


def test_a_person_s_seat_without_an_address_is_still_named(tmp_path: Path) -> None:
    said = _doctor(tmp_path, "")
    assert "no address for Bo in" in said, said
