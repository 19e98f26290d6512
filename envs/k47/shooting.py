"""Shooting: targets, to hit, pins, damage, casualties and morale; HE, indirect fire and flamethrowers
(catalog section 4) with the building rules for fire from and into sections (KB-FROM, KB-AT, KB-HE, KB-FLAME)."""
from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from typing import NamedTuple

from envs.engine.derived import BoundedStore

from . import geometry, hidden
from .board import centre, inches
from .flow import Decision, answer, task
from .state import DOWN
from .tasks import Declare, Shoot

PIN_DICE = {"0": 0, "D2": 2, "D3": 3, "D6": 6}


# Which weapons fire ---------------------------------------------------------------------------------------------
def weapon_order(tables, entries) -> list:
    """KB-FROM-4 / KC-SHOOT-6: heavy weapons first, then most shots, then list order."""
    def key(e):
        w = tables.weapons[e[1]]
        return (0 if not w.small_arms else 1, -w.shots, e[3])
    return sorted(entries, key=key)


def _declaration_order(tables, weapons) -> tuple:
    return tuple(weapon_order(tables, [(m, name, 0.0, index, mount) for index, (m, name, mount) in enumerate(weapons)]))


#: process-wide (envs.engine.derived.BoundedStore): the weapons that fire are a pure function of the game data in
#: `firing_key`, so any game or side's view may read what another filled. The same question recurs within a decision
#: (targets, then the mask's sides and HE modes) and from decision to decision while units stand; about 1 KB a value
FIRING = BoundedStore("k47 firing weapons", 20_000)


def firing_key(pos, unit, target, moved, ambush, he, sides, models, indirect=False) -> tuple:
    """Everything `weapons_that_fire` reads: the board and its sections' states, the tables (by digest), the unit's
    place, kind, facing, designated opening and weapons, the target's place, and the attack's terms."""
    return (pos.ground, unit.alive, unit.cell, unit.section, unit.floor,
            unit.kind, unit.facing, unit.fixed_opening, unit.loadout(), target.alive, target.cell,
            target.section, target.floor, moved, ambush, he, sides, None if models is None else tuple(models), indirect)


def firing_weapons(pos, unit, target, moved: bool, ambush: bool = False, he: bool = False,
                   sides=None, models=None, indirect: bool = False) -> list:
    """`weapons_that_fire`, kept per `firing_key` (a fresh list each call)."""
    key = firing_key(pos, unit, target, moved, ambush, he, sides, models, indirect)
    return list(FIRING.get(key, weapons_that_fire, pos, unit, target, moved, ambush, he, sides, models, indirect))


def weapons_that_fire(pos, unit, target, moved: bool, ambush: bool = False, he: bool = False,
                      sides=None, models=None, indirect: bool = False) -> list:
    """(model, weapon, range in inches, order index) of every weapon that may fire at `target` (KC-SHOOT-3/4).

    KB-FROM-2: inside, at most 2 models per opening, a team weapon taking both places; KB-FROM-3/4: only through
    openings on `sides` and only `models` (one side's attack; None: any); KC-WPN-3: Fixed weapons not on an
    Advance; KC-IND-4/5: no indirect fire from Ambush or from inside; KV-FIRE-1: hull weapons front arc only;
    KB-AT-6: never at a unit in the same building. KC-TAB-3: a weapon that fires both ways (the medium howitzer)
    fires indirect only in an attack declared `indirect`, else direct, each in its own range band."""
    if not unit.alive or not target.alive or geometry.same_building(pos, unit, target):
        return []
    entries, plan_kinds = firing_plan(pos.tables, unit)
    kinds = [in_mode(k, indirect) for k in plan_kinds]
    barred = _barred(pos, unit, target, moved, ambush, he)
    if unit.inside:               # KB-FROM-2: each weapon takes places at openings, so each is asked in turn
        return _from_inside(pos, unit, target, entries, kinds, barred, sides, models, {})
    free = [not barred(k) for k in kinds]
    if target.cell is not None:   # cell to cell: one sight line whatever the weapon (geometry.cell_sight)
        line = geometry.cell_sight(pos, unit.cell, target.cell) if any(free) else None
        ranges = [line if line is not None and ok and k.low <= line <= k.high else None for k, ok in zip(kinds, free)]
    else:                         # at a section: a sight line per sight class
        seen: dict = {}
        ranges = [_from_cell(pos, unit, k.name, target, seen, k) if ok else None for k, ok in zip(kinds, free)]
    return [(m, name, ranges[tid], index) for m, name, index, tid in entries
            if ranges[tid] is not None and (models is None or m in models)]


