"""``sheets-gm new-game NAME``: a new game that plays, written into a copy of the checkout, passes the conformance
tests as written; and the toy game is that starting game made into noughts and crosses."""

from __future__ import annotations

import importlib.util
import keyword
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.new_game import MAX_TITLE, NAME, STARTER, planned, refused_name, taken_names, write_game
from tests.paths import ROOT
from tests.quick import soak_but

#: What a copy of the checkout needs for the game's tests: the package, the starter, the tests and their settings.
COPIED = ("sheets_gm", "templates", "tests", "pyproject.toml")
# one worker runs these: it copies the checkout and writes the game into it (the module's ``checkout``) once a run
pytestmark = pytest.mark.xdist_group("new-game")


def copied_checkout(root: Path, names: tuple[str, ...]) -> Path:
    """``root`` holding a copy of the checkout's ``names`` (no workbooks) and an empty ``docs``. Python's compiled
    modules come along, their sources' times kept (``copytree`` copies them): the copy's test run imports the package
    and the tests without compiling them again, and a module that changes is compiled anew as anywhere."""
    for name in names:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("*.xlsx"))
        else:
            shutil.copy(source, root / name)
    (root / "docs").mkdir()
    return root


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout with the game ``salvo`` written into it by the command."""
    root = copied_checkout(tmp_path_factory.mktemp("checkout"), COPIED)
    assert main(["new-game", "salvo", "--title", "Salvo", "--root", str(root)]) == 0
    return root


def test_it_writes_the_package_templates_rules_page_and_scenario_and_nothing_else(checkout: Path) -> None:
    made = {str(p.relative_to(checkout)) for p in checkout.rglob("*")  # Python's compiled modules are not written by it
            if p.is_file() and "salvo" in str(p) and "__pycache__" not in p.parts}
    assert made == {"sheets_gm/rulesets/salvo/__init__.py", "sheets_gm/rulesets/salvo/engine.py",
                    "sheets_gm/rulesets/salvo/sheet.py", "sheets_gm/rulesets/salvo/game.py",
                    "templates/salvo/layout.yaml", "templates/salvo/match.toml", "docs/rules-salvo.md",
                    "tests/scenarios/salvo/the_first_to_reach_the_goal_wins.yaml"}
    registry = checkout / "sheets_gm/rulesets/registry.py"
    assert registry.read_bytes() == (ROOT / "sheets_gm/rulesets/registry.py").read_bytes()
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    found = subprocess.run([sys.executable, "-c", "from sheets_gm.rulesets.registry import get_game; "
                            "print(get_game('salvo').traits.title)"], cwd=checkout, env=env, capture_output=True,
                           text=True, check=False)
    assert found.stdout == "Salvo\n", found.stderr  # registered by its folder alone
    page = (checkout / "docs/rules-salvo.md").read_text(encoding="utf-8")
    assert "| `goal` | `30` | a whole number | How far a player must go to win. |" in page
    assert "newgame" not in "".join(p.read_text(encoding="utf-8") for p in (checkout / "sheets_gm/rulesets/salvo")
                                    .glob("*.py"))


#: The new game's walk of its files across a resolution (twin matches on workbooks, three seats in three windows):
#: two thirds of the run's time. The quick run leaves it to the soak, which runs the whole list; the game's engine
#: stays held to the resolution property state by state in both, and the files walk's own quick example plays
#: Champions through the same generic sync. Its leak scan of what a bot seat is given over 8 windows (a fifth of
#: what is left) goes the same way: the noninterference tests hold its engine in both, and the scan's quick
#: examples play GvG and Win or Die.
FILES_WALK = ("tests/conformance/test_noninterference_resolution.py::"
              "test_the_files_and_notices_after_a_resolution_tell_a_seat_nothing_its_rules_hide[salvo]")
LEAK_SCAN = "tests/sync/test_bot_seats.py::test_leak_scan_over_what_a_bot_seat_is_given[salvo-8]"


@pytest.mark.parametrize("run", soak_but(["without-the-files-walk", "whole"], "without-the-files-walk"))
def test_the_game_it_writes_passes_the_conformance_tests_its_scenario_and_ruff(checkout: Path, run: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    tests = ["tests/conformance/test_engine_conformance.py", "tests/conformance/test_sheet_conformance.py",
             "tests/conformance/test_game_records.py", "tests/conformance/test_rules_pages.py",
             "tests/test_scenarios.py", "tests/sync/test_bot_seats.py",  # 3 seats, and no core test edited for it
             "tests/conformance/test_noninterference_orders.py", "tests/conformance/test_orders_bound_to_window.py",
             "tests/conformance/test_noninterference_resolution.py"]
    left = ["--deselect", FILES_WALK, "--deselect", LEAK_SCAN] if run != "whole" else []
    # no hypothesis plugin: none of these tests uses hypothesis, which the plugin imported whole for its summary alone
    done = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-m", "not soak", "-n", "0", "-q", "-p",
                           "no:cacheprovider", "-p", "no:hypothesispytest", "--game", "salvo", *left, *tests],
                          cwd=checkout, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) >= 15 and "failed" not in done.stdout, done.stdout[-1000:]
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is not None:
        linted = subprocess.run([ruff, "check", "--no-cache", "sheets_gm/rulesets/salvo"], cwd=checkout,
                                capture_output=True, text=True, check=False)
        assert linted.returncode == 0, linted.stdout


def test_the_game_it_writes_has_under_30_lines_of_boilerplate(checkout: Path) -> None:
    """Issue 65: what every game writes whatever its rules (imports, class lines, traits, the record), counted by the
    project's own counter, stays under 30 lines (45 for 'sealedbid' before: its traits spread over 12 lines)."""
    spec = importlib.util.spec_from_file_location("count_boilerplate", ROOT / "scripts/count_boilerplate.py")
    assert spec is not None and spec.loader is not None
    counter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(counter)
    total = sum((counter.boilerplate(p.read_text(encoding="utf-8"))
                 for p in (checkout / "sheets_gm/rulesets/salvo").glob("*.py")), Counter[str]())
    assert 20 < sum(total.values()) < 30, total


