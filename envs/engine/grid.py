"""Square grids: cells, neighbours, distances, square IDs, MegaSquares and 8-neighbour path costs.

Conventions shared by every gridded ruleset (CF-GRID-1/2, KC-MAP-1, UW-GRID-1):
cell (x, y), x = column from the west edge, y = row from the north edge, both 0-based; cell (x, y)
covers [x, x+1) x [y, y+1) in grid units, so its centre is (x + 1/2, y + 1/2). Per-cell arrays
have shape (H, W) and are indexed [y, x], like the rows of a text map; the flat index is y * W + x.
Scalar helpers work on (x, y) tuples; hot loops use the precomputed numpy tables of a `Grid`.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

Cell = tuple[int, int]

# N, E, S, W, then NE, SE, SW, NW: y grows southwards. The order doubles as the tie order of
# engine-chosen paths (UW-MOVE-4), so keep it.
DIRECTIONS4: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIRECTIONS8: tuple[Cell, ...] = DIRECTIONS4 + ((1, -1), (1, 1), (-1, 1), (-1, -1))


# Distances ------------------------------------------------------------------------------------

def chebyshev(a: Cell, b: Cell) -> int:
    """max(|dx|, |dy|): range in squares (CF-GRID-3), base contact at 1 (UW-GRID-4)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Cell, b: Cell) -> int:
    """|dx| + |dy|: the number of orthogonal steps between two cells."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def euclidean_sq(a: Cell, b: Cell) -> int:
    """dx² + dy², exact; compare with a squared limit instead of taking roots (UW-GRID-3, KC-MAP-2)."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    return dx * dx + dy * dy


def _chebyshev_np(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    return np.maximum(np.abs(dx), np.abs(dy))


_METRICS = {
    "chebyshev": _chebyshev_np,
    "manhattan": lambda dx, dy: np.abs(dx) + np.abs(dy),
    "euclidean_sq": lambda dx, dy: dx * dx + dy * dy,
}


# Square IDs (CF-GRID-2) -------------------------------------------------------------------------

def _letters(index: int) -> str:
    # Bijective base 26 (a..z, aa, ab, ...) so grids wider than 26 columns (UW-GRID-1) still get IDs.
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def _letters_index(letters: str) -> int:
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("a") + 1)
    return value - 1


def _split_id(text: str) -> tuple[str, int]:
    """('k', 6) from 'k6'; ValueError unless letters followed by a positive row number."""
    head = text.rstrip("0123456789")
    tail = text[len(head):]
    if not head or not head.isalpha() or not head.isascii() or not tail or int(tail) < 1:
        raise ValueError(f"{text!r} is not a square ID such as 'k6' (column letters, then row from 1)")
    return head, int(tail)


def square_id(cell: Cell) -> str:
    """'k6' for (10, 5): column letter from a = west, row from 1 = north (CF-GRID-2)."""
    x, y = cell
    if x < 0 or y < 0:
        raise ValueError(f"cell {cell} has a negative coordinate")
    return f"{_letters(x)}{y + 1}"


def parse_square_id(text: str) -> Cell:
    """(10, 5) from 'k6' (lower-case column letters; CF-GRID-2)."""
    head, row = _split_id(text)
    if not head.islower():
        raise ValueError(f"{text!r}: square IDs use lower-case letters (capitals name MegaSquares)")
    return _letters_index(head), row - 1


# MegaSquares: 3x3 blocks counted from the north-west corner (CF-GRID-1) ----------------------------

def megasquare(cell: Cell, size: int = 3) -> Cell:
    """The block (bx, by) holding `cell` (CF-GRID-1)."""
    return cell[0] // size, cell[1] // size


def megasquare_cells(block: Cell, size: int = 3) -> list[Cell]:
    """The size*size cells of a block, row by row."""
    bx, by = block
    return [(bx * size + i, by * size + j) for j in range(size) for i in range(size)]


def megasquare_distance(a: Cell, b: Cell, size: int = 3) -> int:
    """Chebyshev distance between the blocks of two cells: 0 own, 1 adjacent, 2 peri-adjacent (CF-GRID-4)."""
    return chebyshev(megasquare(a, size), megasquare(b, size))


