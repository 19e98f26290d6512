"""Konflikt '47 geometry on the cell board: line of sight, cover, ranges to units outside and inside, and moves.

Every function reads a *position*: any object with `board`, `units`, `section_state` and `tables` (the game
itself, or a side's public view), so the scripted player and the rules measure alike (KC-AI-1).
"""
from __future__ import annotations

from functools import lru_cache

from envs.engine.derived import PREFIX, BoundedStore

from .board import BUILDING, BUNKER, RUBBLE, RUINED, SCRUB, centre, edge_point, inches

EPS = 1e-9
NEIGHBOURS = ((0, -1, 2), (1, 0, 2), (0, 1, 2), (-1, 0, 2), (1, -1, 3), (1, 1, 3), (-1, 1, 3), (-1, -1, 3))  # KC-MAP-4


# Stores kept across games (envs.engine.derived.BoundedStore), process-wide: each value is a pure function of the
# public terrain and places in its key (the board, its sections' states, points, cells), never of a unit's hidden
# fields, so any game, copy or side's view may read what another filled.
COVER = BoundedStore("k47 cover", 50_000)           # (ground, shooter point, cell) -> cover
SIGHTS = BoundedStore("k47 sight lines", 50_000)    # sight_key(...) -> sight or sights
CLEAR = BoundedStore("k47 clear lines", 500_000)    # (board and standing sections, a, b) -> LOS
BLOCKING = BoundedStore("k47 blocking cells", 256)  # ground -> blocking_cells
REACH = BoundedStore("k47 move paths", 3_000)       # the ground and a move's start (and enemies in the way) -> reach;
#                                                     a 12" Run's paths hold about 150 cells: some 10 KB each


def crosses_interior(a, b, cell) -> bool:
    """Whether segment a-b passes through the open interior of `cell` (touching an edge or corner does not)."""
    return crosses_box(a, b, cell, (cell[0] + 1, cell[1] + 1))


def crosses_box(a, b, low, high) -> bool:
    """Whether segment a-b passes through the open interior of the box from corner `low` to corner `high`."""
    t0, t1 = 0.0, 1.0
    for axis in (0, 1):
        lo, hi = low[axis], high[axis]
        d = b[axis] - a[axis]
        if abs(d) < EPS:
            if not lo + EPS < a[axis] < hi - EPS:
                return False
            continue
        u0, u1 = (lo - a[axis]) / d, (hi - a[axis]) / d
        if u0 > u1:
            u0, u1 = u1, u0
        t0, t1 = max(t0, u0), min(t1, u1)
    return t1 - t0 > EPS


#: a game's `ground`: (its sections' states as they were, its board, its tables, the key); a derived key
#: (envs.engine.derived.PREFIX), which `forget` drops
GROUND_KEY = f"{PREFIX}k47_ground"


def ground(game) -> str:
    """The board, the tables and the sections' states (KB-FLAME-3, KB-RUIN-1) named in one string (Board.digest, the
    tables' digest, each section's state): the first item of the keys of the values kept across games, read as a
    position's `ground` (a view's is its game's when it was taken). A string hashes once, where the board and a
    tuple of the states hashed again at every lookup. Kept on the game until a section's state changes (compared
    with a copy of the states as they were: a rule or a test may set a state anywhere)."""
    kept = game.__dict__.get(GROUND_KEY)
    if kept is None or kept[0] != game.section_state or kept[1] is not game.board or kept[2] is not game.tables:
        kept = game.__dict__[GROUND_KEY] = (list(game.section_state), game.board, game.tables,
                                            "|".join((game.board.digest, game.tables.digest, *game.section_state)))
    return kept[3]


def blocking_cells(pos) -> tuple:
    """KC-MAP-7: (the board and which sections stand, the boxes and cells of intact or burning sections): rubble
    never blocks. The first item, a string, names the second in the keys of `clear`."""
    key = pos.ground
    found = BLOCKING.find(key)
    return found if found is not None else BLOCKING.get(key, _blocking, pos.board, pos.section_state)


