"""No secret in a file a player opens: init refuses such a layout, doctor names it, repair moves an old engine out.

The layouts of the issue: GvG's old default (everything in ``match.xlsx``), a Win or Die config written as
one workbook, a Champions config grown to 16 seats with the 8-seat ``orders`` line left alone, and the
same logic for Google spreadsheets by key and for a judge's file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.commands.init import private_config, starter_config
from sheets_gm.match.config import MatchConfig, SharedFileError, load_config
from sheets_gm.privacy.secrets import exposures
from sheets_gm.running.connect import open_match_sheets
from tests.fakes.google_api import GoogleApiFake, signed_in_fake, write_service_account_key
from tests.made import made_into
from tests.matchfiles import local_match, record_of, type_orders

SIXTEEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Mo", "Ned", "Oli", "Pat"]


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_workbook(game: str, folder: Path, extra: str = "") -> Path:
    """The game's starter config with its ``[sheets]`` cut down to one workbook (plus ``extra`` lines)."""
    text = starter_config(game).read_text(encoding="utf-8")
    text = re.sub(r"^(engine|orders|judge) = .*\n", "", text, flags=re.M)
    text = text.replace('board = "board.xlsx"', f'board = "match.xlsx"\n{extra}')
    path = folder / "match.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_winordie_written_as_one_workbook_is_refused_by_init_naming_the_seed_and_the_views(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _one_workbook("winordie", tmp_path)
    (tmp_path / "roster.csv").write_text("name,player,lineup\nAnn,Ann,Ironclad Defense\nBo,Bo,Firepower Suppression\n",
                                         encoding="utf-8")
    code, out, err = run(capsys, "init", "winordie", "-c", path, "--roster", tmp_path / "roster.csv")
    assert code == 1 and out == ""
    assert "match.xlsx would hold the engine: the seed" in err and 'write engine = "gm/engine.xlsx"' in err
    assert "match.xlsx would hold the orders, archive and View (what only each may see) of Ann and Bo" in err
    assert 'Ann = "orders-Ann.xlsx", Bo = "orders-Bo.xlsx"' in err
    assert not (tmp_path / "match.xlsx").exists() and not (tmp_path / "gm").exists()
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 1 and "✘ privacy: match.xlsx would hold the engine" in out
    assert "Everything checked is fine" not in out


def test_champions_grown_to_16_seats_is_refused_naming_the_8_new_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.toml"
    assert run(capsys, "init", "champions", "--private", "-c", path, "--no-share")[0] == 0
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^seats = .*$", f"seats = {SIXTEEN!r}".replace("'", '"'), text, flags=re.M),
                    encoding="utf-8")
    code, out, err = run(capsys, "init", "champions", "-c", path, "--overwrite")
    assert code == 1
    err = " ".join(err.split())
    assert ("[sheets] orders names no file for Ivy, Jo, Kit, Lu, Mo, Ned, Oli, Pat, so their Orders, View and "
            "Archive tabs would go into the board (board.xlsx), which every player opens") in err
    assert 'Add Ivy = "orders-Ivy.xlsx" and' in err and 'Pat = "orders-Pat.xlsx" to [sheets] orders' in err
    assert not list(tmp_path.glob("*.before-init-*")), "nothing was moved aside"
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 1 and "[sheets] orders names no file for Ivy" in " ".join(out.split())


def test_gvgs_starter_keeps_the_seed_and_the_roster_in_the_gm_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GvG's default init, and --private: the seed and the roster's e-mails are only under gm/."""
    for private, folder in ((False, tmp_path / "default"), (True, tmp_path / "private")):
        folder.mkdir()
        (folder / "roster.csv").write_text("name,team,role,email\n" + "".join(
            f"{t}{i},{t},dps,{t}{i}@example.org\n" for t in ("red", "blue") for i in range(2)), encoding="utf-8")
        argv = ["init", "gvg", "-c", folder / "match.toml", "--roster", folder / "roster.csv"]
        assert run(capsys, *argv, *(["--private"] if private else []))[0] == 0
        config = load_config(folder / "match.toml")
        assert exposures(config) == []
        seed = record_of_config(config)
        outside = [p for p in folder.rglob("*.xlsx") if "gm" not in p.relative_to(folder).parts]
        assert sorted(p.name for p in outside) == ["board.xlsx", "orders-blue.xlsx", "orders-red.xlsx"]
        for workbook in outside:
            for ws in openpyxl.load_workbook(workbook):
                cells = " ".join(str(c) for row in ws.iter_rows(values_only=True) for c in row if c is not None)
                assert seed not in cells and "@example.org" not in cells, (workbook, ws.title)


def record_of_config(config: MatchConfig) -> str:
    """The hex seed of the configured match, read from its engine."""
    return record_of(open_match_sheets(config)).seed.hex()


def _one_workbook_and_gm(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Wesnoth's starter config cut down to one workbook, its engine under gm/, and the match ``init`` made of it:
    made once a test run and copied (``tests.made``); its config."""
    def make(into: Path) -> None:
        code, _, err = run(capsys, "init", "wesnoth", "-c", _one_workbook("wesnoth", into, 'engine = "gm/engine.xlsx"'),
                           "--no-share")
        assert code == 0, err

    made_into(folder, "privacy: wesnoth on one workbook, its engine under gm/", make, shared=True)
    return folder / "match.toml"


