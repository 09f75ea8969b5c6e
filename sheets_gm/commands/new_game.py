"""``sheets-gm new-game NAME``: write a new game that plays, for a contributor to make into hers.

It writes the game's package (``sheets_gm/rulesets/NAME/``), its template folder (``templates/NAME/``: the sheet
layout and a starter match config), its rules page (``docs/rules-NAME.md``, with the settings table made from the
game's settings) and a scenario (``tests/scenarios/NAME/``): nothing else (the registry finds a game by its
folder). The game is the starter in ``sheets_gm/commands/starter/`` (a race: each turn every player lists up to 3 moves,
a die rolled before each after the first), named NAME; it passes the conformance tests as written, and
``scripts/test_game.sh NAME`` runs them (``docs/adding-a-ruleset.md``).
"""

from __future__ import annotations

import argparse
import importlib.util
import keyword
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import UserError, command

#: The checkout the game is written into: the one this program runs from.
ROOT = Path(__file__).resolve().parent.parent.parent
#: The starter game, in the checkout: its files name it ``newgame``; its classes' names (``Rules``, ``State``…) are
#: its package's, the same in every game made from it.
STARTER = "sheets_gm/commands/starter"
NAME = re.compile(r"[a-z][a-z0-9_]{1,30}")
#: The longest title: it stands in the game's traits, on a line of its own that the linter's line length must hold
#: (the starter's lines are short enough for the longest name and title, its imports in order for any name).
MAX_TITLE = 80


def named(text: str, name: str, title: str) -> str:
    """The starter's ``text`` for the game ``name`` called ``title``."""
    return text.replace("NEWGAME_TITLE", title).replace("newgame", name)


def planned(root: Path, name: str) -> dict[Path, Path]:
    """Each file the game gets (under ``root``), from the starter's file it is made of."""
    starter = root / STARTER
    out = {root / "sheets_gm" / "rulesets" / name / f.name.removesuffix(".tmpl"): f
           for f in sorted((starter / "package").glob("*.tmpl"))}
    out.update({root / "templates" / name / f.name: f for f in sorted((starter / "template").iterdir())})
    out[root / "docs" / f"rules-{name}.md"] = starter / "rules.md.tmpl"
    out[root / "tests" / "scenarios" / name / "the_first_to_reach_the_goal_wins.yaml"] = starter / "scenario.yaml"
    return out


def settings_table_of(engine: Path, name: str) -> str:
    """The rules page's settings table, made from the settings of the engine module just written."""
    from sheets_gm.engine.settings import settings_markdown

    spec = importlib.util.spec_from_file_location(f"_new_game_{name}_engine", engine)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
        return settings_markdown(module.Settings)
    finally:
        del sys.modules[spec.name]


def taken_names(root: Path) -> dict[str, Path]:
    """Each name of a module or package of ``sheets_gm`` (its games' too), in the checkout at ``root`` and in the one
    this program runs from: where it is, the first found. A game cannot take one: a game's package beside a core
    module of its name (``sheets_gm/rulesets/registry.py``) shadows it and every command fails to import, and a name
    elsewhere would mean two things in one package."""
    found: dict[str, Path] = {}
    for base in dict.fromkeys((root, ROOT)):
        package = base / "sheets_gm"
        for path in sorted(package.rglob("*.py")) if package.is_dir() else ():
            named = path.parent if path.name == "__init__.py" else path
            if named != package and "__pycache__" not in path.parts and named.stem.isidentifier():
                found.setdefault(named.stem, named.relative_to(base))
    beside = Path("sheets_gm/rulesets")  # a module a game's package would shadow is named before any other
    return {n: beside / f"{n}.py" if (root / beside / f"{n}.py").exists() or (ROOT / beside / f"{n}.py").exists()
            else where for n, where in found.items()}