def _blocking(board, states) -> tuple:
    standing = [state != RUINED for state in states]
    name = board.digest + "|" + "".join("1" if up else "0" for up in standing)
    return name, tuple((s.x0, s.y0, s.x1, s.y1, tuple(s.cells())) for s in board.sections if standing[s.index])


def clear(pos, a, b, blockers=None) -> bool:
    """KC-MAP-7: LOS from point a to point b is blocked only by crossing a building cell's interior (`blockers`:
    blocking_cells(pos), when the caller already has them)."""
    if blockers is None:
        blockers = blocking_cells(pos)
    return CLEAR.get((blockers[0], a, b), _clear, blockers[1], a, b)


def _clear(blockers, a, b) -> bool:
    for x0, y0, x1, y1, cells in blockers:
        if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 + 1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1 + 1:
            continue
        if not crosses_box(a, b, (x0, y0), (x1 + 1, y1 + 1)):
            continue        # missing the section's box, it misses every cell in it (each cell's crossing lies within)
        if any(crosses_interior(a, b, c) for c in cells):
            return False
    return True


def outside_wall(point, opening_cell, side) -> bool:
    """KB-GRID-8: a point strictly outside the line of a wall (the wall of `side` of `opening_cell`)."""
    x, y = opening_cell
    return {"N": point[1] < y - EPS, "S": point[1] > y + 1 + EPS,
            "W": point[0] < x - EPS, "E": point[0] > x + 1 + EPS}[side]


def terrain_at(pos, cell) -> int:
    """The cell's terrain now: a collapsed section's cells are rubble (KB-RUIN-1)."""
    kind = pos.board.terrain[cell[1]][cell[0]]
    if kind in (BUILDING, BUNKER):
        sid = pos.board.section_at(cell)
        if pos.section_state[sid] == RUINED:
            return RUBBLE
    return kind


def cover(pos, shooter_point, cell) -> int:
    """KC-MAP-9: 2 hard, 1 soft, 0 none, for a target outside in `cell` shot at from `shooter_point` (kept per
    board, sections' state, point and cell: every to-hit score and every scripted estimate asks)."""
    return COVER.get((pos.ground, shooter_point, cell), _cover, pos, shooter_point, cell)


def _cover(pos, shooter_point, cell) -> int:
    best = 0
    target = centre(cell)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            c = (cell[0] + dx, cell[1] + dy)
            if not pos.board.in_bounds(c):
                continue
            kind = terrain_at(pos, c)
            if kind not in (SCRUB, RUBBLE):
                continue
            if (dx or dy) and not crosses_interior(shooter_point, target, c):
                continue
            best = max(best, 2 if kind == RUBBLE else 1)
    return best


def unit_at(pos, cell):
    for u in pos.units:
        if u.alive and u.cell == cell:
            return u
    return None


def unit_on_floor(pos, section: int, floor: int):
    for u in pos.units:
        if u.alive and u.section == section and u.floor == floor:
            return u
    return None


def from_fixed_opening(pos, unit, weapon: str) -> bool:
    """KB-FROM-5: a Fixed weapon, and KB-ART-1: every weapon of artillery inside, fire from one opening."""
    return fires_from_fixed_opening(pos.tables.weapons[weapon], unit.kind)


def fires_from_fixed_opening(w, kind: str) -> bool:
    """`from_fixed_opening` of a weapon's table entry on a unit of `kind`."""
    return "fixed" in w.rules or kind == "artillery"


def openings_of(pos, unit, weapon=None) -> list:
    """KB-FROM-1 / KB-BUNK-2 / KB-FROM-5: the openings a unit inside fires through."""
    board = pos.board
    section = board.sections[unit.section]
    found = []
    for i in section.openings:
        o = board.openings[i]
        if o.floor != unit.floor:
            continue
        if section.material == "bunker" and o.kind != "slit":
            continue
        if weapon is not None and from_fixed_opening(pos, unit, weapon) and i != unit.fixed_opening:
            continue                # KB-FROM-5 / KB-ART-1: only the designated opening (none designated: none)
        found.append(o)
    return found