def _from_inside(pos, unit, target, entries, kinds, barred, sides, models, seen) -> list:
    """`weapons_that_fire` for a unit inside: each weapon, in declaration order, takes the nearest opening on `sides`
    with room (`seen`: the sight lines per sight class, which the caller may share between sides)."""
    out = []
    used: dict = {}
    for m, name, index, tid in entries:
        if models is not None and m not in models:
            continue
        terms = kinds[tid]
        if not barred(terms):
            dist = _through_openings(pos, unit, name, target, sides, used, seen, terms)
            if dist is not None:
                out.append((m, name, dist, index))
    return out                    # in weapon_order already: taken in that order, and its keys are unique


def firers_by_side(pos, unit, target, moved: bool, sides, models) -> dict:
    """side -> the models of `models` that fire at `target` through openings on that side alone (KB-FROM-3/4), as
    `weapons_that_fire(..., sides=(side,), models=models)` gives them, the plan, checks and sight lines read once
    for all the sides."""
    if not unit.inside:
        return {side: sorted({m for m, *_ in weapons_that_fire(pos, unit, target, moved, sides=(side,),
                                                                   models=models)}) for side in sides}
    if not unit.alive or not target.alive or geometry.same_building(pos, unit, target):
        return {side: [] for side in sides}
    entries, plan_kinds = firing_plan(pos.tables, unit)
    kinds = [in_mode(k, False) for k in plan_kinds]     # KC-IND-5: never indirect from inside
    barred = _barred(pos, unit, target, moved, False, False)
    seen: dict = {}
    return {side: sorted({m for m, *_ in _from_inside(pos, unit, target, entries, kinds, barred, (side,), models,
                                                      seen)}) for side in sides}


class WeaponTerms(NamedTuple):
    """What the firing checks read of one weapon on one kind of unit: a tuple, so that weapons alike (every rifle of
    a squad) share a range worked out once."""

    name: str
    mount: str | None
    fixed: bool             # KB-FROM-5: it may not fire after moving
    indirect: bool          # KC-IND-4/5: it fires indirect in this attack (`in_mode`)
    no_he: bool
    hull: bool              # KV-FIRE-1: front arc only
    sight_class: tuple      # geometry.weapon_sight_class
    low: float              # its range band in this attack, with the float tolerance of the checks
    high: float
    places: int             # KB-FROM-2: places it takes at an opening (a team weapon both)
    direct_high: float | None = None   # KC-TAB-3: a weapon that also fires direct, to this range (None: indirect only)


def in_mode(terms: WeaponTerms, indirect: bool) -> WeaponTerms:
    """KC-TAB-3: the terms of a weapon firing both ways (the medium howitzer: direct to 60", indirect 24-60") in
    the attack's mode: direct unless the attack was declared indirect. Other weapons are as they are."""
    if terms.direct_high is None or indirect:
        return terms
    return terms._replace(indirect=False, low=-1e-9, high=terms.direct_high)


#: process-wide (envs.engine.derived.BoundedStore): a loadout's weapons in `weapon_order` with their WeaponTerms, a
#: pure function of the tables, the unit's kind and its loadout
PLANS = BoundedStore("k47 firing plans", 2_000)


