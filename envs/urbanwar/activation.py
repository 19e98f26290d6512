"""An activation: actions and movement (UW-ACT-1..9, UW-MOVE-1..7), shooting choices (UW-SHOOT-2..7), close
combat and breaking off (UW-CC-11..13), Overwatch interrupts (UW-OW-1..15, UW-HID-6) and follow-ups (UW-FU-1..4)."""
from __future__ import annotations

import numpy as np

from envs.engine.reaction import open_window

from . import combat, command
from . import geometry as geo
from .actions import ACTION_KINDS, BREAK_OFF, CHARGE, CODEC, DISRUPT, FIGHT, HOLD, INTERCEPT, MOVE_SHOOT, REACH, RUSH
from .flow import Decision, answer, task
from .tasks import ActionEnd, BeginAction, BreakOff, ChooseFight, ChooseShot, NextActivation, Traverse, Window

SNAP, OVERWATCH = 0, 1


def allowance(m, kind: int) -> int:
    """Half-inches: Rush and charge 2 x MV + CAL (UW-ACT-2, UW-ACT-8), Move+Shoot MV (UW-ACT-3), break-off MV + CAL (UW-CC-11)."""
    p = m.profile
    inches = {RUSH: 2 * p.MV + p.CAL, CHARGE: 2 * p.MV + p.CAL, MOVE_SHOOT: p.MV, BREAK_OFF: p.MV + p.CAL}[kind]
    return 2 * inches


