"""Bot seats from the command line: ``init --practice``, ``[bots]`` and the roster's ``bot`` column, ``adjust --bot``,
``status``; and the poll gate, which reads again after a bot typed (its Ready may be all its window waits for)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.read import read_match
from tests.quick import soak_but
from tests.sheets.practice import practice_copy


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    here = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(here)


def _practice(folder: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``init GAME --practice`` run in ``folder``, as the tests after the first in a test process see it: a copy of
    the practice match laid out once (``practice_copy``: the config names its files relative to itself), what
    ``init`` printed read off."""
    practice_copy(folder, game)
    capsys.readouterr()


def _person_types(config: Path, seat: str) -> None:
    """Ann types her orders and ticks Ready, as a person would (the demo's bot standing in for her)."""
    cfg = load_config(config)
    sheets = open_match_sheets(cfg)
    cls = get_ruleset(cfg.ruleset)
    rules = read_match(sheets, cls).record.ruleset
    type_bot_orders(sheets, cls, {seat: next(iter(bots_of(rules).values())).make("person")})


def test_practice_plays_against_the_bot_through_the_cron_sync(in_tmp: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "init", "wesnoth", "--practice")
    assert code == 0, out
    assert "you play Ann" in out and "Bo (skirmisher)" in out
    text = (in_tmp / "match.toml").read_text()
    assert '\nBo = "skirmisher"' in text and 'orders = { Ann = "orders-Ann.xlsx", Bo = "gm/orders-Bo.xlsx"' in text
    code, out = run(capsys, "status", "-c", "match.toml")
    assert "bots play Bo (skirmisher)" in out
    _person_types(in_tmp / "match.toml", "Ann")
    code, out = run(capsys, "sync", "-c", "match.toml", "--quiet")  # Ann's turn resolves; Bo's bot types
    assert code == 0, out
    record = read_match(open_match_sheets(load_config(in_tmp / "match.toml")), get_ruleset("wesnoth")).record
    bo_turn = record.ruleset.window(record.state)
    assert bo_turn is not None and bo_turn.seats == ("Bo",)
    code, out = run(capsys, "sync", "-c", "match.toml", "--quiet")  # not idle: Bo's Ready is read, its turn resolved
    record = read_match(open_match_sheets(load_config(in_tmp / "match.toml")), get_ruleset("wesnoth")).record
    again = record.ruleset.window(record.state)
    assert again is not None and again.seats == ("Ann",) and again.key != bo_turn.key and record.resolved == 2, out
    board = openpyxl.load_workbook(in_tmp / "board.xlsx")["Board"]
    assert any("bots play Bo (skirmisher)" in str(c.value) for row in board.iter_rows() for c in row if c.value)


def test_practice_refuses_an_existing_config(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "match.toml").write_text('ruleset = "gvg"\n')
    code, out = run(capsys, "init", "gvg", "--practice")
    assert code == 1 and "--practice writes a config of its own" in out


