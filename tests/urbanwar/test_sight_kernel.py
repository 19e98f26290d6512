"""The compiled sight (envs/urbanwar/sightkernel.py, behind `activation.targets_from` with the `fast` extra) against
the sight lines as bit masks (`geometry.sees`, what runs without numba, itself tested against the catalog's wording
in test_fast_geometry.py): every offset of the table, over random walls and friends, compiled and as plain Python;
and the targets of every placed model of seeded games, from its own cell and the cells it may move to (UW-LOS-1..4,
UW-SHOOT-2/3, UW-AI-10)."""
from __future__ import annotations

import numpy as np
import pytest

from envs.urbanwar import activation, sightkernel
from envs.urbanwar import geometry as geo
from envs.urbanwar.actions import MOVE_SHOOT
from tests.urbanwar.test_fast_geometry import random_positions

COMPILED = sightkernel.compiled()
needs_numba = pytest.mark.skipif(COMPILED is None, reason="numba (the `fast` extra) is not installed")
EVERYWHERE = np.ones(2 * (geo.N - 1) ** 2 + 1, np.bool_)     # a weapon usable at every distance


def obstacles(blockers: np.ndarray, viewer: int, own: int) -> int:
    """`blockers` as `geo.sees` reads them from `viewer`: the walls, and the models but `own`'s and the friends
    within 2" (UW-LOS-3)."""
    walls = blockers & sightkernel.WALL != 0
    models = (blockers & sightkernel.MODEL != 0) & (np.arange(geo.CELLS) != own)
    friends = blockers & sightkernel.FRIEND != 0
    cells = [int(c) for c in np.flatnonzero(walls | (models & ~friends))]
    cells += [int(c) for c in np.flatnonzero(models & friends) if geo.d2(int(c), viewer) > 9]
    return geo.as_seen_from(geo.bits_of(cells), viewer)


def field(rng, density: float) -> np.ndarray:
    """Random blockers: walls, enemies and friends at `density` each, independently (a model may stand on a cell that
    blocks sight, a window)."""
    out = (rng.random(geo.CELLS) < density) * sightkernel.WALL
    models = rng.random(geo.CELLS)
    out[models < 2 * density] |= sightkernel.MODEL
    out[models < density] |= sightkernel.FRIEND
    return out.astype(np.int8)


@pytest.mark.parametrize("kernel, viewers, targets", [
    pytest.param(COMPILED, 12, geo.CELLS, id="compiled", marks=needs_numba),
    pytest.param(sightkernel.targets, 4, 60, id="kernel-uncompiled"),           # slow: a sample of offsets
])
def test_UW_LOS_1_to_4_the_kernel_sees_what_the_bit_masks_see_at_every_offset(kernel, viewers, targets):
    """From the four corners every offset (dx, dy) of the table is some target's; the other viewers at random."""
    rng = np.random.default_rng(5)
    corners = [0, geo.N - 1, geo.CELLS - geo.N, geo.CELLS - 1]
    seen = checked = 0
    for density in (0.02, 0.08, 0.2):
        blockers = field(rng, density)
        for viewer in corners + [int(c) for c in rng.integers(geo.CELLS, size=viewers - 4)]:
            own = int(rng.choice(np.flatnonzero(blockers & sightkernel.MODEL)))    # the shooter's, left: it never blocks
            foes = np.array([c for c in rng.permutation(geo.CELLS)[:targets] if c != viewer], np.int64)
            got = np.empty((1, len(foes)), np.uint8)
            kernel(blockers, own, np.array([viewer], np.int64), foes, EVERYWHERE, geo.LINE_POINTS, got)
            seen_from = obstacles(blockers, viewer, own)
            want = [geo.sees(seen_from, viewer, int(t)) for t in foes]
            assert got[0].tolist() == [int(w) for w in want], (viewer, density)
            seen, checked = seen + sum(want), checked + len(want)
    assert 0 < seen < checked


def targets_python(game, m, cells):
    saved, game.board.sight = game.board.sight, None
    try:
        return activation.targets_from(game, m, cells)
    finally:
        game.board.sight = saved


@needs_numba
def test_UW_SHOOT_2_3_the_compiled_targets_are_the_python_targets_of_every_model_where_it_may_move():
    found = asked = 0
    for game, rng in random_positions(range(8), every=5):
        for m in (m for m in game.models if m.placed):
            free = [c for c in range(geo.CELLS) if game.occ[c] < 0 and game.board.passable[c]]
            cells = [m.cell] + activation.moves(game, m, MOVE_SHOOT).cells + [
                free[i] for i in rng.integers(len(free), size=20)]
            want = targets_python(game, m, cells)
            assert activation.targets_from(game, m, cells) == want, m.id
            found, asked = found + sum(map(len, want)), asked + len(cells)
    assert asked > 20000 and found > 2000

