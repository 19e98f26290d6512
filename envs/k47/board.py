"""The Konflikt '47 board: cells, building sections with floors, and their openings (catalog section 1).

Coordinates are in cells: cell (x, y) covers [x, x+1] x [y, y+1], its centre is (x+0.5, y+0.5); x grows east,
y south. Distances in inches are `cell_in` times the Euclidean distance between points (KC-MAP-2).
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

# KC-MAP-8: what a cell is
OPEN, SCRUB, RUBBLE, BUILDING, BUNKER = range(5)
CELL_CHARS = {".": OPEN, "s": SCRUB, "r": RUBBLE}
SIDES = ("N", "E", "S", "W")                        # compass sides of a wall (KB-GRID-4)
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPENING_KINDS = ("door", "window", "slit")
MATERIALS = ("wooden", "brick", "bunker")           # KB-GRID-5
INTACT, BURNING, RUINED = "intact", "burning", "rubble"


def edge_point(x: int, y: int, side: str) -> tuple[float, float]:
    """The midpoint of a cell edge (KB-GRID-4, KB-GRID-10)."""
    return {"N": (x + 0.5, y), "S": (x + 0.5, y + 1.0), "W": (x, y + 0.5), "E": (x + 1.0, y + 0.5)}[side]


def centre(cell: tuple[int, int]) -> tuple[float, float]:
    return cell[0] + 0.5, cell[1] + 0.5


def inches(a: tuple[float, float], b: tuple[float, float], cell_in: float) -> float:
    """KC-MAP-2: cell_in times the Euclidean distance between two points, height ignored."""
    return cell_in * math.hypot(a[0] - b[0], a[1] - b[1])


@dataclass(frozen=True)
class Opening:
    """KB-GRID-4: a door, window or slit on one floor of a section, at a perimeter cell edge."""

    index: int
    section: int
    floor: int
    cell: tuple[int, int]
    side: str
    kind: str

    @property
    def point(self) -> tuple[float, float]:
        return edge_point(self.cell[0], self.cell[1], self.side)

    @property
    def outside(self) -> tuple[int, int]:
        dx, dy = STEP[self.side]
        return self.cell[0] + dx, self.cell[1] + dy


@dataclass(frozen=True)
class Section:
    """KB-GRID-1/3/9: a block of cells with floors 0..floors-1; a building of its own for occupancy and fire."""

    index: int
    name: str
    building: str
    material: str
    x0: int
    y0: int
    x1: int
    y1: int
    floors: int
    openings: tuple[int, ...] = ()

    @property
    def width(self) -> int:
        return self.x1 - self.x0 + 1

    @property
    def depth(self) -> int:
        return self.y1 - self.y0 + 1

    def cells(self) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.y0, self.y1 + 1) for x in range(self.x0, self.x1 + 1)]

    def contains(self, cell: tuple[int, int]) -> bool:
        return self.x0 <= cell[0] <= self.x1 and self.y0 <= cell[1] <= self.y1

    def on_perimeter(self, x: int, y: int, side: str) -> bool:
        """Whether the edge `side` of cell (x, y) is an outer wall of this section."""
        if not self.contains((x, y)):
            return False
        return {"N": y == self.y0, "S": y == self.y1, "W": x == self.x0, "E": x == self.x1}[side]

    def wall_points(self) -> list[tuple[float, float]]:
        """KB-GRID-10: the midpoints of every perimeter cell edge."""
        points = []
        for x in range(self.x0, self.x1 + 1):
            points += [edge_point(x, self.y0, "N"), edge_point(x, self.y1, "S")]
        for y in range(self.y0, self.y1 + 1):
            points += [edge_point(self.x0, y, "W"), edge_point(self.x1, y, "E")]
        return points

    def shares_wall(self, other: Section) -> bool:
        """Two sections touching along an edge (not only a corner): adjoining (KB-GRID-2)."""
        x_overlap = min(self.x1, other.x1) - max(self.x0, other.x0) >= 0
        y_overlap = min(self.y1, other.y1) - max(self.y0, other.y0) >= 0
        return ((self.x1 + 1 == other.x0 or other.x1 + 1 == self.x0) and y_overlap) or \
               ((self.y1 + 1 == other.y0 or other.y1 + 1 == self.y0) and x_overlap)


@dataclass(frozen=True)
class Board:
    """The static board: terrain per cell, sections, openings and which sections connect."""

    width: int
    height: int
    cell_in: float
    terrain: tuple[tuple[int, ...], ...]          # [y][x] -> OPEN..BUNKER as set up (rubble may come later)
    sections: tuple[Section, ...]
    openings: tuple[Opening, ...]
    connected: frozenset = field(default_factory=frozenset)   # frozenset of (i, j) with i < j

    def __hash__(self) -> int:
        """By content, as the dataclass's own hash, but computed once: caches keyed on the board (the blocking cells
        of line of sight) ask for it tens of times per decision, and hashing every terrain row each time cost a
        third of a step."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.width, self.height, self.cell_in, self.terrain, self.sections, self.openings,
                           self.connected))
            object.__setattr__(self, "_hash", cached)
        return cached

    @property
    def digest(self) -> str:
        """The board's content as a short digest (every field), naming it in the keys of the values kept across games
        as the tables' digest names the tables (geometry.ground); worked out once."""
        found = self.__dict__.get("_digest")
        if found is None:
            content = (self.width, self.height, self.cell_in, self.terrain, self.sections, self.openings,
                       sorted(self.connected))
            found = hashlib.blake2b(repr(content).encode(), digest_size=16).hexdigest()
            object.__setattr__(self, "_digest", found)
        return found

    def in_bounds(self, cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def section_at(self, cell: tuple[int, int]) -> int | None:
        for s in self.sections:
            if s.contains(cell):
                return s.index
        return None

    def section_named(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)

    def are_connected(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.connected

    def section_distance(self, a: int, b: int) -> float:
        """KB-GRID-10: perimeter to perimeter; sections sharing a wall are 0" apart."""
        sa, sb = self.sections[a], self.sections[b]
        if sa.shares_wall(sb):
            return 0.0
        return min(inches(p, q, self.cell_in) for p in sa.wall_points() for q in sb.wall_points())

    def distance_to_section(self, point: tuple[float, float], section: int) -> float:
        """KB-GRID-10: to the nearest point of the section's perimeter, visible or not."""
        return min(inches(point, q, self.cell_in) for q in self.sections[section].wall_points())

    def cell_index(self, cell: tuple[int, int]) -> int:
        return cell[1] * self.width + cell[0]

    def cell_of(self, index: int) -> tuple[int, int]:
        return index % self.width, index // self.width
