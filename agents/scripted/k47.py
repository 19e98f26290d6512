"""Konflikt '47 scripted player (rules catalog section 8, KC-AI-1..15) for either side.

KC-AI-1: it reads only its side's view (envs.k47.views.View: the public position) and the legal mask, and the
rules' public functions (geometry, firing weapons, to-hit scores); it never rolls. KC-AI-2: expected kills and
penetration chances are exact, worked out from the tables as whole numbers of 288ths (`SCALE`). Ties go to the
lowest unit id, then the lowest index (KC-DEC-4).

Played: R1 (assault outside), R2 (flamethrowers fire, else Advance), R3 (ram), R4..R10, the reactions of
KC-AI-14 and KC-AI-15 (KC-AI-15's Fixed-weapon opening choice waits for KB-FROM-5). Readings:
  * "Reachable" at the unit choice is judged by straight-line distance to the move's end (Run 12" plus the
    8-adjacent step), the exact legality comes from the mask at the move decision, and a unit whose planned
    move turns out illegal falls back to its next applicable rule.
  * R8 "best cover": among legal Advance cells, the cover against the nearest enemy (hard > soft > none), then
    nearest an unheld objective, then the lowest cell index.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from envs import registry
from envs.engine.derived import BoundedStore
from envs.k47 import firefrom, geometry, movement, shooting
from envs.k47.actions import CODEC
from envs.k47.board import INTACT, centre, inches
from envs.k47.state import ADVANCE, AMBUSH, DOWN, FIRE, ORDERS, RALLY, RUN
from envs.k47.views import Seen

from ..priority import Ablatable, Criterion, Priority

OFF = {name: f.offset for name, f in CODEC.families.items()}
#: KC-AI-2: expected kills and chances are counted in 288ths: a chance to hit in twelfths (shooting.hit_twelfths)
#: times an HE roll's mean in quarters times a chance to kill in sixths is a whole number of 1/(12 x 4 x 6). Whole
#: numbers scaled alike add, compare and order exactly as the fractions they stand for, and cost far less
SCALE = 288
HE_QUARTERS = {"D2": 6, "D3": 8, "D6": 14, "2D6": 28, "3D6": 42}     # each HE roll's mean, in quarters


def legal_args(mask: np.ndarray, family: str) -> list:
    """The arguments of a one-argument family's legal actions, ascending: its slice of the mask, not every legal
    action decoded (a Run's move decision has a hundred cells and more)."""
    f = CODEC.families[family]
    return np.flatnonzero(mask[f.offset:f.offset + f.size]).tolist()


@lru_cache(maxsize=64)
def door_points(board, sid: int) -> tuple:
    """The centres of the outside cells of section `sid`'s floor-0 openings (bunker: doors), where R1 and R6 measure
    a Run to (kept per board: they are asked for every section and unit at every plan)."""
    s = board.sections[sid]
    return tuple(centre(board.openings[i].outside) for i in s.openings if board.openings[i].floor == 0
                 and (s.material != "bunker" or board.openings[i].kind == "door"))


def kill_sixths(face_pen: int, dv: int) -> int:
    """P(d6 + pen >= dv) with a natural 1 failing (KC-SHOOT-8), in sixths."""
    return sum(1 for f in range(2, 7) if f + face_pen >= dv)


def expected_kills(view, unit, target, moved: bool, he: bool = False, weapons=None) -> int:
    """KC-AI-2: exact expected casualties of `unit` firing at `target`, in 288ths (0 against vehicles);
    `weapons`: only those (one side's firers from inside, KB-FROM-3), else every weapon that reaches."""
    if target.vehicle:
        return 0
    total = 0
    groups: dict = {}
    if weapons is None:
        weapons = shooting.firing_weapons(view, unit, target, moved)   # all fire; HE is one mode (KC-HE-1)
    for _m, name, dist, _ in weapons:
        groups.setdefault(name, []).append(dist)
    dv = view.tables.quality[target.quality][1]
    for name, dists in groups.items():
        w = view.tables.weapons[name]
        dist = min(dists)
        shots = w.shots * len(dists)
        if "flamethrower" in w.rules:
            hit = 12 if target.inside else \
                shooting.hit_twelfths(shooting.need(view, unit, name, target, dist, False, flame=True))
            total += hit * kill_sixths(w.pen, dv) * 14                # x 7/2 hits (a D6 of them)
            continue
        n = 6 if "indirect" in w.rules else shooting.need(view, unit, name, target, dist, moved)
        ph = 2 if "indirect" in w.rules else shooting.hit_twelfths(n)
        if w.he is not None and (he or "indirect" in w.rules):
            mean = HE_QUARTERS[w.he] // (2 if target.order == DOWN else 1)   # every mean in quarters is even
            total += shots * ph * mean * kill_sixths(view.tables.he[w.he][0], dv)
        else:
            pen = w.pen or 0
            kill_dv = 6 if target.inside else dv
            total += shots * ph * kill_sixths(pen, kill_dv) * 4
    return total


def p_pen(view, unit, target, moved: bool, weapons=None) -> int:
    """KC-AI-8: the best single-shot chance of hitting and penetrating a vehicle, in 288ths."""
    if not target.vehicle:
        return 0
    best = 0
    dv = view.tables.vehicle_damage[target.vclass]
    for _m, name, dist, _ in weapons if weapons is not None else shooting.firing_weapons(view, unit, target, moved):
        w = view.tables.weapons[name]
        if w.small_arms or w.pen is None:
            continue
        n = shooting.need(view, unit, name, target, dist, moved)
        best = max(best, shooting.hit_twelfths(n) * kill_sixths(w.pen, dv) * 4)
    return best


def value(view, unit, target, moved) -> int:
    return max(expected_kills(view, unit, target, moved), p_pen(view, unit, target, moved) * 6)


def attack_value(view, unit, target, moved, he: bool, weapons) -> int:
    """KC-AI-8: `value` of one declared attack: HE mode or not, only `weapons` (one side's firers) when given."""
    return max(expected_kills(view, unit, target, moved, he, weapons), p_pen(view, unit, target, moved, weapons) * 6)


#: process-wide (envs.engine.derived.BoundedStore): `value` and `attack_value` read the board, the tables, the
#: sections' states and the fields of the two units named in `value_key`, nothing else; so a value is the same
#: whoever asks, and whichever view filled it: a side reading a value another view filled reads exactly what it
#: would have worked out from its own view (KC-HID-4; KC-HID-9: a hidden occupant's stand-in is weighed by its own
#: public fields, never by the occupant's)
VALUES = BoundedStore("k47 scripted values", 20_000)


def value_key(view, unit, target, moved: bool) -> tuple:
    """Everything `value` reads: of the firer, what `firing_weapons` and the to-hit score read (its place, kind,
    facing, opening, weapons and models, pins, quality); of the target, its place and what the to-hit and damage
    scores read (kind, quality, order, small, vehicle class). Not the dice or moves of this turn, which change at
    every activation and which `value` never reads."""
    return (view.ground, moved,
            unit.alive, unit.cell, unit.section, unit.floor, unit.kind, unit.facing, unit.fixed_opening, unit.pins,
            unit.quality, unit.loadout(),
            target.alive, target.cell, target.section, target.floor, target.kind, target.quality, target.order,
            target.small, target.vclass)


#: process-wide (envs.engine.derived.BoundedStore): whether a loadout carries a flamethrower, a pure function of the
#: tables (by digest) and the loadout
FLAMERS = BoundedStore("k47 scripted flamers", 2_000)


def has_flamethrower(tables, unit) -> bool:
    return any("flamethrower" in tables.weapons[w].rules for _, w, _ in unit.arms()[2])


# The list as an audit sees it (agents/priority.py): every decision is taken by one catalog rule. R1..R10 (KC-AI-4..13)
# are a sequence, the first that applies deciding a unit's order and move (KC-AI-3 ranks the units by it); a rule of it
# but the catch-all R10 may be struck out, the next applying instead. KC-AI-5 and KC-AI-8 rank the targets; KC-AI-14/15 are the reactions.
SEQUENCE_RULES = {r: f"KC-AI-{r + 3}" for r in range(1, 11)}          # R1 -> KC-AI-4 ... R10 -> KC-AI-13
DECISION_RULES = {"unit": "KC-AI-3", "down": "KC-AI-14", "react_fire": "KC-AI-14", "ambush": "KC-AI-14",
                  "keep": "KC-AI-15", "opening": "KC-AI-15", "friendly": "KC-AI-15"}
RULE_WORDS = {
    "KC-AI-3": "activates the unit whose first applicable rule of R1-R10 comes earliest (ties: higher E[cas], lower ID)",
    "KC-AI-4": "R1 Assault: infantry assaults reachable enemy infantry it expects to beat in round 1",
    "KC-AI-5": "R2 Flame: a flamethrower fires (bunker, then building, then open; most models), else Advances",
    "KC-AI-6": "R3 Ram: a ram-capable vehicle without a good target rams a reachable enemy-held section",
    "KC-AI-7": "R4 Rally at 3+ pins",
    "KC-AI-8": "R5 Fire at the target of highest E[cas] (AT: P(pen)) if worth it",
    "KC-AI-9": "R6 Occupy: infantry outside Runs into a reachable empty section, objectives first",
    "KC-AI-10": "R7 Climb: infantry inside with no target Advances to an empty floor above",
    "KC-AI-11": "R8 Advance to the best cover against the nearest enemy, nearer an unheld objective",
    "KC-AI-12": "R9 Hold: inside, no target, an enemy within 24\": Ambush",
    "KC-AI-13": "R10 Run toward the nearest unheld objective (Down if it cannot move)",
    "KC-AI-14": "reactions: Down against HE or heavy fire, fire back at assaulters, Ambush fire at the first mover",
    "KC-AI-15": "keep Ambush/Down dice, Fixed weapons' opening, friendly fire at the highest E[cas]",
}


def _highest_value(view, ctx):
    return lambda option: -option[3]


def _place_rank(view, ctx):
    return lambda option: -option[4]


def _most_models(view, ctx):
    return lambda option: -len(option[1].models)


def _lower_id(view, ctx):
    return lambda option: (option[1].uid, option[2])


PRIORITIES = {p.rule: p for p in (
    Priority("KC-AI-8", "target", (Criterion("highest E[cas] (AT weapons: 6 x P(pen))", _highest_value),
                                   Criterion("lower ID", _lower_id))),
    Priority("KC-AI-5", "target", (Criterion("bunker, then building, then open", _place_rank),
                                   Criterion("most models", _most_models), Criterion("lower ID", _lower_id))),
)}


class K47Scripted(Ablatable):
    """KC-AI-3..15 for one side."""

    name = "scripted"
    needs_observation = False
    RULES = tuple(f"KC-AI-{n}" for n in range(3, 16))
    SEQUENCE = tuple(SEQUENCE_RULES.values())[:-1]        # R10 is the catch-all: nothing comes after it

    def __init__(self, side: int, seed: int = 0) -> None:
        self.side = side
        self.priorities = PRIORITIES
        self._plans_for, self._plans = None, {}
        self._view, self._ground, self._weighed = None, None, {}   # the last view, its board and sections, values
        self._planned = None                      # the view whose position the plans were last compared with

    def value(self, view, unit, target, moved: bool) -> int:
        """`value`, kept in VALUES: each activation changes one unit, and every other unit's plan weighs the same
        pairs again. A pair of a view's snapshots (views.Seen: a new one only when its unit changed) is kept by ids
        from view to view while both snapshots and the sections' states stay the same."""
        if view is not self._view:
            self._view = view
            ground = view.ground
            if ground != self._ground:
                self._ground, self._weighed = ground, {}
        mine = (unit.uid, target.uid, moved)
        found = self._weighed.get(mine)
        if found is not None and found[0] is unit and found[1] is target:
            return found[2]
        worth = VALUES.get(value_key(view, unit, target, moved), value, view, unit, target, moved)
        if unit.__class__ is Seen and target.__class__ is Seen:     # read-only: kept while the same objects
            self._weighed[mine] = (unit, target, worth)
        return worth

    def act(self, observation, mask: np.ndarray, view) -> int:
        kind, ctx = view.decision
        choose = getattr(self, f"on_{kind}")
        self._rule = DECISION_RULES.get(kind, "KC-AI-1")         # order, move, target: named by their method
        action = choose(view, ctx, mask)
        return self.answered(self._rule, action if mask[action] else int(np.flatnonzero(mask)[0]), mask)

    def rule_for(self, view) -> str | None:
        return self.last_rule

    def rule_words(self, rule: str) -> str:
        return RULE_WORDS[rule]

    def applies(self, rule: int) -> bool:
        """R`rule` may decide (not struck out by an audit)."""
        return not self.struck or SEQUENCE_RULES[rule] not in self.struck

    # Activation ------------------------------------------------------------------------------------------
    def plan(self, view, unit):
        """(rule number, score, order, intent) of the first applicable rule R1..R10 for `unit` (KC-AI-3), kept
        while the position stays the same: the unit, order and move decisions of an activation ask for the
        same plans, each weighing every enemy."""
        if view is not self._planned:            # a new decision: compare its position with the plans' once
            self._planned = view
            position = (view.scenario, view.options, view.section_state, view.ranging, view.units)   # snapshots
            if position != self._plans_for:
                self._plans_for, self._plans = position, {}
        if unit.uid not in self._plans:
            self._plans[unit.uid] = self.first_rule(view, unit)
        return self._plans[unit.uid]

    def first_rule(self, view, unit):
        """`plan` worked out."""
        enemies = [e for e in view.living() if e.side != unit.side]
        if unit.kind == "infantry" and not unit.vehicle and self.applies(1):
            for e in enemies:                                   # R1
                if not e.vehicle and self.can_assault(view, unit, e) and self.cq_wins(view, unit, e):
                    return (1, len(e.models) * SCALE, RUN, ("assault", e.uid))
        best_t, best_v = None, 0                                # R2..R9 weigh the best target (R1 does not)
        for e in enemies:
            v = self.value(view, unit, e, False)
            if v > best_v:
                best_t, best_v = e, v
        if self.flamer(view, unit) and self.applies(2):         # R2
            return (2, best_v, FIRE if best_t is not None else ADVANCE, ("flame", None))
        if unit.vehicle and unit.vclass in view.tables.ram_vehicle and best_v < 2 * SCALE and not unit.immobile \
                and self.applies(3):
            sid = self.ram_section(view, unit)                  # R3, KC-AI-6
            if sid is not None:
                return (3, 0, RUN, ("ram", sid))
        if unit.pins >= 3 and self.applies(4):                  # R4, KC-AI-7
            return (4, 0, RALLY, None)
        if best_t is not None and best_v >= SCALE and self.applies(5):   # R5
            return (5, best_v, FIRE, ("target", best_t.uid))
        if unit.kind == "infantry" and not unit.inside and not view.options["no_building_entry"] and self.applies(6):
            if self.can_occupy(view, unit):                     # R6, KC-AI-9
                return (6, 0, RUN, ("enter", None))
        if unit.inside and best_t is None and self.floor_above(view, unit) is not None and self.applies(7):
            return (7, 0, ADVANCE, ("climb", None))   # R7, KC-AI-10
        if not unit.inside and enemies and not unit.immobile and self.applies(8):   # R8, KC-AI-11
            return (8, best_v, ADVANCE, ("cover", None))
        if unit.inside and best_t is None and self.applies(9) and any(
                inches(view.point_of(unit), view.point_of(e), view.board.cell_in) <= 24 for e in enemies):
            return (9, 0, AMBUSH, None)               # R9, KC-AI-12
        if best_t is not None and best_v > 0 and self.applies(5):
            return (5, best_v, FIRE, ("target", best_t.uid))
        # R10, KC-AI-13: Run toward the nearest unheld objective (Down when it cannot move)
        return (10, 0, RUN if not unit.inside and not unit.immobile else DOWN, ("objective", None))

    def can_assault(self, view, unit, e) -> bool:
        """R1 reachable: within a Run plus one step of the target (the mask decides exactly)."""
        if e.inside:
            return self.can_assault_inside(view, unit, e)
        if unit.inside:
            return False
        return inches(centre(unit.cell), centre(e.cell), view.board.cell_in) <= 12 + 2 and \
            geometry.clear(view, centre(unit.cell), centre(e.cell))

    def can_assault_inside(self, view, unit, e) -> bool:
        """R1 reachable inside: from outside, floor 0 with a floor-0 door cell within a Run (KB-ASLT-1); from
        inside, the floor above or below or the same floor of a connected adjoining section (KB-ASLT-3)."""
        if unit.inside:
            if e.section == unit.section:
                return abs(e.floor - unit.floor) == 1
            return e.floor == unit.floor and view.board.are_connected(unit.section, e.section)
        if e.floor != 0:
            return False
        return self.door_distance(view, unit, view.board.sections[e.section]) <= 12

    def door_distance(self, view, unit, s) -> float:
        """Inches from the unit to the nearest outside cell of a floor-0 opening of `s` (bunker: door)."""
        here, cell_in = centre(unit.cell), view.board.cell_in
        return min(inches(here, door, cell_in) for door in door_points(view.board, s.index))

    def cq_wins(self, view, unit, e) -> bool:
        """KC-AI-4: round-1 expected kills >= the target's models (outside); own models >= 2x its (inside)."""
        if e.inside:
            return len(unit.models) >= 2 * len(e.models)
        dv = view.tables.quality[e.quality][1]
        total = 0                           # in sixths
        for m in unit.models:
            names = [w for w, _ in m.weapons]
            attacks = 2 if any("assault" in view.tables.weapons[w].rules for w in names) else 1
            pen = max([view.tables.weapons[w].pen or 0 for w in names] + [0])
            total += attacks * kill_sixths(pen, dv)
        return total >= 6 * len(e.models)

    def can_occupy(self, view, unit) -> bool:
        """R6: an empty intact section has a door cell within a Run (which one it enters, objectives first, the move
        decision's mask tells). Empty: no unit on its floor 0 (geometry.unit_on_floor), the units read once."""
        held = {u.section for u in view.units if u.alive and u.floor == 0 and u.section is not None}
        return any(view.section_state[s.index] == INTACT and s.index not in held and
                   self.door_distance(view, unit, s) <= 12 for s in view.board.sections)

    def ram_section(self, view, unit):
        """R3: the nearest enemy-held intact wooden, then brick, section within a Run (18") of its perimeter."""
        best, holders = None, {}                # section -> the sides inside it, the units read once
        for u in view.living():
            if u.section is not None:
                holders.setdefault(u.section, set()).add(u.side)
        for s in view.board.sections:
            if s.material not in view.tables.ram_building or view.section_state[s.index] != INTACT:
                continue
            if holders.get(s.index) != {1 - unit.side}:
                continue
            d = view.board.distance_to_section(centre(unit.cell), s.index)
            if d <= view.tables.movement["tracked"][1]:
                key = (s.material != "wooden", d, s.index)
                if best is None or key < best[0]:
                    best = (key, s.index)
        return best[1] if best else None

    def flamer(self, view, unit) -> bool:
        """R2, KC-AI-5: the unit carries a flamethrower (kept per tables and loadout: every plan asks)."""
        return FLAMERS.get((view.tables.digest, unit.loadout()), has_flamethrower, view.tables, unit)

    def place_rank(self, view, t) -> int:
        """KC-AI-5: 2 in a bunker, 1 in a building, 0 in the open."""
        if not t.inside:
            return 0
        return 2 if view.board.sections[t.section].material == "bunker" else 1

    def floor_above(self, view, unit):
        s = view.board.sections[unit.section]
        f = unit.floor + 1
        return f if f < s.floors and geometry.unit_on_floor(view, unit.section, f) is None else None

    def on_unit(self, view, ctx, mask):
        best = None
        for a in np.flatnonzero(mask):
            uid = int(a) - OFF["unit"]
            rule, score, _, _ = self.plan(view, view.units[uid])
            key = (rule, -score, uid)
            if best is None or key < best[0]:
                best = (key, int(a))
        return best[1]

    def on_order(self, view, ctx, mask):
        rule, _, order, _ = self.plan(view, view.units[ctx["uid"]])
        self._rule = SEQUENCE_RULES[rule]
        return OFF["order"] + ORDERS.index(order)

    def on_move(self, view, ctx, mask):
        unit = view.units[ctx["uid"]]
        rule, _, _, intent = self.plan(view, unit)
        self._rule = SEQUENCE_RULES[rule]
        if intent and intent[0] == "assault" and mask[OFF["assault"] + intent[1]]:
            return OFF["assault"] + intent[1]
        if intent and intent[0] == "ram" and mask[OFF["ram"] + intent[1]]:
            return OFF["ram"] + intent[1]
        if intent and intent[0] == "enter":
            enters = legal_args(mask, "enter")
            if enters:
                order = sorted(enters, key=lambda s: (view.board.sections[s].building not in view.scenario.objectives, s))
                return OFF["enter"] + order[0]
        if intent and intent[0] == "climb":
            above = self.floor_above(view, unit)
            if above is not None and mask[CODEC.encode("floor", unit.section, above)]:
                return CODEC.encode("floor", unit.section, above)
        cells = legal_args(mask, "cell")
        if not cells:
            return OFF["pass"]
        goal = self.goal(view, unit)
        enemies = [e for e in view.living() if e.side != unit.side]
        here = view.point_of(unit)

        cell_in, width, hypot = view.board.cell_in, view.board.width, math.hypot
        threats = [(view.point_of(e), e.uid) for e in enemies]      # each enemy's point read once, not per cell
        sheltered = geometry.sheltered_cells(view)
        gx, gy = goal if goal else (0.0, 0.0)

        def key(index):
            # board.cell_of, centre and inches written out (the same arithmetic): a Run weighs a hundred cells
            cell = (index % width, index // width)
            cx, cy = cell[0] + 0.5, cell[1] + 0.5
            cov = 0
            if threats and cell in sheltered:       # elsewhere no cover from any point: the nearest enemy not asked
                # the nearest enemy (inches as board.inches works them out; ties: lower uid), its point
                cov = geometry.cover(view, min((cell_in * hypot(cx - p[0], cy - p[1]), uid, p)
                                               for p, uid in threats)[2], cell)
            return (-cov, round(cell_in * hypot(cx - gx, cy - gy), 6) if goal else 0, index)
        best = min(cells, key=key)
        closer = goal and inches(centre(view.board.cell_of(best)), goal, view.board.cell_in) < \
            inches(here, goal, view.board.cell_in)
        if goal and not closer \
                and ctx["order"] == RUN:
            return OFF["pass"]
        return OFF["cell"] + best

    def goal(self, view, unit):
        """The nearest objective not held by this side (R8, R10), as a point."""
        best = None
        for obj in view.scenario.objectives:
            secs = [s for s in view.board.sections if s.building == obj]
            held = any(u.side == unit.side and u.kind == "infantry" and u.section in {s.index for s in secs}
                       for u in view.living())
            if held:
                continue
            for s in secs:
                p = ((s.x0 + s.x1 + 1) / 2, (s.y0 + s.y1 + 1) / 2)
                d = inches(view.point_of(unit), p, view.board.cell_in)
                if best is None or d < best[0]:
                    best = (d, p)
        return best[1] if best else None

    def on_target(self, view, ctx, mask):
        """KC-AI-8: the highest E[cas] (AT: 6 x P(pen)) if above 0; KC-AI-5: a flamethrower by place, then models."""
        unit = view.units[ctx["uid"]]
        flamer = self.flamer(view, unit)
        self._rule = rule = "KC-AI-5" if flamer else "KC-AI-8"
        options = []                       # (action, target, HE, value, place rank), in the mask's order
        # inside: what every target's side reads of the unit and the declarations, read once (firefrom.sides_key)
        common = firefrom.sides_key(view, unit, ctx["moved"], ctx.get("declared", [])) if unit.inside else None
        targets = CODEC.families["target"]
        for a in np.flatnonzero(mask[targets.offset:targets.offset + targets.size]).tolist():
            a += targets.offset
            args = CODEC.decode(a)[1]
            t, he = view.units[args[0]], bool(args[1])
            weapons = self.side_weapons(view, unit, t, ctx, common) if unit.inside else None
            v = VALUES.get((value_key(view, unit, t, ctx["moved"]), he, None if weapons is None else tuple(weapons)),
                           attack_value, view, unit, t, ctx["moved"], he, weapons)
            if v <= 0 and not flamer:
                continue
            options.append((a, t, args[1], v, self.place_rank(view, t) if flamer else 0))
        if not options:
            return OFF["pass"]
        return self.priorities[rule].choose(options, view, ctx)[0]

    def side_weapons(self, view, unit, t, ctx, common: tuple | None = None) -> list:
        """KC-AI-8 inside, per side: the weapons of the side `t` would take next (KB-FROM-3/4); `common`: the
        decision's firefrom.sides_key, when the caller weighs many targets."""
        declared = ctx.get("declared", [])
        if common is None:
            common = firefrom.sides_key(view, unit, ctx["moved"], declared)
        side, models = firefrom.best_side_from(view, unit, t, ctx["moved"], declared, common)
        return shooting.firing_weapons(view, unit, t, ctx["moved"], sides=(side,), models=models)   # KC-HE-1: all fire

    # Reactions (KC-AI-14, KC-AI-15) -------------------------------------------------------------------------
    def on_down(self, view, ctx, mask):
        unit, firer = view.units[ctx["uid"]], view.units[ctx["firer"]]
        weapons = [view.tables.weapons[w] for _, w, _ in firer.weapons()]
        if any("flamethrower" in w.rules for w in weapons):
            return OFF["pass"]
        ek = expected_kills(view, firer, unit, ctx["moved"])
        he = any(w.he is not None and (w.pen is None) for w in weapons)
        if he or ek >= 2 * SCALE or ek * 2 >= len(unit.models) * SCALE:
            return OFF["yes"]
        return OFF["pass"]

    def on_react_fire(self, view, ctx, mask):
        return OFF["yes"]

    def on_ambush(self, view, ctx, mask):
        unit, mover = view.units[ctx["uid"]], view.units[ctx["mover"]]
        return OFF["yes"] if self.value(view, unit, mover, False) > 0 else OFF["pass"]

    def on_keep(self, view, ctx, mask):
        unit = view.units[ctx["uid"]]
        if unit.order == AMBUSH:
            has_target = any(self.value(view, unit, e, False) > 0 for e in view.living() if e.side != unit.side)
            return OFF["pass"] if has_target else OFF["yes"]
        return OFF["yes"] if unit.pins >= 2 else OFF["pass"]

    def on_opening(self, view, ctx, mask):
        """KC-AI-15: the Fixed weapon takes the opening seeing most enemies (ties: keep, then lowest cell)."""
        unit = view.units[ctx["uid"]]
        enemies = [e for e in view.living() if e.side != unit.side]
        best, trial = None, unit.copy()         # the view's unit is read-only: a copy of it tries each opening
        for a in np.flatnonzero(mask):
            name, args = CODEC.decode(int(a))
            trial.fixed_opening = movement.opening_cells(view, unit)[args[0]] if name == "cell" else unit.fixed_opening
            seen = sum(1 for e in enemies if shooting.firing_weapons(view, trial, e, False))
            key = (-seen, name != "pass", int(a))
            if best is None or key < best[0]:
                best = (key, int(a))
        return best[1]

    def on_friendly(self, view, ctx, mask):
        unit = view.units[ctx["uid"]]
        best = None
        for a in np.flatnonzero(mask):
            _, args = CODEC.decode(int(a))
            v = expected_kills(view, unit, view.units[args[0]], False)
            key = (-v, args[0])
            if best is None or key < best[0]:
                best = (key, int(a))
        return best[1]


registry.register_agent("scripted", K47Scripted, rulesets=("k47",))
