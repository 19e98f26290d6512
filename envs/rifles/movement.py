"""Player movement, Rubble, Exposed Movement, enemy markers, sewers, floors, complexes, exit.

RB-MOVE-*, RB-EM-*, RU-RUB-*, RU-EXP-*, RU-SEW-*, RU-MS-2/3, RU-CPX-4, RB-VIC-4, RB-AP-4.
"""
from __future__ import annotations

from envs.engine import events

from . import fire, geometry
from .flow import Decision, answer, task
from .state import FIRST, GROUND, OPEN, PLAYER
from .tasks import REVEAL_SWEEP, Exposed, FreeAttack, MsFloor, Place, Reveal, RevealSweep


def movement_barred(group) -> bool:
    """RB-MOVE-2: more than half the units Suppressed: no Move, floor change, hop or sewer action."""
    suppressed = 0
    for u in group.units:
        if u.hits and u.kind is None:                     # Unit.suppressed, read as fields: asked at every mask
            suppressed += 1
    return 2 * suppressed > len(group.units)


def start_move(game, group, stripe: int, place: int, recon: bool) -> None:
    """RB-MOVE-1 with RU-RUB-1: entering Rubble rolls d6 for its cost before anything else (RU-RUB-4)."""
    cost = game.tables.ap_costs["move"]
    if geometry.kind_at(game, stripe, place) == "rubble":
        die = game.dice.d6()
        cost = 2 if die >= game.tables.rubble_two_ap_from else 1
        game.log.add("rubble", f"{group.name} entering rubble costs {cost} AP", side=PLAYER, dice=(die,), rule="RU-RUB-1",
                     rolls=[events.roll((die,), f"{cost} AP", needs=f"{game.tables.rubble_two_ap_from}+ for 2 AP, else 1")])
        if cost > game.ap:
            cancel_rubble(game, group, stripe, place)
            return
        if cost == 2:
            game.decide(Decision.RUBBLE_COST, group=group.gid, stripe=stripe, place=place, recon=recon)
            return
    finish_move(game, group, stripe, place, recon, cost)


def cancel_rubble(game, group, stripe: int, place: int) -> None:
    """RU-RUB-2/3: cancelled at 0 AP; the group may not try that Rubble again this turn."""
    game.barred.add((group.gid, stripe, place))
    game.log.add("rubble_cancel", f"{group.name} does not enter the rubble", side=PLAYER, rule="RU-RUB-2")


@answer(Decision.RUBBLE_COST)
def rubble_answer(game, ctx, pay: bool) -> None:
    group = game.players[ctx["group"]]
    if pay:
        finish_move(game, group, ctx["stripe"], ctx["place"], ctx["recon"], 2)
    else:
        cancel_rubble(game, group, ctx["stripe"], ctx["place"])


def finish_move(game, group, stripe: int, place: int, recon: bool, cost: int) -> None:
    """Pay, place the group on the Ground level (RU-MS-2), then Exposed Movement and reveals (RU-EXP-1, RB-EM-2)."""
    game.ap -= cost
    changed = stripe != group.stripe
    if recon:
        game.recon -= 1                                  # RU-EXP-2: declared with the move
    relocate(game, group, stripe, place, GROUND)
    game.exposed = (None, -1)                            # this move's roll, if it rolls, replaces the last one
    game.log.add("move", f"{group.name} moves to {game.place_name(stripe, place)}", side=PLAYER, rule="RB-MOVE-1")
    tasks = []
    if changed and game.options["exposed_movement"] and not recon:
        tasks.append(Exposed(group.gid))
    tasks.append(REVEAL_SWEEP)
    game.push(*tasks)


def relocate(game, group, stripe: int, place: int, level: int) -> None:
    """Move a group; a failed Demo Charge left behind is lost when it leaves the Stripe (RU-DC-4)."""
    if stripe != group.stripe and group.side == PLAYER:
        game.demo.pop(group.gid, None)
    group.stripe, group.place, group.level = stripe, place, level


def exposed_effect(game, roll: int) -> str:
    for low, high, effect in game.tables.exposed_movement:
        if low <= roll <= high:
            return effect
    return "none"


