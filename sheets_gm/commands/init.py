"""``sheets-gm init RULESET``: create a match's spreadsheets or workbooks, draw the seed, publish its hash."""

from __future__ import annotations

import argparse
import json
import os
import tomllib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UsageError, UserError, command, game_name, program_name
from sheets_gm.commands.matchargs import add_config_option, load, user_errors
from sheets_gm.engine.words import counted
from sheets_gm.init.common import InitOutcome
from sheets_gm.match.config import MatchConfig, toml_key
from sheets_gm.match.env_file import env_file_path, host_env_path
from sheets_gm.rulesets.registry import GAMES, TEMPLATES, get_ruleset
from sheets_gm.running.cron import cron_line, cron_notes_pointer
from sheets_gm.sheets.files import orders_file
from sheets_gm.sync.deadline import describe_deadline


def starter_config(ruleset: str) -> Path:
    """The commented starter config shipped for ``ruleset``."""
    return TEMPLATES / ruleset / "match.toml"


def private_config(text: str) -> str:
    """The starter config with the private layout, for any ruleset: the GM's engine in a folder of its own
    and one orders workbook per seat (the starter's ``seats`` or ``teams``), so that no seat sees another's
    orders as typed. ``engine`` and ``orders`` lines commented out under ``[sheets]`` are replaced (or added
    after ``board`` when absent); a starter that already sets them keeps them."""
    data = tomllib.loads(text)
    seats = [str(s) for s in data.get("seats") or data.get("teams") or []]
    word = "team" if "teams" in data else "seat"
    pairs = ", ".join(f'{toml_key(s)} = "{orders_file(s)}"' for s in seats)
    wanted = {"engine": 'engine = "gm/engine.xlsx"   # the GM-only engine (state, seed, history): keep gm/ to yourself',
              "orders": f"orders = {{ {pairs} }}   # one file per {word}: share each with its {word} only"}
    for key in data.get("sheets", {}):
        wanted.pop(key, None)
    lines: list[str] = []
    section = ""
    board_at = len(text.splitlines())
    for line in text.splitlines():
        if line.startswith("["):
            section = line.split("]")[0].strip("[ ")
        elif section == "sheets" and line.startswith("#"):
            key = line.lstrip("# ").split("=")[0].strip()
            line = wanted.pop(key, line)
        elif section == "sheets" and line.startswith("board ="):
            if line.startswith('board = "match.xlsx"'):
                line = 'board = "board.xlsx"         # the public board: share it with everybody'
            board_at = len(lines) + 1
        lines.append(line)
    lines[board_at:board_at] = wanted.values()
    return "\n".join(lines) + "\n"


def with_roster(text: str, roster: str) -> str:
    r"""The starter config ``text`` with its commented-out ``roster`` line set to ``roster`` (a path relative to
    the config's folder), its comment kept; a starter without that line gets one after ``ruleset``, so that
    ``doctor`` and ``repair`` read the roster ``init --roster`` placed.

    >>> with_roster('ruleset = "gvg"\n# roster = "roster.csv"      # columns: name, team\n', "my team.csv")
    'ruleset = "gvg"\nroster = "my team.csv"       # columns: name, team\n'
    """
    value = f"roster = {json.dumps(roster, ensure_ascii=False)}"
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# roster = "):
            comment = line.find("#", len("# roster = "))  # the column its comment starts at, kept
            lines[i] = value if comment < 0 else f"{value:<{comment}}{line[comment:]}" if len(value) < comment \
                else f"{value}   {line[comment:]}"
            return "\n".join(lines) + "\n"
        if line.startswith("["):  # past the top-level keys: add the line after ``ruleset``
            break
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("ruleset")), 0)
    lines.insert(at, value)
    return "\n".join(lines) + "\n"


