"""Line of sight: exact supercover traces, the corner rule (CF-LOS-2), end cells (CF-LOS-1), symmetry, tables."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from envs.engine.grid import Grid, chebyshev
from envs.engine.los import CORNER_RULES, Crossing, crossed_cells, is_blocked, line_of_sight, los_table, segment_clear, trace, trace_centres


def _map(rows: list[str]) -> np.ndarray:
    """(H, W) bool blocking map from text: '#' blocks."""
    return np.array([[ch == "#" for ch in row] for row in rows])


# Hand-made cases -----------------------------------------------------------------------------------

def test_straight_line_blocked_by_a_middle_cell():
    blocks = _map([".#."])
    assert not line_of_sight((0, 0), (2, 0), blocks)
    assert line_of_sight((0, 0), (1, 0), blocks)


def test_CF_LOS_1_end_cells_never_block():
    blocks = _map(["#.#"])
    assert line_of_sight((0, 0), (2, 0), blocks)
    assert line_of_sight((0, 0), (0, 0), blocks)


def test_segment_crosses_only_cells_it_enters():
    # (0.5, 0.5) -> (4.5, 2.5), slope 1/2: crosses y = 1 at x = 1.5 and y = 2 at x = 3.5, no corner.
    assert crossed_cells((0, 0), (4, 2)) == [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (3, 2), (4, 2)]
    blocks = _map(["..#..", ".....", "#...."])
    assert line_of_sight((0, 0), (4, 2), blocks)


def test_CF_LOS_2_corner_blocked_only_if_both_beside_block():
    both = _map([".#", "#."])
    one = _map([".#", ".."])
    assert not line_of_sight((0, 0), (1, 1), both, corner="both")
    assert line_of_sight((0, 0), (1, 1), one, corner="both")
    assert line_of_sight((1, 0), (0, 1), both, corner="both")  # the other diagonal passes between blockers' ends


def test_corner_rules_either_and_never():
    both, one = _map([".#", "#."]), _map([".#", ".."])
    assert not line_of_sight((0, 0), (1, 1), one, corner="either")
    assert line_of_sight((0, 0), (1, 1), both, corner="never")  # KC-MAP-7: corners never block


def test_corner_passed_mid_segment():
    # (0.5, 0.5) -> (3.5, 1.5) passes the exact corner (2, 1): beside it lie (2, 0) and (1, 1).
    crossing = trace_centres((0, 0), (3, 1))
    assert crossing.cells == ((0, 0), (1, 0), (2, 1), (3, 1))
    assert crossing.beside == (((2, 0), (1, 1)),)
    assert not line_of_sight((0, 0), (3, 1), _map(["..#.", ".#.."]))
    assert line_of_sight((0, 0), (3, 1), _map(["..#.", "...."]))


def test_long_diagonal_passes_every_corner():
    crossing = trace_centres((0, 0), (3, 3))
    assert crossing.cells == ((0, 0), (1, 1), (2, 2), (3, 3))
    assert len(crossing.beside) == 3


def test_CF_LOS_3_like_predicates_are_plain_callables():
    walls = {(1, 0)}
    assert not line_of_sight((0, 0), (2, 0), walls.__contains__)
    assert line_of_sight((0, 0), (0, 2), walls.__contains__)


def test_unknown_corner_rule():
    with pytest.raises(ValueError, match="corner rule"):
        line_of_sight((0, 0), (1, 1), _map(["..", ".."]), corner="sometimes")
    with pytest.raises(ValueError, match="corner rule"):
        los_table(_map([".."]), corner="sometimes")


def test_smoke_reading_of_crossed_cells():
    # CF-LOS-4: no LOS if either end (when distinct) or a crossed square has smoke.
    smoke = {(2, 1)}
    path = crossed_cells((0, 0), (4, 2))
    assert path[0] == (0, 0) and path[-1] == (4, 2) and any(c in smoke for c in path)


def test_K47_cover_cells_near_target():
    # KC-MAP-9: cover from a cell 8-adjacent to the target that the LOS crosses.
    target = (5, 2)
    near = [c for c in crossed_cells((0, 0), target) if chebyshev(c, target) == 1]
    assert near == [(4, 1), (4, 2)]  # y = 1.9 at x = 4: the line dips into (4, 1) first


# Exact points (KB-GRID-4 opening points, UW-LOS-2 sight lines) --------------------------------------

def test_floats_are_read_as_decimals():
    a = trace((0.5, 0.5), (2.05, 3.45))
    b = trace((Fraction(1, 2), Fraction(1, 2)), (Fraction(41, 20), Fraction(69, 20)))
    assert a == b


def test_segment_from_an_edge_midpoint_starts_in_the_cell_it_enters():
    # An opening on the east wall of cell (1, 1) at (2, 1.5), looking east then west.
    assert trace((2, 1.5), (4.5, 1.5)).cells == ((2, 1), (3, 1), (4, 1))
    assert trace((2, 1.5), (0.5, 1.5)).cells == ((1, 1), (0, 1))


def test_segment_along_a_grid_line_crosses_no_interior():
    crossing = trace((1, 0), (1, 3))
    assert crossing.cells == ()
    assert crossing.beside == (((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (1, 2)))
    horizontal = trace((3, 2), (1, 2))
    assert horizontal.cells == () and horizontal.beside == (((2, 1), (2, 2)), ((1, 1), (1, 2)))


def test_segment_along_a_line_between_walls():
    walls = _map(["##", "##"])
    assert segment_clear((1, 0), (1, 2), walls, corner="never")
    assert not segment_clear((1, 0), (1, 2), walls, corner="both")


def test_segment_clear_with_exempt_cells():
    walls = _map([".#."])
    assert not segment_clear((0.5, 0.5), (2.5, 0.5), walls)
    assert segment_clear((0.5, 0.5), (2.5, 0.5), walls, exempt=[(1, 0)])


def test_zero_length_segment():
    assert trace((1.5, 2.5), (1.5, 2.5)) == Crossing(((1, 2),))


# Brute-force reference -----------------------------------------------------------------------------

_BIG = Fraction(10**9)


def _open_interval(c0, d, lo, hi):
    """Parameters t with lo < c0 + t*d < hi, as an open interval (or None)."""
    if d == 0:
        return (-_BIG, _BIG) if lo < c0 < hi else None
    t1, t2 = (lo - c0) / d, (hi - c0) / d
    return min(t1, t2), max(t1, t2)


def _box(p0, p1):
    """Cells (and grid corners) of the segment's bounding box, with a margin of one."""
    xs, ys = sorted((p0[0], p1[0])), sorted((p0[1], p1[1]))
    return product(range(int(xs[0]) - 1, int(xs[1]) + 2), range(int(ys[0]) - 1, int(ys[1]) + 2))