#: The practice config is written from each game's traits alike: the quick run lays out a game of teams with a roster
#: (GvG) and one of players that starts from its seats (Champions, its tutor bot); Wesnoth's is played above; the
#: others under ``-m soak``.
@pytest.mark.parametrize("name", soak_but(["gvg", "champions", "winordie", "coalition"], "gvg", "champions"))
def test_practice_in_every_game(in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out = run(capsys, "init", name, "--practice")
    assert code == 0, out
    # Issue 54: a game that starts from its seats alone counts no "0 roster lines"
    assert "(0 roster lines)" not in out and ("(10 roster lines)" in out) == (name == "gvg"), out
    cfg = load_config(in_tmp / "match.toml")
    record = read_match(open_match_sheets(cfg), get_ruleset(name)).record
    assert len(record.seats) == 2 and record.bots == cfg.bots and record.seats[0] not in record.bots
    # Issue 51: the bot's orders workbook is kept with the GM's files, where the learner does not open it.
    bots = cfg.seats[1:]
    assert [p.name for p in in_tmp.glob("orders-*.xlsx")] == [Path(cfg.orders[0]).name]
    for seat, where in zip(bots, cfg.orders[1:], strict=True):
        assert Path(where).parts[0] == "gm" and (in_tmp / where).exists(), (seat, where)


def test_adjust_bot_hands_a_team_player_to_a_bot_and_back(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _practice(in_tmp, "gvg", capsys)
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "red2=objective", "--reason", "Bo is late")
    assert code == 0, out
    assert "GM hands red2 to the objective bot: Bo is late." in out
    assert "`sheets-gm undo -c match.toml` takes this back with the last resolution." in out
    cfg = load_config(in_tmp / "match.toml")
    sheets = open_match_sheets(cfg)
    read = read_match(sheets, get_ruleset("gvg"))
    assert read.record.bots == {"blue": "objective", "red2": "objective"}
    typed = {r.subject for r in read.seats["red"].rows if r.typed}
    assert typed == {"red2"}  # its row alone, and no Ready: the captain's
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "red2=robot", "--reason", "x")
    assert code == 1 and "no bot called 'robot'; its bots are objective, random, noskills" in out
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "red9=objective", "--reason", "x")
    assert code == 1 and "'red9' is no seat of this match nor one of its members" in out
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "red2", "--reason", "x")
    assert code == 1 and "write NAME=BOT" in out
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "red2=none", "--reason", "Bo arrived")
    assert code == 0 and "GM hands red2 back to a person: Bo arrived." in out
    assert "has typed its rows" not in out and "What a bot typed stays for its player to change" in out
    assert read_match(sheets, get_ruleset("gvg")).record.bots == {"blue": "objective"}


def test_a_persons_rows_are_set_aside_when_a_bot_takes_the_seat(in_tmp: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _practice(in_tmp, "wesnoth", capsys)
    _person_types(in_tmp / "match.toml", "Ann")
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "Ann=random", "--reason", "Ann is away")
    assert code == 0, out
    archive = openpyxl.load_workbook(in_tmp / "orders-Ann.xlsx")["Archive Ann"]
    texts = [str(c.value) for row in archive.iter_rows() for c in row if c.value]
    assert any("Set aside when the GM handed these rows to the random bot" in t for t in texts)


def test_bots_from_the_config_and_the_roster(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _practice(in_tmp, "gvg", capsys)
    text = (in_tmp / "match.toml").read_text().replace('blue = "objective"', "")
    (in_tmp / "match.toml").write_text(text)
    roster = (in_tmp / "practice-roster.csv").read_text().splitlines()
    roster = [roster[0] + ",bot"] + [line + (",random" if line.startswith("blue3") else ",") for line in roster[1:]]
    (in_tmp / "practice-roster.csv").write_text("\n".join(roster) + "\n")
    code, out = run(capsys, "init", "gvg", "--overwrite")
    assert code == 0, out
    record = read_match(open_match_sheets(load_config(in_tmp / "match.toml")), get_ruleset("gvg")).record
    assert record.bots == {"blue3": "random"}
    (in_tmp / "match.toml").write_text(text + 'blue = "nobody"\n')  # under [bots], the last table
    code, out = run(capsys, "init", "gvg", "--overwrite")
    assert code == 1 and "[bots]" in out and "no bot called 'nobody'" in out


def test_a_bot_plays_one_army_of_a_side(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _practice(in_tmp, "coalition", capsys)
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "Keldon Horde=cautious", "--reason", "gone")
    assert code == 0, out
    read = read_match(open_match_sheets(load_config(in_tmp / "match.toml")), get_ruleset("coalition"))
    typed = {r.subject for r in read.seats["coalition"].rows if r.typed}
    assert typed <= {"Keldon Horde"}  # its order line alone (a bot that holds leaves it empty), no Ready
    assert read.record.bots["Keldon Horde"] == "cautious"
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "Keldon Horde=none", "--bot", "coalition=commander",
                    "--reason", "the whole side")
    assert code == 0, out
    assert read_match(open_match_sheets(load_config(in_tmp / "match.toml")),
                      get_ruleset("coalition")).record.bots == {"phyrexia": "commander", "judge": "commander",
                                                                "coalition": "commander"}


