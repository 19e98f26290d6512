"""The 1" grid: distances (UW-GRID-3..5), range bands (UW-SHOOT-2), sight lines and LOS (UW-LOS-1..4), cover
lines (UW-COVER-3) and movement paths (UW-MOVE-1..6). Cells are indices y * 48 + x."""
from __future__ import annotations

import heapq
from functools import cache, lru_cache

from .config import SIZE

N = SIZE
# UW-MOVE-4: neighbour order N, E, S, W, NE, SE, SW, NW (ties of equal cost go to the earlier neighbour)
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
CORNERS = ((0.0, 0.0), (-0.45, -0.45), (0.45, -0.45), (-0.45, 0.45), (0.45, 0.45))   # UW-LOS-2
NO_COVER, SOLID, FLIMSY = 0, 1, 2


def xy(cell: int) -> tuple[int, int]:
    return cell % N, cell // N


def d2(a: int, b: int) -> int:
    """Squared centre distance of two cells (exact integers)."""
    return (a % N - b % N) ** 2 + (a // N - b // N) ** 2


def within(a: int, b: int, inches: int) -> bool:
    """UW-GRID-3: edge distance <= D  <=>  dx^2 + dy^2 <= (D + 1)^2."""
    return d2(a, b) <= (inches + 1) ** 2


def contact(a: int, b: int) -> bool:
    """UW-GRID-4: base contact = 8-neighbours."""
    return a != b and abs(a % N - b % N) <= 1 and abs(a // N - b // N) <= 1


def _neighbours(cell: int) -> tuple:
    x, y = cell % N, cell // N
    out = []
    for i, (dx, dy) in enumerate(STEPS):
        nx, ny = x + dx, y + dy
        if 0 <= nx < N and 0 <= ny < N:        # UW-GRID-2: nobody leaves the table
            out.append((ny * N + nx, int(i >= 4)))
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(c) for c in range(N * N))


def neighbours(cell: int) -> tuple:
    return NEIGHBOURS[cell]


def band_of(bands, a: int, b: int) -> int:
    """UW-SHOOT-2 / UW-TAB-1: band index 1..4 (short..extreme), 0 in base contact, -1 beyond 48"."""
    if contact(a, b):
        return 0
    dist = d2(a, b)
    for i, band in enumerate(bands):
        if dist <= band.max_d2:
            return i + 1
    return -1


@cache
def sight_lines(dx: int, dy: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """UW-LOS-2: the five lines from the viewer's centre to the target's centre and its four (+-0.45) points, each
    as the cells whose interior it crosses (relative offsets, the viewer's cell left out, the target's kept last)."""
    lines = []
    for ox, oy in CORNERS:
        lines.append(tuple(_traverse(0.5, 0.5, dx + 0.5 + ox, dy + 0.5 + oy)))
    return tuple(lines)


def _traverse(x0: float, y0: float, x1: float, y1: float) -> list[tuple[int, int]]:
    """Cells a segment passes through (grid traversal); crossing exactly at a corner enters neither side cell."""
    cx, cy = int(x0 // 1), int(y0 // 1)
    ex, ey = int(x1 // 1), int(y1 // 1)
    vx, vy = x1 - x0, y1 - y0
    sx, sy = (1 if vx > 0 else -1), (1 if vy > 0 else -1)
    tx = ((cx + (sx > 0)) - x0) / vx if vx else float("inf")
    ty = ((cy + (sy > 0)) - y0) / vy if vy else float("inf")
    dtx = abs(1 / vx) if vx else float("inf")
    dty = abs(1 / vy) if vy else float("inf")
    out = []
    while (cx, cy) != (ex, ey):
        if abs(tx - ty) < 1e-12:
            cx, cy, tx, ty = cx + sx, cy + sy, tx + dtx, ty + dty
        elif tx < ty:
            cx, tx = cx + sx, tx + dtx
        else:
            cy, ty = cy + sy, ty + dty
        out.append((cx, cy))
        if len(out) > 4 * N:
            break
    return out


@cache
def line_deltas(dx: int, dy: int) -> tuple[tuple[int, ...], ...]:
    """The five sight lines as flat cell deltas (a line between two cells of the table never leaves it)."""
    return tuple(tuple(oy * N + ox for ox, oy in line) for line in sight_lines(dx, dy))


def line_cells(a: int, b: int):
    """The five sight lines from cell a to cell b as absolute cell lists (the target cell last)."""
    return [[a + d for d in line] for line in line_deltas(b % N - a % N, b // N - a // N)]


def has_los(board, occ, side_of, viewer: int, target: int, viewer_side: int) -> bool:
    """UW-LOS-1..4: all-round vision (UW-LOS-1); UW-LOS-4: at least 2 of the 5 lines unblocked by a wall cell or a
    cell holding another model; UW-LOS-3: friends within 2" of the viewer (dx^2 + dy^2 <= 9) never block."""
    clear = 0
    blocks = board.blocks
    lines = line_deltas(target % N - viewer % N, target // N - viewer // N)
    for k, line in enumerate(lines):
        ok = True
        for d in line[:-1]:
            cell = viewer + d
            if blocks[cell]:
                ok = False
                break
            m = occ[cell]
            if m >= 0 and not (side_of[m] == viewer_side and d2(cell, viewer) <= 9):
                ok = False
                break
        if ok:
            clear += 1
            if clear >= 2:
                return True
        if clear + (4 - k) < 2:
            return False
    return False


def cover_class(board, shooter: int, target: int) -> int:
    """UW-COVER-2, UW-COVER-3, UW-COVER-6, UW-GRID-5: the best cover a sight line crosses more than 1" from the shooter (dx^2 + dy^2 > 4), the
    target's own cell included; solid beats flimsy; models never give cover."""
    best = NO_COVER
    for line in line_cells(shooter, target):
        for cell in line:
            c = board.cover[cell]
            if c and d2(cell, shooter) > 4:
                if c == SOLID:
                    return SOLID
                best = FLIMSY
    return best


# Movement -----------------------------------------------------------------------------------------------------------
FREE, CHARGE, BREAK = 0, 1, 2


def reachable(board, occ, start: int, allowance: int, mode: int, danger, started_with=frozenset()) -> dict:
    """UW-MOVE-1..6: cheapest paths (half-inches) from `start`: cell -> (cost, previous cell).

    `danger[cell]` is the set of enemies a cell touches. FREE (Rush, Move+Shoot): never enter contact with an
    enemy. CHARGE: a cell in contact ends the path (kept, not expanded). BREAK: intermediate cells may touch only
    `started_with` enemies; the caller keeps only final cells touching none."""
    best = {start: (0, -1)}
    heap = [(0, 0, start)]
    seq = 0
    while heap:
        cost, _, cell = heapq.heappop(heap)
        if cost > best[cell][0]:
            continue
        if cell != start and mode == CHARGE and danger[cell]:
            continue
        for nxt, diagonal in NEIGHBOURS[cell]:
            step = board.cost[nxt][diagonal]
            if not step or occ[nxt] >= 0:                    # UW-MOVE-3
                continue
            touch = danger[nxt]
            if touch and (mode == FREE or (mode == BREAK and not touch <= started_with)):   # UW-MOVE-5/6
                continue
            total = cost + step
            if total > allowance or (nxt in best and best[nxt][0] <= total):
                continue
            best[nxt] = (total, cell)
            seq += 1
            heapq.heappush(heap, (total, seq, nxt))
    return best


def path_to(tree: dict, cell: int) -> list[int]:
    """The cells from the start to `cell` (both included) along the cheapest-path tree."""
    out = [cell]
    while tree[out[-1]][1] >= 0:
        out.append(tree[out[-1]][1])
    return out[::-1]


class Board:
    """The played map's per-cell properties (UW-TAB-2, UW-TERR-1: no elevation, every model on the ground floor;
    UW-MOVE-2: difficult cells cost double, read from the table's costs)."""

    def __init__(self, rows, terrain: dict) -> None:
        self.rows = tuple(rows)
        chars = [ch for row in rows for ch in row]
        self.chars = chars
        self.cost = [terrain[ch].cost for ch in chars]
        self.blocks = [terrain[ch].blocks for ch in chars]
        self.cover = [{"none": NO_COVER, "solid": SOLID, "flimsy": FLIMSY}[terrain[ch].cover] for ch in chars]
        self.passable = [terrain[ch].cost[0] > 0 for ch in chars]


@lru_cache(maxsize=8)
def board_for(rows: tuple, terrain_items: tuple) -> Board:
    return Board(rows, dict(terrain_items))
