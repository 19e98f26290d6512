"""Movement outside and inside buildings: allowances, destinations, entering and leaving, Ambush windows
(catalog sections 1, 3 and 6)."""
from __future__ import annotations

from functools import lru_cache

from . import geometry, hidden
from .actions import CODEC
from .board import INTACT, centre, inches
from .flow import Decision, answer, task
from .state import ADVANCE, AMBUSH, FIRE, RUN
from .tasks import AfterMove, AmbushWindow, Declare, FixOpening

FACINGS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))   # KV-MOVE-2: N clockwise


def allowance(game, unit, order: str) -> float:
    """KC-MOVE-1 / KV-MOVE-1: the Advance or Run rate in inches."""
    kind = "infantry" if not unit.vehicle else ("tracked" if unit.tracked else "slow")
    advance, run = game.tables.movement[kind]
    return run if order == RUN else advance


def can_move(game, unit) -> bool:
    """KV-TAB-1 immobilised; KB-ART-2: artillery set up inside never moves."""
    return not unit.immobile and not (unit.kind == "artillery" and unit.inside)


def reach_once(game, unit, limit: float, paths: dict, start=None, start_cost: float = 0.0, rubble_ok: bool = True) -> dict:
    """geometry.reach, kept in `paths` while one decision's options are worked out (the position stands still
    meanwhile: a Run's moves, entries and assaults walk the same paths). The dict returned is shared: read only."""
    key = (limit, start or unit.cell, start_cost, rubble_ok)
    found = paths.get(key)
    if found is None:
        found = paths[key] = geometry.reach(game, unit, limit, start=start, rubble_ok=rubble_ok, start_cost=start_cost)
    return found


def outside_destinations(game, unit, order: str, start=None, start_cost: float = 0.0, paths: dict | None = None) -> dict:
    """KC-MAP-4/5/6, KC-MOVE-2: cell -> cost of every cell a move may end in (`paths`: see reach_once)."""
    costs = path_costs(game, unit, order, {} if paths is None else paths, start, start_cost)
    blocked = blocked_ends(game, unit)
    return {c: v for c, v in costs.items() if c not in blocked}


def path_costs(game, unit, order: str, paths: dict, start=None, start_cost: float = 0.0) -> dict:
    """KC-MAP-4/5, KC-MOVE-2: cell -> cost of every cell the move's paths reach, ends not yet ruled out (shared:
    read only)."""
    limit = allowance(game, unit, order)
    costs = reach_once(game, unit, limit, paths, start, start_cost, rubble_ok=not (unit.vehicle and unit.tracked))
    if unit.vehicle and unit.tracked:       # KC-MOVE-2: entering rubble caps a tracked vehicle at its Advance rate
        costs = dict(costs)
        advance = game.tables.movement["tracked"][0]
        for cell, cost in reach_once(game, unit, advance, paths, start, start_cost).items():
            costs.setdefault(cell, cost)
    return costs


def blocked_ends(game, unit) -> set:
    """KC-MAP-6: the cells a move may not end in: another unit's, one next to an enemy, its own."""
    blocked = geometry.occupied_cells(game) | geometry.near_enemy_cells(game, unit.side)
    blocked.add(unit.cell)
    return blocked


def leave_starts(game, unit) -> list:
    """KB-LEAVE-1/2: a unit on floor 0 steps out through a floor-0 opening (bunker: door) into its free outside cell."""
    if not unit.inside or unit.floor != 0:
        return []
    section = game.board.sections[unit.section]
    cells = []
    for i in section.openings:
        o = game.board.openings[i]
        if o.floor != 0 or (section.material == "bunker" and o.kind != "door"):
            continue
        if geometry.passable(game, o.outside) and geometry.unit_at(game, o.outside) is None and o.outside not in cells:
            cells.append(o.outside)
    return cells


