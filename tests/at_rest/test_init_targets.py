"""init checks the whole config and every existing file before it touches any (issue 43 item 1), on every game's
starter layout: workbooks outside the config's folder are refused unless the GM allows them by name, a file that is
no workbook of this match is never moved (``--overwrite``) nor created around (plain ``init``), and what
``--overwrite`` moves is said, file by file."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheets_gm.cli import main
from tests.at_rest.starter import STARTER_GAMES, starter_match
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("starter")  # one worker runs these: it makes each game's starter_match once a run


def files_in(folder: Path) -> dict[Path, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def set_board(config: Path, board: str) -> None:
    """Point ``board`` of the config's [sheets] at ``board``."""
    lines = [f'board = "{board}"' if line.startswith("board =") else line
             for line in config.read_text(encoding="utf-8").splitlines()]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")


def fresh_config(folder: Path, game: str) -> Path:
    """The starter config of ``game`` (and its roster) in ``folder``, no match created: a started match's config
    and roster, its workbooks deleted."""
    config = starter_match(folder, game)
    for path in folder.rglob("*"):
        if (path.is_file() and path.suffix == ".xlsx") or path.name.endswith(".sheets-gm.lock"):
            path.unlink()
    return config.path


# init checks every target the config names alike, whatever the game: the war (a judge's workbook among them) in
# the quick run, every game under -m soak
@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "coalition"))
def test_a_workbook_outside_the_config_folder_is_refused_before_anything_is_written(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = fresh_config(tmp_path / "match", game)
    elsewhere = tmp_path / "fakeetc"
    elsewhere.mkdir()
    (elsewhere / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    openpyxl.Workbook().save(elsewhere / "board.xlsx")
    before = files_in(tmp_path)
    for board in ("../fakeetc/passwd", str(elsewhere / "board.xlsx"), "../fakeetc/board.xlsx"):
        set_board(config, board)
        for extra in ([], ["--overwrite"]):
            assert main(["init", game, "-c", str(config), *extra]) == 1
            err = capsys.readouterr().err
            assert "nothing was created or moved" in err and "Traceback" not in err, err
            assert ("not an .xlsx workbook" in err) if board.endswith("passwd") else (
                "outside the config's folder" in err and "--allow-outside-folder" in err)
            assert files_in(tmp_path) == {**before, config: config.read_bytes()}


def test_the_gm_may_allow_a_workbook_outside_the_folder_by_name(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = fresh_config(tmp_path / "match", "wesnoth")
    set_board(config, "../shared/board.xlsx")
    assert main(["init", "wesnoth", "-c", str(config), "--allow-outside-folder"]) == 0
    assert (tmp_path / "shared" / "board.xlsx").exists()
    capsys.readouterr()


def test_a_link_out_of_the_folder_counts_as_outside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = fresh_config(tmp_path / "match", "gvg")
    target = tmp_path / "victim.xlsx"
    openpyxl.Workbook().save(target)
    (config.parent / "board.xlsx").symlink_to(target)
    assert main(["init", "gvg", "-c", str(config), "--overwrite"]) == 1
    assert "outside the config's folder" in capsys.readouterr().err
    assert target.exists() and (config.parent / "board.xlsx").is_symlink()


# the workbooks moved aside are the config's, whatever the game: one in the quick run, every game under -m soak
@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "winordie"))
def test_overwrite_moves_only_the_matchs_own_workbooks_and_says_each(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, game).path
    capsys.readouterr()
    board = tmp_path / "board.xlsx"
    workbooks = sorted(p for p in tmp_path.rglob("*.xlsx"))
    stranger = openpyxl.Workbook()
    stranger.active.title = "Budget"
    stranger.save(board)  # the board's name now holds somebody else's workbook
    before = files_in(tmp_path)
    assert main(["init", game, "-c", str(config), "--overwrite"]) == 1
    err = capsys.readouterr().err
    assert f"{board} is not a workbook of this match (its tabs: Budget)" in err
    assert "nothing was created or moved" in err
    assert files_in(tmp_path) == before

    board.write_text("not a workbook at all", encoding="utf-8")
    assert main(["init", game, "-c", str(config), "--overwrite"]) == 1
    assert f"{board} exists and is not a workbook init can use" in capsys.readouterr().err
    board.unlink()

    assert main(["init", game, "-c", str(config), "--overwrite"]) == 0
    out = capsys.readouterr().out
    moved = [p for p in workbooks if p != board]
    for path in moved:
        assert f"Moved {path} aside to {path.with_name(path.stem)}.before-init-" in out
    assert out.count("Moved ") == len(moved)
    assert len(list(tmp_path.rglob("*.before-init-*.xlsx"))) == len(moved)


# the refusal is init's, whatever the game: one in the quick run, every game under -m soak
@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "gvg"))
def test_plain_init_refuses_a_match_before_creating_the_files_it_lacks(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, game).path
    capsys.readouterr()
    lost = next(p for p in sorted(tmp_path.glob("*.xlsx")) if p.name != "board.xlsx")
    lost.unlink()  # an orders workbook deleted: init must not lay out a fresh one around the match
    before = files_in(tmp_path)
    assert main(["init", game, "-c", str(config)]) == 1
    err = capsys.readouterr().err
    assert "already holds a" in err and "init never replaces one" in err
    assert files_in(tmp_path) == before and not lost.exists()
    assert not list(tmp_path.rglob("*.command.json"))  # refused: no journal for the next command to settle

    (tmp_path / "board.xlsx").write_text("a note, not a workbook", encoding="utf-8")
    before = files_in(tmp_path)
    assert main(["init", game, "-c", str(config)]) == 1
    assert "is not a workbook init can use" in capsys.readouterr().err
    assert files_in(tmp_path) == before


