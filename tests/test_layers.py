"""The layers import downwards only: a module never imports one of a higher layer (``docs/architecture.md``).

Read from the source, every import counted (those inside functions and under ``TYPE_CHECKING`` too): a lazy
import still ties the layers together.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sheets_gm
from tests.source_facts import fact, statements

#: The tests that read the package's source (tests/source_facts.py) on one test process: it parses each file once
#: for them all, where two processes would each parse the whole package.
pytestmark = pytest.mark.xdist_group("source-facts")

PACKAGE = Path(sheets_gm.__file__).resolve().parent

#: Bottom to top. A module belongs to the layer of its longest listed prefix. The part protocols are the modules a
#: game implements (its scenario codec, its tally, its legacy hooks): they sit under the record, in ``rulesets.parts``,
#: and the machinery that uses a part (``scenario``, ``simulate``, ``sync``) imports it from there.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("sheets_gm.engine", "sheets_gm.yamlio", "sheets_gm.lined", "sheets_gm.console", "sheets_gm"),
    ("sheets_gm.sheets",),
    ("sheets_gm.rulesets.parts",),
    ("sheets_gm.rulesets",),
    # The sync's own floors (``docs/architecture.md``, "Inside the sync"): the match's spreadsheets and record; a
    # typed row's life; the poll's reading and writing; the match's life; the poll. Above it, the poll gate.
    ("sheets_gm.sync.sheets", "sheets_gm.sync.match_record", "sheets_gm.sync.match_tabs", "sheets_gm.sync.deadline",
     "sheets_gm.sync.old_layout", "sheets_gm.sync.lock"),
    ("sheets_gm.sync.rows",),
    ("sheets_gm.sync",),
    ("sheets_gm.sync.life",),
    ("sheets_gm.sync.poll", "sheets_gm.sync.drawn_cells", "sheets_gm.sync.older_copy"),
    ("sheets_gm.poll_gate", "sheets_gm.scenario", "sheets_gm.simulate"),
    # the match page: a view of what the sync holds after a poll, built by the match layer, linked by the notices
    ("sheets_gm.web",),
    # the configured match (its config, [notify] and [mailbox] included, and its roster), then the rooms that use it,
    # each over those it uses: the judge's mailbox read; its notices; its running (spreadsheets opened, a poll under
    # the lock, cron) and the demo; who reads what; the upkeep of its files around repair and export; its init and
    # its doctor
    ("sheets_gm.match",),
    ("sheets_gm.mailbox",),
    ("sheets_gm.notify",),
    ("sheets_gm.running", "sheets_gm.demo"),
    ("sheets_gm.privacy",),
    ("sheets_gm.upkeep",),
    ("sheets_gm.init", "sheets_gm.doctor"),
    # the polls of configured matches, cron's one path to a poll (which completes an init or a repair cut short)
    # and serve's many
    ("sheets_gm.host",),
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
    return set(_imports_of_file(path))


def imports_in(source: str) -> set[str]:
    """Every ``sheets_gm`` module the Python ``source`` imports, wherever the import statement is."""
    return set(_imports_in_tree(ast.parse(source)))


def _imports_in_tree(tree: ast.Module) -> frozenset[str]:
    found: set[str] = set()
    for node in statements(tree.body):  # an import is a statement: no expression need be walked
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                         for a in node.names)
    return frozenset(m for m in found if m == "sheets_gm" or m.startswith("sheets_gm."))


_imports_of_file = fact(_imports_in_tree)


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}


def upward_imports() -> list[str]:
    """Each import of a higher layer, as 'importer (layer) -> imported (layer)'."""
    return [wrong for path in sorted(PACKAGE.rglob("*.py")) for wrong in upward(module_name(path), imports_of(path))]


def upward(importer: str, imported: set[str]) -> list[str]:
    """Each of ``imported`` in a higher layer than ``importer``, as 'importer (layer) -> imported (layer)'."""
    return [f"{importer} ({layer_of(importer)}) -> {module} ({layer_of(module)})"
            for module in sorted(imported) if layer_of(module) > layer_of(importer)]


def test_no_module_imports_a_higher_layer() -> None:
    wrong = upward_imports()
    assert not wrong, "imports of a higher layer:\n" + "\n".join(wrong)


@pytest.mark.parametrize("importer", ["sheets_gm.rulesets.game_record", "sheets_gm.rulesets.registry",
                                      "sheets_gm.rulesets.gvg.scenario", "sheets_gm.rulesets.parts.scenario"])
@pytest.mark.parametrize("statement", ["from sheets_gm.scenario.play import play", "import sheets_gm.scenario.runner",
                                       "from sheets_gm.simulate.runner import run_simulation",
                                       "from sheets_gm.sync.life.legacy.upgrade import upgrade_match",
                                       "from sheets_gm.sync import poll"])
def test_a_game_that_imports_the_machinery_is_refused(importer: str, statement: str) -> None:
    """The games and their parts' protocols look only down: an import of the scenario runner, the simulator or
    the sync from ``rulesets`` (under ``TYPE_CHECKING`` or inside a function too) is one the test above fails on."""
    source = f"from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    {statement}\n"
    assert len(upward(importer, imports_in(source))) == 1, statement


def test_the_parts_protocols_are_below_the_games_and_the_machinery_above() -> None:
    parts = layer_of("sheets_gm.rulesets.parts.figures")
    assert parts < layer_of("sheets_gm.rulesets.game_record") < layer_of("sheets_gm.scenario.play")
    assert parts < layer_of("sheets_gm.rulesets.gvg.figures") < layer_of("sheets_gm.simulate.runner")
    assert layer_of("sheets_gm.rulesets.gvg.legacy") < layer_of("sheets_gm.sync.life.legacy.upgrade")


def test_the_sync_reads_a_row_below_the_match_and_the_poll_above_both() -> None:
    """A typed row's life sits under the poll's reading and writing, the match's life over them, the poll over it."""
    order = ["sheets_gm.sync.sheets", "sheets_gm.sync.rows.fates", "sheets_gm.sync.read", "sheets_gm.sync.life.repair",
             "sheets_gm.sync.poll"]
    assert [layer_of(m) for m in order] == sorted({layer_of(m) for m in order})
    assert layer_of("sheets_gm.sync.poll") < layer_of("sheets_gm.running.run")


