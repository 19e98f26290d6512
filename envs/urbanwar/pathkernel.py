"""UW-MOVE-1..6's cheapest-path search over flat arrays: the kernel numba compiles behind `geometry.reachable` when
the optional `fast` extra is installed (issue #17). It is `geometry.reachable_python` step for step, so the cells
come out in the same first-reached order with the same costs and previous cells (UW-MOVE-4's ties to the earlier
neighbour decide the declared path); tests/urbanwar/test_path_kernel.py compares the two over thousands of seeded
positions, compiled and as plain Python.

The kernel is compiled on its first use, not on import, so that a process which never searches a path never imports
numba; `geometry.Board` asks for it when a board is built (at a game's set-up, not in the middle of play). numba
keeps the compiled code in the `__pycache__` folder beside this module and a later process loads it from there.
RUBBLE_NATIVE=0 turns the kernel off: the pure-Python search runs (what a benchmark without the extra, or a test of
the fallback, needs)."""
from __future__ import annotations

import importlib.util
import os

import numpy as np

from .config import SIZE

N = SIZE
UNREACHED = 1 << 30        # a path cost no allowance reaches (geometry.UNREACHED)
ORDER, COST, CAME_FROM, NEAR = 0, 1, 2, 3      # the rows of the kernel's output


def search(steps, start, allowance, cheapest, longest, blocked_bits, stop_bits, occupied, enemies, out):
    """Cheapest paths in half-inches from `start`; returns how many cells were reached. Written into `out` (int64,
    4 rows of a board's cells): ORDER the cells reached in the order first reached, COST the cost of each (in that
    order), NEAR the enemies each touches as bits (in that order), CAME_FROM per cell of the board the previous cell
    of its path (-1 at the start; only the reached cells' entries are written).

    `steps[c, k]`: the k-th enterable neighbour of cell c in UW-MOVE-4's order (N, E, S, W, then the diagonals) and
    the cost of that step, (-1, -1) after the last; `cheapest`, `longest`: the board's cheapest and costliest step.
    `occupied`: the cells no path may enter (UW-MOVE-3). `enemies`: (model index, cell) of the enemies, whose
    8 neighbours touch them (UW-GRID-4); a cell touching an enemy of `blocked_bits` may not be entered (UW-MOVE-5/6),
    one touching an enemy of `stop_bits` ends a path (UW-MOVE-5, a charge; the start goes on even so).

    The waiting cells are a bucket queue, one list per cost kept as a linked list in arrival order (`entry_cell`,
    `entry_next`, each bucket's `head` and `tail`), so cells of equal cost are taken in the order they were reached;
    a cell no path may enter costs -1 from the start, and the cells whose cheapest step would overrun the
    allowance are never expanded, as in the Python search."""
    cells = steps.shape[0]
    cost_to = np.full(cells, UNREACHED, np.int64)
    touch = np.zeros(cells, np.int64)
    for i in range(occupied.shape[0]):                      # UW-MOVE-3
        cost_to[occupied[i]] = -1
    for i in range(enemies.shape[0]):                       # UW-GRID-4: the 8 cells around each enemy
        ex, ey, bit = enemies[i, 1] % N, enemies[i, 1] // N, np.int64(1) << enemies[i, 0]
        for y in range(max(ey - 1, 0), min(ey + 2, N)):
            for x in range(max(ex - 1, 0), min(ex + 2, N)):
                if x != ex or y != ey:
                    touch[y * N + x] |= bit
    if blocked_bits:                                        # UW-MOVE-5/6
        for i in range(enemies.shape[0]):
            ex, ey = enemies[i, 1] % N, enemies[i, 1] // N
            for y in range(max(ey - 1, 0), min(ey + 2, N)):
                for x in range(max(ex - 1, 0), min(ex + 2, N)):
                    if touch[y * N + x] & blocked_bits:
                        cost_to[y * N + x] = -1
    cost_to[start] = 0
    allowance = max(allowance, 0)
    order, came_from = out[ORDER], out[CAME_FROM]
    order[0], came_from[start] = start, -1
    count = 1
    head = np.full(allowance + 1, -1, np.int64)
    tail = np.empty(allowance + 1, np.int64)
    width = steps.shape[1]
    entry_cell = np.empty(1 + cells * width, np.int64)      # a cell enters once per cheaper step found
    entry_next = np.empty(1 + cells * width, np.int64)
    entry_cell[0], entry_next[0], head[0], tail[0] = start, -1, 0, 0
    entries = 1
    within = allowance - longest                            # buckets no step of which overruns
    for cost in range(allowance - cheapest + 1):
        entry = head[cost]
        while entry >= 0:
            cell = entry_cell[entry]
            entry = entry_next[entry]
            if cost != cost_to[cell] or (touch[cell] & stop_bits and cell != start):
                continue
            for k in range(width):
                nxt = steps[cell, k, 0]
                if nxt < 0:
                    break
                total = cost + steps[cell, k, 1]
                known = cost_to[nxt]
                if known > total and (cost <= within or total <= allowance):
                    if known == UNREACHED:
                        order[count] = nxt
                        count += 1
                    cost_to[nxt] = total
                    came_from[nxt] = cell
                    entry_cell[entries] = nxt
                    entry_next[entries] = -1
                    if head[total] < 0:
                        head[total] = entries
                    else:
                        entry_next[tail[total]] = entries
                    tail[total] = entries
                    entries += 1
    costs, near = out[COST], out[NEAR]
    for i in range(count):
        costs[i] = cost_to[order[i]]
        near[i] = touch[order[i]]
    return count


_UNSET = object()
_compiled = _UNSET


def wanted() -> bool:
    """Whether the kernel may be compiled: numba is installed and RUBBLE_NATIVE is not "0"."""
    return os.environ.get("RUBBLE_NATIVE", "1") != "0" and importlib.util.find_spec("numba") is not None


def compiled():
    """`search` compiled by numba (compiled or loaded from numba's cache on the first call), or None when numba is
    absent or turned off (the caller then runs its pure-Python search)."""
    global _compiled
    if _compiled is _UNSET:
        _compiled = _njit(search) if wanted() else None
    return _compiled


def _njit(function):
    # imported only here: importing numba takes a few tenths of a second
    import numba

    kernel = numba.njit(cache=True, nogil=True)(function)
    steps = np.full((1, 1, 2), -1, np.int64)
    kernel(steps, 0, 0, 1, 1, 0, 0, np.zeros(0, np.int64), np.zeros((0, 2), np.int64), np.zeros((4, 1), np.int64))
    return kernel
