"""The command line imports only the command it runs and the game of its match: cron's idle sync pays for nothing
else, and ``adjust`` loads the options of the config's game alone (every game's for ``--help``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.commands.sync import _sync_options
from tests.matchfiles import local_match

_PROBE = """
import contextlib, io, json, sys
from sheets_gm.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as stop:
        code = stop.code
core = {'game_record', 'registry', 'parts', 'kit', 'game_sheet'}
games = {m.split('.')[2] for m in sys.modules if m.startswith('sheets_gm.rulesets.')} - core
print(json.dumps([code, sorted(games),
                  sorted(m for m in sys.modules if m.startswith('sheets_gm.commands.'))]))
"""


def imported(*argv: str | Path) -> tuple[int, list[str], list[str]]:
    """The exit code, the games and the command modules a fresh process imports to run ``argv``."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *map(str, argv)], capture_output=True, text=True,
                          timeout=120, check=True)
    code, games, commands = json.loads(done.stdout.strip().splitlines()[-1])
    return code, games, commands


def test_an_idle_local_sync_imports_no_game_and_no_other_command(tmp_path: Path) -> None:
    config, _ = local_match(tmp_path)
    assert main(["sync", "-c", str(config), "--quiet"]) == 0  # the first poll reads and keeps its state (in this
    # process: the idle poll's imports alone are the point)
    assert imported("sync", "-c", config, "--quiet") == (0, [], ["sheets_gm.commands.base", "sheets_gm.commands.sync"])


def test_adjust_loads_the_options_of_its_matchs_game_only(tmp_path: Path) -> None:
    config, _ = local_match(tmp_path)
    code, games, _ = imported("adjust", "-c", config, "--coins", "red=1", "--reason", "a test")
    assert (code, games) == (0, ["gvg"])
    code, games, _ = imported("adjust", "--help")
    assert code == 0 and games == ["champions", "coalition", "gvg", "wesnoth", "winordie"]


def test_an_option_of_another_game_still_names_what_the_match_accepts(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The options adjust parses follow from its words and the config alone (``rulesets_named``), whatever this
    process imported before: the command runs here."""
    config, _ = local_match(tmp_path)
    code = main(["adjust", "-c", str(config), "--gold", "Ann=1", "--reason", "x"])
    assert code == 1 and "--gold: not a correction of a gvg match; it accepts" in capsys.readouterr().err


@pytest.mark.parametrize(("words", "options"), [
    (["sync", "-c", "a.toml", "--quiet"], {"-c": "a.toml", "--quiet": ""}),
    (["--debug", "sync", "--config=a b.toml", "--env-file", "x.env"], {"--config": "a b.toml", "--env-file": "x.env"}),
    (["sync"], {}),
    (["sync", "--watch"], None), (["sync", "-h"], None), (["sync", "--qui"], None), (["sync", "-ca.toml"], None),
    (["sync", "-c", "a.toml", "--config", "b.toml"], None), (["sync", "--quiet", "--quiet"], None),
    (["sync", "-c"], None), (["sync", "-c", "--quiet"], None), (["sync", "--config="], None),
    (["sync", "--quiet=1"], None), (["sync", "stray"], None), (["sync", "--debug"], None), (["status"], None),
])
def test_only_a_plain_cron_line_skips_the_parser(words: list[str], options: dict[str, str] | None) -> None:
    """The idle poll reads by hand only the line cron runs, each option once, in full; any other line (help, an
    abbreviation, a repeated option, a missing value) goes to argparse, which answers it as it always did."""
    assert _sync_options(words) == options
