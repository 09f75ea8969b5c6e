"""``sheets-gm verify``: replay a match (its JSON export, or its sheets) and check every roll and state."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors
from sheets_gm.engine.words import counted

if TYPE_CHECKING:
    from sheets_gm.sync.read import MatchRead
    from sheets_gm.sync.sheets import MatchSheets

DEFAULT_CONFIG = Path("match.toml")


def _read_replay(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path} is not a readable JSON replay ({exc})") from None
    if not isinstance(doc, dict):
        raise UserError(f"{path} is not a sheets-gm replay")
    return doc


def run(args: argparse.Namespace) -> int:
    """Replay the JSON export or the configured match's sheets; exit 1 on the first mismatch."""
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.sync.life.legacy.upgrade import windows_replay
    from sheets_gm.sync.life.replay import (
        WindowReplayError,
        match_history,
        replay_document,
        replay_states,
    )
    from sheets_gm.sync.life.typed_check import typed_mismatch
    from sheets_gm.sync.read import read_match

    if args.replay is not None and args.config is not None:
        raise UserError("give a replay file or -c MATCH.toml, not both")
    if args.replay is not None:
        where = str(args.replay)
        doc = _read_replay(args.replay)
    else:
        args.config = args.config or DEFAULT_CONFIG
        config = load(args)
        where = str(config.path)
        sheets = open_match(config, writes=False)
        with user_errors(config):
            read = read_match(sheets, get_ruleset(config.ruleset))
            entries = match_history(sheets, read.record, read.tabs.spec.tabs.engine)
            doc = replay_document(read.record, entries)
    try:  # a replay of an earlier layout is read through its ruleset's legacy hook
        found = replay_states(windows_replay(doc))
    except WindowReplayError as exc:
        raise UserError(f"{where}: {exc}") from None
    done, difference = counted(found.resolutions, "window"), found.difference
    rolls = counted(found.rolls, "die or draw", "dice and draws")
    if difference is not None:
        print(f"MISMATCH after {done} replayed: {difference}")
        return 1
    if args.replay is None:
        mismatch = typed_mismatch(read.record, read.tabs, read.adapter, entries)
        if mismatch is not None:  # the states replay, but from orders the table did not type
            print(f"MISMATCH after {done} replayed: {mismatch}")
            return 1
        with user_errors(config):
            forged, typed_over, edits = hand_edits(sheets, read, doc)
        if forged or typed_over or edits:
            _say_edited(done, forged, typed_over, edits)
            return 1
        verb = "is" if read.record.log_rows == 1 else "are"
        log = f"; the Log's {counted(read.record.log_rows, 'line')} {verb} the match's own"
    else:
        log = ""
    links = len(doc.get("reseeds") or [])  # an undo of the match's end drew each: checked against its hash
    seeds = f"its {links + 1} seeds (each against the hash published for it)" if links else "the seed"
    print(f"OK: {done} and {rolls} replayed from {seeds}; every state matches{log}.")
    return 0


def hand_edits(sheets: MatchSheets, read: MatchRead, doc: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """What ``verify -c`` finds edited by hand on the sheets of a match whose replay holds, a sentence each: the Log's
    lines no event says (``log_check``), the drawn cells typed over (``drawn_cells``), and every other edit of the
    public board the sync did not make (``board_check``: tabs, cells outside what it draws, the Settings, hidden
    rows, columns and lines). All three from ONE read of the board's spreadsheet as a reader sees it (Google: one
    spreadsheets.get, where the Log and the drawn tabs took two values.batchGet before)."""
    from sheets_gm.sheets.looks import seen_tabs
    from sheets_gm.sync.drawn_cells import typed_over_words
    from sheets_gm.sync.life.board_check import board_edits
    from sheets_gm.sync.life.log_check import forged_log_lines

    seen = seen_tabs(sheets.board)
    return (forged_log_lines(sheets, doc, read.record.log_rows, cut_under_way=read.cut_under_way, seen=seen),
            typed_over_words(sheets, read, seen), board_edits(sheets, read, seen))


def _say_edited(done: str, forged: list[str], typed_over: list[str], edits: list[str]) -> None:
    """What ``verify -c`` found edited by hand on the sheets of a match whose replay holds: each line says what is
    wrong and how to mend it."""
    what = "its Log was" if not typed_over and not edits else "what players read was"
    print(f"The match replays ({done}, every state matches), but {what} edited by hand:")
    print("\n".join(f"  {line}" for line in [*forged, *typed_over, *edits]))
    if forged:
        print("Put each Log line back as the match logged it (the version history, or type it again): the Log is "
              "what players read.")
    if typed_over:
        print("Those cells are drawn by sheets-gm: the next sync draws the board tab and the Log's header again, "
              "another drawn tab at the next resolution; sheets-gm repair draws them all now.")


def register(sub: Any) -> None:
    """Add ``verify`` to the command line."""
    p = command(sub, "verify", run, "replay a match (its JSON export or its sheets) and check every roll and state",
                "Recompute every turn of a match from its seed, its orders and the GM's events; exit 1 on any "
                "mismatch. Give the replay.json of an export, or -c MATCH.toml to read the match's sheets "
                "(the default when neither is given).",
                "sheets-gm verify demo-out/export/replay.json\n"
                "         sheets-gm verify -c match.toml")
    p.add_argument("replay", type=Path, nargs="?", metavar="REPLAY.json", help="an exported replay file")
    add_config_option(p)
    p.set_defaults(config=None)  # so that a replay file and -c are not both taken