def firing_plan(tables, unit) -> tuple:
    """((model, weapon, order index, terms id), ...) of the unit's weapons in declaration order (KB-FROM-4), and the
    distinct WeaponTerms the ids point to (every rifle of a squad shares one: its range is worked out once)."""
    return PLANS.get((tables.digest, unit.kind, unit.loadout()), _firing_plan, tables, unit.kind, unit.arms()[2])


def _firing_plan(tables, kind, weapons) -> tuple:
    entries, kinds = [], {}
    for m, name, _, index, mount in _declaration_order(tables, weapons):
        w = tables.weapons[name]
        terms = WeaponTerms(
            name, mount, "fixed" in w.rules, "indirect" in w.rules, w.he is None, mount == "hull",
            geometry.weapon_sight_class(w, kind), w.min_range - 1e-9, w.range + 1e-9, 2 if "team" in w.rules else 1,
            None if w.direct_range is None else w.direct_range + 1e-9)
        entries.append((m, name, index, kinds.setdefault(terms, len(kinds))))
    return tuple(entries), tuple(kinds)


def _barred(pos, unit, target, moved, ambush, he):
    """The checks before the sight line (moved with a Fixed weapon, indirect fire barred, HE wanted, a hull mount out
    of arc), as one test of a weapon's terms."""
    no_indirect = ambush or unit.inside or target_is_bunker(pos, target)        # KC-IND-4, KC-IND-5
    arc: list = []                                                               # KV-FIRE-1, asked once

    def barred(terms: WeaponTerms) -> bool:
        if (moved and terms.fixed) or (terms.indirect and no_indirect) or (he and terms.no_he):
            return True
        if terms.hull:
            if not arc:
                arc.append(in_front_arc(unit, target, pos))
            return not arc[0]
        return False
    return barred


def _from_cell(pos, unit, name, target, seen, terms) -> float | None:
    """The range a weapon of a unit outside fires at: the sight line from its cell (one per sight class), in band."""
    found = seen.get(terms.sight_class, seen)
    if found is seen:
        found = seen[terms.sight_class] = geometry.sight(pos, unit, name, target)
    return found[0] if found is not None and terms.low <= found[0] <= terms.high else None


def _through_openings(pos, unit, name, target, sides, used, seen, terms) -> float | None:
    """The range a weapon of a unit inside fires at (KB-FROM-2/4): through the nearest opening on `sides` in band
    with room (2 places an opening), which it then takes in `used`."""
    found = seen.get(terms.sight_class)
    if found is None:
        found = seen[terms.sight_class] = geometry.sights(pos, unit, name, target)
    lo, hi, places = terms.low, terms.high, terms.places
    for dist, _point, opening in found:
        if sides is not None and opening.side not in sides:
            continue
        if not lo <= dist <= hi or used.get(opening.index, 0) + places > 2:
            continue
        used[opening.index] = used.get(opening.index, 0) + places
        return dist
    return None


def second_mode(tables, unit) -> str | None:
    """What the target decision's mode 1 declares for this unit: "indirect" with a weapon that fires both ways
    (KC-TAB-3: the medium howitzer), "he" with a dual-mode AT/HE weapon (KC-HE-1), None with neither."""
    weapons = [tables.weapons[name] for _, name, _ in unit.weapons()]
    if any(w.direct_range is not None and "indirect" in w.rules for w in weapons):
        return "indirect"
    if any(w.he is not None and w.pen is not None for w in weapons):
        return "he"
    return None


def target_is_bunker(pos, target) -> bool:
    """KB-BUNK-4: indirect fire cannot target a bunker or its occupants."""
    return target.inside and pos.board.sections[target.section].material == "bunker"


def in_front_arc(unit, target, pos) -> bool:
    """KV-ARC-1 / KV-FIRE-1: within 45 degrees of the vehicle's facing."""
    import math

    from .movement import FACINGS
    tx, ty = pos.point_of(target)
    ux, uy = centre(unit.cell)
    fx, fy = FACINGS[unit.facing]
    angle = math.degrees(math.atan2(ty - uy, tx - ux) - math.atan2(fy, fx)) % 360
    return angle <= 45 + 1e-9 or angle >= 315 - 1e-9