def _brute_cells(p0, p1):
    (x0, y0), (x1, y1) = p0, p1
    found = []
    for cx, cy in _box(p0, p1):
        ix, iy = _open_interval(x0, x1 - x0, cx, cx + 1), _open_interval(y0, y1 - y0, cy, cy + 1)
        if ix and iy:
            lo, hi = max(ix[0], iy[0], 0), min(ix[1], iy[1], 1)
            if lo < hi:
                found.append((lo, (cx, cy)))
    return [cell for _, cell in sorted(found)]


def _brute_corners(p0, p1, crossed):
    (x0, y0), (x1, y1) = p0, p1
    pairs = set()
    for gx, gy in _box(p0, p1):
        cross = (gx - x0) * (y1 - y0) - (gy - y0) * (x1 - x0)
        t = (gx - x0) / (x1 - x0) if x1 != x0 else (gy - y0) / (y1 - y0)
        if cross == 0 and 0 < t < 1 and x0 != x1 and y0 != y1:
            around = {(gx - 1, gy - 1), (gx, gy - 1), (gx - 1, gy), (gx, gy)}
            pairs.add(frozenset(around - set(crossed)))
    return pairs


def _random_point(rng):
    # Quarter units hit cell centres, edges, corners and interior points alike.
    return Fraction(int(rng.integers(0, 29)), 4), Fraction(int(rng.integers(0, 29)), 4)


def test_trace_matches_brute_force_on_random_segments():
    rng = np.random.default_rng(17)
    for _ in range(400):
        p0, p1 = _random_point(rng), _random_point(rng)
        if p0 == p1 or p0[0] == p1[0] and p0[0].denominator == 1 or p0[1] == p1[1] and p0[1].denominator == 1:
            continue  # zero length and along-a-line segments have their own tests
        crossing = trace(p0, p1)
        assert list(crossing.cells) == _brute_cells(p0, p1), (p0, p1)
        assert {frozenset(p) for p in crossing.beside} == _brute_corners(p0, p1, crossing.cells), (p0, p1)


def test_trace_steps_are_adjacent_and_diagonal_only_at_corners():
    rng = np.random.default_rng(3)
    for _ in range(300):
        a, b = tuple(rng.integers(0, 12, 2)), tuple(rng.integers(0, 12, 2))
        crossing = trace_centres(a, b)
        steps = list(zip(crossing.cells, crossing.cells[1:]))
        assert crossing.cells[0] == a and crossing.cells[-1] == b
        assert all(chebyshev(p, q) == 1 for p, q in steps)
        assert sum(p[0] != q[0] and p[1] != q[1] for p, q in steps) == len(crossing.beside)


# Symmetry and tables -------------------------------------------------------------------------------

@pytest.mark.parametrize("corner", CORNER_RULES)
def test_los_is_symmetric_on_random_maps(corner):
    rng = np.random.default_rng(2024)
    grid = Grid(7, 6)
    for _ in range(6):
        blocks = rng.random(grid.shape) < 0.35
        for a, b in product(grid.cells(), repeat=2):
            assert line_of_sight(a, b, blocks, corner) == line_of_sight(b, a, blocks, corner), (a, b)


def test_trace_reversed_crosses_the_same_cells():
    rng = np.random.default_rng(8)
    for _ in range(200):
        p0, p1 = _random_point(rng), _random_point(rng)
        forward, backward = trace(p0, p1), trace(p1, p0)
        assert forward.cells == tuple(reversed(backward.cells))
        assert {frozenset(p) for p in forward.beside} == {frozenset(p) for p in backward.beside}


@pytest.mark.parametrize("corner", CORNER_RULES)
def test_los_table_matches_pairwise_function(corner):
    rng = np.random.default_rng(99)
    grid = Grid(9, 6)
    blocks = rng.random(grid.shape) < 0.3
    table = los_table(blocks, corner)
    assert table.shape == (grid.size, grid.size) and np.array_equal(table, table.T)
    for a, b in product(grid.cells(), repeat=2):
        assert table[grid.index(a), grid.index(b)] == line_of_sight(a, b, blocks, corner), (a, b)


def test_los_table_of_open_map_is_all_true():
    assert los_table(np.zeros((4, 5), bool)).all()


def test_is_blocked_exempts_cells_in_corner_pairs():
    crossing = trace_centres((0, 0), (1, 1))
    walls = _map([".#", "#."])
    assert is_blocked(crossing, walls)
    assert not is_blocked(crossing, walls, exempt=[(1, 0)])