def with_seats(text: str, word: str, seats: Sequence[str]) -> str:
    r"""The starter config ``text`` with its ``word`` line (``seats`` or ``teams``) naming ``seats``, its comment kept,
    and its one-line ``orders`` table giving each seat its own workbook.

    >>> print(with_seats('seats = ["Ann", "Bo"]   # in turn order\norders = { Ann = "orders-Ann.xlsx" }   # each\n',
    ...                  "seats", ["Cy", "Di"]), end="")
    seats = ["Cy", "Di"]   # in turn order
    orders = { Cy = "orders-Cy.xlsx", Di = "orders-Di.xlsx" }   # each
    """
    lines = text.splitlines()
    for i, line in enumerate(lines):
        comment = line[line.index("#"):] if "#" in line and not line.startswith("#") else ""
        if line.startswith(f"{word} = ["):
            value = f"{word} = [{', '.join(json.dumps(s, ensure_ascii=False) for s in seats)}]"
        elif line.startswith("orders = {") and "}" in line.split("#", 1)[0]:
            value = f"orders = {{ {', '.join(f'{toml_key(s)} = {json.dumps(orders_file(s))}' for s in seats)} }}"
        else:
            continue
        lines[i] = f"{value}   {comment}" if comment else value
    return "\n".join(lines) + "\n"


def _with_roster_seats(text: str, ruleset: str, roster: Path) -> str:
    """The starter ``text`` for the seats the roster file ``roster`` names (the GM's own players, teams or sides),
    when it names any: ``init GAME --roster FILE`` in an empty folder makes her match, not the sample's."""
    from sheets_gm.match.seat_roster import roster_seats

    traits = get_ruleset(ruleset).traits
    word = "teams" if traits.seat_kind.value == "team" else "seats"
    if not roster.is_file():
        return text
    with user_errors():
        seats = roster_seats(roster, seat_word=traits.seat_kind.value, groups=traits.roster_groups)
    return with_seats(text, word, seats) if seats else text


PRACTICE_ROSTER = "practice-roster.csv"


def practice_files(ruleset: str) -> tuple[str, str]:
    """A practice match's config and roster CSV ('' when the game starts from its seats alone): the fewest seats
    the game plays with, of its sample roster, the first one the person's and every other one (and a judge) played
    by the game's best bot (its default), on local workbooks laid out as ``--private`` lays them out."""
    import csv
    import dataclasses
    import io

    from sheets_gm.engine.ruleset import Roster
    from sheets_gm.init.start import seats_alone_refused
    from sheets_gm.rulesets.registry import bots_of, create_ruleset

    rules = create_ruleset(ruleset)
    traits = rules.traits
    sample = rules.sample_roster()
    seats = sample.seats[:max(2, traits.min_seats)]
    kinds = bots_of(rules)
    # a kind made for practice (Champions' ``seek``, which comes to fight her) before the game's default
    best = next((k.name for k in kinds.values() if k.tutor), next(iter(kinds), None))
    if best is None:
        raise UserError(f"the {traits.title} game has no bot to practise against")
    roster = Roster(seats, tuple(m for m in sample.members if m.seat in seats))
    word = "teams" if traits.seat_kind.value == "team" else "seats"
    lines = [f'ruleset = "{ruleset}"',
             f'title = "Practice: {traits.title} against the {best} bot"',
             f"{word} = [{', '.join(json.dumps(s, ensure_ascii=False) for s in seats)}]   # you play {seats[0]}"]
    csv_text = ""
    if seats_alone_refused(rules, seats):
        lines.append(f'roster = "{PRACTICE_ROSTER}"   # the sample roster, cut to these {word}')
        fields = list(dict.fromkeys(k for m in roster.members for k in m.fields))
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["name", traits.seat_kind.value, *fields])
        writer.writerows([m.name, m.seat, *(m.fields.get(k, "") for k in fields)] for m in roster.members)
        csv_text = out.getvalue()
    # The bots' workbooks go where the GM's files are: the person must not read a bot's orders before hers.
    orders = ", ".join(f'{toml_key(s)} = "{orders_file(s) if n == 0 else "gm/" + orders_file(s)}"'
                       for n, s in enumerate(seats))
    lines += ["", "[sheets]", 'backend = "local"', 'board = "board.xlsx"         # the public board',
              'engine = "gm/engine.xlsx"    # the engine (state, seed): the bot never reads it',
              f"orders = {{ {orders} }}   # yours is {orders_file(seats[0])}; the bots' stay under gm/"]
    if traits.judge:
        lines.append('judge = "gm/judge.xlsx"')
    lines += ["", "[bots]                        # who the game's bots play (sheets-gm adjust --bot changes it)"]
    lines += [f'{toml_key(s)} = "{best}"' for s in seats[1:]]
    if traits.judge:
        lines.append(f'judge = "{best}"             # the stand-in judge enters the battle results')
    if any(f.name == "stand_in_gm" for f in dataclasses.fields(traits.settings_type)):
        lines += ["", "[settings]", "stand_in_gm = true   # the stand-in GM applies the mechanical card effects"]
    return "\n".join(lines) + "\n", csv_text