def arc_bonus(pos, vehicle, point) -> int:
    """KV-ARC-1 / KV-DMG-1: side +1, rear +2, front 0, from where the shot comes."""
    import math

    from .movement import FACINGS
    vx, vy = centre(vehicle.cell)
    fx, fy = FACINGS[vehicle.facing]
    angle = math.degrees(math.atan2(point[1] - vy, point[0] - vx) - math.atan2(fy, fx)) % 360
    if angle <= 45 + 1e-9 or angle >= 315 - 1e-9:
        return 0
    if 135 - 1e-9 <= angle <= 225 + 1e-9:
        return 2
    return 1


# To hit -----------------------------------------------------------------------------------------------------
def cover_of(pos, unit, target, weapon) -> int:
    """KC-MAP-9 for a target outside (2 hard, 1 soft); inside: -2 building, -4 bunker (KB-AT-4, KB-BUNK-3;
    KB-BUNK-1: otherwise a bunker is a building, Extra Protection and fire included)."""
    if target.inside:
        return 4 if pos.board.sections[target.section].material == "bunker" else 2
    return geometry.cover(pos, geometry.fire_points(pos, unit, weapon)[0][0] if not unit.inside else
                          geometry.sight(pos, unit, weapon, target)[1], target.cell)


def need(pos, unit, weapon: str, target, dist: float, moved: bool, flame: bool = False) -> int:
    """KC-SHOOT-5 / KC-TAB-2: the d6 score to hit (7 = a 6 then 4+, 8+ = impossible: KC-SHOOT-6).
    KC-FLAME-1: a flamethrower ignores cover and Down (`flame`)."""
    t = pos.tables.to_hit
    w = pos.tables.weapons[weapon]
    mod = 0
    if dist <= t["point_blank_in"] + 1e-9:
        mod += t["point_blank"]
    if dist > w.direct_reach / 2 + 1e-9:
        mod += t["long_range"]                              # KC-TAB-3: half of the weapon's direct range
    mod += t["per_pin"] * unit.pins
    if unit.quality == "inexperienced":
        mod += t["inexperienced"]
    if moved and "assault" not in w.rules:
        mod += t["moved"]                                   # KC-WPN-1: Assault weapons ignore it
    if "team" in w.rules and unit.team and len(unit.models) == 1:
        mod += t["team_one_crew"]                           # KC-WPN-2 (a team's weapon; not one mounted on a vehicle)
    if "shaped" in w.rules:
        mod += t["shaped"]                                  # KC-WPN-4
    if target.order == DOWN and not target.vehicle and not flame:
        mod += t["down"]                                    # KC-ORD-6 (KV-DMG-4: not vehicles)
    if target.small:
        mod += t["small"]
    c = 0 if flame else cover_of(pos, unit, target, weapon)
    mod += {0: 0, 1: t["soft_cover"], 2: t["hard_cover"] if not target.inside else t["inside"], 4: t["bunker"]}[c]
    return max(2, t["base"] - mod)


def p_hit(n: int) -> Fraction:
    return Fraction(hit_twelfths(n), 12)


def hit_twelfths(n: int) -> int:
    """The chance to hit on `n`+ in twelfths: a whole number, for the scripted player's exact sums (KC-AI-2)."""
    if n >= 8:
        return 0
    if n == 7:
        return 1                  # KC-SHOOT-6: a 6 (1 in 6), then 4+ on a second die (1 in 2)
    return 2 * (7 - n)


