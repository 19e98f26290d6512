"""Which weapons fire, written the plain way (each weapon's terms read from the tables at every question, a weapon
inside asked model by model): what `envs.k47.shooting.weapons_that_fire`, which reads a firing plan per loadout,
is tested against."""
from __future__ import annotations

from envs.k47 import geometry
from envs.k47.shooting import in_front_arc, target_is_bunker, weapon_order


def weapons_that_fire(pos, unit, target, moved: bool, ambush: bool = False, he: bool = False,
                      sides=None, models=None, indirect: bool = False) -> list:
    if not unit.alive or not target.alive or geometry.same_building(pos, unit, target):
        return []
    entries = weapon_order(pos.tables, [(m, name, 0.0, index, mount)
                                        for index, (m, name, mount) in enumerate(unit.weapons())])
    used: dict = {}
    seen: dict = {}
    ranges: dict = {}
    out = []
    for m, name, _, index, mount in entries:
        if models is not None and m not in models:
            continue
        if unit.inside:
            dist = weapon_range(pos, unit, name, mount, target, moved, ambush, he, sides, used, seen, indirect)
        else:
            dist = ranges.get((name, mount), ranges)
            if dist is ranges:
                dist = ranges[name, mount] = weapon_range(pos, unit, name, mount, target, moved, ambush, he, sides,
                                                          used, seen, indirect)
        if dist is not None:
            out.append((m, name, dist, index))
    return out


def weapon_range(pos, unit, name, mount, target, moved, ambush, he, sides, used, seen, indirect=False):
    w = pos.tables.weapons[name]
    if moved and "fixed" in w.rules:                                                           # KC-WPN-3
        return None
    fires_indirect = "indirect" in w.rules and (w.direct_range is None or indirect)           # KC-TAB-3
    if fires_indirect and (ambush or unit.inside or target_is_bunker(pos, target)):          # KC-IND-4, KC-IND-5
        return None
    low, high = (w.min_range, w.range) if fires_indirect or w.direct_range is None else (0.0, w.direct_range)
    if he and w.he is None:
        return None
    if mount == "hull" and not in_front_arc(unit, target, pos):                               # KV-FIRE-1
        return None
    key = (geometry.sight_class(pos, unit, name), unit.inside)
    if key not in seen:
        seen[key] = geometry.sights(pos, unit, name, target) if unit.inside else geometry.sight(pos, unit, name, target)
    if not unit.inside:
        found = seen[key]
        ok = found is not None and low - 1e-9 <= found[0] <= high + 1e-9
        return found[0] if ok else None
    places = 2 if "team" in w.rules else 1                                                     # KB-FROM-2
    for dist, _point, opening in seen[key]:
        if sides is not None and opening.side not in sides:
            continue
        if not low - 1e-9 <= dist <= high + 1e-9 or used.get(opening.index, 0) + places > 2:
            continue
        used[opening.index] = used.get(opening.index, 0) + places
        return dist
    return None