def _starter_text(ruleset: str, private: bool) -> str:
    """The starter config to write for ``ruleset`` (UserError when its ruleset has no sheets or no starter)."""
    from sheets_gm.running.run import require_sheets

    with user_errors():
        require_sheets(ruleset, f"init {ruleset}")
    path = starter_config(ruleset)
    if not path.exists():
        raise UserError(f"the {ruleset} ruleset ships no starter config ({path}): write the match config yourself "
                        "(docs/sync.md shows one) and pass it with -c")
    text = path.read_text(encoding="utf-8")
    return private_config(text) if private else text


def _relative_to(path: Path, folder: Path) -> str:
    """``path`` as the config in ``folder`` names it: relative to that folder (the config's rule), with /."""
    return Path(os.path.relpath(path.resolve(), folder.resolve())).as_posix()


def _layout_lines(data: dict[str, Any]) -> str:
    """The ``[sheets]`` lines of the private layout for the seats of the config ``data``, as local file names (what
    ``init --create`` makes a spreadsheet of each)."""
    seats = [str(s) for s in data.get("seats") or data.get("teams") or []]
    pairs = ", ".join(f'{toml_key(s)} = "{orders_file(s)}"' for s in seats)
    return f'board = "board.xlsx"; engine = "gm/engine.xlsx"; orders = {{ {pairs} }}'