DEST_AT = CODEC.offset("dest")
#: per cell, the part of its dest action that depends on the cell alone: the action from `start` to `cell` is
#: DEST_COLUMN[cell] - DEST_COLUMN[start] + DEST_CENTRE (CODEC's row-major (dx + R, dy + R))
DEST_COLUMN = np.array([(c % geo.N) * (2 * REACH + 1) + c // geo.N for c in range(geo.CELLS)], dtype=np.intp)
DEST_CENTRE = DEST_AT + REACH * (2 * REACH + 1) + REACH


def dest_mask(start: int, cells: list[int]) -> np.ndarray:
    """The dest actions from `start` to `cells` (each within R, UW-MOVE-7) as a mask, worked out for all the cells
    at once (a move has hundreds of destinations)."""
    mask = np.zeros(CODEC.size, dtype=bool)
    at = np.fromiter(cells, dtype=np.intp, count=len(cells))
    mask[DEST_COLUMN[at] + (DEST_CENTRE - int(DEST_COLUMN[start]))] = True
    return mask


class Moves:
    """A move's legal destinations (UW-MOVE-4..7, UW-ACT-9): their cells and the cost of each's cheapest path in
    half-inches (lists, in the order first reached), the search's tree of previous cells (`geo.path_to`), and the two
    as a dict when first asked (the scripted player's; a mask reads the cells)."""

    __slots__ = ("cells", "costs", "came_from", "_by_cell")

    def __init__(self, cells: list[int], costs: list[int], came_from) -> None:
        self.cells, self.costs, self.came_from, self._by_cell = cells, costs, came_from, None

    def by_cell(self) -> dict[int, int]:
        if self._by_cell is None:
            self._by_cell = dict(zip(self.cells, self.costs))
        return self._by_cell


NO_MOVES = Moves([], [], ())


def moves(game, m, kind: int) -> Moves:
    """`m`'s legal destinations for an action of `kind`; cached with the path tree until something moves."""
    key = ("dest", m.idx, m.cell, kind)
    found = game._geo_cache.get(key)
    if found is None:
        found = game._geo_cache[key] = _destinations(game, m, kind)
    return found


def destinations(game, m, kind: int) -> dict[int, int]:
    """Legal destination cell -> the cost of its cheapest path in half-inches (UW-MOVE-4..7, UW-ACT-9)."""
    return moves(game, m, kind).by_cell()


def path_of(game, m, kind: int, cell: int) -> list[int]:
    """The declared path to a legal destination (UW-MOVE-4: the cheapest, ties by neighbour order)."""
    return geo.path_to(moves(game, m, kind).came_from, cell)


def _destinations(game, m, kind: int) -> Moves:
    if kind == CHARGE and not charge_targets(game, m):
        return NO_MOVES
    shared = kind != BREAK_OFF and m.cell not in game.touching(m.side)
    if shared and (kind != MOVE_SHOOT or ("reach", m.idx, m.cell) in game._geo_cache):
        reach = charge_reach(game, m)
    else:
        mode = {RUSH: geo.FREE, MOVE_SHOOT: geo.FREE, CHARGE: geo.CHARGE, BREAK_OFF: geo.BREAK}[kind]
        started = geo.model_bits(e.idx for e in game.enemies_in_contact(m))
        reach = geo.reachable(game.board, m.cell, allowance(m, kind), mode, game.crowd(m.side), started)
    if kind == CHARGE:                                                          # UW-ACT-9: a seen enemy's side
        cells, costs = reach.select(m.cell, need=geo.model_bits(e.idx for e in charge_targets(game, m)))
    elif kind == BREAK_OFF:                                                     # UW-MOVE-6
        cells, costs = reach.select(m.cell, avoid=-1)
        if cells and cells[0] == m.cell:
            cells, costs = cells[1:], costs[1:]
    elif shared:                                     # UW-MOVE-5: the charge's reach less the cells in contact
        cells, costs = reach.select(m.cell, avoid=-1, most=allowance(m, kind))
    else:
        cells, costs = reach.select(m.cell)
    # UW-MOVE-7: offsets within R (always true while 2 x MV + CAL <= R; kept for test-only profiles): no path of
    # the allowance leaves the square of side 2R + 1 when even its cheapest steps stop within R
    if allowance(m, kind) // game.board.cheapest_step > REACH:
        x, y = m.cell % geo.N, m.cell // geo.N
        picked = [(c, v) for c, v in zip(cells, costs) if abs(c % geo.N - x) <= REACH and abs(c // geo.N - y) <= REACH]
        cells, costs = [c for c, _ in picked], [v for _, v in picked]
    return Moves(cells, costs, reach.came_from)


def charge_reach(game, m):
    """The one path search a Rush, a charge and (once it was made) a Move+Shoot of `m` read, cached until something
    moves: a charge's (UW-MOVE-5: a cell in contact with an enemy ends a path). A Rush or Move+Shoot may not enter
    those cells (UW-MOVE-5), and no path of the charge's goes on from one, so every other cell has the same cost and
    the same previous cell in both searches; Move+Shoot's cells are those within its allowance (UW-ACT-2/3), whose
    cheapest paths no costlier cell can change. The model must not start in contact (it could not Rush then)."""
    key = ("reach", m.idx, m.cell)
    found = game._geo_cache.get(key)
    if found is None:
        found = game._geo_cache[key] = geo.reachable(game.board, m.cell, allowance(m, CHARGE), geo.CHARGE,
                                                     game.crowd(m.side))
    return found


def charge_targets(game, m) -> list:
    """UW-ACT-8/9: the enemies a charge could end beside: seen at the start, and near enough that a cell touching
    them is within 2 x MV + CAL (every step costs at least 1", UW-MOVE-1), so most turns need no path search;
    cached until something moves."""
    key = ("charge targets", m.idx)
    found = game._geo_cache.get(key)
    if found is None:
        reach = 2 * m.profile.MV + m.profile.CAL + 1
        x, y = m.cell % geo.N, m.cell // geo.N
        near = [e for e in game.enemies(m) if max(abs(e.cell % geo.N - x), abs(e.cell // geo.N - y)) <= reach]
        found = game._geo_cache[key] = [e for e in near if game.los(m, e)]
    return found


# Starting an action --------------------------------------------------------------------------------------------------
@task(BeginAction)
def run_begin_action(game, model, followup) -> None:
    """UW-PANIC-8, UW-PANIC-9, UW-PANIC-11, UW-FU-4, UW-SPEC-3: the rally check at the start of an action fixes
    its panic status for the whole action. UW-FU-3: every action starts a fresh context (moved, charged)."""
    m = game.models[model]
    panicked = m.panic
    if followup:
        m.fu_used += 1
        game.log.add("follow_up", f"{m.id} takes a follow-up action ({m.fu_used}/{m.profile.CAL})", m.side,
                     rule="UW-FU-2")
    if m.panic:
        if command.command_check(game, m, "rally check", "UW-FU-4" if followup else "UW-PANIC-8"):
            m.panic = False
            if m.profile.high_morale:
                panicked = False                                                 # UW-SPEC-3
    game.act = {"model": model, "kind": -1, "path": [m.cell], "panicked": panicked, "attempted": False,
                "reaction": None, "stopped": False, "followup": followup, "moved": False}
    game.decide(Decision.ACTION, m.side, [CODEC.encode("action", k) for k in action_kinds(game, m, panicked)])


def action_kinds(game, m, panicked: bool) -> list[int]:
    """UW-TURN-13: no pass, but Move+Shoot may stay and hold fire; UW-ACT-1, UW-ACT-6: in contact only Assault
    (fight or break off); a panicked model may not charge (UW-PANIC-7)."""
    if game.in_contact(m):
        return [FIGHT, BREAK_OFF]
    kinds = [RUSH, MOVE_SHOOT]
    if not panicked and len(moves(game, m, CHARGE).cells):
        kinds.append(CHARGE)
    return kinds


@answer(Decision.ACTION)
def on_action(game, ctx, name, kind) -> None:
    act = game.act
    act["kind"] = kind
    m = game.models[act["model"]]
    game.log.add("action", f"{m.id}: {ACTION_KINDS[kind].replace('_', ' ')}", m.side, rule="UW-DEC-5")
    if kind == FIGHT:
        game.push(Window(1), ChooseFight(False), ActionEnd())
    elif kind == BREAK_OFF:
        game.push(BreakOff())
    else:
        ask_destination(game, m, kind)


def ask_destination(game, m, kind: int) -> None:
    cells = moves(game, m, kind).cells
    if not len(cells):            # a break-off with nowhere to go stays put
        game.push(Window(1), ActionEnd())
        return
    game.decide_by_mask(Decision.DEST, m.side, dest_mask(m.cell, cells), move=kind)


@answer(Decision.DEST)
def on_dest(game, ctx, name, dx, dy) -> None:
    act = game.act
    m = game.models[act["model"]]
    cell = (m.cell // geo.N + dy - REACH) * geo.N + m.cell % geo.N + dx - REACH
    act["path"] = path_of(game, m, act["kind"], cell)
    game.log.add("declared", f"{m.id} declares a path to ({cell % geo.N},{cell // geo.N}), "
                 f"{len(act['path']) - 1} steps", m.side, rule="UW-MOVE-4")
    after = {RUSH: (), MOVE_SHOOT: (ChooseShot(),), CHARGE: (ChooseFight(True),), BREAK_OFF: ()}[act["kind"]]
    game.push(Window(1), Traverse(), *after, ActionEnd())


REACT, REACT_NONE = CODEC.table("react"), CODEC.encode("react_none")     # (slot, kind, position) -> action


# Overwatch windows -------------------------------------------------------------------------------------------------------
def reaction_options(game, stage: int) -> tuple[bool, list[int]]:
    """UW-OW-3, -6, -10..12, UW-PANIC-7: (model, type, position) options of the non-acting side's face-down models
    (all of them for the offer, UW-HID-6; only Overwatch ones as choices): (offered, the Overwatch choices).

    The acting model stands at each position in turn, as if moved there (its own cell emptied): it is the target
    of every sight line, so only the other models may block them, and a reactor's own contact with an enemy other
    than the actor is the same at every position."""
    act = game.act
    actor = game.models[act["model"]]
    path = act["path"]
    positions = range(len(path)) if stage == 1 else [len(path) - 1]
    out, offered = [], False
    face_down = game.orders.is_face_down
    reactors = [r for r in game.side_models(1 - actor.side) if r.placed and not r.activated and face_down(r.idx)]
    if not reactors:
        return False, out
    actor_touches = game.touching(actor.side)            # cells in contact with a reactor's side (UW-OW-12)
    facts = [reactor_facts(game, r, actor) for r in reactors]
    overwatch = [fact for fact in facts if fact[5]]
    n = geo.N
    for pos in positions:
        cell = path[pos]
        x, y = cell % n, cell // n
        for fact in (overwatch if offered else facts):
            # once offered, a Snap-fire model adds nothing: only Overwatch models give choices (UW-HID-6)
            r, obstacles, rx, ry, shots, ow, reach = fact
            dx, dy = abs(rx - x), abs(ry - y)
            shoots = False                                    # UW-OW-6: a usable band, not in base contact
            if dx > 1 or dy > 1:
                d2 = dx * dx + dy * dy
                for max_d2, usable in shots:
                    if d2 <= max_d2:
                        shoots = usable
                        break
            # could_intercept's distance check first: a reactor that can neither shoot nor reach needs no sight line
            if not shoots and (r.panic or (offered and not ow) or dx > reach or dy > reach):
                continue
            if obstacles is None:
                obstacles = fact[1] = game.obstacles(r, r.cell, besides=actor)
            if not geo.sees(obstacles, r.cell, cell):
                continue
            if shoots:
                offered = True
                if ow:
                    out.append(REACT[r.slot][DISRUPT][pos])
            if not r.panic and (ow or not offered) and could_intercept(game, r, actor, cell, actor_touches):
                offered = True                                                          # UW-OW-10..12, PANIC-7
                if ow:
                    out.append(REACT[r.slot][INTERCEPT][pos])
    return offered, out


def reactor_facts(game, r, actor) -> list:
    """What `reaction_options` reads of reactor `r` at every position: the model, what blocks its sight (None: worked
    out when first needed), its column and row, its shots (UW-SHOOT-2, UW-OW-6: per band from short on, its
    largest squared distance and whether the weapon is usable there; none when in contact with an enemy other
    than the actor, read from the cells around it), whether it is on Overwatch, how far its intercept charge
    reaches (2 x MV + CAL, and the cell beside the actor)."""
    occ, side_of, cell, actor_idx = game.occ, game.side_of, r.cell, actor.idx
    in_contact = False
    for c in geo.NEAR[cell]:
        o = occ[c]
        if o >= 0 and o != actor_idx and side_of[o] != r.side:
            in_contact = True
            break
    shots = () if in_contact else band_shots(game.tables.weapons[r.profile.ranged], game.tables.bands)
    return [r, None, cell % geo.N, cell // geo.N, shots, game.order_of(r) == OVERWATCH,
            2 * r.profile.MV + r.profile.CAL + 1]


#: process-wide: (a weapon's bands, the range bands' limits) -> `band_shots`
_SHOTS: dict = {}


def band_shots(weapon, bands) -> tuple[tuple[int, bool], ...]:
    """Per band from short on, its largest squared distance and whether `weapon` is usable there (UW-SHOOT-2; a
    pure function of the tables, kept for the process)."""
    key = (weapon.bands, tuple(b.max_d2 for b in bands))
    found = _SHOTS.get(key)
    if found is None:
        found = _SHOTS[key] = tuple((band.max_d2, weapon.usable(i)) for i, band in enumerate(bands, 1))
    return found


def could_intercept(game, r, actor, cell: int, actor_touches) -> bool:
    """Whether `intercept_cell` would find a cell for `r` with the actor at `cell` (UW-OW-10/12/13), from one path
    search per reactor that leaves the actor out (`intercept_reach`): the actor changes only the cells around
    it, which end a charge (UW-MOVE-5), so a charge reaches one of them iff it does with the actor left out."""
    if cell in actor_touches and not geo.contact(r.cell, cell):                              # UW-OW-12
        return False
    reach = 2 * r.profile.MV + r.profile.CAL
    if max(abs(r.cell % geo.N - cell % geo.N), abs(r.cell // geo.N - cell // geo.N)) > reach + 1:
        return False
    if geo.contact(r.cell, cell):
        return True
    reached = intercept_reach(game, r, actor)
    return any(c in reached for c, _ in geo.NEIGHBOURS[cell])


def intercept_reach(game, r, actor) -> set[int]:
    """The cells (not its own) `r`'s intercept charge reaches with `actor` off the table (UW-OW-10/13:
    2 x MV + CAL), cached until something moves."""
    key = ("intercept_reach", r.idx, actor.idx)
    found = game._geo_cache.get(key)
    if found is None:
        reach = geo.reachable(game.board, r.cell, 2 * (2 * r.profile.MV + r.profile.CAL), geo.CHARGE,
                              game.crowd(r.side, besides=actor))
        found = game._geo_cache[key] = set(reach.select(r.cell)[0]) - {r.cell}
    return found


def intercept_cell(game, r, actor) -> int | None:
    """UW-OW-10/13: the cheapest reachable free cell adjacent to the acting model (ties UW-MOVE-4), or None."""
    if game.in_contact(actor) and not geo.contact(r.cell, actor.cell):                # UW-OW-12
        return None
    reach = 2 * r.profile.MV + r.profile.CAL
    if max(abs(r.cell % geo.N - actor.cell % geo.N), abs(r.cell // geo.N - actor.cell // geo.N)) > reach + 1:
        return None
    if geo.contact(r.cell, actor.cell):
        return r.cell
    cells, costs = geo.reachable(game.board, r.cell, 2 * reach, geo.CHARGE, game.crowd(r.side)).select(
        r.cell, need=1 << actor.idx)
    return cells[costs.index(min(costs))] if cells else None             # the first reached of the cheapest


def can_intercept(game, r, actor) -> bool:
    return intercept_cell(game, r, actor) is not None


@task(Window)
def run_window(game, stage) -> None:
    """UW-OW-2/3, UW-HID-6: offered iff some face-down model of the non-acting side could react at some position,
    whatever its real order; only Overwatch models are selectable; "no reaction" is always legal."""
    act = game.act
    actor = game.models[act["model"]]
    if act["attempted"] or act["stopped"] or not actor.placed:
        return
    if stage == 2 and not act.get("shot"):
        return
    offered, choices = reaction_options(game, stage)
    open_window(game, Decision.REACT, 1 - actor.side, offered, [REACT_NONE] + choices, stage=stage)


@answer(Decision.REACT)
def on_react(game, ctx, name, *args) -> None:
    act = game.act
    if name == "react_none":
        game.log.add("no_reaction", "no reaction", ctx["side"], rule="UW-HID-8")
        return
    slot, kind, pos = args
    r = game.side_models(ctx["side"])[slot]
    act["attempted"] = True                                                              # UW-OW-2
    game.orders.reveal(r.idx)
    game.log.add("revealed", f"{r.id}'s order is Overwatch", r.side, rule="UW-HID-3")
    game.orders.remove(r.idx)
    r.activated = True
    game.log.add("spent", f"{r.id} counts as activated and loses its counter", r.side, rule="UW-OW-5")
    game.log.add("interrupt", f"{r.id} tries to interrupt: {'disruption shot' if kind == DISRUPT else 'intercept'} "
                 f"at step {pos}", r.side, rule="UW-OW-1")
    if ctx["stage"] == 2:
        resolve_interrupt(game, r, kind)
    else:
        act["reaction"] = [r.idx, kind, pos]


def resolve_interrupt(game, r, kind: int) -> None:
    """UW-OW-7/8 (disruption), UW-OW-13/14 (intercept); the command check first (UW-OW-1). UW-OW-15: no rally
    check for a reactor; UW-OW-4: windows open only in actions (tasks Window), never in a reaction, fight-back,
    free strike or panic; UW-OW-11: every model is on solid ground (no `jumping` in v1); UW-TURN-14: this and
    fighting back are the only ways an Overwatch model acts."""
    act = game.act
    actor = game.models[act["model"]]
    extra = 0
    if kind == DISRUPT:
        band = geo.band_of(game.tables.bands, r.cell, actor.cell)
        extra = game.tables.bands[band - 1].disruption                                   # UW-OW-7
    if not command.command_check(game, r, "interrupt check", "UW-OW-1", extra):
        return
    if kind == DISRUPT:
        combat.shoot(game, r, actor, moved=False, panicked=r.panic, disruption=True)    # UW-OW-8
        game.log.add("disruption", f"{r.id} fired a disruption shot", r.side, rule="UW-OW-8")
    else:
        cell = intercept_cell(game, r, actor)
        if cell is None:
            return
        game.place(r, cell)
        game.log.add("intercept", f"{r.id} intercepts {actor.id} from ({cell % geo.N},{cell // geo.N})", r.side,
                     rule="UW-OW-13")
        combat.close_combat(game, r, actor, a_charged=True, t_charged=True, a_panicked=r.panic)
        if actor.placed:
            act["stopped"] = True                                                        # UW-OW-14
            game.log.add("stopped", f"{actor.id} stays put; its action ends", actor.side, rule="UW-OW-14")


@task(Traverse)
def run_traverse(game) -> None:
    """UW-MOVE-4, UW-OW-9: move along the declared path; an interrupt happens at its declared position. Nothing
    looks at the cells between (the path's cells are free, and an interrupt is the only thing that happens on the
    way), so the model is placed at the interrupt's position, if any, and then at the path's end."""
    act = game.act
    actor = game.models[act["model"]]
    path = act["path"]
    reaction = act["reaction"]
    last, at = len(path) - 1, 0
    if reaction:
        at = reaction[2]
        if at:
            game.place(actor, path[at])
            act["moved"] = True                                                          # UW-ACT-4
        act["reaction"] = None
        resolve_interrupt(game, game.models[reaction[0]], reaction[1])
    if last > at and actor.placed and not act["stopped"]:
        game.place(actor, path[last])
        act["moved"] = True
    if last > 0 and actor.placed:
        game.log.add("moved", f"{actor.id} moves to ({actor.cell % geo.N},{actor.cell // geo.N})", actor.side,
                     rule="UW-MOVE-1")


# Shooting -------------------------------------------------------------------------------------------------------------------
def legal_targets(game, m, cell: int | None = None) -> list:
    """UW-SHOOT-2, UW-SHOOT-3: enemies in LOS within a usable band of the weapon (nobody in base contact shoots);
    cached until something moves (the rules and the scripted player ask the same model's again and again)."""
    key = ("targets", m.idx, m.cell if cell is None else cell)
    found = game._geo_cache.get(key)
    if found is None:
        found = game._geo_cache[key] = targets_from(game, m, key[2:])[0]
    return found


def targets_from(game, m, cells) -> list[list]:
    """`legal_targets(game, m, cell)` for each of `cells`, in order (the scripted shooter weighs every cell it may
    move to, UW-AI-10): the weapon's usable bands read per squared distance from a table (`usable_at`), the sight
    line drawn only for an enemy in such a band; by the compiled kernel (sightkernel) when numba is there."""
    usable, usable_array = usable_at(game.tables.weapons[m.profile.ranged], game.tables.bands)
    foes = game.enemies(m)
    kernel = game.board.sight
    if kernel is None:
        return _targets_python(game, m, cells, usable, foes)
    seen = np.empty((len(cells), len(foes)), np.uint8)
    kernel(game.sight_blockers(m.side), m.cell if m.placed else -1, np.fromiter(cells, np.int64, len(cells)),
           np.fromiter((e.cell for e in foes), np.int64, len(foes)), usable_array, geo.LINE_POINTS, seen)
    return [[e for e, s in zip(foes, row) if s] for row in seen.tolist()]


def _targets_python(game, m, cells, usable, foes) -> list[list]:
    """`targets_from` in plain Python, what runs without numba: the sight lines as bit masks (geo.sees)."""
    n = geo.N
    placed = [(e, e.cell, e.cell % n, e.cell // n) for e in foes]
    obstacles, sees = game.obstacles, geo.sees
    out = []
    for cell in cells:
        cx, cy = cell % n, cell // n
        found, seen = [], None
        for e, at, ex, ey in placed:
            if usable[(ex - cx) * (ex - cx) + (ey - cy) * (ey - cy)]:
                if seen is None:
                    seen = obstacles(m, cell)            # game.los(m, e, a_cell=cell), its obstacles read once
                if sees(seen, cell, at):
                    found.append(e)
        out.append(found)
    return out


#: process-wide: (a weapon's bands, the range bands' limits) -> `usable_at`'s table, as a tuple and as an array
_USABLE: dict = {}


def usable_at(weapon, bands) -> tuple[tuple[bool, ...], np.ndarray]:
    """Per squared centre distance 0 .. 2 x 47^2: `band_of`'s band is 1 or more and the weapon usable in it
    (UW-SHOOT-2; a pure function of the tables, kept for the process); a tuple (Python reads) and a bool array
    (the compiled sight's)."""
    key = (weapon.bands, tuple(b.max_d2 for b in bands))
    found = _USABLE.get(key)
    if found is None:
        table = []
        for dist in range(2 * (geo.N - 1) ** 2 + 1):
            band = 0 if dist in (1, 2) else next((i + 1 for i, b in enumerate(bands) if dist <= b.max_d2), -1)
            table.append(band >= 1 and weapon.usable(band))     # d2 1 and 2: base contact (geo.contact), band 0
        found = _USABLE[key] = (tuple(table), np.array(table, np.bool_))
    return found


def priority_targets(game, m, targets: list, cell: int | None = None) -> list:
    """UW-SHOOT-4, UW-SHOOT-7: the closest legal targets not in contact with a model of the shooter's side (ties: all)."""
    cell = m.cell if cell is None else cell
    free = [e for e in targets if not game.in_contact(e)]            # an enemy of m: in contact with m's side
    if not free:
        return []
    best = min(geo.d2(cell, e.cell) for e in free)
    return [e for e in free if geo.d2(cell, e.cell) == best]


@task(ChooseShot)
def run_choose_shot(game) -> None:
    act = game.act
    m = game.models[act["model"]]
    if act["stopped"] or not m.placed:
        return
    targets = legal_targets(game, m)
    if not targets:
        return
    game.decide(Decision.SHOOT, m.side, [CODEC.encode("shoot", e.slot) for e in targets] + [CODEC.encode("shoot", HOLD)])


@answer(Decision.SHOOT)
def on_shoot(game, ctx, name, slot) -> None:
    act = game.act
    m = game.models[act["model"]]
    if slot == HOLD:
        game.log.add("hold_fire", f"{m.id} holds fire", m.side, rule="UW-ACT-4")
        return
    target = game.side_models(1 - m.side)[slot]
    act["shot"] = True
    priority = priority_targets(game, m, legal_targets(game, m))
    if target not in priority:                                                # UW-SHOOT-5, UW-SHOOT-6 (+2)
        covered = any(geo.cover_class(game.board, m.cell, p.cell) for p in priority)
        if not command.command_check(game, m, f"target check for {target.id}", "UW-SHOOT-5", 2 if covered else 0):
            game.log.add("shot_lost", f"{m.id} loses the shot", m.side, rule="UW-SHOOT-5")
            game.push(Window(2))
            return
    combat.shoot(game, m, target, moved=act["moved"], panicked=act["panicked"])
    game.push(Window(2))


# Close combat --------------------------------------------------------------------------------------------------------------
@task(ChooseFight)
def run_choose_fight(game, charged) -> None:
    act = game.act
    m = game.models[act["model"]]
    if act["stopped"] or not m.placed:
        return
    act["charged"] = charged
    foes = game.enemies_in_contact(m)
    if foes:
        game.decide(Decision.CC_TARGET, m.side, [CODEC.encode("cc_target", e.slot) for e in foes])


@answer(Decision.CC_TARGET)
def on_cc_target(game, ctx, name, slot) -> None:
    act = game.act
    m = game.models[act["model"]]
    target = game.side_models(1 - m.side)[slot]
    combat.close_combat(game, m, target, a_charged=act["charged"], t_charged=False, a_panicked=act["panicked"])


@task(BreakOff)
def run_break_off(game) -> None:
    """UW-CC-11..13: a command check; a failure must fight; a pass takes the free strikes, then moves away."""
    act = game.act
    m = game.models[act["model"]]
    if not command.command_check(game, m, "break-off check", "UW-CC-11"):
        game.log.add("break_failed", f"{m.id} fails to break off and must fight", m.side, rule="UW-CC-12")
        game.push(Window(1), ChooseFight(False), ActionEnd())
        return
    combat.free_strikes(game, m)
    if not m.placed:
        game.push(ActionEnd())
        return
    ask_destination(game, m, BREAK_OFF)


@task(ActionEnd)
def run_action_end(game) -> None:
    """UW-FU-1/2: a Snap-fire-activated model with follow-ups left may take another action."""
    act = game.act
    m = game.models[act["model"]]
    game.act = None
    if m.placed and m.profile.CAL >= 1 and m.fu_used < m.profile.CAL:
        game.act = {"model": m.idx, "ending": True}
        game.decide(Decision.FOLLOWUP, m.side, [CODEC.encode("followup", 0), CODEC.encode("followup", 1)], model=m.idx)
        return
    game.push(NextActivation(1 - m.side))


@answer(Decision.FOLLOWUP)
def on_followup(game, ctx, name, yes) -> None:
    m = game.models[ctx["model"]]
    game.act = None
    if yes:
        game.push(BeginAction(m.idx, True))
    else:
        game.push(NextActivation(1 - m.side))
