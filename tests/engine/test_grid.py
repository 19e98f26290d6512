"""Grid: bounds, neighbours, distances, square IDs, MegaSquares, step and path costs."""
from __future__ import annotations

import numpy as np
import pytest

from envs.engine.grid import (
    DIRECTIONS8,
    Grid,
    cheapest_costs,
    chebyshev,
    clips_corner,
    euclidean_sq,
    manhattan,
    megasquare,
    megasquare_cells,
    megasquare_distance,
    megasquare_id,
    parse_megasquare_id,
    parse_square_id,
    path_cost,
    square_id,
    step_cost,
)

# Bounds and indices --------------------------------------------------------------------------------

def test_in_bounds_and_index_round_trip():
    grid = Grid(5, 3)
    assert grid.shape == (3, 5) and grid.size == 15
    assert grid.in_bounds((4, 2)) and not grid.in_bounds((5, 0)) and not grid.in_bounds((0, -1))
    assert [grid.index(c) for c in grid.cells()] == list(range(15))
    assert all(grid.cell(grid.index(c)) == c for c in grid.cells())


def test_index_errors():
    grid = Grid(5, 3)
    with pytest.raises(ValueError, match="off the 5x3 board"):
        grid.index((5, 0))
    with pytest.raises(ValueError, match="outside"):
        grid.cell(15)
    with pytest.raises(ValueError):
        Grid(0, 4)


# Neighbours ----------------------------------------------------------------------------------------

def test_neighbour_order_is_n_e_s_w_then_diagonals():
    # y grows southwards; the order is UW-MOVE-4's tie order.
    assert Grid(3, 3).neighbours((1, 1)) == [(1, 0), (2, 1), (1, 2), (0, 1), (2, 0), (2, 2), (0, 2), (0, 0)]
    assert Grid(3, 3).neighbours((1, 1), eight=False) == [(1, 0), (2, 1), (1, 2), (0, 1)]


def test_corner_cell_neighbours():
    assert Grid(3, 3).neighbours((0, 0)) == [(1, 0), (0, 1), (1, 1)]


@pytest.mark.parametrize("eight", [True, False])
def test_neighbour_table_matches_neighbours(eight):
    grid = Grid(6, 4)
    table = grid.neighbour_table(eight)
    assert table.shape == (24, 8 if eight else 4)
    for cell in grid.cells():
        row = table[grid.index(cell)]
        assert [grid.cell(i) for i in row if i >= 0] == grid.neighbours(cell, eight)


def test_tables_are_cached_and_read_only():
    grid = Grid(4, 4)
    assert grid.neighbour_table() is Grid(4, 4).neighbour_table()
    with pytest.raises(ValueError):
        grid.neighbour_table()[0, 0] = 3


# Distances -----------------------------------------------------------------------------------------

def test_scalar_distances():
    a, b = (1, 2), (4, -2)
    assert chebyshev(a, b) == 4 and manhattan(a, b) == 7 and euclidean_sq(a, b) == 25
    assert chebyshev(a, a) == 0  # CF-GRID-3: own square is range 0


@pytest.mark.parametrize("metric,func", [("chebyshev", chebyshev), ("manhattan", manhattan),
                                          ("euclidean_sq", euclidean_sq)])
def test_distance_tables_match_scalars(metric, func):
    grid = Grid(5, 4)
    table = grid.distance_table(metric)
    cells = grid.cells()
    expected = np.array([[func(a, b) for b in cells] for a in cells])
    assert np.array_equal(table, expected)


def test_unknown_metric():
    with pytest.raises(ValueError, match="unknown metric"):
        Grid(2, 2).distance_table("taxicab")


# Square IDs (CF-GRID-2) ----------------------------------------------------------------------------

def test_CF_GRID_2_square_id_example():
    assert square_id((10, 5)) == "k6"
    assert parse_square_id("k6") == (10, 5)
    assert square_id((0, 0)) == "a1"


def test_square_ids_round_trip_beyond_z():
    for x in range(60):
        for y in (0, 47):
            assert parse_square_id(square_id((x, y))) == (x, y)
    assert square_id((25, 0)) == "z1" and square_id((26, 0)) == "aa1"


@pytest.mark.parametrize("text", ["", "k", "6", "k0", "K6", "k-1", "6k", "é3"])
def test_bad_square_ids(text):
    with pytest.raises(ValueError):
        parse_square_id(text)


# MegaSquares (CF-GRID-1, 2, 4) -----------------------------------------------------------------------

