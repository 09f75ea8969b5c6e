"""The house (issue 65): no circle of imports among the ``sheets_gm`` modules, no function over 80 lines (in
``sheets_gm`` and ``scripts``).

Imports are read as ``test_layers`` reads them, from the source, every one counted (inside functions and under
``TYPE_CHECKING`` too): a lazy import hides a circle from Python, not from the reader.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from tests.paths import SCRIPTS
from tests.source_facts import fact, statements
from tests.test_layers import PACKAGE, imports_in, imports_of, module_name

pytestmark = pytest.mark.xdist_group("source-facts")  # on test_layers.py's process: one parse of the package

#: The longest a function may be: its last line's number less its ``def``'s (``end_lineno - lineno``).
MAX_FUNCTION_LINES = 80


def import_graph() -> dict[str, set[str]]:
    """Each ``sheets_gm`` module with the ``sheets_gm`` modules it imports (a copy of its own for each caller: the
    package is parsed once a test run)."""
    return {module: set(imported) for module, imported in _parsed_graph().items()}


@functools.cache
def _parsed_graph() -> dict[str, frozenset[str]]:
    return {module_name(path): frozenset(imports_of(path)) for path in sorted(PACKAGE.rglob("*.py"))}


def import_circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another round a circle (a strongly connected part of ``graph`` of
    more than one module, or a module importing itself), each as one circle through its first module in order,
    'a -> b -> … -> a'."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.get(module, ())):
            if other not in graph:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group: set[str] = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.add(top)
                if top == module:
                    break
            if len(group) > 1 or module in graph[module]:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(_circle_in(graph, group) for group in groups)


def _circle_in(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """One circle through the first module of ``group`` (modules that all reach one another), shortest first."""
    start = min(group)
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    while frontier:
        reached: list[str] = []
        for module in frontier:
            for other in sorted(graph[module] & group):
                if other == start:
                    return [*paths[module], start]
                if other not in paths:
                    paths[other] = [*paths[module], other]
                    reached.append(other)
        frontier = reached
    raise AssertionError(f"{sorted(group)} holds no circle through {start}")


def test_no_module_imports_round_a_circle() -> None:
    circles = import_circles(import_graph())
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_a_circle_put_back_is_found() -> None:
    """The circle issue 65 broke (``bot_drift`` reading the roster's bots from the module that starts a match, inside
    a function), put back into the real graph, is the one the test above fails on."""
    graph = import_graph()
    source = "def configured_bots() -> None:\n    from sheets_gm.init.start import roster_bots, roster_file_of\n"
    graph["sheets_gm.running.bot_drift"] |= imports_in(source)
    circles = import_circles(graph)
    assert len(circles) == 1
    assert {"sheets_gm.running.bot_drift", "sheets_gm.init.start", "sheets_gm.privacy.secrets"} <= set(circles[0])
    assert circles[0][0] == circles[0][-1]


def test_a_module_that_imports_itself_is_a_circle() -> None:
    assert import_circles({"a": {"a"}, "b": {"a"}}) == [["a", "a"]]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


#: Where the house's functions live: the package, and the scripts beside it (benches, checks).
HOUSE = (PACKAGE, SCRIPTS)


def long_functions(roots: Sequence[Path] = HOUSE) -> list[str]:
    """Each function (or method) under each of ``roots`` longer than ``MAX_FUNCTION_LINES``, as 'path:line name
    (n lines)', the path from the folder that holds the root ('sheets_gm/…', 'scripts/…')."""
    found: list[str] = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            where = path.relative_to(root.parent).as_posix()
            found += [f"{where}:{line}" for line in _long_functions_of_file(path)]
    return found


def long_functions_in(source: str, where: str) -> list[str]:
    """Each function of the Python ``source`` (the file ``where``) longer than ``MAX_FUNCTION_LINES``."""
    return [f"{where}:{line}" for line in _long_functions_in_tree(ast.parse(source))]


def _long_functions_in_tree(tree: ast.Module) -> tuple[str, ...]:
    return tuple(f"{node.lineno} {node.name} ({node.end_lineno - node.lineno} lines)"
                 for node in _functions(tree.body)
                 if node.end_lineno is not None and node.end_lineno - node.lineno > MAX_FUNCTION_LINES)


