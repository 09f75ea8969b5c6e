"""One interface for every board, and the route finding all of them share.

Which game uses which board:

- square grids, ``grid.SquareBoard`` (tiles ``A1``, king or rook steps): the guild game (which calls
  ``grid.Grid`` directly, for speed) and Champions (a 4×4 board shrinking to 3×3 and 2×2);
- hex grids in Wesnoth's layout, ``hexgrid.HexGrid`` (hexes ``A1``, six neighbours, line of
  sight): Wesnoth and Win or Die;
- named-square planes, ``planes.Plane`` (squares ``3A``, orthogonal steps, Mirrodin wrapping
  at its edges): the Coalition–Phyrexia game, one ``Plane`` per plane.

A board is a ``Topology`` of its own positions: it lists them in reading order (row by row,
then column), reads and names them for people, and knows the steps between them. Route
finding is written once, here, over any topology: ``cheapest_paths`` (every reachable
position's cost), ``path_to`` (one cheapest route, ties broken by the board's neighbour
order) and ``cheapest_routes`` (every cheapest route, for a ruleset that draws one).

>>> from sheets_gm.engine.grid import Grid, Neighbourhood, SquareBoard
>>> board = SquareBoard(Grid(4, 3), Neighbourhood.ROOK)
>>> [board.label(p) for p in path_to(board, board.parse("A1"), board.parse("C2"), lambda p: 1)]
['B1', 'C1', 'C2']
>>> cheapest_paths(board, board.parse("A1"), lambda p: None if board.label(p) == "B1" else 1)[board.parse("C1")]
4
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Hashable, Iterator
from functools import lru_cache
from typing import Any, Protocol, TypeVar

P = TypeVar("P", bound=Hashable)

#: What entering a position costs: a positive number, or None (or infinity) where it cannot be entered.
EntryCost = Callable[[P], float | None]


class Topology(Protocol[P]):
    """A board's positions and the steps between them.

    Steps are symmetric (``b`` is a neighbour of ``a`` exactly when ``a`` is one of ``b``), and
    ``distance`` counts the steps of the shortest walk on the open board."""

    @property
    def size(self) -> tuple[int, int]:
        """The board's columns and rows."""
        ...

    def cells(self) -> Iterator[P]:
        """Every position, in reading order: row by row, then column."""
        ...

    def contains(self, p: P) -> bool:
        """Whether ``p`` is on the board."""
        ...

    def neighbours(self, p: P) -> list[P]:
        """The positions one step away, in the board's fixed (documented) order."""
        ...

    def distance(self, a: P, b: P) -> int:
        """Steps between two positions on an open board."""
        ...

    def label(self, p: P) -> str:
        """The name people write for ``p``, such as ``F7`` or ``3A``."""
        ...

    def parse(self, text: str) -> P:
        """A position from its name, leniently (case, spaces); CoordError naming the text and the accepted form."""
        ...


def _step_cost(board: Topology[P], cost: EntryCost[P], p: P) -> float | None:
    """``cost(p)`` checked: None where ``p`` cannot be entered; an error naming ``p`` if not positive."""
    c = cost(p)
    if c is None or c == math.inf:
        return None
    if not c > 0:  # also NaN; a free step would let a route walk in circles
        raise ValueError(f"entering {board.label(p)} costs {c}; an entry cost is positive, or None where "
                         f"it cannot be entered")
    return c


def cheapest_paths(board: Topology[P], start: P, cost: EntryCost[P], budget: float | None = None) -> dict[P, float]:
    """Dijkstra from ``start``: what the cheapest route to every reachable position costs (``start`` 0).

    A route pays ``cost(p)`` for every position it enters (not the one it starts on); None or
    infinity means ``p`` cannot be entered. With ``budget``, positions costing more are left out."""
    best: dict[P, float] = {start: 0}
    queue: list[tuple[float, int, P]] = [(0, 0, start)]
    pushed = 0  # a tie-break for the heap, so positions themselves are never compared
    while queue:
        spent, _, here = heapq.heappop(queue)
        if spent > best[here]:
            continue
        for n in board.neighbours(here):
            step = _step_cost(board, cost, n)
            if step is None:
                continue
            total = spent + step
            if (budget is None or total <= budget) and (n not in best or total < best[n]):
                best[n] = total
                pushed += 1
                heapq.heappush(queue, (total, pushed, n))
    return best


