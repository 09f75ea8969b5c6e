"""A practice match laid out by ``init GAME --practice`` in a folder, as a GM starts one from it; its orders typed by
the game's bots, as players would; what a match folder holds as its players, its GM and its page see it."""

from __future__ import annotations

import contextlib
import zipfile
from pathlib import Path

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.autoplay import type_bot_orders
from tests.made import made_into


def init_practice(folder: Path, game: str) -> Path:
    """Lay out a practice match of ``game`` in ``folder`` (``init`` works in the folder it is started from); its
    board workbook."""
    with contextlib.chdir(folder):
        assert main(["init", game, "--practice"]) == 0
    return folder / "board.xlsx"


def type_practice_orders(config_path: Path, *, ready: bool, seed: str) -> bool:
    """The game's first bot kind types the open window's orders of every seat of the match configured by
    ``config_path`` (over what was typed before, ticking Ready when ``ready``), as players would and save; whether
    any was typed."""
    config = load_config(config_path)
    make = next(iter(bots_of(create_ruleset(config.ruleset)).values())).make
    bots = {seat: make(f"{seed}/{seat}") for seat in config.seats}
    return bool(type_bot_orders(open_match_sheets(config), get_ruleset(config.ruleset), bots, ready=ready, over=True))


def seen_files(folder: Path) -> dict[str, bytes]:
    """Every file of the match a player, the GM or the page sees (each workbook's parts but the file's own dates;
    the poll's records (its state, its kept reads) and lock files, which hold moments, paths and fingerprints, left
    out)."""
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if not path.is_file() or name.endswith((".lock", ".poll.json", ".local-reads.json")) or ".~lock" in name:
            continue
        if path.suffix == ".xlsx":
            with zipfile.ZipFile(path) as book:
                out.update({f"{name}:{part}": book.read(part) for part in book.namelist()
                            if part != "docProps/core.xml"})
        else:
            out[name] = path.read_bytes()
    return out


def practice_copy(folder: Path, game: str) -> Path:
    """``folder`` given a copy of the practice match of ``game`` that ``init_practice`` laid out once a run
    (``made_into``): for a test that reads or prints the match, not one that checks what ``init`` does; its board
    workbook."""
    made_into(folder, ("practice", game), lambda fresh: init_practice(fresh, game), shared=True)
    return folder / "board.xlsx"