def refused_name(root: Path, name: str, taken: Mapping[str, Path] | None = None) -> str:
    """Why ``name`` cannot name a new game in the checkout at ``root`` ('' when it can); ``taken``: the checkout's
    :func:`taken_names`, when the caller has them already (found afresh otherwise)."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name) or name == "newgame":
        return (f"{name!r} cannot name a game: write 2 to 31 lower-case letters, digits or _, starting with a letter "
                "(it names the package, the template folder and the game in match.toml), e.g. salvo")
    beside = root / "sheets_gm" / "rulesets" / name
    if beside.exists() and ((beside / "game.py").exists() or not (beside / "__init__.py").exists()):
        return f"a game called {name!r} is in this checkout already (sheets_gm/rulesets/{name}/)"
    where = (taken_names(root) if taken is None else taken).get(name)
    if where is None:
        return ""
    shown = f"{where}/" if where.suffix != ".py" else str(where)
    if where == Path("sheets_gm/rulesets") / name:
        return (f"{name!r} cannot name a game: {shown} is the core's own package, which the game's would be written "
                "into; choose another name, e.g. salvo")
    if where.parent == Path("sheets_gm/rulesets"):
        return (f"{name!r} cannot name a game: the game's package would stand beside {shown}, the core's own, and "
                "shadow it (every command would then fail to import it); choose another name, e.g. salvo")
    return (f"{name!r} cannot name a game: {shown} is a part of sheets_gm of that name already, and a name means one "
            "thing in the package; choose another name, e.g. salvo")


def write_game(root: Path, name: str, title: str) -> list[Path]:
    """Write the game ``name`` into the checkout at ``root``; the files written. UserError for a
    name that cannot be a game's or is taken, before anything is written."""
    refused = refused_name(root, name)
    if refused:
        raise UserError(refused)
    if len(title) > MAX_TITLE or not title.strip() or any(c in title for c in "\"\\\n"):
        raise UserError(f"the title {title!r} cannot be a game's: write 1 to {MAX_TITLE} characters, without a double "
                        "quote, a backslash or a line break, e.g. --title \"Salvo\"")
    files = planned(root, name)
    taken = [str(p.relative_to(root)) for p in files if p.exists()]
    if taken:
        raise UserError(f"the game {name!r} would overwrite {', '.join(taken)}: remove them, or choose another name")
    for target, source in files.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        made = named(source.read_text(encoding="utf-8"), name, title)
        target.write_text(made, encoding="utf-8")
    page = root / "docs" / f"rules-{name}.md"
    table = settings_table_of(root / "sheets_gm" / "rulesets" / name / "engine.py", name)
    page.write_text(page.read_text(encoding="utf-8").replace("{settings}", table), encoding="utf-8")
    return list(files)


def run(args: argparse.Namespace) -> int:
    """Write the game and say what to do next."""
    root = args.root.resolve()
    written = write_game(root, args.name, args.title or args.name.replace("_", " ").capitalize())
    for path in written:
        print(f"wrote {path.relative_to(root)}")
    print(f"\n{args.name} plays: scripts/test_game.sh {args.name} runs its tests; make it your game by editing "
          f"sheets_gm/rulesets/{args.name}/, templates/{args.name}/, docs/rules-{args.name}.md and "
          f"tests/scenarios/{args.name}/ (docs/adding-a-ruleset.md)")
    return 0


def register(sub: Any) -> None:
    """Add ``new-game`` to the command line."""
    p = command(sub, "new-game", run, "write a new game that plays, to make into yours",
                "Write a new game called NAME into this checkout: its package (sheets_gm/rulesets/NAME/), its "
                "template folder (templates/NAME/: layout.yaml and a starter match.toml), its rules page "
                "(docs/rules-NAME.md, the settings table made from its settings) and a scenario "
                "(tests/scenarios/NAME/): nothing else. It is a small race that passes the conformance "
                "tests as written; docs/adding-a-ruleset.md walks you through making it your game.",
                'sheets-gm new-game salvo --title "Salvo"')
    p.add_argument("name", metavar="NAME", help="the game's name: lower-case letters, digits and _, e.g. salvo")
    p.add_argument("--title", default="", help="its name for people (default: NAME capitalised)")
    p.add_argument("--root", type=Path, default=ROOT, help=f"the checkout to write it into (default: {ROOT})")