def test_CF_GRID_2_megasquare_D2_is_columns_j_to_l_rows_4_to_6():
    block = parse_megasquare_id("D2")
    cells = megasquare_cells(block)
    assert {square_id(c)[0] for c in cells} == {"j", "k", "l"}
    assert {c[1] + 1 for c in cells} == {4, 5, 6}
    assert all(megasquare(c) == block for c in cells)
    assert megasquare_id(megasquare(parse_square_id("k6"))) == "D2"


def test_megasquare_id_rejects_lower_case():
    with pytest.raises(ValueError):
        parse_megasquare_id("d2")


def test_CF_GRID_4_megasquare_distance():
    here = parse_square_id("k6")
    assert megasquare_distance(here, parse_square_id("j4")) == 0   # own
    assert megasquare_distance(here, parse_square_id("m7")) == 1   # adjacent
    assert megasquare_distance(here, parse_square_id("p1")) == 2   # peri-adjacent
    assert megasquare_distance(here, parse_square_id("i3")) == 1   # diagonal block


def test_megasquare_table():
    grid = Grid(18, 18)
    table = grid.megasquare_table()
    assert table[5, 10] == 1 * 6 + 3  # k6 is in D2
    with pytest.raises(ValueError, match="CF-GRID-1"):
        Grid(10, 9).megasquare_table()


# Steps and paths (KC-MAP-4, UW-MOVE-1) ---------------------------------------------------------------

def test_KC_MAP_4_step_costs():
    assert step_cost((3, 3), (3, 4)) == 2
    assert step_cost((3, 3), (4, 4)) == 3
    assert step_cost((3, 3), (2, 2), orth=1, diag=1) == 1
    with pytest.raises(ValueError, match="not a step"):
        step_cost((3, 3), (5, 3))
    with pytest.raises(ValueError):
        step_cost((3, 3), (3, 3))


def test_path_cost():
    assert path_cost([(0, 0), (1, 1), (2, 1), (3, 2)]) == 3 + 2 + 3
    assert path_cost([(0, 0)]) == 0


def test_KC_MAP_4_diagonal_may_not_clip_an_impassable_corner():
    walls = {(1, 0)}
    blocked = walls.__contains__
    assert clips_corner((0, 0), (1, 1), blocked)
    assert clips_corner((1, 1), (0, 0), blocked)
    assert not clips_corner((0, 1), (1, 2), blocked)
    assert not clips_corner((0, 0), (0, 1), blocked)  # orthogonal steps never clip


def test_cheapest_costs_open_ground():
    grid = Grid(5, 4)
    cost, parent = cheapest_costs(grid, (0, 0), np.ones(grid.shape, bool))
    assert cost[0, 0] == 0 and cost[1, 1] == 3 and cost[3, 4] == 3 * 3 + 2
    assert parent[0, 0] == -1 and parent[1, 1] == grid.index((0, 0))


def test_cheapest_costs_matches_brute_force_on_random_maps():
    rng = np.random.default_rng(5)
    grid = Grid(7, 6)
    for _ in range(20):
        passable = rng.random(grid.shape) > 0.3
        mult = rng.integers(1, 3, grid.shape)
        cost, _ = cheapest_costs(grid, (0, 0), passable, mult)
        assert np.array_equal(cost, _bellman_ford(grid, passable, mult))


def _bellman_ford(grid, passable, mult):
    cost = {(0, 0): 0}
    for _ in range(grid.size):
        for a in list(cost):
            for b in grid.neighbours(a):
                ok = passable[b[1], b[0]] and not clips_corner(a, b, lambda c: not passable[c[1], c[0]])
                new = cost[a] + step_cost(a, b) * mult[b[1], b[0]]
                if ok and new < cost.get(b, 10**9):
                    cost[b] = new
    out = np.full(grid.shape, -1)
    for (x, y), c in cost.items():
        out[y, x] = c
    return out


def test_cheapest_costs_respects_budget_and_walls():
    grid = Grid(5, 1)
    passable = np.array([[True, True, False, True, True]])
    cost, _ = cheapest_costs(grid, (0, 0), passable)
    assert cost.tolist() == [[0, 2, -1, -1, -1]]
    cost, _ = cheapest_costs(Grid(5, 1), (0, 0), np.ones((1, 5), bool), max_cost=5)
    assert cost.tolist() == [[0, 2, 4, -1, -1]]


def test_cheapest_costs_corner_clip_can_be_allowed():
    grid = Grid(2, 2)
    passable = np.array([[True, False], [False, True]])
    assert cheapest_costs(grid, (0, 0), passable)[0][1, 1] == -1
    assert cheapest_costs(grid, (0, 0), passable, no_corner_clip=False)[0][1, 1] == 3


def test_directions_are_unit_steps():
    assert len(set(DIRECTIONS8)) == 8 and all(chebyshev((0, 0), d) == 1 for d in DIRECTIONS8)
