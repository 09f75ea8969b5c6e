"""The balance simulation: same figures for any worker count, the interval formula, a house rule
that moves the figures the expected way, clear errors for bad options, the files it writes."""

from __future__ import annotations

import csv
import json
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from sheets_gm import cli
from sheets_gm.commands import simulate as simulate_command
from sheets_gm.engine.grid import Neighbourhood
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.registry import default_board_text, ruleset_names
from sheets_gm.simulate import runner
from sheets_gm.simulate.plan import (
    Plan,
    PlanError,
    bot_of_seat,
    chunk_size,
    chunks,
    match_seed,
    parse_bots,
    variants_for,
)
from sheets_gm.simulate.report import figures_json
from sheets_gm.simulate.runner import SimulationRun, run_simulation
from sheets_gm.simulate.stats import newcombe_difference, wilson_interval
from sheets_gm.simulate.worker import ChunkTask, rules_of

MAP = default_board_text("gvg")
ROOK = GvgSettings(movement=Neighbourhood.ROOK)
GVG_BOTS = ("objective", "random", "noskills")


def plan(matches: int, bots: tuple[str, ...] = ("objective", "objective"), *, rook: bool = False,
         seed: str = "t") -> Plan:
    changes = {"movement": "rook"} if rook else {}
    return Plan("gvg", seed, matches, bots, variants_for(GvgSettings(), changes, ROOK if rook else None), MAP,
                "default map")


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = cli.main(args)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# -- the interval -------------------------------------------------------------------------------


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    # Newcombe (1998), Statistics in Medicine 17:857-872, table II, method 3 (Wilson score):
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_stays_in_bounds_and_contains_the_rate() -> None:
    for n in (1, 2, 7, 50, 1000):
        for k in range(0, n + 1, max(1, n // 10)):
            low, high = wilson_interval(k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0


@pytest.mark.parametrize(("successes", "trials"), [(1, 0), (-1, 10), (11, 10)])
def test_wilson_interval_rejects_impossible_counts(successes: int, trials: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(successes, trials)


def test_newcombe_difference_matches_the_published_example() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873-890, table II: 56/70 - 48/80, method 10.
    assert newcombe_difference((48, 80), (56, 70)) == pytest.approx((0.0524, 0.3339), abs=5e-5)


# -- the plan -----------------------------------------------------------------------------------


def test_parse_bots_takes_one_name_for_both_teams_or_several() -> None:
    assert parse_bots("objective", GVG_BOTS) == ("objective", "objective")
    assert parse_bots(" Objective , random ", GVG_BOTS) == ("objective", "random")
    assert parse_bots("noskills,objective", GVG_BOTS) == ("noskills", "objective")
    assert parse_bots("objective,random,noskills", GVG_BOTS) == GVG_BOTS
    for bad, says in (("alien", "unknown bot 'alien'"), ("a," * 9, "one bot"), ("", "one bot"),
                      ("objective,", "one bot")):
        with pytest.raises(PlanError, match=says):
            parse_bots(bad, GVG_BOTS)


def test_seats_are_dealt_to_the_bots_in_turn_one_further_each_match() -> None:
    assert [[bot_of_seat(i, seat, 2) for seat in range(2)] for i in range(3)] == [[0, 1], [1, 0], [0, 1]]
    assert [bot_of_seat(1, seat, 3) for seat in range(4)] == [1, 2, 0, 1]


def test_every_match_is_in_exactly_one_chunk_whatever_the_worker_count() -> None:
    p = plan(1234, rook=True)
    for workers in (1, 2, 3, 64):
        cut = chunks(p, workers)
        for v in (0, 1):
            indices = [i for c in cut if c.variant == v for i in range(c.start, c.stop)]
            assert indices == list(range(1234))
    assert chunk_size(10_000, 2) == 100 and chunk_size(5, 2) == 1


def test_the_last_chunks_are_cut_finer_for_an_even_finish() -> None:
    """The workers finish within a small chunk of each other: the last chunk of each worker is cut in four, the
    others are whole; one worker plays whole chunks."""
    cut = chunks(plan(2000), 2)
    assert {c.size for c in cut[:-8]} == {50} and [c.size for c in cut[-8:]] == [13, 13, 13, 11] * 2
    assert cut[-1].stop == 2000
    assert {c.size for c in chunks(plan(2000), 1)} == {100}


def test_match_seeds_depend_on_the_seed_and_index_only() -> None:
    assert match_seed("s", 3) == match_seed("s", 3)
    assert len({match_seed("s", 3), match_seed("s", 4), match_seed("t", 3)}) == 3


def test_a_plan_refuses_a_count_out_of_range() -> None:
    with pytest.raises(PlanError, match="number of matches"):
        plan(0)


# -- determinism --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rook_run() -> SimulationRun:
    """120 matches per variant, default against movement=rook, played by 2 workers."""
    return run_simulation(plan(120, rook=True, seed="rook"), workers=2)


def test_the_same_seed_gives_the_same_figures_with_1_or_2_workers() -> None:
    p = plan(10, ("objective", "random"), rook=True, seed="det")
    one = run_simulation(p, workers=1)
    two = run_simulation(p, workers=2)
    assert one.records == two.records
    assert figures_json(p, one.spec, one.figures()) == figures_json(p, two.spec, two.figures())
    other = run_simulation(plan(10, ("objective", "random"), rook=True, seed="other"), workers=1)
    assert other.records != one.records


def test_spawned_workers_give_the_same_records() -> None:
    p = plan(4, seed="spawn")
    spawned = run_simulation(p, workers=2, mp_context=multiprocessing.get_context("spawn"))
    assert spawned.records == run_simulation(p, workers=1).records


def test_forked_workers_inherit_the_prepared_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers forked from it, the parent makes the board's path tables of every variant (``Simulation.prepare``)
    before it starts them: each worker inherits them instead of computing them as it plays."""
    made: list[tuple[int, int]] = []

    class Pool(ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            ruleset: Any = rules_of(ChunkTask("gvg", MAP, ROOK, ("objective",), "t", 1, 0, 1))
            board = ruleset.rules.board
            made.append((len(board.distance_table(0, Neighbourhood.ROOK)),
                         sum(board.enterable(0, c) for c in board.grid.tiles())))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(runner, "ProcessPoolExecutor", Pool)
    p = plan(2, rook=True, seed="prepared")
    assert run_simulation(p, workers=2, mp_context=multiprocessing.get_context("fork")).records == \
        run_simulation(p, workers=1).records
    tables, starts = made[0]
    assert tables == starts


def test_progress_adds_up_to_every_match() -> None:
    seen: list[int] = []
    run_simulation(plan(7, rook=True), workers=2, on_progress=seen.append)
    assert sum(seen) == 14


# -- the figures --------------------------------------------------------------------------------


def figure(run: SimulationRun, values: tuple[float, ...], key: str) -> float:
    """A seat's figure called ``key`` in a match record."""
    return values[[f.key for f in run.spec.figures].index(key)]


@pytest.mark.xdist_group("rook-run")  # one worker plays the 240 matches of rook_run, not each
def test_records_are_consistent(rook_run: SimulationRun) -> None:
    for variant, records in zip(rook_run.plan.variants, rook_run.records, strict=True):
        assert [r.index for r in records] == list(range(rook_run.plan.matches))
        for r in records:
            captured = [figure(rook_run, seat, "captures") for seat in r.figures]
            assert 1 <= r.windows <= variant.settings.max_turns
            assert r.bots == ((0, 1) if r.index % 2 == 0 else (1, 0))
            if r.ending == "turn_limit":
                assert r.windows == variant.settings.max_turns and not any(captured)
            elif r.winners:
                (winner,) = r.winners
                assert captured[winner] and not captured[1 - winner]
            else:
                assert all(captured)  # both carriers home in the same turn
            for seat in r.figures:
                assert figure(rook_run, seat, "coins_spent") <= figure(rook_run, seat, "coins_earned")


@pytest.mark.xdist_group("rook-run")  # one worker plays the 240 matches of rook_run, not each
def test_rook_movement_makes_matches_longer_and_bloodier(rook_run: SimulationRun) -> None:
    """A rook steps 4 ways, not 8: every trip takes more turns, so matches last longer and more
    players fall on the way. The effect is large (about +7 turns, 5 standard errors and more)."""
    default, rook = rook_run.figures()
    d, low, _high = default.turns.difference(rook.turns)
    assert d > 4 and low > 2, (default.turns, rook.turns)
    spec = rook_run.spec
    for before, after in zip(default.teams, rook.teams, strict=True):
        assert after.mean(spec, "knocked_down") > before.mean(spec, "knocked_down") * 1.3
    # The mirror match stays fair under both rules: each team's interval holds an even share.
    for figures in (default, rook):
        for team in figures.teams:
            low_win, high_win = team.wins.interval
            assert low_win < 0.5 < high_win


def test_the_objective_bot_beats_the_random_bot() -> None:
    run = run_simulation(plan(16, ("objective", "random"), seed="duel"), workers=1)
    (figures,) = run.figures()
    objective, random_ = figures.teams
    assert objective.wins.interval[0] > 0.75
    assert random_.wins.count == 0
    captures, limit_wins = objective.share(run.spec, "captures"), objective.share(run.spec, "turn_limit_wins")
    assert captures.count >= objective.wins.count - limit_wins.count


def test_a_team_that_never_buys_skills_spends_nothing() -> None:
    run = run_simulation(plan(6, ("noskills", "objective"), seed="thrift"), workers=1)
    (figures,) = run.figures()
    thrifty, shopper = figures.teams
    spec = run.spec
    assert thrifty.mean(spec, "coins_spent") == 0 and thrifty.mean(spec, "coins_earned") > 0
    assert shopper.mean(spec, "coins_spent") > 0
    per_skill = [shopper.mean(spec, f.key) for f in spec.figures if f.key.startswith("spent_")]
    assert sum(per_skill) == pytest.approx(shopper.mean(spec, "coins_spent"))


# -- the command --------------------------------------------------------------------------------


def test_simulate_writes_the_tables_json_csv_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim"
    code, stdout, err = run_cli(["simulate", "gvg", "--matches", "6", "--seed", "7", "--workers", "2",
                                 "--set", "movement=rook", "--bots", "objective,random", "--out", str(out)], capsys)
    assert code == 0, err
    assert "Team A: objective" in stdout and "house rule (movement=rook)" in stdout
    assert "win rate (95% CI)" in stdout and "matches per second" in stdout
    data = json.loads((out / "simulate.json").read_text())
    assert [v["name"] for v in data["variants"]] == ["default", "house rule"]
    assert data["variants"][1]["set"] == {"movement": "rook"}
    assert data["simulation"]["bots"] == {"A": "objective", "B": "random"}
    assert data["simulation"]["ruleset"] == "gvg"
    assert data["difference"]["teams"][0]["win_rate"]["low95"] <= data["difference"]["teams"][0]["win_rate"]["high95"]
    assert data["run"]["workers"] == 2 and data["run"]["matches_played"] == 12
    summary = list(csv.DictReader((out / "simulate.csv").open()))
    assert [(r["variant"], r["team"]) for r in summary] == [
        ("default", "A"), ("default", "B"), ("house rule", "A"), ("house rule", "B")]
    assert "spent_tree_speed_per_match" in summary[0]
    matches = list(csv.DictReader((out / "matches.csv").open()))
    assert len(matches) == 12 and {r["winner"] for r in matches} <= {"A", "B", "draw"}
    pytest.importorskip("PIL")
    assert (out / "simulate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image

    with Image.open(out / "simulate.png") as png:
        colours = {c for _n, c in png.convert("RGB").getcolors(1 << 20) or []}
    assert {(0x1F, 0x77, 0xB4), (0xFF, 0x7F, 0x0E)} <= colours  # each variant's bars and lines in its own colour


def test_simulate_with_a_pillow_that_has_no_scalable_font_says_so_and_writes_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pillow older than 10.1 (its ``load_default`` takes no size) or built without FreeType draws no chart: said,
    with the version to install, not a crash after the matches were played."""
    from PIL import ImageFont

    from sheets_gm.simulate import drawing

    def old_pillow() -> object:  # Pillow 9's signature: no size
        raise AssertionError("never called with no size")

    drawing.font.cache_clear()
    monkeypatch.setattr(ImageFont, "load_default", old_pillow)
    try:
        code, _out, err = run_cli(["simulate", "gvg", "--matches", "2", "--workers", "1", "--out", str(tmp_path)],
                                  capsys)
    finally:
        drawing.font.cache_clear()
    assert code == 0
    assert "no chart" in err and "Pillow 10.1 or later" in err and "sheets-gm[plot]" in err
    assert (tmp_path / "simulate.json").exists() and not (tmp_path / "simulate.png").exists()


def test_simulate_without_pillow_still_writes_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # makes the import fail
    code, _out, err = run_cli(["simulate", "gvg", "--matches", "2", "--workers", "1", "--out", str(tmp_path)], capsys)
    assert code == 0
    assert "no chart" in err and "sheets-gm[plot]" in err
    assert (tmp_path / "simulate.json").exists() and not (tmp_path / "simulate.png").exists()


def test_the_progress_bar_runs_on_a_terminal_and_off_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(["simulate", "gvg", "--matches", "2", "--workers", "1"], capsys)
    assert code == 0 and "Matches" in out  # not a terminal under pytest: no bar, nothing on stderr
    assert err == ""
    screen = StringIO()
    monkeypatch.setattr(simulate_command, "progress_console",
                        lambda: Console(file=screen, force_terminal=True, width=100))
    code, out, _err = run_cli(["simulate", "gvg", "--matches", "2", "--workers", "2"], capsys)
    assert code == 0 and "Matches" in out
    assert "Playing matches" in screen.getvalue()


@pytest.mark.parametrize(("setting", "says"), [
    ("movement=queen", "setting 'movement': 'queen' is not accepted; use 'king' or 'rook'"),
    ("moves=rook", "unknown setting 'moves'; known settings: "),
    ("max_turns=0", "setting 'max_turns': 0 is out of range; use 1 to 999"),
    ("max_turns=many", "setting 'max_turns': 'many' is not accepted; use a whole number"),
    ("movement", "write key=value"),
])
def test_a_bad_set_is_a_clear_error(setting: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["simulate", "gvg", "--matches", "2", "--set", setting], capsys)
    assert code == 1
    assert err.startswith("sheets-gm: --set")
    assert says in err
    assert "Matches" not in out  # nothing was played


@pytest.mark.parametrize(("args", "says"), [
    (["--matches", "0"], "--matches takes a whole number from 1 to 10,000,000; got 0"),
    (["--matches", "lots"], "--matches takes a whole number from 1 to 10,000,000; got 'lots'"),
    (["--workers", "0"], "--workers takes a whole number from 1 to 256; got 0"),
    (["--bots", "objective,alien"], "--bots: unknown bot 'alien'; choose from objective, random, noskills"),
])
def test_bad_options_are_usage_errors_that_name_themselves(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run_cli(["simulate", "gvg", *args], capsys)
    assert code == 2
    assert says in err


def test_unknown_ruleset_map_or_out_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(["simulate", "chess", "--matches", "1"], capsys)
    assert code == 2 and f"unknown game 'chess'; this build knows: {', '.join(ruleset_names())}" in err
    code, _out, err = run_cli(["simulate", "gvg", "--matches", "1", "--map", str(tmp_path / "none.txt")], capsys)
    assert code == 1 and "--map: cannot read" in err
    bad_map = tmp_path / "bad.txt"
    bad_map.write_text("base1 castle base2\n")
    code, _out, err = run_cli(["simulate", "gvg", "--matches", "1", "--map", str(bad_map)], capsys)
    assert code == 1 and "castle" in err
    a_file = tmp_path / "file"
    a_file.write_text("")
    code, _out, err = run_cli(["simulate", "gvg", "--matches", "1", "--out", str(a_file / "sub")], capsys)
    assert code == 1 and err.startswith("sheets-gm: --out: cannot create the folder")


def test_a_folder_that_cannot_be_written_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("sheets_gm.simulate.report.write_json", refuse)
    code, _out, err = run_cli(["simulate", "gvg", "--matches", "1", "--workers", "1", "--out", str(tmp_path)], capsys)
    assert code == 1 and err.startswith(f"sheets-gm: --out: cannot write into {tmp_path}: Permission denied")


def test_a_game_with_a_judge_plays_its_judge_windows() -> None:
    """The judge is no seat (``traits.judge``): a results window lists JUDGE, and the worker gives it a bot."""
    from sheets_gm.rulesets.registry import create_ruleset
    from sheets_gm.simulate.worker import play_one

    rules = create_ruleset("coalition")
    assert "judge" not in rules.seats(rules.new_match(rules.sample_roster(), b"s"))
    record = play_one(rules, ("commander",), "judge-seat", 0, 0)
    assert record.windows > 2 and record.ending


def test_a_setting_that_changes_nothing_with_the_others_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(["simulate", "winordie", "--matches", "2", "--workers", "1", "--set", "zoc_morale=2"],
                              capsys)
    assert code == 0
    assert "note: zoc_morale only matters when mode is 'advanced' (it is 'basic' here)" in err
    code, _out, err = run_cli(["simulate", "winordie", "--matches", "2", "--workers", "1", "--set",
                               "mode=advanced", "--set", "zoc_morale=2"], capsys)
    assert code == 0 and "note:" not in err


@dataclass(frozen=True)
class WesnothRun:
    """What ``simulate wesnoth --matches 12 --seed 3 --out FOLDER`` printed, and its folder."""

    code: int
    out: str
    folder: Path


@pytest.fixture(scope="module")
def wesnoth_run(tmp_path_factory: pytest.TempPathFactory) -> WesnothRun:
    """Wesnoth's 12 matches simulated once for the module's tests that read its tables, its JSON and its picture."""
    folder = tmp_path_factory.mktemp("wesnoth") / "sim"
    printed = StringIO()
    with redirect_stdout(printed):
        code = cli.main(["simulate", "wesnoth", "--matches", "12", "--workers", "1", "--seed", "3", "--out",
                         str(folder)])
    return WesnothRun(code, printed.getvalue(), folder)


@pytest.mark.xdist_group("wesnoth-run")  # one worker simulates wesnoth_run's matches, not each
def test_wesnoth_lists_each_pairing_once_with_its_count_and_a_faction_grid(wesnoth_run: WesnothRun) -> None:
    code, out = wesnoth_run.code, wesnoth_run.out
    assert code == 0
    table = out[out.index("Win rate by matchup"):out.index("Win rate by faction against faction")]
    pairings = [line.split("│")[1].strip() for line in table.splitlines() if " vs " in line]
    assert pairings and all(a < b for a, _, b in (p.partition(" vs ") for p in pairings))  # one line per pairing
    assert all("n=" in line for line in table.splitlines() if " vs " in line)
    grid = out[out.index("Win rate by faction against faction"):]
    assert "the row against the column" in grid and "vs " in grid


@pytest.mark.xdist_group("wesnoth-run")  # one worker simulates wesnoth_run's matches, not each
def test_wesnoth_counts_n_in_matches_and_draws_the_faction_grid(wesnoth_run: WesnothRun) -> None:
    """n was the seats (a mirror counted twice, in a column titled 'n seats') and the faction-against-faction
    grid was text only: n is now the matches, and the PNG draws the grid as a heat map."""
    code, text, out = wesnoth_run.code, wesnoth_run.out, wesnoth_run.folder
    assert code == 0
    assert "n seats" not in text and "(n: matches)" in text
    data = json.loads((out / "simulate.json").read_text())
    by_faction = data["variants"][0]["win_rate_by"]["faction"]
    assert sum(v["matches"] for v in by_faction.values()) <= 2 * 12 == sum(v["total"] for v in by_faction.values())
    grid = data["variants"][0]["win_rate_by"]["faction against faction"]
    mirrors = {k: v for k, v in grid.items() if k.split(" vs ")[0] == k.split(" vs ")[1]}
    assert all(v["matches"] * 2 == v["total"] for v in mirrors.values())  # a mirror's two seats, one match
    pytest.importorskip("PIL")
    from PIL import Image, ImageColor

    with Image.open(out / "simulate.png") as png:
        width, height = png.size
        grid = {c for _n, c in png.convert("RGB").crop((0, 480, width, height)).getcolors(1 << 20) or []}
    assert height > width * 0.6  # the heat map's row under the win rates and match lengths
    from sheets_gm.simulate.drawing import RED_TO_BLUE

    # the colour bar's ends, and the grey of mirrors and pairings never played
    assert {ImageColor.getrgb(RED_TO_BLUE[0])[:3], ImageColor.getrgb(RED_TO_BLUE[-1])[:3], (221, 221, 221)} <= grid


def test_the_grid_cells_are_the_row_against_the_column_with_their_matches() -> None:
    from sheets_gm.simulate.chart import grid_cells
    from sheets_gm.simulate.stats import Proportion

    rows, columns, cells = grid_cells({"A vs B": Proportion(3, 4), "A vs A": Proportion(2, 4), "x": Proportion(1, 1)},
                                      {"A vs B": 4, "A vs A": 2})
    assert rows == ["A"] and columns == ["A", "B"] and cells[("A", "A")] == (0.5, 2)


def test_champions_names_its_bots_by_their_kind_not_as_teams(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, err = run_cli(["simulate", "champions", "--matches", "2", "--seed", "7", "--workers", "1",
                                 "--bots", "affinity,stack,affinity"], capsys)
    assert code == 0, err
    assert "Team" not in stdout and "A: affinity" not in stdout
    assert "bots affinity (A), stack, affinity (C)" in stdout and "Bots" in stdout
    code, stdout, err = run_cli(["simulate", "champions", "--matches", "2", "--seed", "7", "--workers", "1",
                                 "--bots", "affinity,stack", "--set", "evade=none"], capsys)
    assert code == 0, err
    assert "Bot affinity" in stdout and "Bot stack" in stdout and "Team" not in stdout
