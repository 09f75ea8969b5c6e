"""A file is what it claims, for every command (issue 60, item 3): two roles of a match's config named by two paths
that are one file (a symbolic link inside the match's folder, or a hard link) are refused by every command that
opens the match, by name (both roles, both paths, what is accepted), and nothing is written: every file of the
match's folder byte for byte as before.

The property: for every command × every pair of roles (a seat's orders and the engine, a seat's orders and the
board, two seats, the board and the engine) × the kind of alias (symlink, hard link, the same path spelt another way
in the config: ``gm/../match.xlsx``, issue 75), the command refuses and
writes nothing. A few cases run in the quick run (every command once, the pairs and kinds in turn); the rest under
``-m soak``. Taken out of ``load_config`` and ``open_match_sheets`` (``config.match_files``), the walk fails: repair
writes red's tabs into the engine's or the board's file, sync and adjust save one workbook over the other.
"""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.sync.sheets import MatchSheets
from tests.host.hosting import Clock, hosted, new_host
from tests.matchfiles import NOW, local_match, sync, turn_two_typed, type_orders

#: Each command as the GM runs it (``serve``: one pass of a host over the match's folder).
COMMANDS: dict[str, list[str]] = {
    "sync": ["sync"],
    "resolve": ["resolve", "--force"],
    "repair": ["repair"],
    "undo": ["undo", "--reason", "a wrong order"],
    "adjust": ["adjust", "--coins", "red=5", "--reason", "a refund"],
    "export": ["export"],
    "status": ["status"],
    "doctor": ["doctor"],
    "verify": ["verify"],
    "init": ["init", "gvg"],
    "init --overwrite": ["init", "gvg", "--overwrite"],
    "serve": [],
}
#: A pair of roles as (the role whose path becomes the alias, its path; the role whose file it leads to, its path).
#: The bot's pairs give blue's seat to a bot (``[bots]``): its workbook is a seat's all the same.
PAIRS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "seat-engine": (("orders red", "red.xlsx"), ("engine", "gm/engine.xlsx")),
    "seat-board": (("orders red", "red.xlsx"), ("board", "match.xlsx")),
    "seat-seat": (("orders red", "red.xlsx"), ("orders blue", "blue.xlsx")),
    "board-engine": (("board", "match.xlsx"), ("engine", "gm/engine.xlsx")),
    "bot-board": (("orders blue", "blue.xlsx"), ("board", "match.xlsx")),
    "bot-engine": (("orders blue", "blue.xlsx"), ("engine", "gm/engine.xlsx")),
}
#: How the first path of a pair leads to the second's file: a link, the config spelling the second's path another
#: way (``gm/../match.xlsx``, ``./match.xlsx``: one file named by two roles, with no link at all), or the config
#: writing the second's very name for the first role (``same``: refused by ``config.seat_files`` for a seat's file
#: named as the board's or the engine's; a board and an engine named alike share a workbook on purpose, and so do two
#: seats, which a game that hides something refuses at init: both are left out of the walk).
KINDS = ("symlink", "hard link", "spelling", "dot", "same")
#: The spelling of each kind that is one: the second's path as the config writes it for the first role.
SPELT = {"spelling": "gm/../{}", "dot": "./{}", "same": "{}"}

CASES = [(c, p, k) for c, p, k in itertools.product(COMMANDS, PAIRS, KINDS)
         if k != "same" or p not in ("board-engine", "seat-seat")]
#: Every command once, the pairs and the kinds taken in turn; ``repair`` (which lays a seat's tabs into the file it is
#: given) with every pair and every kind.
QUICK = sorted({*((command, list(PAIRS)[n % len(PAIRS)], KINDS[n % len(KINDS)]) for n, command in enumerate(COMMANDS)),
                *((c, p, k) for c, p, k in CASES if c == "repair")} & set(CASES), key=CASES.index)


