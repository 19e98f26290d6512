"""Line of sight on a square grid, exactly: an integer supercover walk along a segment.

Geometry (see grid.py): cell (x, y) covers [x, x+1) x [y, y+1); points are exact (ints, Fractions;
floats are read as their shortest decimal, so 0.45 is 9/20). `trace` lists the cells whose
*interior* a segment crosses, in order, plus the pairs of cells *beside* each exact grid corner it
passes through (or beside a grid line it runs along). Rulesets decide what blocks:

- CITYFIGHT: centre to centre, blocking interiors except the end squares (CF-LOS-1); through an exact
  corner blocked only if both squares beside it block (CF-LOS-2): `corner="both"`.
- K47: only interiors of building cells block, never edges or corners (KC-MAP-7): `corner="never"`;
  sight from opening points (edge midpoints, KB-GRID-4) goes through `segment_clear`.
- Urban War: five sight lines to points of the target cell (UW-LOS-2), interiors only: `corner="never"`.

All arithmetic is on integers, so a segment and its reverse cross exactly the same cells: LOS is
symmetric by construction. `los_table` precomputes all pairs for a static map.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm

import numpy as np

Cell = tuple[int, int]

# How the two cells beside a passed corner combine: CF-LOS-2 "both"; KC-MAP-7 / UW-LOS-2 "never".
CORNER_RULES = ("both", "either", "never")


@dataclass(frozen=True, slots=True)
class Crossing:
    """What a segment passes: `cells` (interiors crossed, in order) and `beside` (cell pairs at exact corners)."""

    cells: tuple[Cell, ...]
    beside: tuple[tuple[Cell, Cell], ...] = ()

    def shifted(self, dx: int, dy: int) -> Crossing:
        """The same crossing translated by (dx, dy)."""
        move = lambda c: (c[0] + dx, c[1] + dy)  # noqa: E731
        return Crossing(tuple(map(move, self.cells)), tuple((move(p), move(q)) for p, q in self.beside))


# The exact walk ------------------------------------------------------------------------------------

def _first_cell(p: int, d: int, s: int) -> int:
    # The cell the segment enters from p: when p lies on a grid line and we move west/north, the cell
    # before the line, hence (p - 1) // s.
    return (p - 1) // s if d < 0 else p // s


def _last_cell(p: int, d: int, s: int) -> int:
    return (p - 1) // s if d > 0 else p // s


def _along_line(x0: int, y0: int, x1: int, y1: int, s: int) -> Crossing:
    """A segment lying on a vertical grid line x = x0: no interior crossed, the two columns beside it."""
    lo, hi = sorted((y0, y1))
    rows = range(lo // s, -(-hi // s))  # rows whose interior overlaps (lo, hi)
    rows = rows if y1 >= y0 else reversed(rows)
    col = x0 // s
    return Crossing((), tuple(((col - 1, r), (col, r)) for r in rows))


def _transpose(crossing: Crossing) -> Crossing:
    flip = lambda c: (c[1], c[0])  # noqa: E731
    return Crossing(tuple(map(flip, crossing.cells)), tuple((flip(p), flip(q)) for p, q in crossing.beside))


def _walk(x0: int, y0: int, x1: int, y1: int, s: int) -> Crossing:
    """Supercover walk in integer units where a cell is s wide (Amanatides-Woo with exact comparisons)."""
    dx, dy = x1 - x0, y1 - y0
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    cx, cy = _first_cell(x0, dx, s), _first_cell(y0, dy, s)
    end = (_last_cell(x1, dx, s), _last_cell(y1, dy, s))
    cells, beside = [(cx, cy)], []
    while (cx, cy) != end:
        # Distances to the next vertical / horizontal grid line as fractions nx/|dx|, ny/|dy|, compared
        # by cross-multiplication; a zero component never wins (its fraction is infinite).
        nx = ((cx + 1) * s - x0) if sx > 0 else (x0 - cx * s)
        ny = ((cy + 1) * s - y0) if sy > 0 else (y0 - cy * s)
        tx, ty = nx * abs(dy), ny * abs(dx)
        if tx == ty:  # an exact corner: the two cells beside it are not entered (CF-LOS-2)
            beside.append(((cx + sx, cy), (cx, cy + sy)))
        cx, cy = (cx + sx if tx <= ty else cx), (cy + sy if ty <= tx else cy)
        cells.append((cx, cy))
    return Crossing(tuple(cells), tuple(beside))


def _trace_int(x0: int, y0: int, x1: int, y1: int, s: int) -> Crossing:
    if (x0, y0) == (x1, y1):
        return Crossing(((x0 // s, y0 // s),))
    if x0 == x1 and x0 % s == 0:
        return _along_line(x0, y0, x1, y1, s)
    if y0 == y1 and y0 % s == 0:
        return _transpose(_along_line(y0, x0, y1, x1, s))
    return _walk(x0, y0, x1, y1, s)


def _exact(value) -> Fraction:
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    if isinstance(value, (float, np.floating)):
        return Fraction(str(float(value)))  # shortest decimal: 0.45 -> 9/20, not the binary float
    return Fraction(value)


def trace(p0, p1) -> Crossing:
    """Cells crossed by the segment p0 -> p1 between exact points (x, y) in grid units, and corner pairs."""
    coords = [_exact(v) for v in (*p0, *p1)]
    scale = lcm(*(c.denominator for c in coords))
    return _trace_int(*(int(c * scale) for c in coords), scale)


@cache
def _relative(dx: int, dy: int) -> Crossing:
    # Centre-to-centre crossings depend only on the offset: trace once from cell (0, 0), in doubled
    # units where centres are odd integers and grid lines even.
    return _trace_int(1, 1, 2 * dx + 1, 2 * dy + 1, 2)


def trace_centres(a: Cell, b: Cell) -> Crossing:
    """The crossing of the segment between the centres of cells a and b (cells start with a, end with b)."""
    # Plain ints: numpy integers would make the walk's sign arithmetic fail (bool - bool).
    (ax, ay), (bx, by) = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
    return _relative(bx - ax, by - ay).shifted(ax, ay)


def crossed_cells(a: Cell, b: Cell) -> list[Cell]:
    """Cells the centre-to-centre segment a -> b crosses, ends included, in order (CF-LOS-4 smoke, KC-MAP-9)."""
    return list(trace_centres(a, b).cells)


# Blocking ------------------------------------------------------------------------------------------

def _predicate(blocks):
    """A callable cell -> bool from a callable or an (H, W) bool array indexed [y, x] (off the board: False)."""
    if callable(blocks):
        return blocks
    array = np.asarray(blocks, dtype=bool)
    height, width = array.shape
    return lambda c: 0 <= c[0] < width and 0 <= c[1] < height and bool(array[c[1], c[0]])


def _check_rule(corner: str) -> None:
    if corner not in CORNER_RULES:
        raise ValueError(f"unknown corner rule {corner!r}; known: {', '.join(CORNER_RULES)}")


def is_blocked(crossing: Crossing, blocks, corner: str = "both", exempt=()) -> bool:
    """True if a crossed cell blocks, or a corner pair blocks under `corner`; cells in `exempt` never block."""
    _check_rule(corner)
    pred = _predicate(blocks)
    exempt = set(exempt)
    hit = lambda c: c not in exempt and pred(c)  # noqa: E731
    if any(hit(c) for c in crossing.cells):
        return True
    if corner == "never":
        return False
    join = all if corner == "both" else any
    return any(join((hit(p), hit(q))) for p, q in crossing.beside)


def line_of_sight(a: Cell, b: Cell, blocks, corner: str = "both") -> bool:
    """LOS between the centres of a and b; end cells never block (CF-LOS-1), corners per `corner` (CF-LOS-2)."""
    return not is_blocked(trace_centres(a, b), blocks, corner, exempt=(a, b))


def segment_clear(p0, p1, blocks, corner: str = "never", exempt=()) -> bool:
    """True if the segment between exact points p0 and p1 is unblocked (KB-GRID-8 openings, UW-LOS-2 lines)."""
    return not is_blocked(trace(p0, p1), blocks, corner, exempt)


# Precomputed tables for static maps ------------------------------------------------------------------

def los_table(blocks, corner: str = "both") -> np.ndarray:
    """(N, N) bool LOS between all cell pairs of an (H, W) blocking map, flat index y * W + x; symmetric."""
    _check_rule(corner)
    blocks = np.asarray(blocks, dtype=bool)
    height, width = blocks.shape
    table = np.zeros((height * width, height * width), dtype=bool)
    flat = np.arange(height * width).reshape(height, width)
    for dy in range(0, height):
        for dx in range(1 - width if dy else 0, width):
            _fill_offset(table, blocks, flat, (dx, dy), corner)
    return table


def _fill_offset(table: np.ndarray, blocks: np.ndarray, flat: np.ndarray, offset: Cell, corner: str) -> None:
    """Fill table[a, a + offset] for every source a at once (crossings are translation-invariant)."""
    (dx, dy), (height, width) = offset, blocks.shape
    ys, xs = slice(max(0, -dy), min(height, height - dy)), slice(max(0, -dx), min(width, width - dx))
    view = lambda c: blocks[ys.start + c[1]:ys.stop + c[1], xs.start + c[0]:xs.stop + c[0]]  # noqa: E731
    crossing = _relative(dx, dy)
    clear = np.ones((ys.stop - ys.start, xs.stop - xs.start), dtype=bool)
    for cell in crossing.cells[1:-1]:  # the end cells never block (CF-LOS-1)
        clear &= ~view(cell)
    if corner != "never":
        join = np.logical_and if corner == "both" else np.logical_or
        for p, q in crossing.beside:
            clear &= ~join(view(p), view(q))
    sources = flat[ys, xs]
    targets = sources + dy * width + dx
    # Each offset fills both directions: the walk is exact, so b -> a crosses what a -> b crosses.
    table[sources, targets] = clear
    table[targets, sources] = clear
