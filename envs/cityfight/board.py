"""The map as tables: squares, buildings, MegaSquares, ranges and the static line of sight (CF-GRID, CF-TER, CF-LOS).

One `Board` per scenario map, cached and shared read-only by every game on it. What changes in play
(damage, rubble, breaches, smoke) lives in the game; `sight` combines both (CF-LOS-1..4).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from envs.engine.grid import DIRECTIONS8, Grid, megasquare_id, square_id
from envs.engine.los import crossed_cells, los_table

from .config import LEGEND, MAX_W, OPEN, WOOD


class Board:
    """Static facts of one map (flat squares y * W + x)."""

    def __init__(self, width: int, height: int, terrain: tuple) -> None:
        self.width, self.height, self.size = width, height, width * height
        self.grid = Grid(width, height)
        self.mwidth, self.mheight = width // 3, height // 3
        self.base_cover = [LEGEND[ch][0] for ch in terrain]
        self.doorway = [LEGEND[ch][2] for ch in terrain]
        self.building = self._buildings(terrain)                 # CF-TER-2: building id or -1
        self.wood = [c == WOOD for c in self.base_cover]
        blocks = np.array([b >= 0 or w for b, w in zip(self.building, self.wood)]).reshape(height, width)
        self.los = los_table(blocks, corner="both")              # CF-LOS-1, CF-LOS-2; CF-LOS-3: elements never block
        self.range = self.grid.distance_table("chebyshev")       # CF-GRID-3
        self.msq = [(i // width // 3) * self.mwidth + (i % width) // 3 for i in range(self.size)]
        self.msq_array = np.array(self.msq)
        self.msq_squares = [[i for i in range(self.size) if self.msq[i] == m] for m in range(self.mwidth * self.mheight)]
        self.msq_range = np.array([[max(abs(a % self.mwidth - b % self.mwidth), abs(a // self.mwidth - b // self.mwidth))
                                    for b in range(self.mwidth * self.mheight)] for a in range(self.mwidth * self.mheight)])
        # per square, the 8 neighbours in DIRECTIONS8 order, -1 off the map: plain ints, as `step` is read one at a time
        self.neighbours = self.grid.neighbour_table(True).tolist()
        self.code = [(i // width) * MAX_W + i % width for i in range(self.size)]   # board square -> codec square
        self.code_array = np.array(self.code)
        self.uncode = {c: i for i, c in enumerate(self.code)}
        self.mcode = [(m // self.mwidth) * (MAX_W // 3) + m % self.mwidth for m in range(self.mwidth * self.mheight)]
        self.muncode = {c: m for m, c in enumerate(self.mcode)}
        self.names = [square_id((i % width, i // width)) for i in range(self.size)]
        self.msq_names = [megasquare_id((m % self.mwidth, m // self.mwidth)) for m in range(self.mwidth * self.mheight)]
        self._reach: dict[tuple[int, int], np.ndarray] = {}

    def reach(self, lo: int, hi: int) -> np.ndarray:
        """(size, size) read-only bool: static LOS (CF-LOS-1/2) and lo <= range <= hi (CF-GRID-3), per pair.

        Built once per band: legality asks it of every element at every decision, and without smoke it is all
        there is to sight (see reach_row)."""
        table = self._reach.get((lo, hi))
        if table is None:
            table = self.los & (self.range >= lo) & (self.range <= hi)
            table.setflags(write=False)
            self._reach[(lo, hi)] = table
        return table

    def _buildings(self, terrain: tuple) -> list[int]:
        """CF-TER-2: touching building squares of one cover letter form one building."""
        letter = [ch.upper() if LEGEND[ch][1] else None for ch in terrain]
        ids = [-1] * self.size
        count = 0
        for start in range(self.size):
            if letter[start] is None or ids[start] >= 0:
                continue
            stack, ids[start] = [start], count
            while stack:
                here = stack.pop()
                for n in self.grid.neighbour_table(False)[here]:
                    if n >= 0 and ids[n] < 0 and letter[n] == letter[here]:
                        ids[n] = count
                        stack.append(int(n))
            count += 1
        return ids

    def step(self, square: int, direction: int) -> int:
        """The neighbour in DIRECTIONS8 order, or -1 off the map."""
        return self.neighbours[square][direction]

    def direction(self, a: int, b: int) -> int:
        """The DIRECTIONS8 index of the step a -> b (neighbours), or of the nearest 45 degree heading."""
        dx = b % self.width - a % self.width
        dy = b // self.width - a // self.width
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        if abs(dx) > 2 * abs(dy):
            sy = 0
        elif abs(dy) > 2 * abs(dx):
            sx = 0
        return DIRECTIONS8.index((sx, sy)) if (sx, sy) != (0, 0) else -1

    def xy(self, square: int) -> tuple[int, int]:
        return square % self.width, square // self.width

    def at(self, x: int, y: int) -> int:
        """The square at (x, y), or -1 off the map."""
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else -1

    def is_open_base(self, square: int) -> bool:
        return self.base_cover[square] == OPEN


@lru_cache(maxsize=8)
def board_for(width: int, height: int, terrain: tuple) -> Board:
    return Board(width, height, terrain)


# Sight with smoke (CF-LOS-4) -------------------------------------------------------------------------
def sight(game, a: int, b: int) -> bool:
    """CF-LOS-1..4: the static LOS, and no smoke at either end (when distinct) or on a crossed square."""
    board = game.board
    if not board.los[a, b]:
        return False
    if not game.smoke_count or a == b:
        return True
    smoke = game.smoke
    w = board.width
    return not any(smoke[y * w + x] for x, y in crossed_cells((a % w, a // w), (b % w, b // w)))


def reach_row(game, a: int, lo: int, hi: int) -> np.ndarray:
    """Bool (size,) of the squares `a` sees (CF-LOS-1..4) within range lo..hi; read-only when there is no smoke."""
    if not game.smoke_count:
        return game.board.reach(lo, hi)[a]                    # no smoke anywhere: sight is the static LOS
    rng = game.board.range[a]
    return sight_row(game, a) & (rng >= lo) & (rng <= hi)


def sight_row(game, a: int) -> np.ndarray:
    """Bool (size,) of the squares `a` sees (CF-LOS-1..4)."""
    row = game.board.los[a]
    if not game.smoke_count:
        return row
    return np.array([sight(game, a, b) for b in range(game.board.size)])
