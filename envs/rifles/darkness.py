"""Rifles in the Darkness (rules catalog §12 RD-GEN/RD-CC/RD-TRT, §13 RD-AI-1/2): the rules of this module.

RD-GEN-1: the standard rules apply and RD-CC replaces RU-CC; `modules.Darkness` overrides only the hooks
that differ and calls the functions here. Darkness units are `Unit`s whose `kind` names their type
(RD-GEN-3); each type is also an entry of the scenario's weapons table (ranged CF, range, C/C CF), so
Fire, range and the Close Combat sum read one table.
"""
from __future__ import annotations

import math

from envs.engine.events import roll

from . import closecombat, enemy, fire, geometry, movement
from .flow import Decision, answer, task
from .state import OPEN, QUALITY
from .tasks import Advance, DarkClose, DarkFire, DarkOrder, FastAttack, Place


# Types and traits ---------------------------------------------------------------------------------
def type_of(game, unit):
    """The unit's Darkness type (RD-TAB-1), None for a soldier."""
    return None if unit.kind is None else game.scenario.darkness.types[unit.kind]


def results_to_eliminate(game, unit) -> int:
    """RD-GEN-4: a Darkness unit without Wounds dies on its 2nd result; RD-TRT-5: Wounds(X) on its Xth."""
    t = type_of(game, unit)
    return t.wounds or game.scenario.darkness.results_to_eliminate


def crawling(game, group) -> bool:
    """RD-TRT-1: a group holding a Crawling unit (it never mixes with others but by RD-CC-10 merges)."""
    crawlers = game.scenario.darkness.crawlers
    return bool(crawlers) and any(u.kind in crawlers for u in group.units)


def fast_units(game, group) -> list:
    """RD-TRT-2: the units with the Fast trait."""
    return [u for u in group.units if u.kind is not None and type_of(game, u).fast]


def attacks(game, group) -> int:
    """RD-TRT-3: Multiple Attacks(X) gives the group X attacks per activation (the most any unit has)."""
    return max((type_of(game, u).attacks for u in group.units if u.kind is not None), default=1)


def fire_barred(game, unit, target, rng: int) -> bool:
    """RD-VAR-1: with night visibility all fire reaches range 1 at most; RD-TRT-1: a Crawling target only at range 0."""
    if rng > 1 and game.options["night_visibility"]:
        return True
    return rng > 0 and crawling(game, target)


# Close Combat (RD-CC-*) -------------------------------------------------------------------------------
def morale_drm(game, group, target, bap: bool) -> int:
    """RD-CC-1: +1 one BAP spent, +1 a Leader in the group; no HMG/Flamethrower modifier (unlike RU-CC-3)."""
    return int(bap) + (1 if any(u.leader for u in group.units) else 0)


def cc_factor(game, group) -> int:
    """RD-CC-2: the group's C/C CFs (RB-TAB-3 for soldiers, RD-TAB-1 for the Darkness) summed, then rounded down.

    The per-unit reading of catalog §17.6 is the table option `cc_cf_rounding: per_unit_floor`."""
    weapons = game.tables.weapons
    if game.scenario.darkness.cc_cf_rounding == "per_unit_floor":
        return sum(math.floor(weapons[u.weapon].cc_cf) for u in group.units)
    return math.floor(sum(weapons[u.weapon].cc_cf for u in group.units))


def round_modifier(game, group, foe) -> int:
    """RD-CC-2..7: what a group adds to its d6 in a round (no unit-count or weapon modifiers, unlike RU-CC)."""
    mods = game.scenario.darkness.cc_modifiers
    total = cc_factor(game, group)
    if any(u.suppressed for u in group.units):
        total += mods["shaken"]                   # RD-CC-3: only player units are ever SHAKEN (RD-GEN-4)
    if any(u.quality == QUALITY["recruit"] for u in group.units):
        total += mods["recruit"]                  # RD-CC-4
    if group.defending:
        f = geometry.feature(game, group.stripe, group.place)
        if f is not None and f.is_building:
            total += mods["building"]             # RD-CC-5: every round
        elif f is not None and group.rounds == 0:
            total += mods["feature_first_round"]  # RD-CC-6: other features, first round only
    if closecombat.veterans(group) > closecombat.veterans(foe):
        total += mods["more_veterans"]            # RD-CC-7: Darkness units are never Veterans
    return total


