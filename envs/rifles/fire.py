"""Fire, target numbers, unit selection and results (RB-FIRE-*, RB-HIT-*, RB-TAB-1/2/5)."""
from __future__ import annotations

from envs.engine.events import roll

from . import geometry


def target_number(game, firer: tuple, target: tuple, weapon) -> int:
    """RB-FIRE-2: range base + target cover, capped; a Flamethrower ignores cover (RB-FIRE-7)."""
    return best_target_number(game, firer, target, [weapon])


def best_target_number(game, firer: tuple, target: tuple, weapons, default: int = 7) -> int:
    """The lowest target_number over `weapons` (`default` when there is none): range and cover are worked out
    once for all of them, and the cover only if a weapon heeds it."""
    if not weapons:
        return default
    return lowest_target_number(game, firer, target, geometry.distance(game, firer, target),
                                any(not w.ignores_cover for w in weapons), any(w.ignores_cover for w in weapons))


def lowest_target_number(game, firer: tuple, target: tuple, rng: int, heeds: bool, ignores: bool) -> int:
    """RB-FIRE-2: range base + target cover, capped, the lowest of weapons that heed cover (`heeds`) and weapons that
    ignore it (`ignores`, RB-FIRE-7: a Flamethrower); the cover is looked up only if one heeds it."""
    tables = game.tables
    base = tables.range_tn[min(rng, len(tables.range_tn) - 1)]
    tn = base + geometry.cover(game, firer, target) if heeds else base
    return min(min(tn, base) if ignores else tn, tables.tn_cap)


def is_hit(die: int, drm: int, tn: int) -> bool:
    """RB-FIRE-3: die + DRM >= TN; RB-FIRE-4: a natural 1 always misses, a natural 6 always hits."""
    return die == 6 or (die != 1 and die + drm >= tn)


def need(drm: int, tn: int) -> str:
    """What one fire die needs, in words: TN less the DRM, at least 2 (a 1 misses) and at most 6 (a 6 hits)."""
    return f"{max(2, min(6, tn - drm))}+"


def die_roll(die: int, drm: int, tn: int) -> dict:
    """One fire die for the event: what it needed and whether it hit (RB-FIRE-3/4)."""
    return roll((die,), "hit" if is_hit(die, drm, tn) else "miss", needs=need(drm, tn))


def shooters(game, firer, target, free: bool = False) -> list:
    """RB-FIRE-1: OK units whose weapon reaches (RB-HIT-2: a Suppressed unit cannot fire); outside a free
    attack each unit fires once a turn (RB-AP-2)."""
    if not can_target(game, firer, target):
        return []
    rng = geometry.group_distance(game, firer, target)
    weapons, barred = game.tables.weapons, game.module.fire_barred
    found = []
    for u in firer.units:
        if u.hits and u.kind is None or u.fired and not free:     # Suppressed (Unit.suppressed), or fired already
            continue
        w = weapons[u.weapon]
        if w.min_range <= rng <= w.max_range and not barred(game, u, target, rng):    # Weapon.reaches
            found.append(u)
    return found


def has_shooter(game, firer, target, free: bool = False, units=None) -> bool:
    """bool(shooters(...)) (of those in `units`, when given), stopping at the first unit that can fire (the legal
    mask asks this for every enemy)."""
    if not can_target(game, firer, target):
        return False
    rng = geometry.group_distance(game, firer, target)
    weapons, barred = game.tables.weapons, game.module.fire_barred
    for u in firer.units:
        if u.hits and u.kind is None or u.fired and not free:     # as in shooters
            continue
        if units is not None and u not in units:
            continue
        w = weapons[u.weapon]
        if w.min_range <= rng <= w.max_range and not barred(game, u, target, rng):
            return True
    return False


def targets_with_shooter(game, firer, targets) -> list:
    """The targets `has_shooter` allows the firer, its units that may fire (RB-HIT-2, RB-AP-2) found once for all."""
    ready = [(u, game.tables.weapons[u.weapon]) for u in firer.units if not (u.hits and u.kind is None or u.fired)]
    if not ready:
        return []
    barred, found = game.module.fire_barred, []
    for target in targets:
        if not can_target(game, firer, target):
            continue
        rng = geometry.group_distance(game, firer, target)
        for u, w in ready:
            if w.min_range <= rng <= w.max_range and not barred(game, u, target, rng):
                found.append(target)
                break
    return found


def lowest_tn(game, firer, target, units=None, default: int = 7) -> int:
    """best_target_number over the weapons of `shooters(game, firer, target)` (only those in `units`, when given), in
    one pass over the firer's units: no list of shooters or weapons built. RB-AI-6 and the scripted player rank
    targets by it whenever more than one may be fired at."""
    if not can_target(game, firer, target):
        return default
    rng = geometry.group_distance(game, firer, target)
    weapons, barred = game.tables.weapons, game.module.fire_barred
    heeds = ignores = False                               # RB-FIRE-7: whether a shooter heeds cover, ignores it
    for u in firer.units:
        if u.hits and u.kind is None or u.fired:          # as in shooters
            continue
        if units is not None and u not in units:
            continue
        w = weapons[u.weapon]
        if w.min_range <= rng <= w.max_range and not barred(game, u, target, rng):
            if w.ignores_cover:
                ignores = True
            else:
                heeds = True
    if not (heeds or ignores):
        return default
    return lowest_target_number(game, firer.position, target.position, rng, heeds, ignores)