def _costs_to(board: Topology[P], goal: P, cost: EntryCost[P], start: P,
              budget: float | None = None) -> dict[P, float]:
    """What the cheapest route from each position to ``goal`` costs (steps are symmetric, so the search
    runs back from the goal: stepping back out of ``p`` undoes an entry that cost ``cost(p)``); with
    ``budget``, positions farther than it are left out.

    The search stops once ``start`` is settled: every position cheaper than the start is final by
    then, and only those lie on a cheapest route from it, so a short route on a big board stays cheap."""
    best: dict[P, float] = {goal: 0}
    queue: list[tuple[float, int, P]] = [(0, 0, goal)]
    pushed = 0
    while queue:
        spent, _, here = heapq.heappop(queue)
        if spent > best[here]:
            continue
        if here == start:
            break
        step = _step_cost(board, cost, here)
        if step is None:
            continue
        total = spent + step
        if budget is not None and total > budget:
            continue
        for n in board.neighbours(here):
            if n not in best or total < best[n]:
                best[n] = total
                pushed += 1
                heapq.heappush(queue, (total, pushed, n))
    return best


def _tight(board: Topology[P], cost: EntryCost[P], to_goal: dict[P, float], here: P) -> Iterator[P]:
    """The neighbours of ``here``, in the board's order, whose entry keeps the route cheapest."""
    left = to_goal[here]
    for n in board.neighbours(here):
        rest = to_goal.get(n)
        if rest is None or rest >= left:
            continue
        step = _step_cost(board, cost, n)
        if step is not None and math.isclose(step + rest, left, rel_tol=1e-12, abs_tol=1e-12):
            yield n


def path_to(board: Topology[P], start: P, goal: P, cost: EntryCost[P], budget: float | None = None
            ) -> list[P] | None:
    """The cheapest route from ``start`` to ``goal``: the positions entered, goal included (``[]`` when
    ``start`` is the goal), or None if no route reaches it (with ``budget``: none costing at most it;
    the search then stays within the budget around the goal, which is what makes a unit's move cheap).

    Among routes of equal cost, the one taken is found by comparing them step by step from the
    start and taking the earlier neighbour in the board's order (Wesnoth's rule: N, NE, SE, S,
    SW, NW on a hex board)."""
    to_goal = _costs_to(board, goal, cost, start, budget)
    if start not in to_goal:
        return None
    path: list[P] = []
    here = start
    while here != goal:
        here = next(_tight(board, cost, to_goal, here))
        path.append(here)
    return path


def cheapest_routes(board: Topology[P], start: P, goal: P, cost: EntryCost[P], limit: int = 1000) -> list[list[P]]:
    """Every cheapest route from ``start`` to ``goal`` (positions entered, goal included), in the canonical
    order of a draw among them: by their positions in reading order. ``[]`` if none reaches the goal;
    ValueError past ``limit`` routes (their number grows fast with the distance).

    >>> from sheets_gm.engine.planes import Plane
    >>> plane = Plane("Dominaria", 24, 9)
    >>> routes = cheapest_routes(plane, plane.parse("2B"), plane.parse("3C"), lambda p: 1)
    >>> [" ".join(map(plane.label, r)) for r in routes]
    ['3B 3C', '2C 3C']
    """
    to_goal = _costs_to(board, goal, cost, start)
    if start not in to_goal:
        return []
    routes: list[list[P]] = []
    stack: list[list[P]] = [[]]
    while stack:
        route = stack.pop()
        here = route[-1] if route else start
        if here == goal:
            if len(routes) == limit:
                raise ValueError(f"more than {limit} cheapest routes from {board.label(start)} to {board.label(goal)}")
            routes.append(route)
            continue
        stack.extend([*route, n] for n in _tight(board, cost, to_goal, here))
    if len(routes) < 2:
        return routes
    place = _reading_order(board)
    return sorted(routes, key=lambda r: [place.get(p, len(place)) for p in r])


def _reading_order(board: Topology[P]) -> dict[P, int]:
    """Each position's place in the board's reading order (kept for boards that can be dict keys)."""
    key: Any = board  # lru_cache wants a hashable key; an unhashable board raises TypeError
    try:
        return _cached_reading_order(key)
    except TypeError:  # an unhashable board: computed each time
        return {p: i for i, p in enumerate(board.cells())}


@lru_cache(maxsize=16)
def _cached_reading_order(board: Any) -> dict[Any, int]:  # Any: lru_cache needs a hashable board
    return {p: i for i, p in enumerate(board.cells())}