@pytest.mark.parametrize(("name", "message"), [
    ("Salvo", "'Salvo' cannot name a game: write 2 to 31 lower-case letters"),
    ("class", "'class' cannot name a game"),
    ("gvg", "a game called 'gvg' is in this checkout already"),
    # issue 77: a package beside a core module of its name shadowed it, and every command failed to import it
    ("registry", "'registry' cannot name a game: the game's package would stand beside sheets_gm/rulesets/registry.py"
                 ", the core's own, and shadow it (every command would then fail to import it)"),
    ("kit", "would stand beside sheets_gm/rulesets/kit.py, the core's own, and shadow it"),
    ("game_sheet", "would stand beside sheets_gm/rulesets/game_sheet.py, the core's own, and shadow it"),
    ("game_record", "would stand beside sheets_gm/rulesets/game_record.py, the core's own, and shadow it"),
    ("game", "sheets_gm/rulesets/champions/game.py is a part of sheets_gm of that name already"),
    ("sheet", "sheets_gm/rulesets/champions/sheet/ is a part of sheets_gm of that name already"),
    ("parts", "sheets_gm/rulesets/parts/ is the core's own package"),
    ("dice", "'dice' cannot name a game: sheets_gm/engine/dice.py is a part of sheets_gm of that name already, and a "
             "name means one thing in the package"),
])
def test_a_name_that_cannot_be_a_new_games_is_refused_before_anything_is_written(
        tmp_path: Path, name: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sheets_gm/rulesets/gvg").mkdir(parents=True)
    assert main(["new-game", name, "--root", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_every_name_of_a_module_of_sheets_gm_is_refused() -> None:
    """Issue 77's class: each module and package name of the package (its games' too) is refused with its reason."""
    names = {p.stem for p in (ROOT / "sheets_gm").rglob("*.py") if p.stem != "__init__"}
    names |= {p.parent.name for p in (ROOT / "sheets_gm").rglob("__init__.py")} - {"sheets_gm"}
    games = {p.parent.name for p in (ROOT / "sheets_gm/rulesets").glob("*/game.py")}
    taken = taken_names(ROOT)  # found once: a walk of the package for each of its 800 names took 6 seconds
    for name in sorted(n for n in names - games if NAME.fullmatch(n) and not keyword.iskeyword(n)):
        assert "cannot name a game: " in refused_name(ROOT, name, taken), name
    assert refused_name(ROOT, "scouting") == ""


def test_files_in_the_way_are_named_and_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sheets_gm/rulesets").mkdir(parents=True)
    shutil.copy(ROOT / "sheets_gm/rulesets/registry.py", tmp_path / "sheets_gm/rulesets/registry.py")
    shutil.copytree(ROOT / STARTER, tmp_path / STARTER)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/rules-salvo.md").write_text("mine", encoding="utf-8")
    assert main(["new-game", "salvo", "--root", str(tmp_path)]) == 1
    assert "would overwrite docs/rules-salvo.md" in capsys.readouterr().err
    assert not (tmp_path / "sheets_gm/rulesets/salvo").exists()
    assert (tmp_path / "docs/rules-salvo.md").read_text(encoding="utf-8") == "mine"


def test_the_toy_game_is_the_starting_game_made_into_noughts_and_crosses() -> None:
    starter = {p.name for p in planned(ROOT, "toy") if p.parent == ROOT / "sheets_gm" / "rulesets" / "toy"}
    toy = {p.name for p in (ROOT / "tests/toygame").glob("*.py")} - {"test_toygame.py", "registered.py"}
    assert toy == starter == {"__init__.py", "engine.py", "sheet.py", "game.py"}


def test_no_line_of_the_starter_outgrows_the_linter_for_the_longest_name_and_title(tmp_path: Path) -> None:
    """Issue 65: the starter's lines hold the longest name and title the command takes within the checkout's line
    length, so no game is laid out again by a formatter (which spread its traits over 12 lines for 'sealedbid')."""
    longest = "a" + "_b" * 15
    assert NAME.fullmatch(longest) and len(longest) == 31
    copied_checkout(tmp_path, (STARTER,))
    write_game(tmp_path, longest, "T" * MAX_TITLE)
    lines = [line for p in (tmp_path / "sheets_gm/rulesets" / longest).glob("*.py")
             for line in p.read_text(encoding="utf-8").splitlines()]
    assert lines and max(map(len, lines)) <= 120


def test_the_game_it_writes_is_clean_under_ruff_whatever_the_length_of_its_name(tmp_path: Path) -> None:
    """Issue 65: a name of 7 letters or more ('auction') made lines past 120 characters; the starter's lines now
    hold any name the command accepts, and its imports are in the linter's order for any name."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed beside this Python (the test extras bring it)")
    copied_checkout(tmp_path, ("sheets_gm", "pyproject.toml"))
    names = ["auction", "a_very_long_name_of_a_new_game1", "aa", "zz9"]
    for name in names:
        write_game(tmp_path, name, name.capitalize())
    linted = subprocess.run([ruff, "check", "--no-cache", *(f"sheets_gm/rulesets/{n}" for n in names)], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert linted.returncode == 0, linted.stdout


@pytest.mark.parametrize("title", ["x" * 81, 'Say "hi"', " "])
def test_a_title_the_code_cannot_hold_is_refused_before_anything_is_written(tmp_path: Path, title: str) -> None:
    from sheets_gm.commands.base import UserError

    with pytest.raises(UserError, match="cannot be a game's: write 1 to 80 characters"):
        write_game(tmp_path, "salvo", title)
    assert not any(tmp_path.iterdir())


def test_the_starter_shows_a_list_table_a_die_given_and_dice_pins_a_status_and_a_panel() -> None:
    """Issue 65: what a contributor copies has one of each thing a game needs, and its scenario pins what it rolls."""
    import yaml

    starter = ROOT / STARTER
    tables = yaml.safe_load((starter / "template/layout.yaml").read_text(encoding="utf-8"))["inputs"]
    assert any(t["rows"] != "seat" and t["min_rows"] > 1 and t.get("ordered") for t in tables)
    scenario = yaml.safe_load((starter / "scenario.yaml").read_text(encoding="utf-8"))
    assert scenario["given"] and all(turn["dice"] for turn in scenario["turns"])
    sheet = (starter / "package/sheet.py.tmpl").read_text(encoding="utf-8")
    assert "def status(" in sheet and "def panel(" in sheet and "kit.whole_number(" in sheet
    assert "dice.d6(" in (starter / "package/engine.py.tmpl").read_text(encoding="utf-8")


def test_the_starters_scenario_pins_decide_it(checkout: Path) -> None:
    """The scenario's pinned die is what stops Ann: with it unpinned (another face), the file no longer passes."""
    path = checkout / "tests/scenarios/salvo/the_first_to_reach_the_goal_wins.yaml"
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    run = [sys.executable, "-m", "sheets_gm.cli", "scenario", str(path)]
    assert subprocess.run(run, cwd=checkout, env=env, capture_output=True, check=False).returncode == 0
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("stumble/Ann/3: 1", "stumble/Ann/3: 6"), encoding="utf-8")
    try:
        done = subprocess.run(run, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    finally:
        path.write_text(text, encoding="utf-8")
    assert done.returncode != 0 and "at: expected" in done.stdout, done.stdout