def move_options(game, unit, order: str) -> tuple:
    """The MOVE decision's options, worked out once per decision (the mask and the answer share them): the cell
    moves as their action indices (a Run offers a hundred and more, and the answer reads the cell off the index),
    and the other options as in `_move_options`."""
    key = (unit.uid, order)
    cached = getattr(game, "_move_cache", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    options = _move_options(game, unit, order)
    game._move_cache = (key, options)
    return options


def _move_options(game, unit, order: str) -> tuple:
    """Every legal answer to the MOVE decision: (the "cell" actions, {("enter", s): door, ("floor", s, f): None,
    ("ram", s): how, ("assault", uid): how}), the value saying how (the start for an assault)."""
    cells, options, paths = [], {}, {}
    if not can_move(game, unit):
        return cells, options
    if not unit.inside:
        cells = destination_actions(game, unit, order, paths)
        # KB-ENTER-1: only infantry enter; KB-ENTER-4: a unit inside is offered no entry (leave, then enter later)
        if order == RUN and unit.kind == "infantry" and not game.options["no_building_entry"]:
            reach = reach_once(game, unit, allowance(game, unit, order), paths)
            for s in game.board.sections:
                door = entry_cell(game, unit, s.index, reach)
                if door is not None:
                    options[("enter", s.index)] = door
    else:
        for (sid, floor) in inside_moves(game, unit, order):
            options[("floor", sid, floor)] = None
        found = set()
        for start in leave_starts(game, unit):   # KB-LEAVE-2: 1" to step out, then on
            if 1.0 <= allowance(game, unit, order):
                found.update(destination_actions(game, unit, order, paths, start, 1.0))
                if not geometry.near_enemy(game, unit.side, start):
                    found.add(CELL_AT + game.board.cell_index(start))
        cells = sorted(found)
    if order == RUN and unit.vehicle and game.can_ram(unit):
        for sid, how in game.ram_options(unit).items():
            options[("ram", sid)] = how
    if order == RUN and unit.kind == "infantry":
        for uid, how in game.assault_options(unit, paths).items():
            options[("assault", uid)] = how
    return cells, options


#: where the "cell" family of actions starts: a destination's action is this plus its cell index
CELL_AT = CODEC.families["cell"].offset


def destination_actions(game, unit, order: str, paths: dict, start=None, start_cost: float = 0.0) -> list:
    """`outside_destinations` as "cell" actions, read straight off the paths (no dict of the cells built first)."""
    ends = path_costs(game, unit, order, paths, start, start_cost).keys() - blocked_ends(game, unit)
    return list(map(cell_actions(game.board).__getitem__, ends))


@lru_cache(maxsize=64)
def cell_actions(board) -> dict:
    """cell -> its "cell" action, for every cell of `board` (a board never changes)."""
    return {(x, y): CELL_AT + y * board.width + x for y in range(board.height) for x in range(board.width)}


def entry_cell(game, unit, sid: int, reach: dict):
    """KB-ENTER-2/3: the cheapest reachable outside cell of a floor-0 door or window (bunker: door) of an intact
    section whose floor 0 is empty; None if there is none. KB-GRID-7: that cell shares the opening's edge with the
    section, which is what "all within 1\", one at an opening" comes to on the grid."""
    section = game.board.sections[sid]
    # KB-ENTER-3: a held floor 0 is no entry (an enemy-held one is taken only by assault, a friendly-held one never)
    if game.section_state[sid] != INTACT or geometry.unit_on_floor(game, sid, 0) is not None:
        return None
    best = None
    for i in section.openings:
        o = game.board.openings[i]
        if o.floor != 0 or (section.material == "bunker" and o.kind != "door"):
            continue
        cost = reach.get(o.outside)
        if cost is None or (o.outside != unit.cell and geometry.unit_at(game, o.outside) is not None):
            continue
        if best is None or cost < best[1]:
            best = (o.outside, cost)
    return best


def inside_moves(game, unit, order: str) -> list:
    """KB-ORD-1/2/3, KB-LARGE-1: (section, floor) destinations of a move inside."""
    board, found = game.board, []
    steps = 1 if order == ADVANCE else 2
    here = board.sections[unit.section]
    for d in range(1, steps + 1):               # KB-ORD-3: change floors, passing friendly-held floors only
        for floor in (unit.floor + d, unit.floor - d):
            if not 0 <= floor < here.floors:
                continue
            between = range(min(unit.floor, floor) + 1, max(unit.floor, floor))
            if any(enemy_on(game, unit, unit.section, f) for f in between):
                continue
            if geometry.unit_on_floor(game, unit.section, floor) is None:
                found.append((unit.section, floor))
    frontier = [unit.section]
    seen = {unit.section}
    for d in range(steps):                      # cross connected sections on the same floor
        nxt = []
        for sid in frontier:
            for other in board.sections:
                if other.index in seen or not board.are_connected(sid, other.index) or other.floors <= unit.floor:
                    continue
                if game.section_state[other.index] != INTACT or enemy_on(game, unit, other.index, unit.floor):
                    continue
                if d == 1 and (max(board.sections[sid].width, board.sections[sid].depth) > 3
                               or max(other.width, other.depth) > 3):
                    continue                    # KB-LARGE-1: no two-section Run if either entered is wider than 6"
                seen.add(other.index)
                nxt.append(other.index)
                if geometry.unit_on_floor(game, other.index, unit.floor) is None:
                    found.append((other.index, unit.floor))
        frontier = nxt
    return sorted(set(found))


def enemy_on(game, unit, sid: int, floor: int) -> bool:
    other = geometry.unit_on_floor(game, sid, floor)
    return other is not None and other.side != unit.side


@answer(Decision.MOVE)
def move_answer(game, ctx, name, *args) -> None:
    unit = game.units[ctx["uid"]]
    order = ctx["order"]
    if name == "pass":
        game.log.add("hold", f"{unit.name} stays where it is", unit.side,
                     rule="KC-ORD-2" if order == ADVANCE else "KC-ORD-3")
        game.push(FixOpening(unit.uid), AfterMove(unit.uid, order))
        return
    if name == "cell":                  # a legal cell action (the mask said so): its cell is its index
        game.move_unit(unit, game.board.cell_of(args[0]), rule="KC-MAP-4" if not unit.inside else "KB-LEAVE-2")
        game.push(FixOpening(unit.uid), AfterMove(unit.uid, order))
        return
    how = move_options(game, unit, order)[1][(name, *args)]
    if name == "enter":
        game.move_unit(unit, None, section=args[0], floor=0, rule="KB-ENTER-2")
    elif name == "floor":
        game.move_unit(unit, None, section=args[0], floor=args[1], rule="KB-ORD-1" if order == ADVANCE else "KB-ORD-2")
    elif name == "ram":
        game.start_ram(unit, args[0], how)
        return
    else:
        game.start_assault(unit, game.units[args[0]], how)
        return
    game.push(FixOpening(unit.uid), AfterMove(unit.uid, order))


def fixed_weapon(game, unit) -> bool:
    return any("fixed" in game.tables.weapons[w].rules for _, w, _ in unit.weapons())


def opening_cells(game, unit) -> dict:
    """KB-FROM-5: outside cell index -> opening, for the openings on the unit's floor it may fire from (bunker:
    slits); on a convex section each outside cell faces one opening of a floor."""
    return {game.board.cell_index(o.outside): o.index for o in geometry.openings_of(game, unit)}


def may_keep_opening(game, unit) -> bool:
    """KB-FROM-5: the designation stands only on the unit's own floor (a unit that moved must choose anew)."""
    return unit.fixed_opening in {o.index for o in geometry.openings_of(game, unit)}


@task(FixOpening)
def fix_opening(game, uid: int) -> None:
    """KB-FROM-5: a unit inside with a Fixed weapon may re-designate its opening during its Advance or Run.
    KC-HID-9: a hidden occupant is asked whatever its weapons (pass only without one), so the asking reveals
    nothing (envs/engine/reaction.py)."""
    unit = game.units[uid]
    if not unit.alive or not unit.inside or not opening_cells(game, unit):
        return
    if fixed_weapon(game, unit) or not unit.revealed:
        game.decide(Decision.OPENING, side=unit.side, uid=uid)


@answer(Decision.OPENING)
def opening_answer(game, ctx, name, *args) -> None:
    unit = game.units[ctx["uid"]]
    if name == "pass":
        if not may_keep_opening(game, unit):
            unit.fixed_opening = None
        return
    unit.fixed_opening = opening_cells(game, unit)[args[0]]
    o = game.board.openings[unit.fixed_opening]
    game.log.add("fixed_opening", f"{unit.name} sets its Fixed weapon at the {o.side} {o.kind} of ({o.cell[0]}, "
                 f"{o.cell[1]})", unit.side, rule="KB-FROM-5", uid=unit.uid)


@task(AfterMove)
def after_move(game, uid: int, order: str) -> None:
    """KC-AMB-1 windows for the mover, then an Advance may shoot with the move penalty (KC-ORD-2)."""
    unit = game.units[uid]
    if order == ADVANCE and unit.alive:
        game.push_target_after(unit)    # its one Ambush window, then the shot (KC-ORD-2: no second window after it)
    elif unit.alive and unit.moved:
        game.push(AmbushWindow(uid, -1))


def ambushers(game, mover) -> list:
    """KC-AMB-1: enemy Ambush units with LOS and range to the mover (not from the same building: KB-AT-6).
    KC-HID-9: a hidden occupant's weapons are unknown to the mover's side, so its window opens on what that side
    knows (LOS from its floor's openings), able to fire or not (envs/engine/reaction.py); only `ambush_can_fire`
    lets it take the shot."""
    return [u for u in game.living() if u.side != mover.side and u.order == AMBUSH
            and not geometry.same_building(game, u, mover)
            and (game.sees(u, mover) if not hidden.known_to(u, mover.side) else ambush_can_fire(game, u, mover))]


def ambush_can_fire(game, unit, mover) -> bool:
    """KC-AMB-1: the Ambush unit has a weapon with LOS and range to the mover."""
    return bool(game.weapons_reaching(unit, mover, ambush=True))


@task(AmbushWindow)
def ambush_window(game, mover: int, after: int) -> None:
    unit = game.units[mover]
    if not unit.alive or not unit.moved:
        return
    for a in ambushers(game, unit):
        if a.uid > after:
            game.decide(Decision.AMBUSH, side=a.side, uid=a.uid, mover=mover)
            return


@answer(Decision.AMBUSH)
def ambush_answer(game, ctx, name) -> None:
    unit = game.units[ctx["uid"]]
    if name == "yes":      # KC-AMB-1: the Ambush die becomes Fire; the mover cannot go Down (it holds a die)
        unit.order, unit.kept = FIRE, False
        game.log.add("ambush_fire", f"{unit.name} springs its Ambush", unit.side, rule="KC-AMB-1")
        game.push(Declare(unit.uid, ctx["mover"], False), AmbushWindow(ctx["mover"], ctx["uid"]))
    else:
        game.push(AmbushWindow(ctx["mover"], ctx["uid"]))


def panic_cells(game, unit) -> list:
    """KC-ORD-11: Run cells farthest from the closest visible enemy (lowest cell index on ties); inside: only
    from floor 0, out through a floor-0 opening."""
    if not can_move(game, unit) or (unit.inside and unit.floor != 0):
        return []
    seen = [e for e in game.living() if e.side != unit.side and game.sees(unit, e)]
    if not seen:
        return []
    if unit.inside:
        dests = {}
        for start in leave_starts(game, unit):
            dests.update(outside_destinations(game, unit, RUN, start=start, start_cost=1.0))
            if not geometry.near_enemy(game, unit.side, start):
                dests.setdefault(start, 1.0)
    else:
        dests = outside_destinations(game, unit, RUN)
    closest = min(seen, key=lambda e: (distance_from(game, unit, game.point_of(e)), e.uid))
    far = game.point_of(closest)
    ranked = sorted(dests, key=lambda c: (-round(inches(centre(c), far, game.board.cell_in), 6), game.board.cell_index(c)))
    return ranked[:1]


def distance_from(game, unit, point) -> float:
    """How far `point` is from the unit: from its cell centre, or (inside) from its section (KB-GRID-10)."""
    if unit.inside:
        return game.board.distance_to_section(point, unit.section)
    return inches(centre(unit.cell), point, game.board.cell_in)
