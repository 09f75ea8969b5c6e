"""Wesnoth for four from an empty folder (issue 94, item 5): ``init --roster`` writes the config with her own players,
a map too small for them is refused before anything is written or moved (naming the shipped maps that fit), and a
shipped map is accepted by its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config

FOUR = ("name,seat,team,faction,leader,email\nCy,Cy,1,Loyalists,,\nDi,Di,2,Undead,,\nEd,Ed,3,Rebels,,\n"
        "Fi,Fi,4,Drakes,,\n")
FITTING = "The shipped maps for 4: 4p_Hamlets, 4p_King_of_the_Hill (map = \"4p_Hamlets\" in the config)"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _use_map(config: Path, name: str) -> None:
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('# map = "basilisk.txt"', f'map = "{name}"   #', 1), encoding="utf-8")


def test_init_with_her_roster_writes_her_players_and_names_the_maps_that_fit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roster.csv").write_text(FOUR, encoding="utf-8")
    code, _out, err = _run(capsys, "init", "wesnoth", "--roster", "roster.csv")
    assert code == 1 and FITTING in err, err
    config = load_config(tmp_path / "match.toml")
    assert config.seats == ("Cy", "Di", "Ed", "Fi")
    assert set(_files(tmp_path)) == {"match.toml", "roster.csv"}  # no workbook made before the map fits
    _use_map(tmp_path / "match.toml", "4p_Hamlets")  # a shipped map, by its name
    code, out, err = _run(capsys, "init", "wesnoth", "--roster", "roster.csv")  # no --overwrite
    assert code == 0, err
    assert "Match created: Cy, Di, Ed, Fi" in out
    config = load_config(tmp_path / "match.toml")
    assert config.map is not None and config.map.name == "4p_Hamlets.txt"
    assert (tmp_path / "orders-Fi.xlsx").is_file()


def test_overwrite_with_a_map_too_small_moves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run(capsys, "init", "wesnoth")[0] == 0  # Ann and Bo, on the two-keep map
    config = tmp_path / "match.toml"
    text = config.read_text(encoding="utf-8")
    text = text.replace('seats = ["Ann", "Bo"]', 'seats = ["Cy", "Di", "Ed", "Fi"]')
    text = text.replace('orders = { Ann = "orders-Ann.xlsx", Bo = "orders-Bo.xlsx" }',
                        'orders = { Cy = "orders-Cy.xlsx", Di = "orders-Di.xlsx", Ed = "orders-Ed.xlsx", '
                        'Fi = "orders-Fi.xlsx" }')
    config.write_text(text, encoding="utf-8")
    before = _files(tmp_path)
    code, _out, err = _run(capsys, "init", "-c", "match.toml", "--overwrite")
    assert code == 1 and "seats Cy, Di, Ed, Fi: 4 players; this map has keeps for 2 to 2" in err and FITTING in err
    assert _files(tmp_path) == before
    _use_map(config, "4p_King_of_the_Hill")
    code, out, err = _run(capsys, "init", "-c", "match.toml", "--overwrite")
    assert code == 0, err
    assert "Match created: Cy, Di, Ed, Fi" in out
