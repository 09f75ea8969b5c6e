"""``adjust --help`` describes each game's options in that game's words: the match's game alone with ``-c``, every
game in a group of its own without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.cli import main


def helped(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def config_of(tmp_path: Path, ruleset: str) -> str:
    path = tmp_path / "match.toml"
    path.write_text(f'ruleset = "{ruleset}"\n', encoding="utf-8")
    return str(path)


def section(text: str, title: str) -> str:
    """The lines of the help's group whose heading starts with ``title``, up to the next blank line."""
    start = text.index(f"\n{title}")
    end = text.find("\n\n", start + 1)
    return text[start:end if end != -1 else None]


def test_a_win_or_die_matchs_help_shows_its_own_options_in_its_own_words(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(helped(capsys, "adjust", "-c", config_of(tmp_path, "winordie")).split())
    assert "--move UNIT=HEX move a unit to a free hex" in text
    assert "--damage UNIT=N" in text and "--morale PLAYER=N" in text
    assert "Champions" not in text and "--coins" not in text and "--gold" not in text and "duel" not in text
    assert 'example: sheets-gm adjust -c match.toml --damage Bo-2=3 --reason "Blood Price"' in text


def test_a_gvg_matchs_help_gives_its_position_option_its_own_example(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(helped(capsys, "adjust", "-c", config_of(tmp_path, "gvg")).split())
    assert "--position PLAYER=TILE move a player (a carrier takes the tree along)" in text
    assert "Dominaria" not in text and "--move" not in text


def test_without_a_config_every_games_options_are_grouped_under_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    text = helped(capsys, "adjust")
    champions = section(text, "Champions loot battle royale")
    winordie = section(text, "Win or Die")
    assert "--move PLAYER=TILE" in champions and "Champions player" in champions
    assert "--move UNIT=HEX" in winordie and "move a unit to a free hex" in winordie
    assert "Champions" not in winordie and "--coins" not in winordie
    assert "--position PLAYER=TILE" in section(text, "WWM GvG") and "Dominaria" not in section(text, "WWM GvG")
    assert "--position ARMY=PLACE" in section(text, "Coalition")
    for title in ("Champions", "Coalition", "WWM GvG", "Wesnoth board game", "Win or Die"):
        assert f"\n{title}" in text



def test_the_concessions_help_promises_no_undo_of_a_match_it_ended(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A GvG concession ends the match, and undo then refuses (the end published the seed); the help said "undo takes
    it back", which a GM tried: it says when undo takes it back."""
    text = " ".join(helped(capsys, "adjust", "-c", config_of(tmp_path, "gvg")).split())
    concede = text[text.index("--concede SEAT the seat concedes"):]
    concede = concede[:concede.index(")") + 1]
    assert "undo takes it back)" not in concede, concede
    assert "undo takes it back while the match plays on, not once it has ended it" in concede, concede
