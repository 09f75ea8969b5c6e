"""``sheets-gm adjust``: a GM event the match's ruleset accepts (a correction, a result), logged in the match."""

from __future__ import annotations

import argparse
import shlex
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors
from sheets_gm.engine.ruleset import GmOption, split_option
from sheets_gm.match.config import ConfigError, read_config_toml
from sheets_gm.rulesets.registry import get_game, get_ruleset, ruleset_names


def gm_options(rulesets: Sequence[str] | None = None) -> dict[str, GmOption]:
    """The GM options by flag of ``rulesets`` (default: every registered game; the first to name a flag describes
    it)."""
    found: dict[str, GmOption] = {}
    for name in ruleset_names() if rulesets is None else rulesets:
        for option in get_game(name).gm_options:
            found.setdefault(option.flag, option)
    return found


def _option_word(token: str) -> str:
    return token[2:].partition("=")[0]


def rulesets_named(argv: Sequence[str]) -> list[str] | None:
    """The one game whose options ``adjust`` needs for ``argv``: the config's (its TOML alone is read), so that
    the command imports no other game; None (every game) for an unreadable config, an option the config's game
    lacks (the message then names what it accepts), or ``--help`` without ``-c`` (the help then lists every
    game's options, grouped by game)."""
    words = list(argv)
    config = Path("match.toml")
    named = False
    for i, word in enumerate(words):
        if word in ("-c", "--config") and i + 1 < len(words):
            config, named = Path(words[i + 1]), True
        elif word.startswith("--config="):
            config, named = Path(word.partition("=")[2]), True
    if ("-h" in words or "--help" in words) and not named:
        return None
    try:
        name = str(read_config_toml(config).get("ruleset", "")).strip().lower()
    except ConfigError:
        return None
    if name not in ruleset_names():
        return None
    own = {o.flag for o in get_game(name).gm_options} | {"config", "reason", "debug", "help", "h", "bot"}
    typed = {_option_word(w) for w in words if w.startswith("--")}
    return [name] if typed <= own else None


def parse_events(args: argparse.Namespace, ruleset: str, seats: tuple[str, ...]) -> list[Any]:
    """The GM events asked for on the command line, as the match's ruleset reads its options."""
    game = get_game(ruleset)
    accepted = {o.flag for o in game.gm_options}
    values = {flag: list(getattr(args, flag.replace("-", "_"), None) or [])
              for flag in gm_options(getattr(args, "option_rulesets", None))}
    foreign = [f"--{flag}" for flag, given in values.items() if given and flag not in accepted]
    if foreign:
        raise UserError(f"{', '.join(foreign)}: not a correction of a {ruleset} match; it accepts "
                        f"{', '.join('--' + f for f in sorted(accepted))}")
    try:
        return game.gm_events(seats, {k: v for k, v in values.items() if k in accepted}, (args.reason or "").strip())
    except ValueError as exc:
        raise UserError(str(exc)) from None


def bot_changes(values: Sequence[str]) -> dict[str, str]:
    """``--bot NAME=KIND`` options as NAME → KIND (UserError naming a malformed one).

    >>> bot_changes(["Bo=skirmisher", "red3 = none"])
    {'Bo': 'skirmisher', 'red3': 'none'}
    """
    found: dict[str, str] = {}
    for value in values:
        try:
            name, kind = split_option("--bot", value, "NAME=BOT", "Bo=skirmisher (or Bo=none)")
        except ValueError as exc:
            raise UserError(str(exc)) from None
        found[name] = kind
    return found


def _hand_over(args: argparse.Namespace) -> int:
    """``adjust --bot``: hand seats to the game's bots or back to people, logged."""
    from sheets_gm.running.bot_drift import remember_hand_over
    from sheets_gm.running.page import publish_page
    from sheets_gm.running.run import gm_change, layout_owners
    from sheets_gm.sync.bot_seats import NO_BOT
    from sheets_gm.sync.life.adjust_undo import hand_seats

    config = load(args)
    wanted = bot_changes(args.bot)
    if any(getattr(args, f.replace("-", "_"), None) for f in gm_options(getattr(args, "option_rulesets", None))):
        raise UserError("--bot goes alone: give the other corrections in an adjust of their own")
    sheets = open_match(config)
    with user_errors(config), gm_change(config, sheets):
        done = hand_seats(sheets, get_ruleset(config.ruleset), wanted, args.reason or "",
                          owners=lambda: layout_owners(config, sheets))
        page = publish_page(config, done.facts)
    remember_hand_over(config, wanted)  # no sync asks her to undo it while [bots] says what it said
    print("\n".join(line for line in (*(event.text for event in done.events), page) if line))
    said = []
    if any(kind != NO_BOT for kind in wanted.values()):
        said.append("A bot whose seat acts in it has typed its rows.")
    if any(kind == NO_BOT for kind in wanted.values()):
        said.append("What a bot typed stays for its player to change (or goes to her Archive where a pasted post "
                    "gives her orders), Ready and Go unticked.")
    print(f"Written to the match; open now: {done.open_now}. {' '.join(said)} "
          f"`sheets-gm undo -c {shlex.quote(str(args.config))}` takes this back with the last resolution.")
    return 0


