"""A match of every game on its starter layout, as a GM makes one: the starter config ``init`` writes (the public
board, the GM's engine under gm/, a workbook per seat, the judge's under gm/), the ruleset's sample roster as a
CSV for the games that need members, and ``sheets-gm init``."""

from __future__ import annotations

import csv
import io
import os
import tomllib
from pathlib import Path

import openpyxl

from sheets_gm.cli import main
from sheets_gm.commands.init import starter_config
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.registry import GAMES, create_ruleset, get_game, get_ruleset
from tests.made import made_into

#: Every game that runs through spreadsheets (each has a starter config).
STARTER_GAMES = tuple(sorted(g for g in GAMES if get_game(g).sheet is not None))


def roster_csv(game: str, seats: tuple[str, ...]) -> str:
    """The game's sample roster for ``seats`` (and its roster groups) as a roster CSV."""
    traits = get_ruleset(game).traits
    members = [m for m in create_ruleset(game).sample_roster().members if m.seat in (*seats, *traits.roster_groups)]
    fields = list(dict.fromkeys(k for m in members for k in m.fields))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["name", traits.seat_kind.value, "email", *fields])
    for m in members:
        writer.writerow([m.name, m.seat, m.email, *(m.fields.get(k, "") for k in fields)])
    return out.getvalue()


def starter_match(folder: Path, game: str) -> MatchConfig:
    """A new ``game`` match in ``folder`` on the starter layout (init run from the command line); its config.
    ``init`` runs once per game and umask in a test run (the modes it gives the GM's files are what some tests
    check), each test gets a copy of what it made, modes and times kept."""
    umask = os.umask(0)
    os.umask(umask)
    made_into(folder, ("starter", game, umask), lambda into: _init_starter(into, game), shared=True)
    return load_config(folder / "match.toml")


def _init_starter(folder: Path, game: str) -> None:
    """``sheets-gm init`` of ``game``'s starter config, with its sample roster, in ``folder``."""
    text = starter_config(game).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    seats = tuple(str(s) for s in data.get("seats") or data.get("teams") or ())
    (folder / "roster.csv").write_text(roster_csv(game, seats), encoding="utf-8")
    path = folder / "match.toml"
    path.write_text('roster = "roster.csv"\n' + text, encoding="utf-8")
    assert main(["init", game, "-c", str(path), "--no-share"]) == 0


def engine_path(config: MatchConfig) -> Path:
    """The GM's engine workbook of a local match."""
    return config.local_path(config.engine)


def set_cell(path: Path, tab: str, cell: str, value: object) -> None:
    """Type ``value`` into ``cell`` of ``tab`` in the workbook ``path``, as a GM editing it by hand would."""
    book = openpyxl.load_workbook(path)
    book[tab][cell] = value
    book.save(path)
