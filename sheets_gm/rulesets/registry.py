"""The games this build knows, by name: every game package here (``rulesets/<name>/game.py``), found by its folder.

Each entry names a game package's ``GAME`` record (``rulesets.game_record.Game``); it is imported only
when asked for, so a command pays for the games it uses and no other. A game's template folder
is ``templates/<name>/``: data alone (its sheet layout ``layout.yaml``, its default board, sample data, a starter
``match.toml``); templates of code live with the code that fills them (``commands/starter/``, ``web/assets/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheets_gm.engine.ruleset import BotKind, Ruleset
from sheets_gm.rulesets.game_record import AnyGame, Game

if TYPE_CHECKING:  # a command that never draws a sheet (simulate, a scenario run) does not load the sheet layer
    from sheets_gm.sheets.adapter import SheetAdapter
    from sheets_gm.sheets.spec import SheetSpec

#: name → "module:GAME": every package of this folder with a ``game.py`` (its ``GAME``), found by its folder so that
#: a new game is registered by being written; nothing is imported until asked for.
GAMES: dict[str, str] = {
    folder.name: f"sheets_gm.rulesets.{folder.name}.game:GAME"
    for folder in sorted(Path(__file__).resolve().parent.iterdir()) if (folder / "game.py").is_file()
}

#: The games whose record declares commands of their own (``sheets-gm <name> TOOL``): named here so that
#: ``sheets-gm --help`` lists them without importing any game (a test checks it against the records).
WITH_COMMANDS: set[str] = {"wesnoth"}

#: The game ``sheets-gm demo`` plays when none is named: the one that runs today.
DEFAULT_RULESET = "gvg"

#: The template folders, one per game.
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"

#: Template folders outside ``TEMPLATES``, by game name (a test's own small game registers one).
TEMPLATE_FOLDERS: dict[str, Path] = {}

AnyRuleset = Ruleset[Any, Any, Any]


class UnknownRulesetError(ValueError):
    """A game name this build does not know."""


def ruleset_names() -> list[str]:
    """Every registered game, in name order."""
    return sorted(GAMES)


def get_game(name: str) -> AnyGame:
    """The record of the game called ``name`` (case-insensitive), or a message listing the known ones."""
    target = GAMES.get(str(name).strip().lower())
    if target is None:
        raise UnknownRulesetError(f"unknown ruleset {name!r}; this build knows: {', '.join(ruleset_names())}")
    module, _, attribute = target.partition(":")
    found = getattr(import_module(module), attribute)
    if not isinstance(found, Game):
        raise TypeError(f"{target} is not a Game record")
    return found


def get_ruleset(name: str) -> type[AnyRuleset]:
    """The engine class of the game called ``name`` (its record's ``rules``)."""
    return get_game(name).rules


def game_of(ruleset: AnyRuleset) -> AnyGame:
    """The record of the game a match's rules belong to."""
    return get_game(ruleset.traits.name)


def template_dir(name: str) -> Path:
    """The template folder of the ruleset ``name``."""
    key = get_ruleset(name).traits.name
    return TEMPLATE_FOLDERS.get(key, TEMPLATES / key)


def default_board_text(name: str) -> str:
    """The default board of the ruleset ``name``, as shipped in its template folder; '' for a game with no board
    file (``traits.default_board`` empty)."""
    board = get_ruleset(name).traits.default_board
    return (template_dir(name) / board).read_text(encoding="utf-8") if board else ""


def create_ruleset(name: str, settings: Any | None = None, board: str | None = None) -> AnyRuleset:
    """The rules of a match of ``name``: its settings (default: the defaults) on ``board`` (default board)."""
    ruleset = get_ruleset(name)
    chosen = settings if settings is not None else ruleset.traits.settings_type()
    return ruleset.create(chosen, board if board is not None else default_board_text(name))


def sheet_spec(name: str) -> SheetSpec:
    """The sheet layout shipped for the game ``name``: ``templates/<name>/layout.yaml`` (``sheets.spec.layout_file``:
    ``sheet.yaml`` in a template folder made before the layout took its name)."""
    from sheets_gm.sheets.spec import cached_sheet_spec, layout_file

    key = get_ruleset(name).traits.name
    folder = TEMPLATE_FOLDERS.get(key)
    return _shipped_spec(key) if folder is None else cached_sheet_spec(layout_file(folder))


@cache
def _shipped_spec(key: str) -> SheetSpec:
    """``sheet_spec`` of a game whose template folder is shipped with sheets-gm, found once per process (the
    shipped templates never change while running: ``cached_sheet_spec``); a contributor's folder
    (``TEMPLATE_FOLDERS``) is looked at each time."""
    from sheets_gm.sheets.spec import cached_sheet_spec, layout_file

    return cached_sheet_spec(layout_file(TEMPLATES / key))


def sheet_of(ruleset: AnyRuleset) -> SheetAdapter[Any, Any]:
    """The sheet adapter of a match with these rules (its game's ``sheet`` part); ValueError for a game with none."""
    adapter = game_of(ruleset).sheet_of(ruleset)
    if adapter is None:
        raise ValueError(f"the {ruleset.traits.title} game has no sheet adapter (its record names none)")
    return adapter


def bots_of(ruleset: AnyRuleset) -> Mapping[str, BotKind]:
    """The kinds of bot of a match with these rules, the default first (none for a game without a simulation)."""
    return game_of(ruleset).bots(ruleset)
