"""A game's own tools: ``sheets-gm <game> TOOL``, declared as data in its record and mounted by the command layer."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.rulesets import registry

TOOLGAME = "tests.commands.toolgame.game:GAME"


@pytest.fixture
def toolgame(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The test game registered as a ruleset for one test."""
    monkeypatch.setitem(registry.GAMES, "toolgame", TOOLGAME)
    monkeypatch.setattr(registry, "WITH_COMMANDS", {*registry.WITH_COMMANDS, "toolgame"})
    yield "toolgame"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def helped(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines at the terminal's width


def test_the_registry_names_exactly_the_games_whose_record_declares_commands() -> None:
    assert {n for n in registry.ruleset_names() if registry.get_game(n).commands} == registry.WITH_COMMANDS
    assert [c.name for c in registry.get_game("wesnoth").commands] == ["import-units", "import-map"]
    assert registry.get_game("gvg").commands == ()


def test_the_tools_run_as_subcommands_of_their_ruleset(toolgame: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "toolgame", "shout", "hello") == (0, "HELLO!\n", "")


def test_a_tools_user_error_is_one_message_and_exit_code_1(toolgame: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "toolgame", "refuse", "this")
    assert (code, out) == (1, "")
    assert err == "sheets-gm: cannot refuse 'this'; try 'nothing'\n"


def test_help_lists_the_group_and_the_group_lists_its_tools_with_an_example_each(
        toolgame: str, capsys: pytest.CaptureFixture[str]) -> None:
    top = helped(capsys)
    assert "toolgame" in top and "sheets-gm toolgame --help lists them" in top
    assert "the wesnoth ruleset's own tools" in top and "the gvg ruleset's own tools" not in top
    group = helped(capsys, "toolgame")
    assert "shout" in group and "print a word in capitals" in group and "refuse" in group
    assert "sheets-gm toolgame shout hello" in group and "sheets-gm toolgame refuse this" in group
    assert "example: sheets-gm toolgame shout hello" in helped(capsys, "toolgame", "shout")


def test_a_group_without_its_tool_is_a_usage_error(toolgame: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["toolgame"])
    assert stop.value.code == 2
    assert "TOOL" in capsys.readouterr().err


def test_help_and_other_commands_import_no_game() -> None:
    probe = ("import sys, contextlib, io\n"
             "from sheets_gm.cli import main\n"
             "for argv in (['--help'], ['scenario', '--help']):\n"
             "    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
             "        main(argv)\n"
             "games = ('champions', 'coalition', 'gvg', 'wesnoth', 'winordie')\n"
             "print(sorted(m for m in sys.modules if m.split('.')[2:3] and m.split('.')[2] in games))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_wesnoth_group_lists_its_import_tools_with_an_example_each(capsys: pytest.CaptureFixture[str]) -> None:
    group = helped(capsys, "wesnoth")
    assert "import-units" in group and "import-map" in group
    assert "sheets-gm wesnoth import-units ~/wesnoth" in group and "sheets-gm wesnoth import-map " in group


def test_the_installed_program_runs_a_wesnoth_tool(tmp_path: Path) -> None:
    from tests.paths import WESNOTH_SHARED

    program = Path(sys.executable).with_name("sheets-gm")
    done = subprocess.run([str(program), "wesnoth", "import-map", str(WESNOTH_SHARED / "maps" / "2p_Hamlets.map"),
                           "--out", str(tmp_path / "hamlets.txt")], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert "2 players, 14 villages" in done.stdout and (tmp_path / "hamlets.txt").is_file()