def test_perfect_information_keeps_one_workbook_with_the_engine_under_gm(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert exposures(load_config(_one_workbook("wesnoth", tmp_path, 'engine = "gm/engine.xlsx"'))) == []
    _one_workbook_and_gm(tmp_path, capsys)  # init accepts it
    assert {p.name for p in tmp_path.glob("*.xlsx")} == {"match.xlsx"} and (tmp_path / "gm" / "engine.xlsx").exists()


def test_wesnoth_without_an_engine_line_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "init", "wesnoth", "-c", _one_workbook("wesnoth", tmp_path))
    assert code == 1 and "match.xlsx would hold the engine" in err and "orders" not in err


def test_a_judges_file_a_side_opens_is_refused(tmp_path: Path) -> None:
    text = starter_config("coalition").read_text(encoding="utf-8").replace('judge = "gm/judge.xlsx"',
                                                                            'judge = "orders-coalition.xlsx"')
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    (found,) = exposures(load_config(path))
    assert found.role == "judge" and found.where == "orders-coalition.xlsx"
    assert "coalition can open it (it is their orders file)" in found.describe()


def test_two_seats_sharing_one_orders_file_is_refused_in_a_game_with_private_orders(tmp_path: Path) -> None:
    text = private_config(starter_config("gvg").read_text(encoding="utf-8")).replace(
        'orders = { red = "orders-red.xlsx", blue = "orders-blue.xlsx" }',
        'orders = { red = "orders.xlsx", blue = "orders.xlsx" }')
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    (found,) = exposures(load_config(path))
    assert found.describe() == ("orders.xlsx would hold the orders as typed (private until resolved), archive and "
                                "View of red and blue; red and blue can open it (it is their orders file)")


@pytest.fixture
def google(monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleApiFake]:
    with signed_in_fake(monkeypatch, {"1Board": "board", "1Red": "red", "1Blue": "blue"}) as fake:
        yield fake


def test_google_spreadsheets_by_key_follow_the_same_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          google: GoogleApiFake) -> None:
    """The engine's key left at the board's (the default); a URL of the board given as red's orders is refused as the
    config loads (``config.seat_files``), the board's key by another name."""
    write_service_account_key(tmp_path / "sa.json", "gm-bot@example.iam.gserviceaccount.com")
    path = tmp_path / "match.toml"
    text = ('ruleset = "gvg"\nteams = ["red", "blue"]\n[sheets]\nbackend = "google"\nboard = "1Board"\n'
            'orders = { red = "https://docs.google.com/spreadsheets/d/1Board/edit", blue = "1Blue" }\n'
            '[google]\nservice_account = "sa.json"\n')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SharedFileError, match="gives red's orders the file of another role: board = \"1Board\""):
        load_config(path)
    path.write_text(text.replace("https://docs.google.com/spreadsheets/d/1Board/edit", "1Red"), encoding="utf-8")
    found = exposures(load_config(path))
    assert [(e.where, e.role) for e in found] == [("spreadsheet 1Board", "engine")]
    assert "create a spreadsheet that only you" in found[0].fix
    code, _, err = run(capsys, "init", "gvg", "-c", path)
    assert code == 1 and "spreadsheet 1Board would hold the engine" in err


# --------------------------------------------------------------------------- an old match, and repair moving it

