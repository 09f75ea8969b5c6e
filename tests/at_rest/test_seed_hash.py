"""The seed is checked against its published hash (issue 43 item 3), on every game's starter layout: a seed edited
in the engine stops every resolution (sync, resolve, undo, adjust) before anything is written, with a message
naming the cell and what to do, and doctor fails its seed check; the seed put back, the match goes on."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.rulesets.registry import sheet_spec
from tests.at_rest.starter import STARTER_GAMES, engine_path, set_cell, starter_match
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("starter")  # one worker runs these: it makes each game's starter_match once a run


@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "gvg"))
def test_an_edited_seed_stops_every_resolution_and_doctor_names_it(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, game)
    engine = engine_path(config)
    tab = sheet_spec(game).tabs.engine
    seed = openpyxl.load_workbook(engine)[tab]["B5"].value
    assert openpyxl.load_workbook(engine)[tab]["A5"].value == "seed"
    assert main(["doctor", "-c", str(config.path)]) in (0, 1)
    assert "✔ seed: the seed gives the hash published" in capsys.readouterr().out

    set_cell(engine, tab, "B5", "00" * 32)  # a GM (or anyone with the file) picks a seed of their own
    files = {p: p.read_bytes() for p in tmp_path.rglob("*.xlsx")}
    for argv in (["sync"], ["resolve", "--force", "--window", "x"], ["undo", "--reason", "mistake"]):
        assert main([*argv, "-c", str(config.path)]) == 1
        err = capsys.readouterr().err
        assert f"the seed in {engine} tab {tab!r} (cell B5) does not give the hash published" in err, argv
        assert "Nothing was resolved or written" in err and "version history" in err and "Traceback" not in err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.xlsx")} == files

    assert main(["doctor", "-c", str(config.path)]) == 1
    out = capsys.readouterr().out
    assert "✘ seed: the seed in" in out and "the sync resolves nothing until it does" in out

    set_cell(engine, tab, "B5", seed)  # put back as it was: the match goes on
    assert main(["sync", "-c", str(config.path)]) == 0
    capsys.readouterr()


def test_an_edited_hash_is_refused_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, "gvg")
    set_cell(engine_path(config), sheet_spec("gvg").tabs.engine, "B6", "ab" * 32)
    assert main(["resolve", "-c", str(config.path), "--force"]) == 1
    assert "does not give the hash published" in capsys.readouterr().err
