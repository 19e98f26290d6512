"""The 1" grid: distances (UW-GRID-3..5), range bands (UW-SHOOT-2), sight lines and LOS (UW-LOS-1..4), cover
lines (UW-COVER-3) and movement paths (UW-MOVE-1..6). Cells are indices y * 48 + x."""
from __future__ import annotations

import hashlib

import numpy as np

from envs.engine.derived import BoundedStore

from . import pathkernel, sightkernel
from .config import SIZE

N = SIZE
CELLS = N * N
# UW-MOVE-4: neighbour order N, E, S, W, NE, SE, SW, NW (ties of equal cost go to the earlier neighbour)
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
CORNERS = ((0.0, 0.0), (-0.45, -0.45), (0.45, -0.45), (-0.45, 0.45), (0.45, 0.45))   # UW-LOS-2
NO_COVER, SOLID, FLIMSY = 0, 1, 2

# Stores kept across games (envs.engine.derived.BoundedStore), process-wide. Each value is a pure function of the
# public geometry its key names (an offset's column of sight lines, a board's content digest, a cell): never of a
# model, an order or a side, so that no side's view can read from them what another side's play put there (UW-HID).
LINES = BoundedStore("urbanwar sight lines by column", 2 * N - 1)   # dx -> the traced lines of every dy
MASKS = BoundedStore("urbanwar sight and cover masks", 2 * N - 1)   # dx -> per dy: five sight masks, a cover mask
BOARDS = BoundedStore("urbanwar boards", 16)                         # (map rows, terrain table) -> Board
COVER_FROM = BoundedStore("urbanwar cover seen from", 10_000)       # (board digest, shooter cell) -> cover bits
TOUCHING = BoundedStore("urbanwar cells touching", 10_000)           # ((model, cell), ...) -> cell -> the models' bits


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
NEAR = tuple(tuple(c for c, _ in steps) for steps in NEIGHBOURS)      # the cells in base contact (UW-GRID-4)


def neighbours(cell: int) -> tuple:
    return NEIGHBOURS[cell]


def touching_cells(placed: tuple) -> dict[int, int]:
    """UW-GRID-4, UW-MOVE-5/6: the cells in base contact with the models `placed` ((model, cell) pairs), each with
    the models it touches as bits (bit i for model i: `model_bits`); kept (TOUCHING: a pure function of the places,
    which every side sees)."""
    return TOUCHING.get(placed, _touching_cells, placed)


def _touching_cells(placed: tuple) -> dict[int, int]:
    near: dict[int, int] = {}
    get = near.get
    for model, cell in placed:
        bit = 1 << model
        for nxt in NEAR[cell]:
            near[nxt] = get(nxt, 0) | bit
    return near


def model_bits(models) -> int:
    """Model indices as bits (bit i for model i), as `touching_cells` gives them."""
    out = 0
    for i in models:
        out |= 1 << i
    return out


def band_of(bands, a: int, b: int) -> int:
    """UW-SHOOT-2 / UW-TAB-1: band index 1..4 (short..extreme), 0 in base contact, -1 beyond 48"."""
    if contact(a, b):
        return 0
    dist = d2(a, b)
    for i, band in enumerate(bands):
        if dist <= band.max_d2:
            return i + 1
    return -1


#: UW-LOS-2's points lie at 0.5 and 0.5 +- 0.45 of a cell: whole numbers in twentieths of an inch, so the grid
#: traversal below is exact (a line through a cell corner is recognised as such, never by a float tolerance)
TWENTIETHS = 20
_HALF = TWENTIETHS // 2
LINE_POINTS = np.array([(round(ox * TWENTIETHS), round(oy * TWENTIETHS)) for ox, oy in CORNERS], dtype=np.int64)
_OFFSETS = np.arange(-(N - 1), N, dtype=np.int64)          # every dy of a sight line across the table