def join_fight(game, joiner, foe) -> None:
    """RD-CC-9 (player) / RD-CC-10 (Darkness): the joiner merges into the friendly group fighting `foe`.

    A round follows only if that group has not activated this turn; otherwise the joiner adds to the next
    round (the merged group fights no more this turn)."""
    friend = game.group(joiner.side, foe.engaged_with)
    already = friend.activated
    game.merge(joiner, friend)
    game.log.add("join", f"{joiner.name} joins {friend.name} against {foe.name}", side=joiner.side, rule="RD-CC-9")
    if already:
        friend.fought = True
        game.log.add("join", f"{friend.name} has activated: the joiners fight in the next round", side=joiner.side, rule="RD-CC-9")
        return
    friend.activated = friend.fought = True
    closecombat.fight_round(game, friend, foe)


def fight(game, group, target) -> None:
    """RD-CC-10: Darkness groups never check morale; RD-CC-8 placement (a charge from range 1) and round as RU-CC."""
    if target.engaged:
        join_fight(game, group, target)
        return
    closecombat.engage(game, group, target)
    closecombat.fight_round(game, group, target)


# Fast attacks and free attacks (RD-TRT-2, RD-GEN-5) ------------------------------------------------------
def fast_attackable(game, group, target, max_range: int) -> bool:
    """RD-TRT-2: a Fast group reaches a visible, non-Engaged player group within `max_range` (no Engagement follows)."""
    if not fast_units(game, group) or not fire.can_target(game, group, target):
        return False
    return geometry.group_distance(game, group, target) <= max_range


def fast_attack(game, group, target, drm: int) -> int:
    """RD-TRT-2: each Fast unit rolls floor(C/C CF) dice (min 1) at the RB-FIRE-2 TN; hits as RB-FIRE-5 / RD-TRT-3."""
    units = fast_units(game, group)
    least = game.scenario.darkness.fast_attack_min_dice
    hits, faces, rolls = 0, [], []
    for unit in units:
        weapon = game.tables.weapons[unit.weapon]
        tn = fire.target_number(game, group.position, target.position, weapon)
        for _ in range(max(least, math.floor(weapon.cc_cf))):
            die = game.dice.d6()
            faces.append(die)
            rolls.append(fire.die_roll(die, drm, tn))
            hits += fire.is_hit(die, drm, tn)
    game.log.add("fast_attack", f"{group.name} makes a Fast attack on {target.name} (DRM {drm:+d}): {hits} hit(s)",
                 side=group.side, dice=faces, rule="RD-TRT-2", rolls=rolls)
    fire.apply_hits(game, target, hits, single_pick=attacks(game, group) > 1)
    return hits


def can_free_attack(game, group, target) -> bool:
    """RD-GEN-5: Fire if ranged CF > 0 and in range, else a Fast attack at range 0."""
    return bool(fire.shooters(game, group, target, free=True)) or fast_attackable(game, group, target, 0)


def free_attack(game, group, target, drm: int) -> None:
    """RD-GEN-5: a Darkness free attack (RU-EXP-4 when RD-VAR-2 is on): Fire, else a Fast attack, else none."""
    if fire.shooters(game, group, target, free=True):
        fire.resolve(game, group, target, drm, free=True, single_pick=attacks(game, group) > 1)
    elif fast_attackable(game, group, target, 0):
        fast_attack(game, group, target, drm)


# The doctrine (RD-AI-1/2) ----------------------------------------------------------------------------------
def attack_targets(game, group, first: bool) -> list[int]:
    """RD-AI-1: visible player groups at range 0, else (first attack only) at range 1, in sight; Engaged ones too
    (a join, RD-CC-10); RU-CC-19 applies, RU-CC-18 does not. Ties as RB-AI-10: fewest units, lower ID."""
    for wanted in ((0, 1) if first else (0,)):
        found = [p for p in enemy.visible_players(game)
                 if geometry.group_distance(game, group, p) == wanted
                 and geometry.groups_see(game, group, p) and not enemy.in_sealed_building(game, p)
                 and (p.level == 0 or group.start_stripe == p.stripe)]
        if found:
            return [p.gid for p in sorted(found, key=lambda p: (len(p.units), p.gid))]
    return []


