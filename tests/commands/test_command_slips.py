"""A GM's slips on the command line (issue 94, item 7): each is a mistyped command (exit code 2, as the README
promises) naming the nearest right word, and ``init -c`` of a config takes its game from the config."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.cli import main


def _exit_code(argv: list[str]) -> int:
    """The exit code of ``sheets-gm argv``, an argparse exit included."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(("typed", "meant"), [("dcotor", "doctor"), ("synk", "sync"), ("scenaro", "scenario"),
                                              ("wesnot", "wesnoth")])
def test_a_mistyped_command_names_the_nearest(typed: str, meant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code([typed, "-c", "match.toml"]) == 2
    err = capsys.readouterr().err
    assert f"unknown command {typed!r} (did you mean {meant}?)" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["init", "demo", "simulate"])
def test_a_mistyped_game_is_a_mistyped_command_naming_the_nearest(command: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code([command, "wesnot"]) == 2
    assert "unknown game 'wesnot' (did you mean wesnoth?)" in capsys.readouterr().err


def test_init_takes_the_game_from_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert _exit_code(["init", "winordie", "-c", "first/match.toml"]) == 0
    text = (tmp_path / "first" / "match.toml").read_text(encoding="utf-8")
    (tmp_path / "second").mkdir()
    (tmp_path / "second" / "match.toml").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert _exit_code(["init", "-c", "second/match.toml"]) == 0, capsys.readouterr().err
    assert "init winordie -c second/match.toml" in capsys.readouterr().out


def test_init_without_a_game_or_a_config_says_what_it_needs(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(["init", "-c", str(tmp_path / "match.toml")]) == 2
    err = capsys.readouterr().err
    assert "init needs the game when there is no config" in err and "sheets-gm init GAME, one of" in err
    assert not (tmp_path / "match.toml").exists()
