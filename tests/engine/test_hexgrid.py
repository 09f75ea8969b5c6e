"""Hex boards in Wesnoth's layout: neighbours, distances and Win or Die's line of sight."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.engine.grid import Coord, CoordError
from sheets_gm.engine.hexgrid import Hex, HexGrid
from tests.quick import soak_but

BOARD = HexGrid(9, 7)
hexes = st.builds(Hex, st.integers(0, BOARD.width - 1), st.integers(0, BOARD.height - 1))


def labels(items: Iterable[Hex | tuple[Hex, Hex]]) -> list[str]:
    """Hexes as ``C3``, edges between two hexes as ``B1|B2``."""
    return [h.label if isinstance(h, Coord) else f"{h[0].label}|{h[1].label}" for h in items]


def test_neighbours_follow_the_rulings_layout_in_the_order_n_ne_se_s_sw_nw() -> None:
    # C is an odd column (1-based): its sides are rows r-1 and r; D is even: rows r and r+1.
    assert labels(BOARD.neighbours(BOARD.parse("C3"))) == ["C2", "D2", "D3", "C4", "B3", "B2"]
    assert labels(BOARD.neighbours(BOARD.parse("D3"))) == ["D2", "E3", "E4", "D4", "C4", "C3"]
    assert labels(BOARD.neighbours(BOARD.parse("A1"))) == ["B1", "A2"]
    assert labels(BOARD.neighbours(BOARD.parse("I7"))) == ["I6", "H7", "H6"]


def test_distances_by_hand() -> None:
    d = BOARD.distance
    p = BOARD.parse
    assert d(p("A1"), p("A7")) == 6 and d(p("A1"), p("I1")) == 8
    assert d(p("A1"), p("B2")) == 2 and d(p("B1"), p("A2")) == 1 and d(p("A2"), p("B1")) == 1
    assert d(p("C3"), p("E2")) == 2 and d(p("C3"), p("E5")) == 3


def test_a_hex_off_the_board_or_unreadable_is_named() -> None:
    with pytest.raises(CoordError, match=r"^'Z99' is off the board: columns A–I, rows 1–7 \(A1 to I7\)$"):
        BOARD.parse("Z99")
    with pytest.raises(CoordError, match=r"^'4C' is not a hex: write its column letter then its row number, like "
                                         r"C3 \(A1 to I7\)$"):
        BOARD.parse("4C")
    assert BOARD.parse(" c 3 ").label == "C3" and BOARD.label(BOARD.parse("c03")) == "C3"


def sight(a: str, b: str, *blocking: str) -> bool:
    walls = {BOARD.parse(t) for t in blocking}
    return BOARD.sees(BOARD.parse(a), BOARD.parse(b), walls.__contains__)


def test_a_straight_line_down_a_column_is_blocked_by_a_hex_in_between() -> None:
    line = BOARD.sight_line(BOARD.parse("C1"), BOARD.parse("C5"))
    assert labels(line.through) == ["C1", "C2", "C3", "C4", "C5"] and line.edges == ()
    assert not sight("C1", "C5", "C3")
    assert sight("C1", "C5", "B3", "D3", "B2", "D2")  # beside the column
    assert sight("C1", "C5", "C1", "C5")  # the two units' own hexes never block


def test_a_line_along_an_edge_is_blocked_only_when_both_sides_block() -> None:
    # A2 and C2 (centres level): the line runs along the edge between B1 and B2, the way the
    # rulebook's picture draws it.
    line = BOARD.sight_line(BOARD.parse("A2"), BOARD.parse("C2"))
    assert labels(line.through) == ["A2", "C2"] and labels(line.edges) == ["B1|B2"]
    assert sight("A2", "C2", "B1") and sight("A2", "C2", "B2")
    assert not sight("A2", "C2", "B1", "B2")
    # A1 and B2 (two steps, SE then S): along the edge between B1 and A2, at 60 degrees.
    assert labels(BOARD.sight_line(BOARD.parse("A1"), BOARD.parse("B2")).edges) == ["B1|A2"]
    assert sight("A1", "B2", "B1") and sight("A1", "B2", "A2") and not sight("A1", "B2", "B1", "A2")
    # A long level line alternates: inside a hex, along an edge, inside the next…
    line = BOARD.sight_line(BOARD.parse("A3"), BOARD.parse("G3"))
    assert labels(line.through) == ["A3", "C3", "E3", "G3"]
    assert labels(line.edges) == ["B2|B3", "D2|D3", "F2|F3"]
    assert not sight("A3", "G3", "C3") and sight("A3", "G3", "D2", "F3") and not sight("A3", "G3", "D2", "D3")


def test_a_line_crossing_an_edge_at_one_point_passes_through_both_hexes() -> None:
    # A1 (0, 0) to E2 (12, 2) in the stretched frame: y = x / 6 meets the edge between C1 and C2
    # at (6, 1), going from C1's inside into C2's. Before: the sampled line landed on that point
    # and took it for a run along the edge, so C1 alone did not block.
    line = BOARD.sight_line(BOARD.parse("A1"), BOARD.parse("E2"))
    assert labels(line.through) == ["A1", "B1", "C1", "C2", "D1", "E2"] and line.edges == ()
    assert not sight("A1", "E2", "C1") and not sight("A1", "E2", "C2")


def test_an_edge_on_the_border_is_never_blocked() -> None:
    # A1 to C1 runs along B1's top edge, with nothing on the other side.
    assert BOARD.sight_line(BOARD.parse("A1"), BOARD.parse("C1")).edges == ()
    assert sight("A1", "C1", "B1")


def test_a_line_through_a_corner_does_not_pass_through_the_hex_it_touches() -> None:
    # A1 to F2 passes through the corner where B1, C1 and C2 meet, going from B1 into C2:
    # C1 is only touched.
    line = BOARD.sight_line(BOARD.parse("A1"), BOARD.parse("F2"))
    assert labels(line.through) == ["A1", "B1", "C2", "D1", "E2", "F2"] and line.edges == ()
    assert sight("A1", "F2", "C1")
    assert not sight("A1", "F2", "B1") and not sight("A1", "F2", "C2") and not sight("A1", "F2", "D1")


def test_adjacent_hexes_always_see_each_other() -> None:
    everything = set(BOARD.cells())
    for a in BOARD.cells():
        for b in BOARD.neighbours(a):
            assert BOARD.sees(a, b, everything.__contains__)


@functools.cache
def centre(h: Hex) -> tuple[float, float]:
    """The centre of ``h`` in real coordinates (√3 spacing; worked out once a hex, the exhaustive walk asks for each
    centre thousands of times)."""
    return 1.5 * h.col, math.sqrt(3) * (h.row + (h.col & 1) / 2)


def reference_sight_line(a: Hex, b: Hex, board: HexGrid = BOARD) -> tuple[list[Hex], list[frozenset[Hex]]]:
    """The same question answered another way: real coordinates (√3 spacing, floats), and the hex a
    point is in found as the nearest centre (a hex tiling is the Voronoi diagram of its centres).
    The segment is cut wherever it crosses the bisector of two neighbouring hexes; in between,
    one nearest centre means inside that hex, two at the same distance mean along their edge."""
    near = [Hex(c, r) for c in range(min(a.col, b.col) - 1, max(a.col, b.col) + 2)
            for r in range(-2, board.height + 2)]
    (x0, y0), (x1, y1) = centre(a), centre(b)
    dx, dy = x1 - x0, y1 - y0
    cuts = {0.0, 1.0}
    wide = HexGrid(99, 99)  # every hex of ``near`` and its neighbours, two columns and rows in
    for h in near:
        for n in wide.neighbours(Hex(h.col + 2, h.row + 2)):
            n = Hex(n.col - 2, n.row - 2)
            (hx, hy), (nx, ny) = centre(h), centre(n)
            denominator = 2 * (dx * (nx - hx) + dy * (ny - hy))
            if abs(denominator) > 1e-12:
                t = (nx * nx + ny * ny - hx * hx - hy * hy - 2 * (x0 * (nx - hx) + y0 * (ny - hy))) / denominator
                if 0 < t < 1:
                    cuts.add(t)
    through: list[Hex] = []
    edges: list[frozenset[Hex]] = []
    points = sorted(cuts)
    centres = {h: centre(h) for h in near}
    for t0, t1 in itertools.pairwise(points):
        if t1 - t0 < 1e-9:
            continue
        t = (t0 + t1) / 2
        px, py = x0 + t * dx, y0 + t * dy
        dist = {h: math.hypot(px - cx, py - cy) for h, (cx, cy) in centres.items()}
        least = min(dist.values())
        nearest = [h for h, d in dist.items() if d < least + 1e-9]
        if len(nearest) == 1 and (not through or through[-1] != nearest[0]):
            through.append(nearest[0])
        elif len(nearest) == 2 and all(board.contains(h) for h in nearest):
            edge = frozenset(nearest)
            if not edges or edges[-1] != edge:
                edges.append(edge)
    return through, edges


@pytest.mark.parametrize("examples", soak_but([150, 40], 40))
def test_the_sight_line_is_what_real_geometry_finds(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(hexes, hexes)
    def walk(a: Hex, b: Hex) -> None:
        line = BOARD.sight_line(a, b)
        through, edges = reference_sight_line(a, b)
        assert list(line.through) == through
        assert [frozenset(e) for e in line.edges] == edges

    walk()


@pytest.mark.parametrize("examples", soak_but([150, 50], 50))
def test_line_of_sight_is_symmetric_and_adjacent_hexes_always_see_each_other(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(hexes, hexes, st.sets(hexes, max_size=12))
    def walk(a: Hex, b: Hex, walls: set[Hex]) -> None:
        assert BOARD.sees(a, b, walls.__contains__) == BOARD.sees(b, a, walls.__contains__)
        if BOARD.distance(a, b) <= 1:
            assert BOARD.sees(a, b, walls.__contains__)

    walk()


@pytest.mark.slow
def test_every_sight_line_of_a_small_board_is_what_real_geometry_finds() -> None:
    board = HexGrid(7, 5)
    for a in board.cells():
        for b in board.cells():
            line = board.sight_line(a, b)
            through, edges = reference_sight_line(a, b, board)
            assert (list(line.through), [frozenset(e) for e in line.edges]) == (through, edges), (a.label, b.label)