def order_tasks(game, group) -> list:
    """RD-AI-1 replaces RB-AI-4: with a player group at range <= 1 the group attacks it, no roll; else RD-AI-2."""
    if attack_targets(game, group, True):
        return [DarkClose(group.gid, attacks(game, group), 1)]
    if game.options["enemy_rolls_as_choices"]:        # RB-AI-1: the RD-AI-2 roll becomes the enemy's choice
        game.decide(Decision.ORDER, group=group.gid)
        return []
    die = game.dice.d6()
    order = next(o for top, o in game.scenario.darkness.orders if die <= top)
    game.log.add("order", f"{group.name} order: {order}", side=1, dice=(die,), rule="RD-AI-2",
                 rolls=[roll((die,), order, table="the Darkness order table")])
    return [DarkOrder(group.gid, enemy.ORDER_NAMES.index(order))]


@task(DarkOrder)
def dark_order(game, slot: int, order: int) -> None:
    """RD-AI-2: @Attack with ranged CF (none or no target: @Advance); @Advance as RB-AI-9 with RB-AI-5 placement."""
    group = game.enemies[slot]
    game.enemy_orders[slot] = order                      # RB-HID-1: the order die (or RB-AI-1 choice) is public
    if enemy.ORDER_NAMES[order] == "attack":
        game.push(DarkFire(slot, attacks(game, group), 1))
    else:
        game.push(Advance(slot))


@task(DarkFire)
def dark_fire(game, slot: int, left: int, first: int) -> None:
    """RD-AI-2 @Attack: Fire at the RB-AI-6 target; RD-TRT-3: `left` attacks to go, each choosing its target."""
    group = game.enemies[slot]
    if not group.on_map or group.engaged:
        return
    options = enemy.targets(game, group)
    if options:
        game.decide(Decision.TARGET, group=slot, options=options, mode="fire", drm=0, left=left)
    elif first:
        game.push(Advance(slot))


def enemy_fire(game, group, target, ctx) -> None:
    """One Darkness Fire attack (free of RB-AP-2's once a turn: RD-TRT-3 repeats it), then the next attack."""
    fire.resolve(game, group, target, ctx["drm"], free=True, single_pick=attacks(game, group) > 1)
    if ctx.get("left", 1) > 1:
        game.push(DarkFire(group.gid, ctx["left"] - 1, 0))


@task(DarkClose)
def dark_close(game, slot: int, left: int, first: int) -> None:
    """RD-AI-1: choose the player group to attack (the enemy's `target` decision, mode close_combat)."""
    group = game.enemies[slot]
    if not group.on_map or group.engaged:
        return
    options = attack_targets(game, group, bool(first))
    if options:
        game.decide(Decision.TARGET, group=slot, options=options, mode="close_combat", drm=0, left=left)


def enemy_close_combat(game, group, target, ctx) -> None:
    """RD-AI-1: a Fast group that can Fast-attack the target decides whether it fights instead; others fight."""
    rng = geometry.group_distance(game, group, target)     # 1 only on a first attack (attack_targets)
    if fast_attackable(game, group, target, rng):
        game.decide(Decision.FAST, group=group.gid, target=target.gid, left=ctx.get("left", 1))
        return
    fight(game, group, target)                         # RD-TRT-4: no further attack after a round


@answer(Decision.FAST)
def fast_answer(game, ctx, choice: int) -> None:
    """e_fast 0: fight (RD-CC-10); 1: Fast attack, after moving in from range 1 (RB-AI-5 placement)."""
    group, target = game.enemies[ctx["group"]], game.players[ctx["target"]]
    if choice == 0:
        fight(game, group, target)
        return
    tasks = []
    if geometry.group_distance(game, group, target) > 0:
        movement.relocate(game, group, target.stripe, OPEN, 0)
        game.log.add("advance", f"{group.name} moves in to Stripe {target.stripe}", side=1, rule="RB-AI-5")
        tasks.append(Place(group.gid, target.stripe))
    tasks.append(FastAttack(group.gid, target.gid))
    if ctx["left"] > 1:
        tasks.append(DarkClose(group.gid, ctx["left"] - 1, 0))
    game.push(*tasks)


@task(FastAttack)
def fast_attack_task(game, slot: int, target_slot: int) -> None:
    group, target = game.enemies[slot], game.players[target_slot]
    if group.on_map and fast_attackable(game, group, target, 0):
        fast_attack(game, group, target, 0)