def fire_points(pos, unit, weapon) -> list:
    """Where a weapon of `unit` measures from: its cell centre outside, each usable opening inside (KB-FROM-1).
    Each entry is (point, opening or None)."""
    if not unit.inside:
        return [(centre(unit.cell), None)]
    return [(o.point, o) for o in openings_of(pos, unit, weapon)]


def aim_points(pos, target, weapon) -> list:
    """Where a weapon aims at `target`: its cell centre outside; inside, openings on its floor for small arms
    (KB-AT-1), within 6" for flamethrowers (KB-AT-3), any wall point for heavy weapons (KB-AT-2, KB-HE-3).
    Each entry is (point, wall cell, wall side) or (point, None, None) outside."""
    if not target.inside:
        return [(centre(target.cell), None, None)]
    w = pos.tables.weapons[weapon]
    section = pos.board.sections[target.section]
    if w.small_arms or "flamethrower" in w.rules:
        ops = [pos.board.openings[i] for i in section.openings if pos.board.openings[i].floor == target.floor]
        if section.material == "bunker":                  # KB-BUNK-2: all fire in uses slits only
            ops = [o for o in ops if o.kind == "slit"]
        return [(o.point, o.cell, o.side) for o in ops]
    points = []
    for x in range(section.x0, section.x1 + 1):
        points += [(edge_point(x, section.y0, "N"), (x, section.y0), "N"),
                   (edge_point(x, section.y1, "S"), (x, section.y1), "S")]
    for y in range(section.y0, section.y1 + 1):
        points += [(edge_point(section.x0, y, "W"), (section.x0, y), "W"),
                   (edge_point(section.x1, y, "E"), (section.x1, y), "E")]
    if section.material == "bunker":
        ops = [pos.board.openings[i] for i in section.openings if pos.board.openings[i].kind == "slit"]
        points = [(o.point, o.cell, o.side) for o in ops]
    return points


def sight_key(pos, unit, weapon, target, many: bool) -> tuple:
    """All that `sight` and `sights` read: the board and its sections' states, the weapon's sight class, where
    the unit fires from (its designated opening only for a Fixed weapon, KB-FROM-5) and where the target stands."""
    fixed, at_openings = sight_class(pos, unit, weapon)
    return (many, pos.ground, fixed, at_openings, unit.cell, unit.section, unit.floor,
            unit.fixed_opening if fixed else None, target.cell, target.section, target.floor)


def sight(pos, unit, weapon, target):
    """The shortest visible (range in inches, fire point, opening used) from `unit`'s weapon to `target`, or None.

    KB-GRID-8: a wall point or opening is visible from P if the segment is clear and P is outside the wall's line;
    a unit inside fires out only to points outside its own opening's wall line.
    """
    return SIGHTS.get(sight_key(pos, unit, weapon, target, False), _sight, pos, unit, weapon, target)


def cell_sight(pos, a, b) -> float | None:
    """The range from cell `a`'s centre to cell `b`'s if the line between them is clear (KC-MAP-7), else None:
    `sight`'s answer for any weapon of a unit outside at a unit outside (one fire point, one aim point: the cell
    centres), without its key and store, as the firing checks ask it for every pair of units."""
    p, q = centre(a), centre(b)
    return inches(p, q, pos.board.cell_in) if clear(pos, p, q) else None


def _sight(pos, unit, weapon, target):
    best = None
    aims, blockers = aim_points(pos, target, weapon), blocking_cells(pos)
    for point, opening in fire_points(pos, unit, weapon):
        for aim, wall_cell, wall_side in aims:
            if wall_cell is not None and not outside_wall(point, wall_cell, wall_side):
                continue
            if opening is not None and not outside_wall(aim, opening.cell, opening.side):
                continue
            if not clear(pos, point, aim, blockers):
                continue
            d = inches(point, aim, pos.board.cell_in)
            if best is None or d < best[0] - EPS:
                best = (d, point, opening)
    return best


def sights(pos, unit, weapon, target) -> list:
    """KB-FROM-4: every fire point of `unit` with a visible aim point on `target`, as (range, point, opening),
    nearest first (then lowest opening index): a weapon inside may fall back on another opening with room. The
    list is shared (see SIGHTS): read only."""
    return SIGHTS.get(sight_key(pos, unit, weapon, target, True), _sights, pos, unit, weapon, target)


