"""The house (issue 65): no circle of imports among the ``sheets_gm`` modules, no function over 80 lines.

Imports are read as ``test_layers`` reads them, from the source, every one counted (inside functions and under
``TYPE_CHECKING`` too): a lazy import hides a circle from Python, not from the reader.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

from tests.test_layers import PACKAGE, imports_in, imports_of, module_name

#: The longest a function may be: its last line's number less its ``def``'s (``end_lineno - lineno``).
MAX_FUNCTION_LINES = 80


def import_graph() -> dict[str, set[str]]:
    """Each ``sheets_gm`` module with the ``sheets_gm`` modules it imports."""
    return {module_name(path): imports_of(path) for path in sorted(PACKAGE.rglob("*.py"))}


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
    """The circle issue 65 broke (``bot_drift`` reading the roster's bots from ``run``, inside a function), put
    back into the real graph, is the one the test above fails on."""
    graph = import_graph()
    source = "def configured_bots() -> None:\n    from sheets_gm.running.run import roster_bots, roster_file_of\n"
    graph["sheets_gm.running.bot_drift"] |= imports_in(source)
    circles = import_circles(graph)
    assert len(circles) == 1
    assert {"sheets_gm.running.bot_drift", "sheets_gm.running.run", "sheets_gm.privacy.secrets"} <= set(circles[0])
    assert circles[0][0] == circles[0][-1]


def test_a_module_that_imports_itself_is_a_circle() -> None:
    assert import_circles({"a": {"a"}, "b": {"a"}}) == [["a", "a"]]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def long_functions(root: Path = PACKAGE) -> list[str]:
    """Each function (or method) under ``root`` longer than ``MAX_FUNCTION_LINES``, as 'path:line name (n lines)'."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        found += long_functions_in(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
    return found


def long_functions_in(source: str, where: str) -> list[str]:
    """Each function of the Python ``source`` (the file ``where``) longer than ``MAX_FUNCTION_LINES``."""
    return [f"{where}:{node.lineno} {node.name} ({node.end_lineno - node.lineno} lines)"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
            and node.end_lineno - node.lineno > MAX_FUNCTION_LINES]


def test_no_function_is_over_80_lines() -> None:
    long = long_functions()
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines (split each into named steps): " + "; ".join(long)


def test_a_function_of_81_lines_is_refused() -> None:
    """A method counts as a function; 80 lines after its ``def`` is the most allowed."""
    def method(lines: int) -> str:
        return "class C:\n    def f(self) -> None:\n" + "".join(f"        x = {i}\n" for i in range(lines))

    assert long_functions_in(method(MAX_FUNCTION_LINES), "c.py") == []
    assert long_functions_in(method(MAX_FUNCTION_LINES + 1), "c.py") == ["c.py:2 f (81 lines)"]
