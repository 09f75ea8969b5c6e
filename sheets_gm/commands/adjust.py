"""``sheets-gm adjust``: a GM correction (coins, HP, a position) or an archery duel, logged in the match."""

from __future__ import annotations

import argparse
from typing import Any

from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors
from sheets_gm.engine.core.grid import Coord, CoordError
from sheets_gm.engine.gvg.state import Adjustment, ArcheryDuel, GmEvent


def _split(option: str, value: str, form: str, example: str) -> tuple[str, str]:
    """``KEY=VALUE`` split in two, or a UserError naming the option and the accepted form."""
    key, sep, rest = value.partition("=")
    if not sep or not key.strip() or not rest.strip():
        raise UserError(f"{option} {value!r}: write {form}, like {example}")
    return key.strip(), rest.strip()


def _team(option: str, name: str, teams: tuple[str, str]) -> int:
    for i, team in enumerate(teams):
        if team.lower() == name.lower():
            return i
    raise UserError(f"{option}: there is no team {name!r}; the teams are {teams[0]} and {teams[1]}")


def _number(option: str, text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserError(f"{option}: {what} {text!r} is not a whole number") from None


def _tile(option: str, text: str) -> Coord:
    try:
        return Coord.parse(text)
    except CoordError as exc:
        raise UserError(f"{option}: {exc}") from None


def parse_events(args: argparse.Namespace, teams: tuple[str, str]) -> list[GmEvent]:
    """The GM events asked for on the command line, in the order coins, HP, positions, duels."""
    reason = (args.reason or "").strip()
    corrections = args.coins + args.hp + args.position
    if not corrections and not args.duel:
        raise UserError("nothing to change: give --coins TEAM=N, --hp TILE=N, --position PLAYER=TILE "
                        "or --duel TEAM=W-L")
    if corrections and not reason:
        raise UserError('--reason is required with --coins, --hp and --position, e.g. --reason "duel paid twice"; '
                        "it is written to the log")
    events: list[GmEvent] = []
    for value in args.coins:
        team, count = _split("--coins", value, "TEAM=COINS", "red=5")
        events.append(Adjustment(reason, coins=(_team("--coins", team, teams), _number("--coins", count, "coins"))))
    for value in args.hp:
        tile, hp = _split("--hp", value, "TILE=HP", "G7=3")
        events.append(Adjustment(reason, hp=(_tile("--hp", tile), _number("--hp", hp, "HP"))))
    for value in args.position:
        name, tile = _split("--position", value, "PLAYER=TILE", "Ann=H12")
        events.append(Adjustment(reason, position=(name, _tile("--position", tile))))
    for value in args.duel:
        team, score = _split("--duel", value, "TEAM=W-L (the winner and the score)", "red=3-1")
        won, dash, lost = score.partition("-")
        if not dash:
            raise UserError(f"--duel {value!r}: the score is the winner's points, a dash and the loser's, like 3-1")
        events.append(ArcheryDuel(_team("--duel", team, teams), _number("--duel", won, "points"),
                                  _number("--duel", lost, "points")))
    return events


def run(args: argparse.Namespace) -> int:
    """Apply the GM events to the match under the sync lock, and print the log lines written."""
    from sheets_gm.sync.adjust import adjust_match
    from sheets_gm.sync.lock import match_lock

    config = load(args)
    events = parse_events(args, config.teams)
    sheets = open_match(config)
    with user_errors(), match_lock(config.lock_path):
        report = adjust_match(sheets, events)
    for event in report.events:
        print(event.text)
    print(f"Written to the match; turn {report.state.turn} is still open. "
          "Every GM event is kept for the replay: `sheets-gm verify` applies it again.")
    return 0


def register(sub: Any) -> None:
    """Add ``adjust`` to the command line."""
    p = command(sub, "adjust", run, "correct coins, HP or a position, or record an archery duel (logged)",
                "Change the match between two turns: set a team's coins, the HP of a structure or of the boss on a "
                "tile, move a player, or award an archery duel. Every change is written to the log and kept in the "
                "engine tab, so a replay (`sheets-gm verify`) applies it again. Options may be repeated; all "
                "changes are applied together or none is.",
                'sheets-gm adjust -c match.toml --coins red=5 --reason "duel paid twice"\n'
                '         sheets-gm adjust -c match.toml --hp G7=3 --position Ann=H12 --reason "wrong tile"\n'
                "         sheets-gm adjust -c match.toml --duel red=3-1")
    add_config_option(p)
    p.add_argument("--coins", action="append", default=[], metavar="TEAM=N", help="set a team's coins")
    p.add_argument("--hp", action="append", default=[], metavar="TILE=N",
                   help="set the HP of the bulwark, fish or boss on a tile (0 destroys it, no reward)")
    p.add_argument("--position", action="append", default=[], metavar="PLAYER=TILE",
                   help="move a player (a carrier takes the tree along)")
    p.add_argument("--duel", action="append", default=[], metavar="TEAM=W-L",
                   help="the archery duel's winner and score (best of 5: 3-0, 3-1 or 3-2)")
    p.add_argument("--reason", default="", metavar="TEXT",
                   help="why (required with --coins, --hp, --position); written to the log")
