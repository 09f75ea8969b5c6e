"""What a Wesnoth table reads, played through the command line on local workbooks: the Log's words and
numbers as a player meets them."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
from tests.made import made_into

pytestmark = pytest.mark.xdist_group("wesnoth-four-windows")  # one worker: it plays the four windows once a run


def _new_match(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = folder / "match.toml"
    assert main(["init", "wesnoth", "-c", str(path)]) == 0
    capsys.readouterr()
    return path


def _play(path: Path, windows: int, capsys: pytest.CaptureFixture[str]) -> None:
    kinds = bots_of(create_ruleset("wesnoth"))
    default = next(iter(kinds.values()))
    ruleset_class = get_ruleset("wesnoth")
    for _ in range(windows):
        type_bot_orders(open_match_sheets(load_config(path)), ruleset_class,
                        {s: default.make(f"t/{s}") for s in ("Ann", "Bo")})
        assert main(["sync", "-c", str(path)]) == 0
    capsys.readouterr()


def _played_four_windows(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A new match in ``folder`` after four windows of bot play (rounds 1 and 2, each player's turn): made and
    played once per process, each test a copy of its folder."""
    def make(into: Path) -> None:
        _play(_new_match(into, capsys), 4, capsys)

    made_into(folder, "wesnoth table words, 4 windows", make)
    return folder / "match.toml"


def _log_rows(folder: Path) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(folder / "board.xlsx")["Log"]
    return [row[:3] for row in ws.iter_rows(min_row=3, values_only=True) if row[2]]


def test_an_undo_line_in_the_log_carries_the_round_and_no_window_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _played_four_windows(tmp_path, capsys)
    assert main(["undo", "-c", str(path), "--reason", "Bo typed for Ann"]) == 0
    out = capsys.readouterr().out
    turn, kind, text = _log_rows(tmp_path)[-1]
    assert kind == "undo" and "GM undoes round 2 · " in str(text)
    assert turn == 2  # the round, as every other line of the Log (it said 4, the player-turn count)
    assert "(window" not in str(text) and "(window" not in out


def test_a_named_team_is_said_to_have_won_in_words_that_fit_a_plural_name() -> None:
    """'wolves (Ann, Cy) wins': the outcome and the Log's last line say 'won by wolves' instead."""
    from tests.rulesets.wesnoth.test_sheet import made, start

    r = made()
    state = start(r)
    over = state.evolve(team_names=((1, "wolves"), (2, "bears")), finished=True, winner=1)
    outcome = r.outcome(over)
    assert outcome is not None and outcome.text == f"won by wolves ({', '.join(outcome.winners)}) in round 1"
    assert "wins" not in outcome.text


def test_export_says_where_the_match_stopped_in_rounds_as_status_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """export said 'it stopped at turn 5' where status says 'Round 3 · afternoon · Ann'."""
    path = _played_four_windows(tmp_path, capsys)
    assert main(["status", "-c", str(path)]) == 0
    assert capsys.readouterr().out.startswith("Round 3 · afternoon · Ann ")
    assert main(["export", "-c", str(path), "--reveal-early"]) == 0
    assert "Round 3 · afternoon (day) · Ann's turn" in capsys.readouterr().out
    assert main(["export", "-c", str(path), "--reveal-early"]) == 0
    again = capsys.readouterr().out
    assert "(it stopped at round 3 · afternoon · Ann)" in again and "turn 5" not in again


def test_seat_2s_units_stand_apart_from_water_and_every_terrain() -> None:
    """A seat-2 unit wore its castle's pale blue, which on a water hex read as no unit at all."""
    from sheets_gm.rulesets.registry import sheet_spec
    from sheets_gm.rulesets.wesnoth.sheet.draw import seat_colour
    from sheets_gm.rulesets.wesnoth.terrain import BOARD_TERRAINS

    spec = sheet_spec("wesnoth")
    extra = spec.colours.extra

    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    def apart(a: str, b: str) -> float:
        return float(sum((x - y) ** 2 for x, y in zip(rgb(a), rgb(b), strict=True)) ** 0.5)

    unit = seat_colour(spec, 2)
    grounds = [extra[t] for t in BOARD_TERRAINS if t in extra]
    grounds += [extra[k] for k in ("village", "castle", "slot1", "slot2", "slot3", "slot4")]
    assert min(apart(unit, g) for g in grounds) > 80, unit
    assert all(apart(unit, seat_colour(spec, other)) > 80 for other in (1, 3, 4))