def _sights(pos, unit, weapon, target) -> list:
    found = []
    aims, blockers = aim_points(pos, target, weapon), blocking_cells(pos)
    for point, opening in fire_points(pos, unit, weapon):
        best = None
        for aim, wall_cell, wall_side in aims:
            if wall_cell is not None and not outside_wall(point, wall_cell, wall_side):
                continue
            if opening is not None and not outside_wall(aim, opening.cell, opening.side):
                continue
            if clear(pos, point, aim, blockers):
                d = inches(point, aim, pos.board.cell_in)
                best = d if best is None else min(best, d)
        if best is not None:
            found.append((best, point, opening))
    return sorted(found, key=lambda f: (round(f[0], 9), f[2].index if f[2] is not None else -1))


def sight_class(pos, unit, weapon) -> tuple[bool, bool]:
    """All that `sight` and `sights` read of a weapon: whether it fires from the designated opening only (KB-FROM-5,
    KB-ART-1) and whether it aims at openings (small arms, flamethrowers: KB-AT-1/3) rather than at walls. Weapons
    of one class see a target alike, so a unit's ten rifles need one sight line search, not ten."""
    return weapon_sight_class(pos.tables.weapons[weapon], unit.kind)


def weapon_sight_class(w, kind: str) -> tuple[bool, bool]:
    """`sight_class` of a weapon's table entry on a unit of `kind` (a unit's firing plan keeps it)."""
    return fires_from_fixed_opening(w, kind), w.small_arms or "flamethrower" in w.rules


def same_building(pos, a, b) -> bool:
    """KB-AT-6: two units inside sections of one building (connected or not)."""
    return a.inside and b.inside and pos.board.sections[a.section].building == pos.board.sections[b.section].building


# Movement ------------------------------------------------------------------------------------------------------
def ruined(pos) -> tuple:
    """Which sections have collapsed (KB-RUIN-1), as the keys of the ground's tables read it."""
    return tuple(map(RUINED.__eq__, pos.section_state))


def passable(pos, cell) -> bool:
    """KC-MAP-5: on the board and not a standing building or bunker cell."""
    return cell in open_cells(pos)


def open_cells(pos) -> frozenset:
    """The cells `passable` allows, for the sections' states now (a set per board and state: reach asks for
    hundreds of cells per move)."""
    return _ground(pos.board, ruined(pos))[0]


def rubble_cells(pos) -> frozenset:
    """The cells whose terrain is rubble now (KB-RUIN-1: a collapsed section's cells included)."""
    return _ground(pos.board, ruined(pos))[1]


def sheltered_cells(pos) -> frozenset:
    """The cells where `cover` may be above 0 now: those with a scrub or rubble cell among themselves and their 8
    neighbours (KC-MAP-9); anywhere else it is 0 from every point, so a search over many cells asks only these."""
    return _ground(pos.board, ruined(pos))[2]


@lru_cache(maxsize=64)
def _ground(board, ruined: tuple) -> tuple[frozenset, frozenset, frozenset]:
    passable_now, rubble_now, cover_now = set(), set(), set()
    for y in range(board.height):
        for x in range(board.width):
            kind = board.terrain[y][x]
            if kind in (BUILDING, BUNKER) and ruined[board.section_at((x, y))]:
                kind = RUBBLE                              # terrain_at: KB-RUIN-1
            if kind not in (BUILDING, BUNKER):
                passable_now.add((x, y))
            if kind == RUBBLE:
                rubble_now.add((x, y))
            if kind in (SCRUB, RUBBLE):                    # _cover's cells: this one and the 8 around it
                cover_now.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return frozenset(passable_now), frozenset(rubble_now), frozenset(cover_now)


def steps_from(pos) -> dict:
    """cell -> ((next cell, cost), ...) of every step KC-MAP-4/5 allow between passable cells now, in NEIGHBOURS
    order (a table per board and sections' state: reach walks it for every move decision)."""
    return _steps(pos.board, ruined(pos))