def can_target(game, firer, target) -> bool:
    """Both visible and out of the sewer (RU-SEW-5), neither Engaged (RB-FIRE-6), in sight (RU-CPX-3).

    RB-EM-4: only revealed groups can be targeted (a marker is not a group)."""
    # Group.on_map and Group.engaged read as fields: this is asked for every pair of groups at every decision
    if not firer.units or firer.exited or not target.units or target.exited or firer.in_sewer or target.in_sewer:
        return False
    if firer.engaged_with >= 0 or target.engaged_with >= 0:
        return False
    return geometry.groups_see(game, firer, target)


def resolve(game, firer, target, drm: int, free: bool = False, units=None, single_pick: bool = False) -> int:
    """Roll every shooter's CF dice against its TN and apply each hit (RB-FIRE-1..5); returns hits.

    `single_pick`: one Unit Selection roll for the whole attack (RD-TRT-3 Multiple Attacks)."""
    units = shooters(game, firer, target, free) if units is None else units
    at, to, tables = firer.position, target.position, game.tables
    drm += geometry.first_floor_bonus(at, to, tables)
    # RB-FIRE-2 as target_number works it out, the range and the cover once for the attack
    base = tables.range_tn[min(geometry.distance(game, at, to), len(tables.range_tn) - 1)]
    cover = None                                          # worked out for the first weapon that heeds it
    hits, faces, rolls = 0, [], []
    for unit in units:
        weapon = tables.weapons[unit.weapon]
        if weapon.ignores_cover:                          # RB-FIRE-7: a Flamethrower ignores cover
            tn = min(base, tables.tn_cap)
        else:
            if cover is None:
                cover = geometry.cover(game, at, to)
            tn = min(base + cover, tables.tn_cap)
        needs = need(drm, tn)                             # what each of this unit's dice needs, worded once
        for _ in range(weapon.cf):
            die = game.dice.d6()
            faces.append(die)
            hit = is_hit(die, drm, tn)
            rolls.append(roll((die,), "hit" if hit else "miss", needs=needs))     # die_roll's
            hits += hit
        if not free:
            unit.fired = True
    game.log.add("fire", f"{firer.name} fires at {target.name} ({len(units)} units, DRM {drm:+d}): {hits} hit(s)",
                 side=firer.side, dice=faces, rule="RB-FIRE-1", rolls=rolls)
    apply_hits(game, target, hits, single_pick)
    return hits


def apply_hits(game, target, hits: int, single_pick: bool = False) -> None:
    """RB-FIRE-5: each hit is one result on the unit one RB-TAB-5 roll picks.

    RD-TRT-3: an attack of a unit with Multiple Attacks rolls RB-TAB-5 once and all its hits fall on that
    unit; hits beyond its elimination are lost."""
    if single_pick:
        if hits and target.units:
            unit = select_unit(game, target)
            for _ in range(hits):
                if not unit.alive:
                    break
                hit_unit(game, target, unit)
        return
    for _ in range(hits):
        if not target.units:
            break
        hit_unit(game, target, select_unit(game, target))


def random_unit(game, units):
    """RB-GEN-3: uniform pick in unit-ID order with one die of size n (a merged group lists its joiners last)."""
    units = sorted(units, key=lambda u: u.name)
    return units[game.dice.pick(len(units))]


def select_unit(game, group):
    """RB-FIRE-5 / RB-TAB-5 Unit Selection Table: which unit of the group a hit falls on (one roll per hit)."""
    die = game.dice.d6()
    units = group.units
    if die <= 3:
        pool = [u for u in units if not u.suppressed] or units
    elif die == 4:
        top = max(game.tables.weapons[u.weapon].heaviness for u in units)
        pool = [u for u in units if game.tables.weapons[u.weapon].heaviness == top]
    elif die == 5:
        pool = [u for u in units if u.leader] or units
    else:                                    # a Darkness unit with a result counts as wounded (RD-GEN-4)
        pool = [u for u in units if u.hits] or units
    return random_unit(game, pool)


def hit_unit(game, group, unit) -> None:
    """RB-HIT-1: a result suppresses an OK unit and eliminates a Suppressed one (Wounds: RD-TRT-5)."""
    unit.hits += 1
    group.unit_changes += 1
    if unit.hits >= game.hits_to_eliminate(unit):
        game.eliminate(group, unit)
        game.log.add("eliminated", f"{unit.name} of {group.name} is eliminated", side=group.side, rule="RB-HIT-1")
    else:
        game.log.add("result", f"{unit.name} of {group.name} is {game.suppressed_word(unit)}", side=group.side, rule="RB-HIT-1")


def spread_results(game, group, count: int) -> None:
    """RB-HIT-3: results one at a time to the unit with fewest results (OK first), ties random; excess lost."""
    for _ in range(count):
        if not group.units:
            return
        fewest = min(u.hits for u in group.units)
        hit_unit(game, group, random_unit(game, [u for u in group.units if u.hits == fewest]))
