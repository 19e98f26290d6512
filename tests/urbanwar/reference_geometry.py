"""Urban War geometry written the plain way, cell by cell: what the fast versions in envs/urbanwar/geometry.py
(bit masks built a column at a time, the path search with cells pre-marked) are tested against."""
from __future__ import annotations

from envs.urbanwar.geometry import BREAK, CHARGE, FREE, SHIFT, UNREACHED, N, bits_of, line_deltas, sight_lines


def sight_masks(dx: int, dy: int) -> tuple[int, ...]:
    """`sight_masks` cell by cell from the sight lines (what it is tested against)."""
    return tuple(bits_of(d + SHIFT for d in line[:-1]) for line in line_deltas(dx, dy))


def cover_mask(dx: int, dy: int) -> int:
    """`cover_mask` cell by cell from the sight lines (what it is tested against)."""
    return bits_of(y * N + x + SHIFT for line in sight_lines(dx, dy) for x, y in line if x * x + y * y > 4)



def reachable(board, occ, start: int, allowance: int, mode: int, danger, started_with=frozenset()) -> dict:
    """`reachable` as first written, what it is tested against: cell -> (cost, previous cell), `occ` the model on
    each cell (-1: none, the mover's own cell emptied), `danger[cell]` the enemies each cell touches."""
    cost_to, came_from = [UNREACHED] * len(occ), [-1] * len(occ)
    cost_to[start] = 0
    reached = [start]
    waiting: list[list[int]] = [[] for _ in range(max(allowance, 0) + 1)]
    waiting[0].append(start)
    steps = board.steps
    for cost in range(max(allowance, 0) + 1):
        for cell in waiting[cost]:
            if cost > cost_to[cell]:
                continue
            if cell != start and mode == CHARGE and danger[cell]:
                continue
            for nxt, step in steps[cell]:
                total = cost + step
                if total > allowance or occ[nxt] >= 0:
                    continue
                touch = danger[nxt]
                if touch and (mode == FREE or (mode == BREAK and not touch <= started_with)):
                    continue
                known = cost_to[nxt]
                if known <= total:
                    continue
                if known == UNREACHED:
                    reached.append(nxt)
                cost_to[nxt], came_from[nxt] = total, cell
                waiting[total].append(nxt)
    return {c: (cost_to[c], came_from[c]) for c in reached}