def _lines_from_column(dx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_trace_column`'s lines, kept (LINES)."""
    return LINES.get(dx, _trace_column, dx)


def _trace_column(dx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The five sight lines of every offset (dx, dy), dy = -47..47, traversed at once: (x, y, length), x and y of
    shape (95, 5, cells) with the cells of each line first (the viewer's cell left out, the target's last).

    A line from the viewer's centre crosses its j-th vertical grid line after 10 + 20 j twentieths along x, at time
    (10 + 20 j) / |vx|; over the common denominator |vx| |vy| every crossing time is an exact integer. The cells are
    those of the midpoints between consecutive distinct times: a crossing through a corner is one time, so the line
    steps diagonally and enters neither side cell."""
    vx = np.broadcast_to(TWENTIETHS * dx + LINE_POINTS[:, 0], (len(_OFFSETS), len(LINE_POINTS)))
    vy = TWENTIETHS * _OFFSETS[:, None] + LINE_POINTS[None, :, 1]
    ax, ay = np.maximum(np.abs(vx), 1), np.maximum(np.abs(vy), 1)
    common = ax * ay
    steps = _HALF + TWENTIETHS * np.arange(N, dtype=np.int64)                     # distance to each grid line
    never = np.iinfo(np.int64).max // 4
    tx = np.where(steps < np.abs(vx)[..., None], steps * ay[..., None], never)
    ty = np.where(steps < np.abs(vy)[..., None], steps * ax[..., None], never)
    t = np.sort(np.concatenate([np.zeros_like(tx[..., :1]), tx, ty, common[..., None]], axis=-1), axis=-1)
    repeated = np.concatenate([np.zeros_like(t[..., :1], dtype=bool), t[..., 1:] == t[..., :-1]], axis=-1)
    t = np.sort(np.where(repeated, never, t), axis=-1)                            # distinct times first, in order
    length = (t < never).sum(axis=-1) - 2                                          # stretches after the viewer's
    mid = t[..., 1:-1] + t[..., 2:]                                                 # twice a midpoint time
    x = (_HALF * 2 * common[..., None] + vx[..., None] * mid) // (2 * TWENTIETHS * common[..., None])
    y = (_HALF * 2 * common[..., None] + vy[..., None] * mid) // (2 * TWENTIETHS * common[..., None])
    return x, y, length


def sight_lines(dx: int, dy: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """UW-LOS-2: the five lines from the viewer's centre to the target's centre and its four (+-0.45) points, each
    as the cells whose interior it crosses (relative offsets, the viewer's cell left out, the target's kept last)."""
    x, y, length = _lines_from_column(dx)
    row = dy + N - 1
    return tuple(tuple(zip(x[row, k, :n].tolist(), y[row, k, :n].tolist())) for k, n in enumerate(length[row].tolist()))


def line_deltas(dx: int, dy: int) -> tuple[tuple[int, ...], ...]:
    """The five sight lines as flat cell deltas (a line between two cells of the table never leaves it)."""
    x, y, length = _lines_from_column(dx)
    row = dy + N - 1
    deltas = (y[row] * N + x[row]).tolist()
    return tuple(tuple(line[:n]) for line, n in zip(deltas, length[row].tolist()))


def line_cells(a: int, b: int):
    """The five sight lines from cell a to cell b as absolute cell lists (the target cell last)."""
    return [[a + d for d in line] for line in line_deltas(b % N - a % N, b // N - a // N)]


# Sight and cover as bit masks: bit d + SHIFT of a mask stands for the cell viewer + d (a flat delta d), so that
# "does anything in these cells block this line" is one AND of two Python ints, whatever the line's length. A
# line between two cells of the table never leaves it, so every cell it names is the one its delta says.
SHIFT = CELLS - 1


def bits_of(cells) -> int:
    """A set of absolute cells as an int: bit c for cell c."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def as_seen_from(bits: int, viewer: int) -> int:
    """Absolute cell bits (`bits_of`) moved so that bit d + SHIFT is the cell viewer + d (what the masks index)."""
    return (bits << SHIFT) >> viewer


def sight_masks(dx: int, dy: int) -> tuple[int, ...]:
    """UW-LOS-2: the cells each of the five lines of offset (dx, dy) crosses on the way, the target's own cell left
    out (it never blocks), as masks relative to the viewer."""
    return MASKS.get(dx, _column_masks, dx)[0][dy + N - 1]


def cover_mask(dx: int, dy: int) -> int:
    """UW-COVER-3, UW-GRID-5: the cells of the five lines where terrain gives cover: more than 1" from the shooter
    (dx^2 + dy^2 > 4), the target's own cell included; as a mask relative to the shooter."""
    return MASKS.get(dx, _column_masks, dx)[1][dy + N - 1]


def cover_column(dx: int) -> tuple[int, ...]:
    """`cover_mask(dx, dy)` of every dy = -47..47, in order (index dy + 47)."""
    return MASKS.get(dx, _column_masks, dx)[1]


_MASK_BITS = 2 * CELLS - 1                       # bits 0 .. 2 SHIFT: every delta of the table plus SHIFT


def _column_masks(dx: int) -> tuple[tuple, tuple]:
    """The sight and cover masks of every offset (dx, dy) at once, from the column's traced lines: bits set in a
    numpy table, packed into bytes and read as ints (what `bits_of` would give, without a Python loop per cell);
    (per dy = -47..47: the five sight masks; per dy: the cover mask)."""
    x, y, length = _lines_from_column(dx)                      # (95, 5, L): the cells of each line, its length
    rows, lines, most = x.shape
    index = np.arange(most)
    delta = y * N + x + SHIFT
    sight = index < (length[..., None] - 1)                    # the target's own cell left out
    cover = (index < length[..., None]) & (x * x + y * y > 4)
    sight_bits = np.zeros((rows * lines, _MASK_BITS), dtype=bool)
    line_of = np.broadcast_to(np.arange(rows * lines).reshape(rows, lines, 1), delta.shape)
    sight_bits[line_of[sight], delta[sight]] = True
    cover_bits = np.zeros((rows, _MASK_BITS), dtype=bool)
    row_of = np.broadcast_to(np.arange(rows).reshape(rows, 1, 1), delta.shape)
    cover_bits[row_of[cover], delta[cover]] = True
    sight_ints = [int.from_bytes(b, "little") for b in np.packbits(sight_bits, axis=1, bitorder="little")]
    cover_ints = [int.from_bytes(b, "little") for b in np.packbits(cover_bits, axis=1, bitorder="little")]
    return tuple(tuple(sight_ints[row * lines:(row + 1) * lines]) for row in range(rows)), tuple(cover_ints)


def sees(obstacles: int, viewer: int, target: int) -> bool:
    """UW-LOS-1, UW-LOS-4: all-round vision; sight iff at least 2 of the 5 lines cross no cell of `obstacles`
    (the walls and the models that may block, as seen from the viewer: `obstacles_for`)."""
    clear, dx = 0, target % N - viewer % N
    column = MASKS.find(dx) or MASKS.get(dx, _column_masks, dx)
    for k, line in enumerate(column[0][target // N - viewer // N + N - 1]):
        if not obstacles & line:
            clear += 1
            if clear == 2:
                return True
        elif clear + 4 - k < 2:
            return False
    return False


def obstacles_for(board, viewer: int, blockers) -> int:
    """UW-LOS-2/3: what may block sight from `viewer`: wall cells and the cells of `blockers`, the models that may
    (every placed model but the viewer, less its friends within 2", `friend_near`), as seen from the viewer."""
    return as_seen_from(board.wall_bits | bits_of(blockers), viewer)


def has_los(board, blockers, viewer: int, target: int) -> bool:
    """UW-LOS-1..4 from `viewer` to `target`, `blockers` the cells of the models that may block (`obstacles_for`)."""
    return sees(obstacles_for(board, viewer, blockers), viewer, target)


def friend_near(viewer_side: int, viewer: int, side: int, cell: int) -> bool:
    """UW-LOS-3: a friend within 2" of the viewer (dx^2 + dy^2 <= 9) never blocks its sight."""
    return side == viewer_side and d2(cell, viewer) <= 9


def has_los_traced(board, occ, side_of, viewer: int, target: int, viewer_side: int) -> bool:
    """UW-LOS-1..4 line by line over the cells, as the catalog words it (what `has_los` is tested against): at least
    2 of the 5 lines unblocked by a wall cell or a cell holding another model, friends within 2" never blocking."""
    clear = 0
    for line in line_cells(viewer, target):
        if not any(board.blocks[c] or (occ[c] >= 0 and not friend_near(viewer_side, viewer, side_of[occ[c]], c))
                   for c in line[:-1]):
            clear += 1
    return clear >= 2


def cover_class(board, shooter: int, target: int) -> int:
    """UW-COVER-2, UW-COVER-3, UW-COVER-6, UW-GRID-5: the best cover a sight line crosses more than 1" from the
    shooter (dx^2 + dy^2 > 4), the target's own cell included; solid beats flimsy; models never give cover."""
    solid, flimsy = board.cover_from(shooter)
    where = cover_mask(target % N - shooter % N, target // N - shooter // N)
    return SOLID if solid & where else FLIMSY if flimsy & where else NO_COVER


def cover_class_traced(board, shooter: int, target: int) -> int:
    """`cover_class` cell by cell along the lines (what it is tested against)."""
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
UNREACHED = pathkernel.UNREACHED        # a path cost no allowance reaches


class Crowd:
    """What a path search of one side's model meets (UW-MOVE-3, -5, -6), kept per position: `occupied` the cells of
    the placed models (the mover's own among them: a search starts there whatever its cost was), `enemies` the
    placed enemies as (model index, cell) pairs (`touching_cells`' key), as lists for the Python search and as
    arrays for the compiled one, each made when first asked."""

    __slots__ = ("occupied", "enemies", "_touching", "_arrays")

    def __init__(self, occupied: list[int], enemies: tuple) -> None:
        self.occupied, self.enemies = occupied, enemies
        self._touching = self._arrays = None

    @property
    def touching(self) -> dict[int, int]:
        """The cells touching the enemies, each with those enemies as bits (`touching_cells`)."""
        if self._touching is None:
            self._touching = touching_cells(self.enemies)
        return self._touching

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """`occupied` and `enemies` as int64 arrays (the compiled search's)."""
        if self._arrays is None:
            self._arrays = (np.array(self.occupied, np.int64),
                            np.array(self.enemies, np.int64).reshape(len(self.enemies), 2))
        return self._arrays


class Reach:
    """A path search's result (`reachable`): `cells` reached in the order first reached, the `costs` of their
    cheapest paths and the enemies each touches (`near`, as bits), in that order; `came_from` per cell of the board
    the previous cell of its path (-1 at the start; only the reached cells' are read). From the Python search: lists,
    the costs and touched enemies read per cell when asked (`ArrayReach` holds the compiled search's arrays)."""

    __slots__ = ("cells", "came_from", "_cost_to", "_touching")

    def __init__(self, cells: list[int], cost_to: list[int], touching: dict[int, int], came_from) -> None:
        self.cells, self.came_from, self._cost_to, self._touching = cells, came_from, cost_to, touching

    @property
    def costs(self) -> list[int]:
        return [self._cost_to[c] for c in self.cells]

    @property
    def near(self) -> list[int]:
        return [self._touching.get(c, 0) for c in self.cells]

    def select(self, start: int, need: int = 0, avoid: int = 0, most: int = UNREACHED) -> tuple[list, list]:
        """The cells (and their costs, as lists in the order first reached) of cost `most` at the most that touch
        none of the `avoid` enemies and, when `need` names some, one of those, the start left out then."""
        cost_to, touch = self._cost_to, self._touching.get
        if need:
            cells = [c for c in self.cells if touch(c, 0) & need and not touch(c, 0) & avoid and cost_to[c] <= most
                     and c != start]
        elif avoid:
            cells = [c for c in self.cells if not touch(c, 0) & avoid and cost_to[c] <= most]
        else:
            cells = [c for c in self.cells if cost_to[c] <= most]
        return cells, [cost_to[c] for c in cells]


class ArrayReach:
    """`Reach` over the compiled search's int64 arrays (views of its output)."""

    __slots__ = ("cells", "costs", "near", "came_from")

    def __init__(self, cells: np.ndarray, costs: np.ndarray, near: np.ndarray, came_from: np.ndarray) -> None:
        self.cells, self.costs, self.near, self.came_from = cells, costs, near, came_from

    def select(self, start: int, need: int = 0, avoid: int = 0, most: int = UNREACHED) -> tuple[list, list]:
        keep = (self.near & avoid == 0) & (self.costs <= most)
        if need:
            keep &= (self.near & need != 0) & (self.cells != start)
        return self.cells[keep].tolist(), self.costs[keep].tolist()


def reachable(board, start: int, allowance: int, mode: int, crowd: Crowd, started_with: int = 0):
    """UW-MOVE-1..6: cheapest paths (half-inches) from `start` (`Reach`: the cells reached in the order first
    reached, the cost of each, the enemies each touches, the previous cell of each path).

    `crowd`: the placed models (UW-MOVE-3: no path enters their cells) and the mover's enemies. FREE (Rush,
    Move+Shoot): never enter contact with an enemy. CHARGE: a cell in contact ends the path (kept, not expanded).
    BREAK: intermediate cells may touch only the `started_with` enemies (bits); the caller keeps only final cells
    touching none.

    The search is numba's compiled `pathkernel.search` when the `fast` extra is installed, else `reachable_python`:
    the same cells, order, costs and paths (tests/urbanwar/test_path_kernel.py)."""
    kernel = board.kernel
    if kernel is None:
        return reachable_python(board, start, allowance, mode, crowd, started_with)
    occupied, enemies = crowd.arrays()
    blocked = -1 if mode == FREE else ~started_with if mode == BREAK else 0
    out = np.empty((4, CELLS), np.int64)
    count = kernel(board.step_array, start, allowance, board.cheapest_step, board.longest_step, blocked,
                   -1 if mode == CHARGE else 0, occupied, enemies, out)
    k = pathkernel
    return ArrayReach(out[k.ORDER, :count], out[k.COST, :count], out[k.NEAR, :count], out[k.CAME_FROM])


def reachable_python(board, start: int, allowance: int, mode: int, crowd: Crowd, started_with: int = 0) -> Reach:
    """`reachable` in plain Python, what runs without numba.

    Costs are whole half-inches, so the cells wait in one list per cost (a bucket queue): taken cost by cost, each
    list in the order its cells were reached, which is the order a heap keyed on (cost, arrival) gives
    (UW-MOVE-4: ties to the earlier neighbour). A cell no path may enter costs -1 from the start, so that one
    comparison turns away what is occupied, forbidden or already reached as cheaply; the cells whose cheapest step
    would overrun the allowance are never expanded (tests/urbanwar/reference_geometry.py has the search as first
    written, which this one is tested against)."""
    cost_to = [UNREACHED] * CELLS
    for cell in crowd.occupied:                                         # UW-MOVE-3
        cost_to[cell] = -1
    touching = crowd.touching
    stops = ()
    if mode == FREE:                                                    # UW-MOVE-5
        for cell in touching:
            cost_to[cell] = -1
    elif mode == BREAK:                                                 # UW-MOVE-6
        for cell, touch in touching.items():
            if touch & ~started_with:
                cost_to[cell] = -1
    else:
        stops = touching                                                # UW-MOVE-5: a charge ends in contact
    cost_to[start] = 0
    came_from = [-1] * CELLS
    reached = [start]
    allowance = max(allowance, 0)
    waiting: list[list[int]] = [[] for _ in range(allowance + 1)]
    waiting[0].append(start)
    steps = board.steps
    within = allowance - board.longest_step                             # buckets no step of which overruns
    for cost in range(allowance - board.cheapest_step + 1):
        for cell in waiting[cost]:
            if cost != cost_to[cell] or (cell in stops and cell != start):
                continue
            if cost <= within:
                for nxt, step in steps[cell]:
                    total = cost + step
                    known = cost_to[nxt]
                    if known > total:
                        if known == UNREACHED:
                            reached.append(nxt)
                        cost_to[nxt], came_from[nxt] = total, cell
                        waiting[total].append(nxt)
            else:
                for nxt, step in steps[cell]:
                    total = cost + step
                    known = cost_to[nxt]
                    if known > total and total <= allowance:
                        if known == UNREACHED:
                            reached.append(nxt)
                        cost_to[nxt], came_from[nxt] = total, cell
                        waiting[total].append(nxt)
    return Reach(reached, cost_to, touching, came_from)


def path_to(came_from, cell: int) -> list[int]:
    """The cells from the start to `cell` (both included) along the cheapest-path tree (`reachable`'s came_from)."""
    out = [cell]
    while (cell := int(came_from[cell])) >= 0:       # int(): the compiled search gives an array
        out.append(cell)
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
        # UW-MOVE-1/2: per cell, its enterable neighbours (N, E, S, W, then diagonals) and the cost of the step
        self.steps = tuple(tuple((nxt, self.cost[nxt][diagonal]) for nxt, diagonal in NEIGHBOURS[cell]
                                 if self.cost[nxt][diagonal]) for cell in range(CELLS))
        # the same steps as one array for the compiled search (pathkernel): (cell, cost), (-1, -1) after the last
        self.step_array = np.full((CELLS, len(STEPS), 2), -1, np.int64)
        for cell, cell_steps in enumerate(self.steps):
            if cell_steps:
                self.step_array[cell, :len(cell_steps)] = cell_steps
        self.kernel = pathkernel.compiled()        # None without numba: reachable_python searches
        self.cheapest_step = min((c for cost in self.cost for c in cost if c), default=1)
        self.longest_step = max((c for cost in self.cost for c in cost), default=1)
        self.wall_bits = bits_of(c for c in range(CELLS) if self.blocks[c])      # UW-LOS-2
        # the same walls for the compiled sight (sightkernel's WALL flag), None without numba
        self.sight = sightkernel.compiled()
        self.wall_array = np.array(self.blocks, np.int8) * np.int8(sightkernel.WALL)
        self._cover_bits = (bits_of(c for c in range(CELLS) if self.cover[c] == SOLID),
                            bits_of(c for c in range(CELLS) if self.cover[c] == FLIMSY))
        #: the board's name in the keys of the stores kept across games: a digest of all a rule reads of it
        self.key = hashlib.sha256(repr((self.chars, self.cost, self.blocks, self.cover)).encode()).hexdigest()

    def cover_from(self, shooter: int) -> tuple[int, int]:
        """The solid and the flimsy cover cells as seen from `shooter` (`as_seen_from`), kept (COVER_FROM)."""
        return COVER_FROM.get((self.key, shooter), self._seen_from, shooter)

    def _seen_from(self, shooter: int) -> tuple[int, int]:
        return tuple(as_seen_from(bits, shooter) for bits in self._cover_bits)


def board_for(rows: tuple, terrain_items: tuple) -> Board:
    """The board of a map and a terrain table, kept (BOARDS: two games of one scenario share it)."""
    return BOARDS.get((rows, terrain_items), _new_board, rows, terrain_items)


def _new_board(rows: tuple, terrain_items: tuple) -> Board:
    return Board(rows, dict(terrain_items))