# Resolution ---------------------------------------------------------------------------------------------------
@task(Declare)
def declare(game, firer: int, target: int, moved: bool, side=None, models=None, he: bool = False,
            leaping: int | None = None) -> None:
    """KC-SHOOT-1/2, KB-AT-4: a target with no order (and no die) may go Down before the to-hit rolls. KC-HID-4: a
    target destroyed by an earlier attack of the same fire (its sides declared together, KB-FROM-3) is still
    asked, with pass its only answer (legal.down_choices): whether the owner is asked again must not tell the
    firer how the earlier attack's dice fell, which the observation after the fire does not show."""
    t = game.units[target]
    hidden.reveal(game, game.units[firer], "it fires", "KC-HID-6")
    if t.order is None and not t.kept:
        attack = [side, models, he] + ([leaping] if leaping is not None else [])
        game.decide(Decision.DOWN, side=t.side, uid=target, firer=firer, moved=moved, attack=attack)
        return
    game.push(Shoot(firer, target, moved, side, models, he, leaping))


@answer(Decision.DOWN)
def down_answer(game, ctx, name) -> None:
    t = game.units[ctx["uid"]]
    if name == "yes":                      # KC-TURN-8: the die comes out of the bag
        t.order = DOWN
        game.bag.take(t.side)
        game.log.add("react_down", f"{t.name} goes Down", t.side, rule="KC-SHOOT-2" if not t.inside else "KB-AT-4")
    game.push(Shoot(ctx["firer"], ctx["uid"], ctx["moved"], *ctx["attack"]))


@task(Shoot)
def shoot(game, firer: int, target: int, moved: bool, side=None, models=None, he: bool = False,
          leaping: int | None = None) -> None:
    if leaping is not None:
        with in_the_open(game, game.units[target], leaping) as point:
            shoot_at_point(game, game.units[firer], game.units[target], point)
        return
    unit, t = game.units[firer], game.units[target]
    he = he or game.he_mode.pop(str(firer), False)
    # KC-HE-1: HE is the dual-mode weapon's mode; the unit's other weapons fire too. KC-TAB-3: the same declared
    # mode fires a weapon that fires both ways (the medium howitzer) indirect.
    weapons = firing_weapons(game, unit, t, moved, sides=None if side is None else (side,), models=models,
                             indirect=he)
    if not weapons or not t.alive:
        game.log.add("no_shot", f"{unit.name} has no weapon that can fire at {t.name}", unit.side, rule="KC-SHOOT-4")
        return
    flame = [w for w in weapons if "flamethrower" in game.tables.weapons[w[1]].rules]
    if flame:
        game.flame_attack(unit, t, flame[0])
        return
    hits = roll_hits(game, unit, t, weapons, moved, he)
    resolve_hits(game, unit, t, hits, he)


def shoot_at_point(game, unit, t, point) -> None:
    """KC-CQ-3 / KB-ASLT-4: reaction fire at a unit leaping out, in the open at its opening's point."""
    weapons = weapons_at_point(game, unit, t, point)
    if not weapons or not t.alive:
        game.log.add("no_shot", f"{unit.name} has no weapon that can fire at {t.name}", unit.side, rule="KC-SHOOT-4")
        return
    resolve_hits(game, unit, t, roll_hits(game, unit, t, weapons, False), False)


@contextmanager
def in_the_open(game, unit, opening: int):
    """KB-ASLT-4: a unit leaping out through `opening` is shot at as in the open: for the attack it stands in the
    opening's outside cell (its cover there, KC-MAP-9; no building's protection), and the attack measures to the
    opening's point (KC-CQ-3), which it yields. Afterwards the unit is back inside, where it has not yet moved."""
    o = game.board.openings[opening]
    place = (unit.cell, unit.section, unit.floor)
    unit.cell, unit.section, unit.floor = o.outside, None, 0
    try:
        yield o.point
    finally:
        unit.cell, unit.section, unit.floor = place