#: The poll's orchestration (``host/polls.py``, ``running/idle_poll.py``): the gate, whether a
#: poll stays idle, when notices are queued and sent. A command imports none of it: it prints what the polls return.
GATE = "sheets_gm.poll_gate"
ORCHESTRATION = {"after_poll", "send_due", "due", "gate_for", "gated_poll", "idle_local_poll", "may_stay_idle"}


def poll_work_in(source: str) -> list[str]:
    """What of the poll's orchestration the Python ``source`` imports: a module of the gate, or one of the names
    that decide when notices are queued and sent (wherever the import statement is)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name == GATE or a.name.startswith(GATE + ".")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            gate = node.module == GATE or node.module.startswith(GATE + ".")
            found += [f"{node.module}.{a.name}" for a in node.names if gate or a.name in ORCHESTRATION]
    return found


def test_the_commands_only_print_what_the_matchs_polls_return() -> None:
    commands = [*sorted(PACKAGE.glob("commands/*.py")), PACKAGE / "cli.py"]
    assert {module_name(p): poll_work_in(p.read_text(encoding="utf-8")) for p in commands} == {
        module_name(p): [] for p in commands}


@pytest.mark.parametrize("statement", ["from sheets_gm.poll_gate.run import gate_for",
                                       "from sheets_gm.poll_gate.state import forget_state",
                                       "import sheets_gm.poll_gate.idle",
                                       "from sheets_gm.notify.announce import after_poll",
                                       "from sheets_gm.notify.outbox import due"])
def test_a_command_that_runs_the_gate_or_sends_notices_is_refused(statement: str) -> None:
    """The check above fails on a command that builds the gate, forgets its record or decides on notices itself."""
    assert len(poll_work_in(f"def run() -> None:\n    {statement}\n")) == 1, statement


def test_the_engine_names_no_part_of_a_game_but_its_rules() -> None:
    engine = [p for p in PACKAGE.glob("engine/*.py")]
    for path in engine:
        assert all(layer_of(m) == 0 for m in imports_of(path)), path


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        layer_of(module)