def refuse_google_without_keys(path: Path) -> None:
    """Before ``init --create`` loads the config ``path``: a ``[sheets]`` that says ``backend = "google"`` but names
    no spreadsheet (no ``board``), or names local workbooks, gives --create nothing to make and the loader only
    "[sheets] board is missing" to say. --create writes that line itself, with the keys of what it makes, from the
    layout ``[sheets]`` gives as local file names: UserError saying so, and the other way (the keys of
    spreadsheets the GM made, without --create). A config that does not parse is left to the loader."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return
    sheets = data.get("sheets")
    if not isinstance(sheets, dict) or sheets.get("backend") != "google":
        return
    named = [sheets.get("board"), sheets.get("engine"), sheets.get("judge"),
             *(sheets["orders"].values() if isinstance(sheets.get("orders"), dict) else ())]
    local = [str(v) for v in named if isinstance(v, str) and v.lower().endswith(".xlsx")]
    if "board" in sheets and not local:
        return  # keys of the GM's own spreadsheets: nothing to create, as --create says
    what = (f"names local workbooks ({', '.join(local)})" if local else "names no spreadsheet (no board key)")
    raise UserError(
        f'{path}: [sheets] says backend = "google" but {what}. init --create turns backend = "local" into "google" '
        "itself, and writes in the keys of the spreadsheets it makes, one for each file the [sheets] layout names: "
        'set the line back to backend = "local" and name the files under [sheets], a line each '
        f"({_layout_lines(data)}), then run this again. Or, to use spreadsheets you made yourself, give their keys "
        "(or URLs) under [sheets] (board, engine, orders; a service account must be an Editor of each) and run init "
        "without --create")


def run(args: argparse.Namespace) -> int:
    """Write a starter config if there is none, then create the match it describes."""
    from sheets_gm.init.start import init_match

    ruleset = args.ruleset or _configs_game(args)
    if args.practice and args.create is not None:
        raise UserError("--practice plays on local workbooks; leave out --create")
    if args.practice:
        if args.config.exists():
            raise UserError(f"--practice writes a config of its own, and {args.config} exists: run it in an empty "
                            "folder (or name a new config with -c)")
        _write_practice(ruleset, args.config)
    elif not args.config.exists():
        text = _starter_text(ruleset, args.private)
        if args.roster is not None:
            text = with_roster(text, _relative_to(args.roster, args.config.parent))
            text = _with_roster_seats(text, ruleset, args.roster)
        args.config.parent.mkdir(parents=True, exist_ok=True)
        args.config.write_text(text, encoding="utf-8")
        word = get_ruleset(ruleset).traits.seat_kind.value
        private = "orders" in tomllib.loads(text).get("sheets", {})
        layout = (f"a public board, a GM-only engine under gm/ and one orders workbook per {word}" if private else
                  f"its comments say where the board, each {word}'s orders and the GM's engine live; "
                  f"init --private makes a file per {word}")
        print(f"Wrote a starter config {args.config} ({layout}; edit it for Google Sheets, {word}s, deadlines "
              "and house rules).")
    elif args.private:
        raise UserError(f"--private shapes a new starter config, and {args.config} exists: set engine and orders "
                        "under [sheets] in it yourself (see its comments)")
    if args.create is not None:
        refuse_google_without_keys(args.config)
    config = load(args)
    if config.ruleset != ruleset:
        raise UserError(f"{config.path} is a {config.ruleset} match, not {ruleset}")
    if args.create is not None:
        config = _create_spreadsheets(args, config)
    if args.roster is not None and not args.roster.exists():
        raise UserError(f"no roster file at {args.roster}")
    with user_errors():
        outcome = init_match(config, now=datetime.now(UTC), roster_file=args.roster,
                                    overwrite=args.overwrite, share=not args.no_share, notify=not args.no_email,
                                    outside_folder=args.allow_outside_folder)
    if outcome.settled:
        print(f"Settled first: {outcome.settled}.")
    if outcome.replaced:
        print(f"Replaced {outcome.replaced}; its workbooks are kept aside:")
    for old, backup in outcome.backups:
        print(f"Moved {old} aside to {backup} (readable by you alone)")
    if outcome.roster_tab is not None:
        _print_roster_tab(outcome, ruleset, args.config)
        return 0
    # a game that starts from its seats alone has no roster lines to count
    lines = f" ({counted(outcome.players, 'roster line')})" if outcome.players else ""
    print(f"Match created: {', '.join(config.seats)}{lines} in {', '.join(outcome.where)}.")
    for warning in outcome.warnings:
        print(f"Warning: {warning}.")
    print(f"Seed hash (publish it now; `export` reveals the seed at the end): {outcome.seed_hash}")
    until = f" until {describe_deadline(outcome.deadline)}" if outcome.deadline else ""
    print(f"The first orders are open{until}.")
    for line in outcome.shared:
        print(line)
    from sheets_gm.init.create_sheets import hand_made_note

    note = hand_made_note(config)
    if note:
        print(f"Note: {note}")
    secret_env = config.notify.secret_env() if config.notify is not None else []
    print(f"Next: schedule the sync; this match's crontab line (crontab -e), a poll every minute (an idle poll "
          f"reads nothing):\n  {cron_line(args.config, secret_env=bool(secret_env))}\n"
          f"or run `{program_name()} sync -c {args.config}` by hand ({cron_notes_pointer()} says more).")
    if secret_env:
        print(f"cron and serve start with none of your variables: write {', '.join(f'{n}=…' for n in secret_env)} "
              f"(a line each) in {host_env_path()}, the host's file that cron, serve and every command read (or in "
              f"{env_file_path(args.config)}, this match's), and chmod 600 it "
              f"(`{program_name()} doctor -c {args.config}` checks it).")
    return 0


def _create_spreadsheets(args: argparse.Namespace, config: MatchConfig) -> MatchConfig:
    """``--create``: the match's spreadsheets made in the Drive folder (or found from an earlier run), their keys
    written into the config; the config read again."""
    from sheets_gm.init.create_sheets import create_google_sheets

    with user_errors():
        made = create_google_sheets(config, args.create)
    if made.already:
        print(f"{config.path} names Google spreadsheets already: nothing to create.")
        return config
    if made.reused:
        print(f"Found {counted(len(made.reused), 'spreadsheet')} an earlier init --create made: "
              f"{', '.join(made.reused)}.")
    if made.created:
        print(f"Created {counted(len(made.created), 'spreadsheet')} in the {made.folder}: "
              f"{', '.join(made.created)}.")
    for warning in made.warnings:
        print(f"Warning: {warning}.")
    print(f"Wrote their keys into {config.path} (backend = \"google\" under [sheets]; your comments are kept).")
    return load(args)


def _write_practice(ruleset: str, config: Path) -> None:
    """Write a practice match's config (and roster) beside each other, and say who plays what."""
    from sheets_gm.running.run import require_sheets

    with user_errors():
        require_sheets(ruleset, f"init {ruleset} --practice")
    text, roster = practice_files(ruleset)
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text, encoding="utf-8")
    if roster:
        (config.parent / PRACTICE_ROSTER).write_text(roster, encoding="utf-8")
    data = tomllib.loads(text)
    mine = str((data.get("seats") or data.get("teams") or [""])[0])
    print(f"Wrote a practice config {config}: you play {mine} (your orders: "
          f"{data['sheets']['orders'][mine]}), the game's bots play "
          f"{', '.join(f'{k} ({v})' for k, v in data['bots'].items())}.")