def test_an_old_one_workbook_match_warns_and_repair_moves_its_engine_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path, sheets = local_match(tmp_path)
    type_orders(sheets, ready=False)
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 0 and "⚠ privacy: match.xlsx holds the engine: the seed" in out
    assert f"then run `sheets-gm repair -c {path}`" in out
    seed = record_of(sheets).seed

    # The GM moves the engine in the config: until repair, init refuses and doctor says to run repair.
    text = path.read_text(encoding="utf-8").replace('board = "match.xlsx"', 'board = "match.xlsx"\n'
                                                                            'engine = "gm/engine.xlsx"')
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 1 and "gm/engine.xlsx" in out and "run `sheets-gm repair" in out
    code, _, err = run(capsys, "init", "gvg", "-c", path)
    assert code == 1 and "would let players read secrets" in err  # the teams' tabs in the board, first
    with monkeypatch.context() as patch:  # and past that refusal, init never lays a match over the old one
        patch.setattr("sheets_gm.init.start.refuse_exposures", lambda config: None)
        code, _, err = run(capsys, "init", "gvg", "-c", path)
    assert code == 1 and "match.xlsx holds the engine tab of a match" in err and "repair" in err
    assert not (tmp_path / "gm" / "engine.xlsx").exists()  # refused before any file was created

    code, out, err = run(capsys, "repair", "-c", path)
    assert code == 0, err
    assert re.search(r"Moved the engine out of \S*match.xlsx into \S*gm/engine.xlsx \(tabs Engine, GM\)", out), out
    board = openpyxl.load_workbook(tmp_path / "match.xlsx")
    assert "Engine" not in board.sheetnames and "GM" not in board.sheetnames
    assert seed.hex() not in " ".join(str(c) for ws in board for row in ws.iter_rows(values_only=True)
                                      for c in row if c is not None)
    assert "Engine" in openpyxl.load_workbook(tmp_path / "gm" / "engine.xlsx").sheetnames
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert code == 0 and "holds the engine" not in out
    assert "⚠ privacy: match.xlsx holds the orders as typed" in out  # the teams' tabs stay: the next match
    code, out, err = run(capsys, "sync", "-c", path)
    assert code == 0, err
    # the orders typed before the move are still read (the board and the orders were not touched)
    code, out, _ = run(capsys, "status", "-c", path)
    assert "Nothing typed yet in: red: red0, red1, red2" not in out


def test_repair_finishes_a_move_cut_before_the_old_engine_was_deleted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sheets_gm.running.connect import open_match_sheets
    from sheets_gm.upkeep.engine_move import move_engine

    path, sheets = local_match(tmp_path)
    seed = record_of(sheets).seed
    path.write_text(path.read_text(encoding="utf-8").replace('board = "match.xlsx"', 'board = "match.xlsx"\n'
                                                             'engine = "gm/engine.xlsx"'), encoding="utf-8")
    config = load_config(path)
    (tmp_path / "gm").mkdir()
    openpyxl.Workbook().save(tmp_path / "gm" / "engine.xlsx")
    moved = open_match_sheets(config)
    source = moved.board
    real = source.apply_layout
    source.apply_layout = lambda layout, writes=(): (_ for _ in ()).throw(OSError("cut"))  # type: ignore[method-assign]
    with pytest.raises(OSError):
        move_engine(config, moved)
    source.apply_layout = real  # type: ignore[method-assign]
    assert "Engine" in openpyxl.load_workbook(tmp_path / "match.xlsx").sheetnames  # in both files now
    code, _, err = run(capsys, "repair", "-c", path)
    assert code == 0, err
    assert "Engine" not in openpyxl.load_workbook(tmp_path / "match.xlsx").sheetnames
    assert record_of(open_match_sheets(config)).seed == seed


def test_an_engine_beside_the_players_files_warns_that_the_folder_must_not_be_shared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """engine = "engine.xlsx" and no gm/: no player's file holds the seed, but the folder that holds both must never
    be shared; init creates the match and says so, doctor warns (it said "no player opens" it)."""
    path = _one_workbook("wesnoth", tmp_path, 'engine = "engine.xlsx"')
    code, out, err = run(capsys, "init", "wesnoth", "-c", path, "--no-share")
    assert code == 0, err
    assert ("Warning: engine.xlsx (the engine: the seed, the state, the GM tab and the Roster tab) is in the same "
            "folder as match.xlsx, a file players open, so that folder (the config's folder) must never be shared"
            in out)
    assert 'write engine = "gm/engine.xlsx" under [sheets]' in out
    code, out, _ = run(capsys, "doctor", "-c", path)
    assert "⚠ privacy: engine.xlsx (the engine" in out and "must never be shared" in out
    assert "which no player opens" not in out
    gm = _one_workbook_and_gm(tmp_path / "gm-layout", capsys)
    code, out, _ = run(capsys, "doctor", "-c", gm)
    assert "which no player opens (keep gm/ out of what you share)" in out and "must never be shared" not in out


def test_a_practice_match_keeps_the_bots_workbooks_beside_the_engine_without_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """init --practice puts the bot's orders under gm/ with the engine: no person opens them, so neither init nor
    doctor tells the GM that gm/ holds "a file players open"; once a person plays that seat, doctor does."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "init", "gvg", "--practice")
    assert code == 0, err
    assert "must never be shared" not in out
    code, out, _ = run(capsys, "doctor", "-c", "match.toml")
    assert "✔ privacy: the engine (the seed) is in gm/engine.xlsx, which no player opens" in out
    assert "must never be shared" not in out
    config = tmp_path / "match.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('blue = "objective"', 'blue = "none"'),
                      encoding="utf-8")
    code, out, _ = run(capsys, "doctor", "-c", "match.toml")
    assert "⚠ privacy: gm/engine.xlsx (the engine" in out and "same folder as gm/orders-blue.xlsx" in out