@lru_cache(maxsize=64)
def _steps(board, ruined: tuple) -> dict:
    open_now = _ground(board, ruined)[0]
    return {cell: legal_steps(open_now, cell) for cell in open_now}


def legal_steps(open_now, cell) -> tuple:
    """KC-MAP-4/5: the 8 neighbours of `cell` that are passable, a diagonal not clipping an impassable corner."""
    x, y = cell
    found = []
    for dx, dy, step in NEIGHBOURS:
        nxt = (x + dx, y + dy)
        if nxt not in open_now:
            continue
        if dx and dy and not ((x + dx, y) in open_now and (x, y + dy) in open_now):
            continue   # KC-MAP-4: a diagonal may not clip an impassable corner
        found.append((nxt, step))
    return tuple(found)


def reach(pos, unit, allowance: float, start=None, rubble_ok: bool = True, start_cost: float = 0.0) -> dict:
    """KC-MAP-4/5: cell -> cheapest path cost in inches from the unit's cell (or `start`) within `allowance`;
    never through an enemy outside (nor rubble unless `rubble_ok`). The dict is shared: read only.

    The paths over the bare ground are kept per start; only enemies standing on them can change them, so those
    enemies' cells complete the key (none: the bare paths are the answer)."""
    start = start or unit.cell
    ground = (pos.board, ruined(pos), start, allowance, rubble_ok, start_cost)
    rubble = frozenset() if rubble_ok else rubble_cells(pos)
    bare = REACH.get(ground, walk, pos, start, allowance, rubble, start_cost)
    enemies = frozenset(u.cell for u in pos.units if u.alive and u.side != unit.side and u.cell in bare)
    if not enemies:
        return bare
    return REACH.get((ground, enemies), walk, pos, start, allowance, rubble | enemies, start_cost)


def walk(pos, start, allowance: float, closed, start_cost: float) -> dict:
    """Dijkstra over `steps_from` from `start`, never into a `closed` cell, within `allowance` inches. A step costs a
    whole 2 or 3 (KC-MAP-4), so the cells are taken up level by level of cost (a bucket per whole number above
    `start_cost`) instead of from a heap: the same costs, in whole numbers, exact in floats."""
    table = steps_from(pos)
    costs = {start: start_cost}
    limit = allowance + EPS
    levels: list = [[] for _ in range(int(allowance) + 4)]   # levels[i]: cells reached at start_cost + i
    levels[0].append(start)
    for i, cells in enumerate(levels):
        here = start_cost + i
        for cell in cells:
            if costs[cell] != here:
                continue                 # reached more cheaply since it was put here
            steps = table.get(cell)
            if steps is None:            # a start off the passable ground
                steps = legal_steps(open_cells(pos), cell)
            for nxt, step in steps:
                new = here + step
                if new > limit or nxt in closed:
                    continue
                if new < costs.get(nxt, 1e9):
                    costs[nxt] = new
                    levels[i + step].append(nxt)
    return costs


def near_enemy(pos, side: int, cell) -> bool:
    """KC-MAP-6: 8-adjacent to an enemy unit outside."""
    for u in pos.units:
        if u.alive and u.side != side and u.cell is not None and adjacent(u.cell, cell):
            return True
    return False


def near_enemy_cells(pos, side: int) -> set:
    """KC-MAP-6 for many cells at once: every cell `near_enemy` is true of (the 8 around each enemy outside)."""
    near = set()
    for u in pos.units:
        if u.alive and u.side != side and u.cell is not None:
            near.update(ring(u.cell))
    return near


@lru_cache(maxsize=4096)
def ring(cell) -> tuple:
    """The 8 cells around `cell` in NEIGHBOURS order (off the board too), worked out once per cell."""
    return tuple((cell[0] + dx, cell[1] + dy) for dx, dy, _ in NEIGHBOURS)


def occupied_cells(pos) -> set:
    """The cells `unit_at` finds a unit in."""
    return {u.cell for u in pos.units if u.alive and u.cell is not None}


def adjacent(a, b) -> bool:
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1