def _print_roster_tab(outcome: InitOutcome, ruleset: str, config: Path) -> None:
    """What to type in the Roster tab laid out by this init, and the command to run next."""
    for warning in outcome.warnings:
        print(f"Note: {warning}.")
    where = outcome.roster_where
    columns = f"a row per member under its header: {', '.join(outcome.roster_columns)}"
    if outcome.roster_example:
        columns += f"; e.g. {outcome.roster_example}"
    print(f"No roster yet: type the roster in tab {outcome.roster_tab!r} of {where} ({columns}), then run the same "
          "init again:")
    print(f"  {program_name()} init {ruleset} -c {config}")


def _configs_game(args: argparse.Namespace) -> str:
    """The game of the config ``-c`` names, for an ``init`` that names none; a UsageError when there is no config
    (or ``--practice`` writes one)."""
    if args.practice or not args.config.exists():
        raise UsageError(f"init needs the game when there is no config ({args.config} does not exist"
                         f"{' or --practice writes it' if args.practice else ''}): sheets-gm init GAME, one of "
                         f"{', '.join(sorted(GAMES))}")
    return load(args).ruleset


def register(sub: Any) -> None:
    """Add ``init`` to the command line."""
    p = command(sub, "init", run, "create a match: spreadsheets or workbooks, roster, seed",
                "Create the match described by the config (a starter config is written if there is none): "
                "lay out every tab, place the roster (from --roster, the config's roster file, or typed in "
                "the sheet's Roster tab), draw the secret seed and print its hash for the players.",
                "sheets-gm init coalition -c match.toml --roster armies.csv")
    p.add_argument("ruleset", metavar="RULESET", nargs="?", type=game_name,
                   help=f"the game: {', '.join(sorted(GAMES))} (default: the config's, when it exists)")
    add_config_option(p)
    p.add_argument("--roster", type=Path, help="a CSV of the roster: name, the seat (team, player or side), email "
                   "and the game's own columns (its rules page names them)")
    p.add_argument("--private", action="store_true",
                   help="with no config yet: start one with a file per seat (private orders) and a GM-only engine")
    p.add_argument("--practice", action="store_true",
                   help="with no config yet: a private match of the fewest seats against the game's best bot, for "
                        "one person (the quickest way to learn a game)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing local match (its workbooks are kept aside as backups)")
    p.add_argument("--allow-outside-folder", action="store_true",
                   help="let [sheets] name local workbooks outside the config's folder (refused otherwise)")
    p.add_argument("--no-share", action="store_true",
                   help="do not share the spreadsheets with the players and GMs (Google), nor list who gets which file")
    p.add_argument("--no-email", action="store_true", help="Google: share without sending e-mails")
    p.add_argument("--create", metavar="FOLDER",
                   help="Google: create every spreadsheet the config's [sheets] needs in this Drive folder (its URL "
                        "or id), named after the match, and write their keys into the config; run again, it reuses "
                        "the ones it made")