def weapons_at_point(pos, unit, target, point) -> list:
    """`weapons_that_fire` for a firer outside at `target` standing in the open at `point` (KC-CQ-3 / KB-ASLT-4: a
    unit leaping out, at its opening's point): range and sight from the firer's cell centre, the point seen as an
    opening is (KB-GRID-8: from strictly outside its wall's line). A unit leaping out assaults only units outside."""
    if unit.inside or not unit.alive or not target.alive:
        return []
    here, o = centre(unit.cell), next(o for o in pos.board.openings if o.point == point)
    if not geometry.outside_wall(here, o.cell, o.side) or not geometry.clear(pos, here, point):
        return []
    dist = inches(here, point, pos.board.cell_in)
    entries, plan_kinds = firing_plan(pos.tables, unit)
    kinds = [in_mode(k, False) for k in plan_kinds]
    barred = _barred(pos, unit, target, False, False, False)
    return [(m, name, dist, index) for m, name, index, tid in entries
            if not barred(kinds[tid]) and kinds[tid].low <= dist <= kinds[tid].high]


def roll_hits(game, unit, t, weapons, moved, indirect: bool = False) -> list:
    """KC-SHOOT-5/6, KC-IND-1..3: each weapon type's dice together, then second dice for natural 6s (`indirect`:
    the attack was declared indirect, KC-TAB-3). Returns [(weapon, hits, range)]."""
    out = []
    groups: dict = {}
    for _m, name, dist, _index in weapons:
        groups.setdefault(name, []).append(dist)
    for name, dists in groups.items():
        w = game.tables.weapons[name]
        dist = min(dists)
        fired_indirect = w.fires_indirect(indirect)
        if fired_indirect:
            n = game.ranged_need(unit, t)
        else:
            n = need(game, unit, name, t, dist, moved)
        shots = w.shots * len(dists)
        if n >= 8 and not hidden.concealed(game, t):
            game.log.add("to_hit", f"{unit.name}'s {name} cannot hit (needs {n})", unit.side, rule="KC-SHOOT-6")
            out.append((name, 0, dist))
            continue
        if n >= 8:
            # KC-HID-9: the firer does not know what a hidden occupant makes it need, so it rolls as for any shot
            # and sees its dice and 0 hits; rolling nothing would tell it the need was past 6+6.
            faces = game.dice.dice(shots)
            game.log.add("to_hit", f"{unit.name}'s {name} x{shots} cannot hit (needs {n})", unit.side, tuple(faces),
                         rule="KC-SHOOT-6", **hidden.owner_only(game, t, public=f"{unit.name}'s {name} x{shots}: 0 hits",
                                                                public_dice=True))
            out.append((name, 0, dist))
            continue
        faces = game.dice.dice(shots)
        if fired_indirect:
            hits = sum(1 for f in faces if f >= n and (f == 6 or n < 6))   # KC-IND-1: natural 6 unless ranged in
        else:
            hits = sum(1 for f in faces if f != 1 and f >= min(n, 6))
        seconds = []
        if n == 7:                                          # KC-SHOOT-6: a 6, then 4+ on a second die
            seconds = game.dice.dice(sum(1 for f in faces if f == 6))
            hits = sum(1 for f in seconds if f >= 4)
        # KC-HID-9: the firer sees its to-hit dice and the hits, not what a hidden occupant made it need
        game.log.add("to_hit", f"{unit.name}'s {name} x{shots} needs {n}+: {hits} hits", unit.side,
                     tuple(faces + seconds), rule="KC-SHOOT-5",
                     **hidden.owner_only(game, t, public=f"{unit.name}'s {name} x{shots}: {hits} hits", public_dice=True))
        if fired_indirect:
            game.note_ranging(unit, t, hits > 0)
        out.append((name, hits, dist))
    return out