def megasquare_id(block: Cell) -> str:
    """'D2' for block (3, 1): capital column letter + row from 1 (CF-GRID-2)."""
    return square_id(block).upper()


def parse_megasquare_id(text: str) -> Cell:
    """(3, 1) from 'D2' (CF-GRID-2)."""
    head, row = _split_id(text)
    if not head.isupper():
        raise ValueError(f"{text!r}: MegaSquare IDs use capital letters, e.g. 'D2'")
    return _letters_index(head.lower()), row - 1


# 8-neighbour steps and paths (KC-MAP-4, UW-MOVE-1) ------------------------------------------------

def is_step(a: Cell, b: Cell) -> bool:
    """True when b is one of a's 8 neighbours."""
    return chebyshev(a, b) == 1


def step_cost(a: Cell, b: Cell, orth: int = 2, diag: int = 3) -> int:
    """Cost of one 8-neighbour step: 2 orthogonal, 3 diagonal by default (KC-MAP-4; UW-MOVE-1 in half-inches)."""
    if not is_step(a, b):
        raise ValueError(f"{a} -> {b} is not a step between 8-neighbours")
    return diag if a[0] != b[0] and a[1] != b[1] else orth


def path_cost(path, orth: int = 2, diag: int = 3) -> int:
    """Total cost of a path given as its cells, start first (the start itself costs nothing)."""
    return sum(step_cost(a, b, orth, diag) for a, b in zip(path, path[1:]))


