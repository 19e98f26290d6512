"""UW-LOS-1..4 and UW-SHOOT-2/3 over flat arrays: which enemies a model could shoot from each of many cells, the
kernel numba compiles behind `activation.targets_from` when the optional `fast` extra is installed (issue #41: the
scripted shooter weighs every cell it may move to against every enemy, UW-AI-10).

A sight line is walked cell by cell with `geometry._trace_column`'s exact integer arithmetic: positions in
twentieths of an inch, the line's grid crossings at times that are whole numbers over the common denominator
|vx| |vy|, a crossing through a corner one time (the line steps diagonally), the cells those of the midpoints
between consecutive crossings. So it crosses the cells `geometry.sight_masks` names and the answer is `geometry.sees`'
(tests/urbanwar/test_sight_kernel.py compares the two over every offset of the table and the kernel's targets with
the Python search's over seeded games, compiled and as plain Python).

Compiled on its first use, cached by numba beside this module, turned off by RUBBLE_NATIVE=0 (`pathkernel.wanted`).
"""
from __future__ import annotations

import numpy as np

from . import pathkernel
from .config import SIZE

N = SIZE
#: the flags of a cell of the blockers array (UW-LOS-2/3): a wall, a model, a model of the viewer's side (with
#: MODEL: it blocks only beyond 2" of the viewer); OPEN none of them
OPEN, WALL, MODEL, FRIEND = 0, 1, 2, 4
TWENTIETHS = 20
NEVER = 1 << 62                 # a time after every crossing


def targets(blockers, own, cells, foes, usable, points, seen):
    """seen[i, j] = 1 iff a model standing at cells[i] may shoot at the enemy at foes[j], else 0: the weapon usable at
    their squared centre distance (`usable`, per distance, UW-SHOOT-2; base contact is not) and at least 2 of the 5
    sight lines clear (UW-LOS-2/4: from the centre to the target's `points`, in twentieths about its centre), no line
    counting the viewer's or the target's own cell. `blockers` per cell of the board (flags WALL, MODEL, FRIEND);
    `own` the shooter's cell, whose model never blocks (it has left it; -1: none)."""
    half, step = TWENTIETHS // 2, TWENTIETHS
    for i in range(cells.shape[0]):
        viewer = cells[i]
        x0, y0 = viewer % N, viewer // N
        for j in range(foes.shape[0]):
            dx, dy = foes[j] % N - x0, foes[j] // N - y0
            seen[i, j] = 0
            if not usable[dx * dx + dy * dy]:
                continue
            clear = 0
            for k in range(points.shape[0]):
                vx, vy = step * dx + points[k, 0], step * dy + points[k, 1]
                avx, avy = abs(vx), abs(vy)
                ax, ay = max(avx, 1), max(avy, 1)
                whole, centre = 2 * step * ax * ay, step * ax * ay      # the cell of time mid / 2 over ax ay
                sx, sy, last, is_clear = half, half, -1, True
                while True:                     # the crossings of vertical (sx) and horizontal (sy) grid lines
                    tx = sx * ay if sx < avx else NEVER
                    ty = sy * ax if sy < avy else NEVER
                    t = min(tx, ty)
                    if t == NEVER:
                        break
                    if tx == t:
                        sx += step
                    if ty == t:
                        sy += step
                    if last >= 0:               # the cell between two crossings (not the viewer's, not the target's)
                        x = (centre + vx * (last + t)) // whole
                        y = (centre + vy * (last + t)) // whole
                        c = viewer + y * N + x
                        b = blockers[c]
                        if b & WALL or (b & MODEL and c != own and not (b & FRIEND and x * x + y * y <= 9)):
                            is_clear = False
                            break
                    last = t
                if is_clear:
                    clear += 1
                    if clear == 2:
                        seen[i, j] = 1
                        break
                elif clear + points.shape[0] - 1 - k < 2:
                    break


_UNSET = object()
_compiled = _UNSET


def compiled():
    """`targets` compiled by numba (or loaded from numba's cache) on the first call, or None when numba is absent
    or turned off (the caller then runs its Python search)."""
    global _compiled
    if _compiled is _UNSET:
        _compiled = _njit(targets) if pathkernel.wanted() else None
    return _compiled


def _njit(function):
    import numba  # imported only here: importing numba takes a few tenths of a second

    kernel = numba.njit(cache=True, nogil=True)(function)
    kernel(np.zeros(N * N, np.int8), -1, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.bool_),
           np.zeros((1, 2), np.int64), np.zeros((1, 1), np.uint8))
    return kernel