def one_turn_in(folder: Path) -> MatchSheets:
    """A private GvG match made in ``folder``, one turn in (board match.xlsx, gm/engine.xlsx, red.xlsx, blue.xlsx)."""
    _config, sheets = local_match(folder, private=True)
    type_orders(sheets)
    assert sync(sheets).resolved
    return sheets


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private GvG match one turn in, turn 2 typed (``turn_two_typed``)."""
    folder = tmp_path_factory.mktemp("played") / "match"
    turn_two_typed(folder)
    return folder


def alias(folder: Path, pair: str, kind: str) -> None:
    """Make the first path of ``pair`` lead to the second's file: a relative symbolic link, a hard link, or the
    config naming the second's file for the first role by another spelling of its path."""
    (_, link), (_, target) = PAIRS[pair]
    path, real = folder / link, folder / target
    config = folder / "match.toml"
    if pair.startswith("bot-"):
        config.write_text(config.read_text(encoding="utf-8") + '\n[bots]\nblue = "random"\n', encoding="utf-8")
    if kind in SPELT:
        text = config.read_text(encoding="utf-8")
        assert text.count(f'= "{link}"') == 1, text
        config.write_text(text.replace(f'= "{link}"', f'= "{SPELT[kind].format(target)}"'), encoding="utf-8")
        return
    path.unlink()
    if kind == "symlink":
        path.symlink_to(os.path.relpath(real, path.parent))
    else:
        os.link(real, path)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder's mark."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        out[name] = (f"-> {os.readlink(path)}" if path.is_symlink() else "folder" if path.is_dir()
                     else path.read_bytes())
    return out