def _functions(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function (or method) defined in the statements ``body``, however deep (a function is a statement)."""
    return (node for node in statements(body) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))


_long_functions_of_file = fact(_long_functions_in_tree)


def test_no_function_is_over_80_lines() -> None:
    long = long_functions()
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines (split each into named steps): " + "; ".join(long)


def test_a_function_of_81_lines_is_refused() -> None:
    """A method counts as a function; 80 lines after its ``def`` is the most allowed."""
    def method(lines: int) -> str:
        return "class C:\n    def f(self) -> None:\n" + "".join(f"        x = {i}\n" for i in range(lines))

    assert long_functions_in(method(MAX_FUNCTION_LINES), "c.py") == []
    assert long_functions_in(method(MAX_FUNCTION_LINES + 1), "c.py") == ["c.py:2 f (81 lines)"]


def test_a_long_function_is_found_wherever_it_is_defined() -> None:
    """In a function, under ``if``/``else``, ``for``/``else``, ``while``, ``with``, ``try``/``except``/``else``/
    ``finally``, ``match``/``case``, as every module's are (each found once, with its line)."""
    def long(name: str, indent: str) -> str:
        return f"{indent}def {name}() -> None:\n" + "".join(f"{indent}    x = {i}\n" for i in range(81))

    blocks = {"if x:": "else:", "for x in y:": "else:", "while x:": "else:", "with x:": "", "try:": "except E:",
              "match x:": ""}
    source = "def outer() -> None:\n" + long("in_function", "    ")
    for n, (head, other) in enumerate(blocks.items()):
        inner = "    case 1:\n" + long(f"case_{n}", "        ") if head == "match x:" else long(f"a_{n}", "    ")
        source += head + "\n" + inner + (f"{other}\n" + long(f"b_{n}", "    ") if other else "")
    source += "try:\n    pass\nexcept E:\n    pass\nelse:\n" + long("try_else", "    ") + "finally:\n" + \
        long("try_finally", "    ")
    found = [line.split()[1] for line in long_functions_in(source, "c.py")]
    assert found == ["outer", "in_function", "a_0", "b_0", "a_1", "b_1", "a_2", "b_2", "a_3", "a_4", "b_4",
                     "case_5", "try_else", "try_finally"], found


#: What runs a match: the rooms ``match/`` (a match's configuration alone) never imports.
RUNNING = ("sheets_gm.running", "sheets_gm.sync.poll", "sheets_gm.poll_gate", "sheets_gm.notify.announce",
           "sheets_gm.demo", "sheets_gm.web")


def running_imports(graph: Mapping[str, set[str]]) -> list[str]:
    """Each import of what runs a match by a module of ``match/``, as 'importer -> imported'."""
    return [f"{module} -> {imported}" for module, imports in sorted(graph.items())
            if module == "sheets_gm.match" or module.startswith("sheets_gm.match.")
            for imported in sorted(imports) if any(imported == r or imported.startswith(r + ".") for r in RUNNING)]


def test_the_match_room_holds_the_configuration_alone() -> None:
    """Issue 65: ``match/`` is a match as the GM configures it; its polls, its page and its notices' sending live in
    rooms named for their jobs (``running/``, ``notify/``, ``demo/``), which read the configuration from it."""
    graph = import_graph()
    assert running_imports(graph) == []
    graph["sheets_gm.match.config"] = graph["sheets_gm.match.config"] | {"sheets_gm.running.run"}  # put back
    assert running_imports(graph) == ["sheets_gm.match.config -> sheets_gm.running.run"]


@pytest.mark.soak
def test_serves_look_walks_no_more_rooms_than_crons_poll() -> None:
    """Issue 65: one look of ``serve`` at a match (``host.visit``) enters no more rooms, and returns to no more rooms
    it left, than cron's poll (``scripts/trace_walk.py``, depth 3): both hand the match to the one poll path, which
    decides a local match's idle poll and waits for the match lock for both (``host.polls.poll_config``)."""
    done = subprocess.run([sys.executable, str(SCRIPTS / "trace_walk.py"), "--depth", "3"], capture_output=True,
                          text=True, check=True, timeout=300)
    figures = {line.split()[0]: tuple(int(n) for n in re.findall(r"(\d+) (?:rooms|returns)", line))
               for line in done.stdout.splitlines() if line.split()[:1] in (["cron"], ["serve"])}
    assert all(s <= c for s, c in zip(figures["serve"], figures["cron"], strict=True)), figures
