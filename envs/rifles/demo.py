"""Demo Charges: breach a Sealed Building or attack a building's garrison (RU-DC-*)."""
from __future__ import annotations

from envs.engine import events

from . import fire, geometry
from .state import PLAYER

BREACH, DIRECT = 0, 1


def place(game, group, place: int, mode: int) -> None:
    """RU-DC-3: 2 AP, then 2d6; 3+ places it and it detonates at once."""
    game.ap -= game.tables.ap_costs["demo_charge"]
    group.demo_charges -= 1
    attempt(game, group, place, mode)


def retry(game, group) -> None:
    """RU-DC-4: another 2 AP at the same target."""
    game.ap -= game.tables.ap_costs["demo_charge"]
    stripe, where, mode = game.demo.pop(group.gid)
    attempt(game, group, where, mode)


def take_back(game, group) -> None:
    """RU-DC-4: 1 AP re-equips the charge without detonating it."""
    game.ap -= game.tables.ap_costs["demo_take_back"]
    game.demo.pop(group.gid)
    group.demo_charges += 1
    game.log.add("demo", f"{group.name} takes its demo charge back", side=PLAYER, rule="RU-DC-4")


def attempt(game, group, where: int, mode: int) -> None:
    roll = game.dice.two_d6()
    target = game.places[group.stripe][where]
    if roll <= game.tables.dc_fail_on:
        game.demo[group.gid] = (group.stripe, where, mode)
        game.log.add("demo", f"{group.name}'s demo charge at {target.fid} fails to detonate", side=PLAYER, dice=(roll,), rule="RU-DC-4",
                     rolls=[detonation(game, roll)])
        return
    game.log.add("demo", f"{group.name}'s demo charge at {target.fid} detonates", side=PLAYER, dice=(roll,), rule="RU-DC-3",
                 rolls=[detonation(game, roll)])
    if mode == BREACH:
        breach(game, target)
    else:
        direct_attack(game, target)
    # RU-DC-8: a detonated charge is discarded (it is not returned to the group)


def breach(game, target) -> None:
    """RU-DC-5: the building is no longer Sealed."""
    target.sealed = False
    game.terrain_changes += 1
    game.log.add("breach", f"{target.fid} is breached", side=PLAYER, rule="RU-DC-5")


def detonation(game, total: int) -> dict:
    """The 2d6 a charge needs to detonate (RU-DC-3/4), for the event."""
    fails = total <= game.tables.dc_fail_on
    return events.roll((total,), "fails" if fails else "detonates", needs=f"{game.tables.dc_fail_on + 1}+ on 2d6")


def direct_attack(game, target) -> None:
    """RU-DC-6: one CF 3 attack at TN 3 on each enemy group inside, no cover, no DRM; RU-DC-7 collapse on a 6."""
    for enemy in geometry.groups_at(game.enemies, target.stripe, target.place):
        faces = game.dice.dice(game.tables.dc_attack_cf)
        hits = sum(fire.is_hit(d, 0, game.tables.dc_attack_tn) for d in faces)
        game.log.add("demo_attack", f"demo charge hits {enemy.name} {hits} time(s)", side=PLAYER, dice=faces, rule="RU-DC-6",
                     rolls=[fire.die_roll(d, 0, game.tables.dc_attack_tn) for d in faces])
        for _ in range(hits):
            if enemy.units:
                fire.hit_unit(game, enemy, fire.select_unit(game, enemy))
    die = game.dice.d6()
    if die >= game.tables.dc_collapse_on:
        collapse(game, target, die)


def collapse(game, target, die: int) -> None:
    """RU-DC-7: the building becomes Rubble, everyone inside is eliminated, its complex is dissolved."""
    for group in geometry.groups_at(game.players + game.enemies, target.stripe, target.place):
        for unit in list(group.units):
            game.eliminate(group, unit)
    if target.complex is not None:
        for f in game.complexes.pop(target.complex):
            f.complex = None
    target.kind, target.sealed = "rubble", False
    game.terrain_changes += 1
    game.log.add("collapse", f"{target.fid} collapses into rubble", dice=(die,), rule="RU-DC-7",
                 rolls=[events.roll((die,), "collapses", needs=f"{game.tables.dc_collapse_on}+")])


def legal_targets(game, group) -> list[tuple[int, int]]:
    """RU-DC-2: (place, mode) on the group's Stripe, not its own place, with no player unit inside."""
    found = []
    for f in game.places[group.stripe][1:]:
        if f.place == group.place or not f.is_building or geometry.groups_at(game.players, f.stripe, f.place):
            continue
        if f.sealed:
            found.append((f.place, BREACH))
        if geometry.groups_at(game.enemies, f.stripe, f.place):
            found.append((f.place, DIRECT))
    return found