def run_command(command: str, config: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``command`` on the match of ``config``: its exit code (1 for a host's failed match) and what it said."""
    if command == "serve":
        clock, lines = Clock(NOW), list[str]()
        host = new_host(config.parent.parent, clock, lines)
        host.step()
        match = hosted(host, config.parent.parent, config.parent.name)
        return (1 if match.done == "failed" else 0), match.error + "\n".join(lines)
    code = main([*COMMANDS[command][:1], "-c", str(config), *COMMANDS[command][1:]])
    out, err = capsys.readouterr()
    return code, out + err


def check_refused(played: Path, tmp_path: Path, command: str, pair: str, kind: str,
                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "league" / "match"
    shutil.copytree(played, folder, symlinks=True)
    alias(folder, pair, kind)
    before = snapshot(folder)
    code, said = run_command(command, folder / "match.toml", capsys)
    (aliased, _), (_, target) = PAIRS[pair]
    named = [(role, SPELT[kind].format(target) if kind in SPELT and role == aliased else path)
             for role, path in PAIRS[pair]]  # as the config names each
    (first, first_path), (second, second_path) = sorted(named, key=lambda r: _order(r[0]))
    assert code == 1, said
    said = " ".join(said.split())
    if kind == "same":  # the config's two lines named
        seat = second.removeprefix("orders ")  # the later of the two roles, a seat's, is refused
        line = f'{first} = "{target}"'
        assert f"gives {seat}'s orders the file of another role: {line} and {seat} = \"{target}\" in orders" in said
        assert f'Write {seat} = "orders-{seat}.xlsx" in [sheets] orders' in said, said
    else:
        assert f"{first} ({first_path}) and {second} ({second_path}) are one file" in said, said
        assert "writes the same name for both, or leaves one out" in said, said
        assert {"hard link": "hard links of one file", "symlink": " is a link to ", "dot": "one path spelt two ways",
                "spelling": "one path spelt two ways"}[kind] in said, said
    assert "Nothing was read or written" in said, said
    assert "Traceback" not in said
    assert snapshot(folder) == before


def _order(role: str) -> int:
    """The order the config names its roles in (board, engine, each seat's orders)."""
    return ["board", "engine", "orders red", "orders blue"].index(role)


@pytest.mark.parametrize(("command", "pair", "kind"), QUICK)
def test_every_command_refuses_two_roles_on_one_file_and_writes_nothing(
        played: Path, tmp_path: Path, command: str, pair: str, kind: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    check_refused(played, tmp_path, command, pair, kind, capsys)


@pytest.mark.soak
@pytest.mark.parametrize(("command", "pair", "kind"), [c for c in CASES if c not in QUICK])
def test_every_command_refuses_every_pair_of_roles_on_one_file(
        played: Path, tmp_path: Path, command: str, pair: str, kind: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    check_refused(played, tmp_path, command, pair, kind, capsys)


def test_a_hosted_match_on_one_file_is_refused_and_the_host_goes_on(played: Path, tmp_path: Path) -> None:
    """``serve``: the match whose seat's workbook is a link to the engine's fails with the message, and the match
    beside it resolves."""
    league = tmp_path / "league"
    shutil.copytree(played, league / "linked", symlinks=True)
    alias(league / "linked", "seat-engine", "symlink")
    _config, sheets = local_match(league / "good")
    type_orders(sheets)
    clock, lines = Clock(NOW), list[str]()
    host = new_host(league, clock, lines)
    host.step()
    linked = hosted(host, league, "linked")
    assert linked.done == "failed" and "engine (gm/engine.xlsx) and orders red (red.xlsx) are one file" in linked.error
    assert hosted(host, league, "good").done == "resolved"


def test_one_name_for_two_roles_is_one_workbook_opened_once(tmp_path: Path) -> None:
    """The board and the engine that the config names by the same text share the workbook on purpose (as the engine
    it leaves out does, and every seat where it names no orders at all): accepted, and opened once (two backends on
    one file would save one over the other). The same path spelt another way (``./gm/../match.xlsx``) is refused
    (``check_refused``, kind ``spelling``); so is a seat's named as another role's (kind ``same``)."""
    from sheets_gm.match.config import load_config
    from sheets_gm.running.connect import open_match_sheets

    config, sheets = local_match(tmp_path, body='engine = "match.xlsx"')
    type_orders(sheets)
    opened = open_match_sheets(load_config(config))
    assert len(opened.write_order()) == 1
    assert sync(opened).resolved


def test_a_link_made_while_a_watch_holds_the_match_open_is_refused_at_its_next_poll(played: Path,
                                                                                    tmp_path: Path) -> None:
    """``sync --watch`` opens the match once: a seat's workbook made a link to the board's since is refused at the
    watch's next poll, nothing written."""
    from sheets_gm.match.config import SharedFileError, load_config
    from sheets_gm.running.connect import open_match_sheets
    from sheets_gm.running.run import sync_once

    folder = tmp_path / "match"
    shutil.copytree(played, folder, symlinks=True)
    config = load_config(folder / "match.toml")
    sheets = open_match_sheets(config)
    alias(folder, "seat-board", "symlink")
    before = snapshot(folder)
    with pytest.raises(SharedFileError, match=r"board \(match.xlsx\) and orders red \(red.xlsx\) are one file"):
        sync_once(config, sheets, now=NOW, force=True)
    assert snapshot(folder) == before


@pytest.mark.parametrize("command", ["repair", "init", "sync", "doctor", "adjust"])
def test_a_seat_the_orders_line_leaves_out_is_refused_with_the_line_to_add(
        played: Path, tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``[sheets] orders`` naming red's file and not blue's (a seat added to a starter config): blue's tabs would go
    into the public board. Every command refuses, says the line to add, and writes nothing."""
    folder = tmp_path / "league" / "match"
    shutil.copytree(played, folder, symlinks=True)
    config = folder / "match.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(', blue = "blue.xlsx"', ""), encoding="utf-8")
    before = snapshot(folder)
    code, said = run_command(command, config, capsys)
    said = " ".join(said.split())
    assert code == 1, said
    assert "[sheets] orders names no file for blue" in said and "into the board (match.xlsx)" in said, said
    assert 'Add blue = "orders-blue.xlsx" to [sheets] orders' in said and "Traceback" not in said, said
    assert snapshot(folder) == before