def test_overwrite_with_a_second_config_never_stops_the_running_match(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 60, item 3: a second config in the running match's folder, only its board and engine renamed: its
    init --overwrite would move the running match's seat workbooks aside and stop that match. It is refused, naming
    the other match and its config, and nothing is moved; the running match plays on. Its own files are its own:
    init --overwrite of the first config replaces that match."""
    from tests.matchfiles import local_match, sync, type_orders

    config, sheets = local_match(tmp_path, private=True)
    type_orders(sheets)
    assert sync(sheets).resolved
    second = tmp_path / "second.toml"
    second.write_text(config.read_text(encoding="utf-8").replace('board = "match.xlsx"', 'board = "board2.xlsx"')
                      .replace('engine = "gm/engine.xlsx"', 'engine = "gm/engine2.xlsx"'), encoding="utf-8")
    before = files_in(tmp_path)
    assert main(["init", "gvg", "-c", str(second), "--overwrite"]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'red.xlsx'} holds the orders of red of match " in err, err
    assert "(the match of match.toml, its engine gm/engine.xlsx)" in err
    assert f"this config's engine, {tmp_path / 'gm' / 'engine2.xlsx'}, holds no match" in err
    assert "nothing was created or moved" in err and "Traceback" not in err
    assert files_in(tmp_path) == before
    type_orders(sheets)
    assert sync(sheets).resolved  # the running match plays on
    assert main(["init", "gvg", "-c", str(config), "--overwrite"]) == 0  # its own config replaces it
    assert "Moved " in capsys.readouterr().out


def test_overwrite_refuses_files_of_another_match_than_its_own_engines(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A second config whose own engine holds a match of its own, its orders pointed at the first match's workbooks:
    init --overwrite names the first match (its config and engine) and this engine's match, and moves nothing."""
    from tests.matchfiles import local_match

    config, _ = local_match(tmp_path, private=True)
    second = tmp_path / "second.toml"
    text = config.read_text(encoding="utf-8")
    for old, new in (("match.xlsx", "board2.xlsx"), ("gm/engine.xlsx", "gm/engine2.xlsx"),
                     ('"red.xlsx"', '"red2.xlsx"'), ('"blue.xlsx"', '"blue2.xlsx"')):
        text = text.replace(old, new)
    (tmp_path / "roster2.csv").write_text("name,team,role\nAnn,red,dps\nCat,blue,tank\n", encoding="utf-8")
    second.write_text(text.replace('title = "Test match"', 'title = "Test match"\nroster = "roster2.csv"'),
                      encoding="utf-8")
    assert main(["init", "gvg", "-c", str(second)]) == 0  # a match of its own
    second.write_text(second.read_text(encoding="utf-8").replace('"red2.xlsx"', '"red.xlsx"'), encoding="utf-8")
    capsys.readouterr()
    before = files_in(tmp_path)
    assert main(["init", "gvg", "-c", str(second), "--overwrite"]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'red.xlsx'} holds the orders of red of match " in err, err
    assert "(the match of match.toml, its engine gm/engine.xlsx)" in err
    assert "gm/engine2.xlsx, holds match " in err and "a gvg match at turn 1" in err
    assert files_in(tmp_path) == before