def corner_cells(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    """The two cells flanking a diagonal step a -> b (they share the corner the step passes)."""
    return (b[0], a[1]), (a[0], b[1])


def clips_corner(a: Cell, b: Cell, impassable) -> bool:
    """True if a diagonal step a -> b passes the corner of an impassable cell (KC-MAP-4 forbids it).

    `impassable` is a callable on cells; orthogonal steps never clip.
    """
    if a[0] == b[0] or a[1] == b[1]:
        return False
    return any(impassable(c) for c in corner_cells(a, b))


# The grid ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Grid:
    """A W x H board of square cells; tables derived from it are cached and read-only."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"grid size {self.width}x{self.height}: both sides must be at least 1")

    @property
    def size(self) -> int:
        """Number of cells, W * H."""
        return self.width * self.height

    @property
    def shape(self) -> tuple[int, int]:
        """(H, W): the shape of per-cell arrays."""
        return self.height, self.width

    def in_bounds(self, cell: Cell) -> bool:
        """True when the cell is on the board."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def index(self, cell: Cell) -> int:
        """Flat index y * W + x of an on-board cell."""
        if not self.in_bounds(cell):
            raise ValueError(f"cell {cell} is off the {self.width}x{self.height} board")
        return cell[1] * self.width + cell[0]

    def cell(self, index: int) -> Cell:
        """The cell (x, y) of a flat index."""
        if not 0 <= index < self.size:
            raise ValueError(f"cell index {index} outside 0..{self.size - 1}")
        y, x = divmod(int(index), self.width)
        return x, y

    def cells(self) -> list[Cell]:
        """Every cell in flat-index order."""
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def neighbours(self, cell: Cell, eight: bool = True) -> list[Cell]:
        """On-board neighbours in the order N, E, S, W (, NE, SE, SW, NW)."""
        x, y = cell
        steps = DIRECTIONS8 if eight else DIRECTIONS4
        return [n for n in ((x + dx, y + dy) for dx, dy in steps) if self.in_bounds(n)]

    def neighbour_table(self, eight: bool = True) -> np.ndarray:
        """(size, 8 or 4) int32 flat indices of neighbours in DIRECTIONS order; -1 where off the board."""
        return _neighbour_table(self.width, self.height, eight)

    def distance_table(self, metric: str = "chebyshev") -> np.ndarray:
        """(size, size) int32 distances between all cells ('chebyshev', 'manhattan' or 'euclidean_sq')."""
        if metric not in _METRICS:
            raise ValueError(f"unknown metric {metric!r}; known: {', '.join(_METRICS)}")
        return _distance_table(self.width, self.height, metric)

    def megasquare_table(self, size: int = 3) -> np.ndarray:
        """(H, W) int32 flat block index (by * (W // size) + bx) of every cell (CF-GRID-1)."""
        if self.width % size or self.height % size:
            raise ValueError(f"a {self.width}x{self.height} board does not split into "
                             f"{size}x{size} blocks (CF-GRID-1)")
        ys, xs = np.indices(self.shape)
        table = (ys // size) * (self.width // size) + xs // size
        return _frozen(table.astype(np.int32))


def _frozen(array: np.ndarray) -> np.ndarray:
    # Cached tables are shared by every game on that board: make aliasing bugs loud.
    array.setflags(write=False)
    return array


@lru_cache(maxsize=32)
def _neighbour_table(width: int, height: int, eight: bool) -> np.ndarray:
    steps = np.array(DIRECTIONS8 if eight else DIRECTIONS4, dtype=np.int32)
    ys, xs = np.divmod(np.arange(width * height, dtype=np.int32), width)
    nx, ny = xs[:, None] + steps[:, 0], ys[:, None] + steps[:, 1]
    inside = (nx >= 0) & (nx < width) & (ny >= 0) & (ny < height)
    return _frozen(np.where(inside, ny * width + nx, -1).astype(np.int32))


@lru_cache(maxsize=32)
def _distance_table(width: int, height: int, metric: str) -> np.ndarray:
    ys, xs = np.divmod(np.arange(width * height, dtype=np.int32), width)
    dx, dy = xs[:, None] - xs[None, :], ys[:, None] - ys[None, :]
    return _frozen(_METRICS[metric](dx, dy).astype(np.int32))


def cheapest_costs(grid: Grid, start: Cell, passable: np.ndarray, enter_cost: np.ndarray | None = None,
                   orth: int = 2, diag: int = 3, max_cost: int | None = None, no_corner_clip: bool = True):
    """Dijkstra over 8-neighbour steps: ((H, W) costs, -1 where unreachable; (H, W) parent flat indices).

    A step into cell c costs orth/diag times `enter_cost[c]` (e.g. 2 for difficult ground, UW-MOVE-2);
    with `no_corner_clip` a diagonal may not pass an impassable corner (KC-MAP-4). Ties keep the
    first parent found, scanning neighbours in DIRECTIONS8 order. Ruleset-specific limits (enemy
    contact, one diagonal per turn, stacking) are the caller's to apply.
    """
    flat_pass = np.asarray(passable, dtype=bool).ravel()
    mult = np.ones(grid.size, np.int64) if enter_cost is None else np.asarray(enter_cost).ravel()
    cost, parent = np.full(grid.size, -1, np.int64), np.full(grid.size, -1, np.int64)
    heap = [(0, grid.index(start))]
    cost[heap[0][1]] = 0
    while heap:
        here_cost, here = heapq.heappop(heap)
        if here_cost != cost[here]:
            continue  # a stale heap entry: this cell was settled more cheaply
        for there, step in _steps(grid, here, flat_pass, (orth, diag), no_corner_clip):
            new = here_cost + step * int(mult[there])
            if (max_cost is None or new <= max_cost) and (cost[there] < 0 or new < cost[there]):
                cost[there], parent[there] = new, here
                heapq.heappush(heap, (new, there))
    return cost.reshape(grid.shape), parent.reshape(grid.shape)


def _steps(grid: Grid, here: int, flat_pass: np.ndarray, costs: tuple[int, int], no_corner_clip: bool):
    """(neighbour flat index, base step cost) of each legal step out of `here`, in DIRECTIONS8 order."""
    for k, there in enumerate(grid.neighbour_table(True)[here]):
        if there < 0 or not flat_pass[there]:
            continue
        if k >= 4 and no_corner_clip and not _corner_open(grid, here, k, flat_pass):
            continue
        yield int(there), costs[k >= 4]


def _corner_open(grid: Grid, here: int, k: int, flat_pass: np.ndarray) -> bool:
    dx, dy = DIRECTIONS8[k]
    x, y = grid.cell(here)
    # Both flanking cells are on the board whenever the diagonal target is (KC-MAP-4 corner rule).
    return bool(flat_pass[grid.index((x + dx, y))] and flat_pass[grid.index((x, y + dy))])