@task(Exposed)
def exposed(game, slot: int) -> None:
    """RU-EXP-1: D66 on RB-TAB-8 before any marker is revealed."""
    group = game.players[slot]
    if not group.on_map:
        return
    roll = game.dice.d66()
    effect = exposed_effect(game, roll)
    faces = (roll // 10, roll % 10)
    game.exposed = (effect, -1)                          # RB-HID-1: the roll is public, shown to both sides
    game.log.add("exposed", f"exposed movement of {group.name}: {roll} {effect}", side=PLAYER, dice=faces, rule="RU-EXP-1",
                 rolls=[events.roll(faces, effect.replace("_", " "), table="the Exposed Movement table (D66)")])
    if effect == "sniper":
        fire.hit_unit(game, group, fire.random_unit(game, group.ok_units() or group.units))
    elif effect == "opportunity_fire":
        options = [e.gid for e in opportunity_firers(game, group)]
        if options:
            game.decide(Decision.FREE_ATTACKER, target=slot, drm=0, options=options)
    elif effect in ("contact", "ambush"):
        contact(game, group, 1 if effect == "ambush" else 0)
        if effect == "ambush" and game.active == slot:
            game.active = -1                              # RU-EXP-5: the move ends the activation
            game.log.add("ambush", f"ambush: {group.name}'s activation ends", side=PLAYER, rule="RU-EXP-5")


def opportunity_firers(game, mover) -> list:
    """RB-AI-11 candidates, nearest first then lower ID: revealed enemy groups with the mover in range
    (in the Darkness: able to make an RD-GEN-5 free attack on it)."""
    found = [e for e in game.enemies if e.on_map and game.module.can_free_attack(game, e, mover)]
    return sorted(found, key=lambda e: (geometry.group_distance(game, e, mover), e.gid))


@answer(Decision.FREE_ATTACKER)
def free_attacker_answer(game, ctx, enemy_slot: int) -> None:
    game.exposed = (game.exposed[0], enemy_slot)         # RB-HID-1: who makes the free attack, hit or miss
    game.push(FreeAttack(enemy_slot, ctx["target"], ctx["drm"]))


def contact(game, group, drm: int) -> None:
    """RB-TAB-8 contact/ambush: markers on the destination Stripe are revealed now, each new group fires (RU-EXP-4)."""
    slot = group.gid
    markers = [m for m in game.markers if m is not None and m.stripe == group.stripe]
    game.push(*[Reveal(m.slot, slot, drm) for m in markers])


@task(FreeAttack)
def free_attack(game, enemy_slot: int, target_slot: int, drm: int) -> None:
    """RU-EXP-4: an ordinary Fire outside the enemy's activation, not limited by RB-AP-2 (RD-GEN-5 in the Darkness)."""
    game.module.free_attack(game, game.enemies[enemy_slot], game.players[target_slot], drm)


@task(RevealSweep)
def reveal_sweep(game) -> None:
    """RB-EM-2: every marker within range 1 of a visible player group is revealed, lowest Stripe then ID."""
    stripes = {g.stripe for g in game.players if g.units and not g.exited and not g.in_sewer}
    near = [m for m in game.markers if m is not None and any(abs(m.stripe - s) <= 1 for s in stripes)]
    near.sort(key=lambda m: (m.stripe, m.slot))
    game.push(*[Reveal(m.slot, -1, 0) for m in near])


REVEAL_TABLE = "the scenario's reveal table"


@task(Reveal)
def reveal(game, marker_slot: int, target_slot: int, drm: int) -> None:
    """RB-EM-3: d6 on the reveal table; 1 removes the marker, else a group is placed on its Stripe (RB-AI-5)."""
    marker = game.markers[marker_slot]
    if marker is None:
        return
    game.markers[marker_slot] = None
    die = game.dice.d6()
    units = game.scenario.reveal_table[die]
    if not units:
        game.log.add("reveal", f"marker {marker.name} on Stripe {marker.stripe}: nothing", dice=(die,), rule="RB-EM-3",
                     rolls=[events.roll((die,), "nothing", table=REVEAL_TABLE)])
        return
    group = game.new_enemy_group(marker.name, units, marker.stripe)
    game.log.add("reveal", f"marker {marker.name} on Stripe {marker.stripe}: {game.describe(group)}", dice=(die,), rule="RB-EM-3",
                 rolls=[events.roll((die,), "a group", table=REVEAL_TABLE)])
    tasks = [Place(group.gid, marker.stripe)]
    if target_slot >= 0:
        tasks.append(FreeAttack(group.gid, target_slot, drm))
    game.push(*tasks)


def enemy_places(game, stripe: int) -> list[int]:
    """Places an enemy group may take on a Stripe: Open, or a feature with no player unit that is not Sealed."""
    places = [OPEN]
    for f in game.places[stripe][1:]:
        if not f.sealed and not geometry.groups_at(game.players, stripe, f.place):
            places.append(f.place)
    return places


def best_place(game, stripe: int, options) -> int:
    """RB-AI-5: the first by terrain priority, ties lower ID, else Open."""
    return min(options, key=lambda p: (geometry.priority_rank(game, stripe, p, 1), p))


@task(Place)
def place(game, slot: int, stripe: int) -> None:
    game.decide(Decision.PLACE, group=slot, stripe=stripe, options=enemy_places(game, stripe))


@answer(Decision.PLACE)
def place_answer(game, ctx, where: int) -> None:
    group = game.enemies[ctx["group"]]
    relocate(game, group, ctx["stripe"], where, GROUND)
    game.log.add("placed", f"{group.name} takes {game.place_name(group.stripe, where)}", side=1, rule="RB-AI-5")
    if geometry.kind_at(game, group.stripe, where) == "ms":
        game.push(MsFloor(ctx["group"]))


@task(MsFloor)
def ms_floor(game, slot: int) -> None:
    """RU-AI-2: an enemy group entering an MS goes to the First Floor on d6 4+ (a choice under RB-AI-1)."""
    group = game.enemies[slot]
    if game.options["enemy_rolls_as_choices"]:
        game.decide(Decision.LEVEL, group=slot)
        return
    die = game.dice.d6()
    level = FIRST if die >= game.tables.ms_first_floor_from else GROUND
    set_level(game, group, level, dice=(die,), needs=f"{game.tables.ms_first_floor_from}+ for the First Floor")


@answer(Decision.LEVEL)
def level_answer(game, ctx, level: int) -> None:
    set_level(game, game.enemies[ctx["group"]], level)


def set_level(game, group, level: int, dice=(), needs: str = "") -> None:
    """RU-AI-2 (RB-MAP-4 keeps it off a floor the player holds); `dice` and `needs` when it was rolled."""
    if level == FIRST and geometry.groups_at(game.players, group.stripe, group.place, FIRST):
        level = GROUND                                   # RB-MAP-4: that floor is held by the player
    group.level = level
    floor = f"the {'First' if level else 'Ground'} Floor"
    rolls = [events.roll(dice, floor, needs=needs)] if dice else []
    game.log.add("floor", f"{group.name} on {floor}", side=group.side, dice=dice, rule="RU-AI-2", rolls=rolls)


# Player actions other than Move --------------------------------------------------------------
def change_floor(game, group) -> None:
    """RU-MS-3: 1 AP moves Ground <-> First Floor."""
    game.ap -= game.tables.ap_costs["floor"]
    group.level = 1 - group.level
    game.log.add("floor", f"{group.name} to the {'First' if group.level else 'Ground'} Floor", side=PLAYER, rule="RU-MS-3")


def hop(game, group) -> None:
    """RU-CPX-4: 1 AP to the other building of the complex, same level, no Exposed Movement (RU-EXP-3)."""
    game.ap -= game.tables.ap_costs["hop"]
    partner = geometry.complex_partner(game, group.stripe, group.place)
    relocate(game, group, partner.stripe, partner.place, group.level)
    game.log.add("hop", f"{group.name} crosses the complex to {partner.fid}", side=PLAYER, rule="RU-CPX-4")
    game.push(REVEAL_SWEEP)


def sewer_enter(game, group) -> None:
    """RU-SEW-2: the group goes below and is Hidden."""
    game.ap -= game.tables.ap_costs["sewer"]
    group.in_sewer, group.place, group.level = True, OPEN, GROUND
    game.log.add("sewer", f"{group.name} enters the sewer", side=PLAYER, rule="RU-SEW-2")


def sewer_move(game, group, delta: int) -> None:
    """RU-SEW-3: 1 AP toward an adjacent Stripe; d6 1-5 arrives, 6 stays; no Exposed Movement (RU-EXP-3)."""
    game.ap -= game.tables.ap_costs["sewer"]
    die = game.dice.d6()
    if die < game.tables.sewer_stuck_on:
        relocate(game, group, group.stripe + delta, OPEN, GROUND)
    moved = die < game.tables.sewer_stuck_on
    game.log.add("sewer", f"{group.name} {'moves' if moved else 'is held up'} in the sewer", side=PLAYER, dice=(die,),
                 rule="RU-SEW-3", rolls=[events.roll((die,), "moves" if moved else "held up",
                                                     needs=f"{game.tables.sewer_stuck_on - 1} or less to move")])


def sewer_leave(game, group) -> None:
    """RU-SEW-4/5: out into the Open; markers near it are revealed then."""
    game.ap -= game.tables.ap_costs["sewer"]
    group.in_sewer = False
    game.log.add("sewer", f"{group.name} leaves the sewer on Stripe {group.stripe}", side=PLAYER, rule="RU-SEW-4")
    game.push(REVEAL_SWEEP)


def exit_map(game, group) -> None:
    """RB-VIC-4: the group leaves by the far edge; its units are safe and count for exit goals."""
    game.ap -= game.tables.ap_costs["exit"]
    group.exited = True
    game.exited_units += len(group.units)
    game.demo.pop(group.gid, None)
    game.log.add("exit", f"{group.name} exits the map ({len(group.units)} units)", side=PLAYER, rule="RB-VIC-4")


def recon_reveal(game, marker_slot: int) -> None:
    """RB-AP-4: one Recon Point, 0 AP, reveals a marker within range 2 of a visible player group."""
    game.recon -= 1
    game.push(Reveal(marker_slot, -1, 0))