def resolve_hits(game, unit, t, hits, he: bool) -> None:
    """KC-SHOOT-7..10, KC-HE-1..3, KB-HE-1..5, KB-AT-5, KV-DMG-1..3 (`he`: the attack's declared mode, HE for a
    dual-mode weapon and indirect for one that fires both ways)."""
    total = sum(h for _, h, _ in hits)
    if total == 0:
        return
    indirect = any(game.tables.weapons[n].fires_indirect(he) for n, h, _ in hits if h)
    victim = t
    if t.inside and indirect:   # KB-HE-1/2: the blast runs down the floors; KB-HE-3: a direct hit has no floor roll
        victim = game.floor_roll(t)
        if victim is None:
            return
    if victim.vehicle:
        vehicle_hits(game, unit, victim, hits, top=indirect)    # KC-IND-4: indirect fire hits the top armour
        return
    he_hits, extra_pins, he_pen, big_he = 0, 0, 0, 0
    small = []
    for name, h, dist in hits:
        w = game.tables.weapons[name]
        if h and w.fires_he(he):
            for _ in range(h):
                rolled = game.roll_expr(w.he, rule="KC-HE-1")
                he_hits += rolled
                if w.he in ("2D6", "3D6"):
                    big_he += rolled
            pen, pins = game.tables.he[w.he]
            he_pen = max(he_pen, pen)
            if PIN_DICE[pins]:
                extra_pins += game.roll_expr(pins, rule="KC-HE-3")
        else:
            small += [(name, dist)] * h
    if pin(game, victim, 1 + extra_pins, "KC-SHOOT-7"):
        return
    if he_hits and victim.order == DOWN:              # KC-HE-2: halved for damage only (KB-HE-4: no Extra Protection)
        he_hits //= 2
    kills = 0
    for name, dist in small:
        kills += damage_roll(game, unit, victim, name, dist)
    for _ in range(he_hits):
        kills += damage_roll(game, unit, victim, None, 0, he_pen=he_pen)
    casualties(game, victim, kills, "KC-SHOOT-8")
    morale_after(game, victim, kills)
    if big_he >= 12 and victim.inside:                 # KB-HE-5: 12+ hits before Down halving collapse it
        game.collapse(victim.section, "KB-HE-5")


def pin(game, unit, count: int, rule: str) -> bool:
    """Add pins; KC-ORD-12: a unit with pins >= its base morale is destroyed at once (option pinned_out).
    True if the unit was destroyed."""
    unit.pins += count
    game.log.add("pins", f"{unit.name} takes {count} pin{'s' if count != 1 else ''} ({unit.pins})", unit.side, rule=rule,
                 **hidden.owner_only(game, unit))             # KC-HID-9: a hidden occupant's pins
    if game.options["pinned_out"] and unit.pins >= game.tables.quality[unit.quality][0]:
        game.destroy(unit, "pinned out", "KC-ORD-12")
        return True
    return False


def damage_roll(game, unit, victim, name, dist, he_pen: int | None = None) -> int:
    """KC-SHOOT-8 / KB-AT-5: d6 + Pen >= damage value (inside, non-HE: 6); a natural 1 fails. KC-WPN-5."""
    dv = game.tables.quality[victim.quality][1]
    if he_pen is not None:
        pen = he_pen
    else:
        w = game.tables.weapons[name]
        pen = w.pen or 0
        if w.pen and not w.small_arms and "shaped" not in w.rules and dist > w.range / 2 + 1e-9:
            pen -= 1
        if victim.inside:
            dv = 6
    face = game.dice.d6()
    kill = face != 1 and face + pen >= dv
    game.log.add("damage", f"{victim.name}: {'a casualty' if kill else 'no casualty'}", unit.side, (face,),
                 rule="KB-AT-5" if victim.inside and he_pen is None else "KC-SHOOT-8",
                 **hidden.owner_only(game, victim))           # KC-HID-9: damage dice on a hidden occupant
    return int(kill)


CASUALTY_ORDER = {"crew": 0, "rifleman": 1, "carrier": 2, "nco": 3}


