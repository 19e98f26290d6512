"""The path search (UW-MOVE-1..6) against the search as first written (tests/urbanwar/reference_geometry.py), each
way it runs: plain Python (`reachable_python`, what runs without numba), numba's compiled flat-array kernel
(`pathkernel.search` behind `reachable`, with the `fast` extra) and that kernel uncompiled (its logic checked where
numba is absent). The same cells in the same first-reached order, the same costs, touched enemies and previous
cells, so the same declared paths (UW-MOVE-4's tie order), and the same destinations picked from them
(`Reach.select`)."""
from __future__ import annotations

from itertools import chain

import numpy as np
import pytest

from envs.urbanwar import geometry as geo
from envs.urbanwar import pathkernel
from tests.urbanwar import reference_geometry as reference
from tests.urbanwar.test_fast_geometry import crowded_windows, models_in, random_positions

COMPILED = pathkernel.compiled()


def with_kernel(kernel):
    """`reachable` with `kernel` as the board's search."""
    def search(board, *args):
        saved, board.kernel = board.kernel, kernel
        try:
            return geo.reachable(board, *args)
        finally:
            board.kernel = saved
    return search


def searches(seeds, crowded: int):
    """(game, mover, mode, allowance, besides) at every placed model of seeded random games (every 4th decision) and
    of crowded reaction windows (where charges stop and break-offs start): a random mode and allowance, a random
    other model left off the table 30 % of the time (the intercept search, UW-OW-13)."""
    rng = np.random.default_rng(7)
    for game in chain((game for game, _ in random_positions(seeds, every=4)), crowded_windows(crowded)):
        placed = [m for m in game.models if m.placed]
        for m in placed:
            mode, allowance = int(rng.integers(3)), int(rng.integers(0, 40))
            others = [o for o in placed if o is not m]
            besides = others[rng.integers(len(others))] if others and rng.random() < 0.3 else None
            yield game, m, mode, allowance, besides


@pytest.mark.parametrize("search, games, crowded, least", [
    pytest.param(geo.reachable_python, range(6), 200, (5000, 500, 100), id="python"),
    pytest.param(with_kernel(COMPILED), range(6), 200, (5000, 500, 100), id="compiled",
                 marks=pytest.mark.skipif(COMPILED is None, reason="numba (the `fast` extra) is not installed")),
    pytest.param(with_kernel(pathkernel.search), range(1), 10, (800, 20, 4), id="kernel-uncompiled"),  # slow
])
def test_UW_MOVE_1_to_6_path_search_is_the_search_as_first_written_ties_included(search, games, crowded, least):
    """`least`: how many searches at the least, of them charges stopped by contact and break-offs started in it."""
    done = charges_stopped = breaks_started = 0
    rng = np.random.default_rng(13)
    for game, m, mode, allowance, besides in searches(games, crowded):
        started = frozenset(e.idx for e in game.enemies_in_contact(m))
        occ, danger = list(game.occ), [frozenset()] * geo.CELLS
        occ[m.cell] = -1
        if besides is not None:
            occ[besides.cell] = -1
        touching = game.touching(m.side, besides=besides)
        for cell, enemies in touching.items():
            danger[cell] = models_in(enemies)
        expected = reference.reachable(game.board, occ, m.cell, allowance, mode, danger, started)
        reach = search(game.board, m.cell, allowance, mode, game.crowd(m.side, besides), geo.model_bits(started))
        reached, came_from = [int(c) for c in reach.cells], reach.came_from
        got = [(c, (int(v), int(came_from[c]))) for c, v in zip(reached, reach.costs)]
        assert got == list(expected.items()), (m.id, mode, allowance)
        assert [int(t) for t in reach.near] == [touching.get(c, 0) for c in reached]
        picks = ((0, 0, geo.UNREACHED), (0, -1, allowance // 2), (int(rng.integers(1, 1 << 12)), 0, 99))
        for need, avoid, most in picks:                           # a move's destinations (activation.moves)
            want = [(c, v) for c, (v, _) in expected.items() if v <= most and not touching.get(c, 0) & avoid
                    and (not need or (touching.get(c, 0) & need and c != m.cell))]
            cells, costs = reach.select(m.cell, need, avoid, most)
            assert list(zip(cells, costs)) == want and all(type(c) is int for c in cells + costs)
        for cell in reached[-3:]:                                  # the declared path (UW-MOVE-4), start first
            path = [cell]
            while expected[path[-1]][1] >= 0:
                path.append(expected[path[-1]][1])
            declared = geo.path_to(came_from, cell)
            assert declared == path[::-1] and all(type(c) is int for c in declared)
        done += 1
        charges_stopped += mode == geo.CHARGE and any(c in touching for c in reached if c != m.cell)
        breaks_started += mode == geo.BREAK and bool(started) and len(reached) > 1
    counts = (done, charges_stopped, breaks_started)
    assert all(count > at_least for count, at_least in zip(counts, least)), counts


def test_the_board_searches_with_the_compiled_kernel_when_numba_is_installed_and_in_python_when_turned_off(
        monkeypatch):
    from envs.urbanwar.game import UrbanWarGame

    assert UrbanWarGame.new(seed=0).board.kernel is COMPILED
    monkeypatch.setenv("RUBBLE_NATIVE", "0")
    assert not pathkernel.wanted()