def test_an_edit_of_bots_in_a_running_match_is_named_with_the_adjust_that_applies_it(
        in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[bots] is read at init: a later edit is not applied by a poll (which would overturn adjust and undo), and
    sync and doctor say so, with the adjust that applies it; once applied (or the config put back) they are quiet."""
    _practice(in_tmp, "gvg", capsys)
    config = in_tmp / "match.toml"

    def bots() -> Mapping[str, str]:
        return read_match(open_match_sheets(load_config(config)), get_ruleset("gvg")).record.bots

    code, out = run(capsys, "doctor", "-c", "match.toml")
    assert "✔ bots vs match: the config's bots are the match's (blue: objective)" in out
    config.write_text(config.read_text().replace('blue = "objective"', 'blue = "random"\nred2 = "noskills"'))
    code, out = run(capsys, "sync", "-c", "match.toml")
    assert code == 0 and bots() == {"blue": "objective"}, out  # not applied
    assert ("Warning: [bots] names blue = 'random', but the objective bot plays blue in the match; [bots] names "
            "red2 = 'noskills', but a person plays red2 in the match. [bots] is read when the match is created: this "
            "sync did not apply the edit; to apply it, run `sheets-gm adjust -c match.toml --bot blue=random --bot "
            "red2=noskills --reason \"…\"` between two windows") in out
    code, out = run(capsys, "doctor", "-c", "match.toml")
    assert "⚠ bots vs match: [bots] names blue = 'random'" in out and "so the edit is not applied" in out
    assert "fix: to apply it, run `sheets-gm adjust -c match.toml --bot blue=random --bot red2=noskills" in out
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "blue=random", "--bot", "red2=noskills",
                     "--reason", "as the config says")
    assert code == 0 and bots() == {"blue": "random", "red2": "noskills"}, out
    code, out = run(capsys, "sync", "-c", "match.toml")
    assert code == 0 and "[bots]" not in out, out
    config.write_text(config.read_text().replace('red2 = "noskills"\n', ""))  # a line taken out: back to a person?
    code, out = run(capsys, "sync", "-c", "match.toml")
    assert "the noskills bot plays red2 in the match, which [bots] does not name" in out
    assert "--bot red2=none" in out and bots()["red2"] == "noskills"


def test_a_hand_over_by_adjust_is_not_named_as_a_drift_of_bots(in_tmp: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 64, item 6: after the documented ``adjust --bot`` no sync warns that [bots] does not name the bot, nor
    tells the GM to run ``--bot …=none`` (which would undo what she just did); an edit of [bots] since is named."""
    _practice(in_tmp, "gvg", capsys)
    config = in_tmp / "match.toml"
    code, out = run(capsys, "adjust", "-c", "match.toml", "--bot", "red2=objective", "--bot", "blue=none",
                    "--reason", "Bo is late; blue is back")
    assert code == 0, out
    for _ in range(2):
        code, out = run(capsys, "sync", "-c", "match.toml")
        assert code == 0 and "[bots]" not in out and "=none" not in out, out
    code, out = run(capsys, "doctor", "-c", "match.toml")
    assert "✔ bots vs match: the match's bots are the GM's adjust --bot since [bots] was read (red2: objective)" \
        in out, out
    config.write_text(config.read_text().replace('blue = "objective"', 'blue = "random"'))  # edited since
    code, out = run(capsys, "sync", "-c", "match.toml")
    assert "[bots] names blue = 'random', but a person plays blue in the match" in out and "red2" not in out, out
