"""What the house tests read of each Python file (its imports, its functions' lengths, its ``.isdigit`` calls),
from one parse of the file a test process: the layers, the circles, the long functions and the odd digits each
read the whole package, and parsing it was most of their time. Only these small facts are kept, not the trees
(a cached tree of the whole package is millions of objects that every later collection of the process walks)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: Each reader of a syntax tree whose answer is kept per file (registered by :func:`fact`), itself the key of its
#: answers (two readers of one name, in two modules, are two readers).
_READERS: list[Callable[[ast.Module], object]] = []


def fact(reader: Callable[[ast.Module], T]) -> Callable[[Path], T]:
    """``reader`` of a syntax tree made a reader of a file, its answer taken from the file's one parse."""
    _READERS.append(reader)

    def of_file(path: Path) -> T:
        facts = _facts(path)
        if reader not in facts:  # registered after the file's parse: parsed again for it alone
            facts[reader] = reader(ast.parse(path.read_text(encoding="utf-8")))
        return facts[reader]  # type: ignore[return-value]

    return of_file


@functools.cache
def _facts(path: Path) -> dict[Callable[[ast.Module], object], object]:
    """Every registered reader's answer for the file ``path``, from one parse of it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {reader: reader(tree) for reader in _READERS}


#: The fields of a statement that hold statements (a function or an import is a statement: it is found in these alone,
#: never in an expression), and of an ``except`` clause or a ``case`` of a ``match``, which hold bodies of their own.
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body``, however deep (a function's, a class's, an ``if``'s, a ``try``'s…): walked
    statement by statement, not through every expression (most of a module's nodes, and most of a walk's time)."""
    for node in body:
        yield node
        for name in _BODIES:
            for inner in getattr(node, name, ()):
                yield from statements(inner.body if isinstance(inner, ast.ExceptHandler | ast.match_case)
                                      else [inner])
