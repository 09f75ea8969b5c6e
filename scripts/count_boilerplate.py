"""Count a game's boilerplate: the lines of Python it holds that say nothing of its rules.

Boilerplate is what every game writes whatever its rules: its imports, the engine class's and the sheet adapter's
class lines, the traits and the codecs, the adapter's ``rules`` field, the members the core could give but the game
writes anyway (``__init__``, ``create``, ``settings``, ``board_text``, ``spec``, ``shown``) and the ``GAME`` record (a
game has no registry line since the registry finds it by its folder). Non-blank lines, docstrings left out. Give it
the game's Python files (a package's folder, or modules); compare a game made by ``sheets-gm new-game`` with one
written before it:

    .venv/bin/python scripts/count_boilerplate.py sheets_gm/rulesets/salvo
    .venv/bin/python scripts/count_boilerplate.py tests/toygame/engine.py tests/toygame/sheet.py tests/toygame/game.py
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

BASES = ("Ruleset", "SheetAdapter", "GameSheet")
CORE_MEMBERS = {"__init__", "create", "settings", "board_text", "spec", "shown"}
DECLARED = {"traits", "state_codec", "orders_codec", "gm_event_codec", "rules"}


def _span(node: ast.AST) -> range:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])  # type: ignore[attr-defined]
    return range(first, (node.end_lineno or node.lineno) + 1)  # type: ignore[attr-defined]


def _docstring_lines(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            out.update(_span(body[0]))
    return out


def boilerplate(source: str) -> Counter[str]:
    """The boilerplate lines of one module, by kind."""
    tree = ast.parse(source)
    text = source.splitlines()
    kinds: dict[int, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            kinds.update(dict.fromkeys(_span(node), "imports"))
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "GAME" for t in node.targets):
            kinds.update(dict.fromkeys(_span(node), "the record"))
        elif isinstance(node, ast.ClassDef) and any(BASES[0] in ast.unparse(b) or any(n in ast.unparse(b)
                                                                                      for n in BASES[1:])
                                                    for b in node.bases):
            kinds.update(dict.fromkeys(range(_span(node).start, node.lineno + 1), "class lines"))
            for member in node.body:
                name = getattr(member, "name", None) or (
                    member.target.id if isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name)
                    else next((t.id for t in getattr(member, "targets", []) if isinstance(t, ast.Name)), None))
                if name in DECLARED:
                    kinds.update(dict.fromkeys(_span(member), "traits, codecs, fields"))
                elif name in CORE_MEMBERS:
                    kinds.update(dict.fromkeys(_span(member), "members the core gives"))
    skip = _docstring_lines(tree)
    return Counter(kind for line, kind in kinds.items() if line not in skip and text[line - 1].strip()
                   and not text[line - 1].strip().startswith("#"))


def main(args: list[str]) -> int:
    """Print each kind's lines and the total."""
    files = [f for a in args for f in (sorted(Path(a).glob("*.py")) if Path(a).is_dir() else [Path(a)])]
    if not files:
        print(__doc__)
        return 2
    total: Counter[str] = Counter()
    for path in files:
        total += boilerplate(path.read_text(encoding="utf-8"))
    for kind, count in total.most_common():
        print(f"{kind:24} {count:4}")
    print(f"{'boilerplate':24} {sum(total.values()):4}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