def casualties(game, unit, kills: int, rule: str) -> None:
    """KC-SHOOT-9: riflemen, then other weapons, then the NCO; crew before the weapon carrier."""
    lost = min(kills, len(unit.models))
    for _ in range(lost):
        def key(i):
            m = unit.models[i]
            rank = CASUALTY_ORDER[m.role]
            if m.role == "rifleman" and any(w != "rifle" for w, _ in m.weapons):
                rank = 1.5
            return (rank, -i)
        victim = min(range(len(unit.models)), key=key)
        unit.models.pop(victim)
    if kills:
        game.log.add("casualties", f"{unit.name} loses {lost} model{'s' if lost != 1 else ''}", unit.side, rule=rule,
                     **hidden.owner_only(game, unit))         # KC-HID-9
    if not unit.models or (unit.team and not any(m.role == "carrier" for m in unit.models)):
        game.destroy(unit, "wiped out", "KC-WPN-2" if unit.models else rule)


def morale_after(game, unit, kills: int, forced: bool = False) -> None:
    """KC-SHOOT-10 (and KC-FLAME-3 when `forced`): 2D6 <= morale - pins, failure destroys."""
    if not unit.alive:
        return
    if not forced and not (kills and len(unit.models) * 2 <= unit.start_models):
        return
    from .orders import morale
    a, b = game.dice.d6(), game.dice.d6()
    ok = (a == 1 and b == 1) or a + b <= morale(game, unit) - unit.pins
    game.log.add("morale", f"{unit.name} {'passes' if ok else 'fails'} its morale check", unit.side, (a, b),
                 rule="KC-FLAME-3" if forced else "KC-SHOOT-10", **hidden.owner_only(game, unit))   # KC-HID-9
    if not ok:
        game.destroy(unit, "broken", "KC-FLAME-3" if forced else "KC-SHOOT-10")


def vehicle_hits(game, unit, v, hits, top: bool = False) -> None:
    """KV-DMG-1..3: small arms cannot hurt armour; each heavy hit pins once and may penetrate."""
    heavy = [(n, d) for n, h, d in hits for _ in range(h) if not game.tables.weapons[n].small_arms]
    if not heavy:
        return
    if pin(game, v, len(heavy), "KV-DMG-3"):
        return
    dv = game.tables.vehicle_damage[v.vclass]
    point = game.point_of(unit)
    walker = "walker" in v.vclass
    for name, dist in heavy:
        w = game.tables.weapons[name]
        pen = w.pen if w.pen is not None else game.tables.he[w.he][0]
        if w.pen and "shaped" not in w.rules and dist > w.range / 2 + 1e-9:
            pen -= 1                                           # KC-WPN-5
        bonus = 0 if walker else max(arc_bonus(game, v, point), 1 if top else 0)   # KV-DMG-2, KB-FROM-7
        if (not walker and unit.inside and unit.floor >= 1 and dist <= 12 + 1e-9):
            bonus = max(bonus, 1)                              # KB-FROM-6 plunging fire (largest applies)
        face = game.dice.d6()
        ok = face != 1 and face + pen + bonus >= dv
        game.log.add("penetration", f"{v.name} is {'penetrated' if ok else 'not penetrated'}", unit.side, (face,),
                     rule="KV-DMG-1")
        if ok:
            vehicle_damage(game, v)
            if not v.alive:
                return


def vehicle_damage(game, v) -> None:
    """KV-TAB-1: 1 stunned, 2 immobilised, 3 on fire, 4-6 knocked out."""
    face = game.dice.d6()
    game.log.add("vehicle_damage", f"{v.name} damage roll", v.side, (face,), rule="KV-TAB-1")
    if face >= 4:
        game.destroy(v, "knocked out", "KV-TAB-1")
        return
    if pin(game, v, 1, "KV-TAB-1"):
        return
    if face == 1:
        game.force_down(v, "KV-TAB-1")
    elif face == 2:
        v.immobile = True
    else:
        morale_after(game, v, 0, forced=True)
        if v.alive:
            game.force_down(v, "KV-TAB-1")
