"""``sheets-gm adjust``: a GM event the match's ruleset accepts (a correction, a result), logged in the match."""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors
from sheets_gm.engine.registry import get_ruleset, ruleset_names
from sheets_gm.engine.ruleset import GmOption


def gm_options(rulesets: Sequence[str] | None = None) -> dict[str, GmOption]:
    """The GM options by flag of ``rulesets`` (default: every registered one; the first to name a flag describes
    it)."""
    found: dict[str, GmOption] = {}
    for name in ruleset_names() if rulesets is None else rulesets:
        for option in get_ruleset(name).gm_options():
            found.setdefault(option.flag, option)
    return found


def _option_word(token: str) -> str:
    return token[2:].partition("=")[0]


def rulesets_named(argv: Sequence[str]) -> list[str] | None:
    """The one ruleset whose options ``adjust`` needs for ``argv``: the config's (read with tomllib alone), so that
    the command imports no other game; None (every ruleset) for ``--help``, an unreadable config, or an option
    the config's ruleset lacks (the message then names what it accepts)."""
    words = list(argv)
    if "-h" in words or "--help" in words:
        return None
    config = Path("match.toml")
    for i, word in enumerate(words):
        if word in ("-c", "--config") and i + 1 < len(words):
            config = Path(words[i + 1])
        elif word.startswith("--config="):
            config = Path(word.partition("=")[2])
    try:
        name = str(tomllib.loads(config.read_text(encoding="utf-8")).get("ruleset", "")).strip().lower()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if name not in ruleset_names():
        return None
    own = {o.flag for o in get_ruleset(name).gm_options()} | {"config", "reason", "debug"}
    typed = {_option_word(w) for w in words if w.startswith("--")}
    return [name] if typed <= own else None


def parse_events(args: argparse.Namespace, ruleset: str, seats: tuple[str, ...]) -> list[Any]:
    """The GM events asked for on the command line, as the match's ruleset reads its options."""
    kind = get_ruleset(ruleset)
    accepted = {o.flag for o in kind.gm_options()}
    values = {flag: list(getattr(args, flag.replace("-", "_"), None) or [])
              for flag in gm_options(getattr(args, "option_rulesets", None))}
    foreign = [f"--{flag}" for flag, given in values.items() if given and flag not in accepted]
    if foreign:
        raise UserError(f"{', '.join(foreign)}: not a correction of a {ruleset} match; it accepts "
                        f"{', '.join('--' + f for f in sorted(accepted))}")
    try:
        return kind.gm_events_from_options(seats, {k: v for k, v in values.items() if k in accepted},
                                           (args.reason or "").strip())
    except ValueError as exc:
        raise UserError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Apply the GM events to the match under the sync lock, and print the log lines written."""
    from sheets_gm.match.run import layout_owners
    from sheets_gm.sync.between import adjust_match
    from sheets_gm.sync.lock import match_lock

    config = load(args)
    events = parse_events(args, config.ruleset, config.seats)
    sheets = open_match(config)
    with user_errors(config), match_lock(config.lock_path):
        done = adjust_match(sheets, get_ruleset(config.ruleset), events,
                                   owners=lambda: layout_owners(config, sheets))
    for event in done.events:
        print(event.text)
    where = (f"the match is over ({done.over}): no window is open now" if done.over else
             "the open window stays open")
    print(f"Written to the match; {where}. Every GM event is kept for the replay: "
          "`sheets-gm verify` applies it again.")
    return 0


def register(sub: Any, argv: Sequence[str] | None = None) -> None:
    """Add ``adjust`` to the command line, with the options of the ruleset ``argv``'s config names (every
    ruleset's without ``argv``, or for ``--help``: see ``rulesets_named``)."""
    rulesets = None if argv is None else rulesets_named(argv)
    p = command(sub, "adjust", run, "apply a GM event between two windows: a correction or a result (logged)",
                "Change the match between two windows with an event its ruleset accepts (the options below; each "
                "game takes its own, and its rules page says which). Every change is written to the log and kept "
                "in the engine tab, so a replay (`sheets-gm verify`) applies it again. Options may be repeated; "
                "all changes are applied together or none is.",
                'sheets-gm adjust -c match.toml --coins red=5 --reason "duel paid twice"\n'
                '         sheets-gm adjust -c match.toml --gold Ann=12 --reason "miscounted income"')
    add_config_option(p)
    p.set_defaults(option_rulesets=rulesets)
    for option in gm_options(rulesets).values():
        p.add_argument(f"--{option.flag}", action="append", default=[], metavar=option.metavar, help=option.help)
    p.add_argument("--reason", default="", metavar="TEXT",
                   help="why (required with every correction but a duel award); written to the log")
