"""The layers import downwards only: a module never imports one of a higher layer (``docs/architecture.md``).

Read from the source, every import counted (those inside functions and under ``TYPE_CHECKING`` too): a lazy
import still ties the layers together.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sheets_gm

PACKAGE = Path(sheets_gm.__file__).resolve().parent

#: Bottom to top. A module belongs to the layer of its longest listed prefix. The part protocols are the modules a
#: game implements, each in the package that uses its part (a game's scenario codec, its tally, its legacy hooks).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("sheets_gm.engine", "sheets_gm.yamlio", "sheets_gm.console", "sheets_gm"),
    ("sheets_gm.sheets",),
    ("sheets_gm.scenario.codec", "sheets_gm.scenario.fields", "sheets_gm.scenario.play", "sheets_gm.simulate.figures",
     "sheets_gm.sync.legacy.hooks"),
    ("sheets_gm.rulesets",),
    ("sheets_gm.sync", "sheets_gm.scenario", "sheets_gm.simulate"),
    ("sheets_gm.match",),
    ("sheets_gm.commands", "sheets_gm.cli"),
)


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the longest prefix of ``module`` listed there."""
    best, found = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    assert found >= 0, f"{module} is in no layer: add it to LAYERS and to docs/architecture.md"
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every ``sheets_gm`` module ``path`` imports, wherever the import statement is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                         for a in node.names)
    return {m for m in found if m == "sheets_gm" or m.startswith("sheets_gm.")}


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}


def upward_imports() -> list[str]:
    """Each import of a higher layer, as 'importer (layer) -> imported (layer)'."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = module_name(path)
        for imported in sorted(imports_of(path)):
            if layer_of(imported) > layer_of(importer):
                wrong.append(f"{importer} ({layer_of(importer)}) -> {imported} ({layer_of(imported)})")
    return wrong


def test_no_module_imports_a_higher_layer() -> None:
    assert upward_imports() == []


def test_the_engine_names_no_part_of_a_game_but_its_rules() -> None:
    engine = [p for p in PACKAGE.glob("engine/*.py")]
    for path in engine:
        assert all(layer_of(m) == 0 for m in imports_of(path)), path


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        layer_of(module)