def run(args: argparse.Namespace) -> int:
    """Apply the GM events to the match under the sync lock, and print the log lines written."""
    from sheets_gm.running.page import publish_page
    from sheets_gm.running.run import gm_change, layout_owners
    from sheets_gm.sync.life.adjust_undo import adjust_match

    if getattr(args, "bot", None):
        return _hand_over(args)
    config = load(args)
    events = parse_events(args, config.ruleset, config.seats)
    sheets = open_match(config)
    with user_errors(config), gm_change(config, sheets):
        done = adjust_match(sheets, get_ruleset(config.ruleset), events,
                                   owners=lambda: layout_owners(config, sheets))
        page = publish_page(config, done.facts)
    print("\n".join(line for line in (*(event.text for event in done.events), page) if line))
    where = (f"{done.over}: no window is open now" if done.over else
             f"open now: {done.open_now}")
    print(f"Written to the match; {where}. Every GM event is kept for the replay: "
          f"`sheets-gm verify -c {shlex.quote(str(args.config))}` applies it again.")
    return 0


def register(sub: Any, argv: Sequence[str] | None = None) -> None:
    """Add ``adjust`` to the command line, with the options of the game ``argv``'s config names (every game's,
    grouped by game, when it names none: see ``rulesets_named``). Without ``argv`` (the command is only listed, as
    in ``sheets-gm --help``) no game's options are added, so no game is imported."""
    rulesets = None if argv is None else rulesets_named(argv)
    p = command(sub, "adjust", run, "apply a GM event between two windows: a correction or a result (logged)",
                "Change the match between two windows with an event its ruleset accepts (the options below; each "
                "game takes its own, and its rules page says which). Every change is written to the log and kept "
                "in the engine tab, so a replay (`sheets-gm verify`) applies it again. Options may be repeated; "
                "all changes are applied together or none is.",
                _example(rulesets if argv is not None else None))
    add_config_option(p)
    p.set_defaults(option_rulesets=rulesets)
    if argv is not None and rulesets is not None:
        for option in gm_options(rulesets).values():
            p.add_argument(f"--{option.flag}", action="append", default=[], metavar=option.metavar, help=option.help)
    elif argv is not None:
        _add_every_games_options(p)
    p.add_argument("--bot", action="append", default=[], metavar="NAME=BOT",
                   help="hand a seat (or a team's player, a side's army) to one of the game's bots, e.g. "
                        "Bo=skirmisher, or back to a person with Bo=none; logged, undone by undo with the last "
                        "resolution (every game; its rules page names its bots)")
    duel = rulesets is None or "gvg" in rulesets  # the one correction that may go without a reason
    p.add_argument("--reason", default="", metavar="TEXT",
                   help="why, written to the log" + (" (required with every correction but GvG's duel award)"
                                                     if duel else ""))


def _example(rulesets: Sequence[str] | None) -> str:
    """The help's example: the match's game's own, or GvG's and Wesnoth's when the help lists every game."""
    chosen = [get_game(n) for n in rulesets] if rulesets is not None else []
    parts = [g.gm.example for g in chosen if g.gm is not None] or [
        '--coins red=5 --reason "duel paid twice"', '--gold Ann=12 --reason "miscounted income"']
    return "\n         ".join(f"sheets-gm adjust -c match.toml {part}" for part in parts)


def _add_every_games_options(p: argparse.ArgumentParser) -> None:
    """Every game's options, parsed by one argument per flag and described in a group per game: a flag two games
    share (``--move``, ``--position``) means in each game what that game says, so no game's help borrows
    another's sentence. ``-c`` with a match's config shows that game's options alone."""
    for flag in gm_options():
        p.add_argument(f"--{flag}", action="append", default=[], help=argparse.SUPPRESS)
    for name in ruleset_names():
        game = get_game(name)
        if not game.gm_options:
            continue
        lines = [_help_line(f"--{o.flag} {o.metavar}", o.help) for o in game.gm_options]
        p.add_argument_group(f'{game.traits.title} (ruleset = "{name}")', "\n".join(lines))


def _help_line(invocation: str, text: str, column: int = 22, width: int = 76) -> str:
    """One option's line as argparse lays one out (the group's description is indented by 2): the invocation, then
    its help wrapped in a column, beside it or, for a long invocation, below it."""
    wrapped = textwrap.wrap(text, width - column) or [""]
    pad = " " * column
    first = [invocation.ljust(column) + wrapped[0]] if len(invocation) < column - 1 else [invocation, pad + wrapped[0]]
    return "\n".join([*first, *(pad + line for line in wrapped[1:])])
