"""The rulesets this build knows, by name: the one place a new game is registered.

Each entry names the class that implements ``engine.ruleset.Ruleset``; it is imported
only when asked for, so a command pays for the games it uses and no other. A ruleset's
template folder is ``templates/<name>/`` (its sheet layout, its default board, sample data).
"""

from __future__ import annotations

from importlib import import_module
from importlib.machinery import PathFinder
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from sheets_gm.engine.ruleset import Ruleset

#: name → "module:Class". Adding a game is one line here plus its package and template folder.
RULESETS: dict[str, str] = {
    "champions": "sheets_gm.rulesets.champions.ruleset:ChampionsRuleset",
    "coalition": "sheets_gm.rulesets.coalition.ruleset:CoalitionRuleset",
    "gvg": "sheets_gm.rulesets.gvg.ruleset:GvgRuleset",
    "wesnoth": "sheets_gm.rulesets.wesnoth.ruleset:WesnothRuleset",
    "winordie": "sheets_gm.rulesets.winordie.ruleset:WodRuleset",
}

#: The game ``sheets-gm demo`` plays when none is named: the one that runs today.
DEFAULT_RULESET = "gvg"

#: The template folders, one per ruleset.
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"

#: Template folders outside ``TEMPLATES``, by ruleset name (a test's own small game registers one).
TEMPLATE_FOLDERS: dict[str, Path] = {}

AnyRuleset = Ruleset[Any, Any, Any]


class UnknownRulesetError(ValueError):
    """A ruleset name this build does not know."""


def ruleset_names() -> list[str]:
    """Every registered ruleset, in name order."""
    return sorted(RULESETS)


def get_ruleset(name: str) -> type[AnyRuleset]:
    """The ruleset class called ``name`` (case-insensitive), or a message listing the known ones."""
    target = RULESETS.get(str(name).strip().lower())
    if target is None:
        raise UnknownRulesetError(f"unknown ruleset {name!r}; this build knows: {', '.join(ruleset_names())}")
    module, _, cls = target.partition(":")
    found: type[AnyRuleset] = getattr(import_module(module), cls)
    return found


#: The module a ruleset package may hold with its own command-line tools (``sheets-gm <name> ...``).
TOOLS_MODULE = "commands"


def tools_module(name: str) -> str | None:
    """The module of the ruleset ``name``'s own tools (``<its package>.commands``, with a
    ``register(sub)`` like a built-in subcommand's), or None when its package has none.

    Found on disk, without importing the ruleset's package: ``sheets-gm --help`` and a sync
    pay nothing for the tools of games they do not run."""
    target = RULESETS.get(str(name).strip().lower())
    if target is None:
        return None
    package = target.partition(":")[0].rpartition(".")[0]
    parent = package.rpartition(".")[0]
    try:
        parent_spec = find_spec(parent) if parent else None
    except ModuleNotFoundError:
        return None
    where = parent_spec.submodule_search_locations if parent_spec is not None else None
    package_spec = PathFinder.find_spec(package, list(where)) if where else None
    places = package_spec.submodule_search_locations if package_spec is not None else None
    if not places or PathFinder.find_spec(f"{package}.{TOOLS_MODULE}", list(places)) is None:
        return None
    return f"{package}.{TOOLS_MODULE}"


def template_dir(name: str) -> Path:
    """The template folder of the ruleset ``name``."""
    key = get_ruleset(name).traits.name
    return TEMPLATE_FOLDERS.get(key, TEMPLATES / key)


def default_board_text(name: str) -> str:
    """The default board of the ruleset ``name``, as shipped in its template folder."""
    return (template_dir(name) / get_ruleset(name).traits.default_board).read_text(encoding="utf-8")


def create_ruleset(name: str, settings: Any | None = None, board: str | None = None) -> AnyRuleset:
    """The rules of a match of ``name``: its settings (default: the defaults) on ``board`` (default board)."""
    ruleset = get_ruleset(name)
    chosen = settings if settings is not None else ruleset.traits.settings_type()
    return ruleset.create(chosen, board if board is not None else default_board_text(name))
