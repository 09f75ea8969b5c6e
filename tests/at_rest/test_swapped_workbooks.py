"""Swapped workbooks are recognised by their seat's tabs (issue 43 item 4), on every game's starter layout: two
seats' orders files swapped after their players typed, the sync refuses and names the swap (writing nothing),
doctor fails its workbooks check, and repair puts the files back with every typed row in its seat's file. On
Google, repair moves nothing and names the keys to write in the config."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.swaps import SwappedWorkbooksError, find_misplaced
from sheets_gm.upkeep.swap_back import put_back_swapped
from tests.at_rest.starter import STARTER_GAMES, starter_match
from tests.fakes.memory import MemoryBackend
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("starter")  # one worker runs these: it makes each game's starter_match once a run


def typed_rows(read: MatchRead) -> dict[str, list[Any]]:
    """Every typed row of every seat of a match as the sync read it (``read_match``)."""
    return {seat: sorted((r.table, r.subject, sorted(r.values.items(), key=str)) for r in s.rows if r.typed)
            for seat, s in read.seats.items()}


# a swap is found by each workbook's tabs, whatever the game: GvG in the quick run, every game under -m soak
@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "gvg"))
def test_swapped_orders_files_are_named_then_put_back_with_their_typed_rows(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, game)
    sheets = open_match_sheets(config)
    rules = create_ruleset(game)
    make = next(iter(bots_of(rules).values())).make
    type_bot_orders(sheets, get_ruleset(game), {s: make(f"1/{s}") for s in config.seats}, ready=False)
    read = read_match(open_match_sheets(config), get_ruleset(game))  # one read for the rows and the tabs
    before = typed_rows(read)
    assert any(before.values())
    own_tabs = read.tabs.seat_tab_names(config.seats[0])
    first, second = (config.local_path(w) for w in config.orders[:2])
    aside = first.with_name("aside.xlsx")
    os.replace(first, aside)
    os.replace(second, first)
    os.replace(aside, second)
    capsys.readouterr()
    files = {p: p.read_bytes() for p in tmp_path.rglob("*.xlsx")}

    assert main(["sync", "-c", str(config.path)]) == 1
    err = capsys.readouterr().err
    one, two = config.seats[:2]
    tabs = ", ".join(repr(t) for t in own_tabs)  # Orders, Archive, View, Copies, and a Coalition side's Forum
    assert f"workbooks were swapped: {second} holds {one}'s tabs {tabs}, which belong in {first}" in err
    assert f"{first} holds {two}'s tabs" in err and "nothing was written" in err and "sheets-gm repair" in err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.xlsx")} == files
    main(["doctor", "-c", str(config.path)])
    assert "✘ workbooks: workbooks were swapped" in capsys.readouterr().out

    assert main(["repair", "-c", str(config.path)]) == 0
    out = capsys.readouterr().out
    assert f"Swapped back: {second} held the tabs of {one} (the workbooks were swapped): moved back to {first}." in out
    assert f"Swapped back: {first} held the tabs of {two}" in out
    reopened = open_match_sheets(config)
    read = read_match(reopened, get_ruleset(game))
    assert typed_rows(read) == before
    assert find_misplaced(reopened, read.tabs) == []
    assert main(["sync", "-c", str(config.path)]) == 0
    main(["doctor", "-c", str(config.path)])
    assert "✘" not in capsys.readouterr().out


def test_a_copy_that_is_not_a_swap_is_refused_by_repair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, "gvg")
    red, blue = (config.local_path(w) for w in config.orders)
    red.write_bytes(blue.read_bytes())  # blue's file copied over red's: red's tabs are gone
    capsys.readouterr()
    assert main(["repair", "-c", str(config.path)]) == 1
    err = capsys.readouterr().err
    assert f"{red} holds blue's tabs" in err and "not a plain swap of files, so repair moves nothing" in err
    assert "Take " in err and "and run repair again" in err


def test_on_google_repair_moves_nothing_and_names_the_keys(tmp_path: Path) -> None:
    from dataclasses import replace

    from sheets_gm.match.config import BackendKind, load_config
    from sheets_gm.sync.life.create import create_match
    from sheets_gm.sync.sheets import MatchSheets
    from tests.matchfiles import local_config, roster

    config = replace(load_config(local_config(tmp_path, 'engine = "E"\norders = { red = "R", blue = "B" }\n',
                                              workbook="K")), backend=BackendKind.GOOGLE)
    board, engine, red, blue = (MemoryBackend(n) for n in ("board", "engine", "red", "blue"))
    create_match(MatchSheets(("red", "blue"), board, engine, (red, blue)), create_ruleset("gvg"), roster(), seed=b"s")
    swapped = MatchSheets(("red", "blue"), board, engine, (blue, red))
    with pytest.raises(SwappedWorkbooksError) as err:
        put_back_swapped(config, swapped)
    assert 'write red = "B", blue = "R" in orders = { … } under [sheets]' in str(err.value)
