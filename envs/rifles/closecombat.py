"""Close Combat and Engagement, Urban module (RU-CC-*)."""
from __future__ import annotations

from envs.engine.events import roll

from . import fire, geometry, morale, movement
from .tasks import REVEAL_SWEEP

CC_ONLY_WEAPONS = ("pistol", "rifle", "smg", "ar")   # RU-CC-18


def morale_drm(game, group, target, bap: bool) -> int:
    """RU-CC-2: +1 BAP, +1 Leader in the group; RU-CC-3: -1 if the target holds an HMG or Flamethrower."""
    drm = int(bap) + (1 if any(u.leader for u in group.units) else 0)
    if any(u.weapon in ("hmg", "flamethrower") for u in target.units):
        drm -= 1
    return drm


def attack(game, group, target, bap: bool) -> None:
    """RU-CC-1/4 (RD-CC-1/8): a player group checks morale; on a pass it joins the target's position and fights a round.

    The morale DRM and the join of an Engaged target are the module's (RU-CC-2/3/15, RD-CC-1/9)."""
    drm = game.module.cc_morale_drm(game, group, target, bap)
    if not morale.check(game, morale.group_quality(group.units), drm, f"{group.name} close combat"):
        game.log.add("cc_refused", f"{group.name} fails to close with {target.name}", side=group.side, rule="RU-CC-4")
        return
    if target.engaged:
        game.module.player_join(game, group, target)
    else:
        stripe = group.stripe
        engage(game, group, target)
        fight_round(game, group, target)
        if group.stripe != stripe:
            game.push(REVEAL_SWEEP)     # RB-EM-2: placed across a complex onto another Stripe


def engage(game, attacker, defender) -> None:
    """RU-CC-4/10: the attacker moves onto the defender's position (no Rubble roll); both are Engaged."""
    movement.relocate(game, attacker, *defender.position)   # RU-DC-4: a charge left on the old Stripe is lost
    attacker.engaged_with, defender.engaged_with = defender.gid, attacker.gid
    attacker.defending, defender.defending = False, True
    attacker.rounds = defender.rounds = 0
    game.log.add("engaged", f"{attacker.name} engages {defender.name}", side=attacker.side, rule="RU-CC-10")


def join(game, joiner, enemy):
    """RU-CC-15: the joiner merges into the friendly group already fighting `enemy`."""
    friend = game.group(joiner.side, enemy.engaged_with)
    game.merge(joiner, friend)
    friend.activated = friend.fought = True
    game.log.add("join", f"{joiner.name} joins {friend.name} against {enemy.name}", side=joiner.side, rule="RU-CC-15")
    return friend


def round_modifier(game, group, foe) -> int:
    """RU-CC-5..9: per-unit modifiers, defender's terrain, more units, more Veterans."""
    weapons = game.tables.weapons
    total = sum(weapons[u.weapon].cc_mod - (1 if u.suppressed else 0) for u in group.units)
    if group.defending:
        kind = geometry.kind_at(game, group.stripe, group.place)
        if kind in ("building", "ms"):
            total += 1                       # RU-CC-6
        elif kind in ("wall", "woods", "rubble") and group.rounds == 0:
            total += 1                       # RU-CC-7: first round only
    if len(group.units) > len(foe.units):
        total += 1                           # RU-CC-8
    if veterans(group) > veterans(foe):
        total += 1                           # RU-CC-9
    return total


def veterans(group) -> int:
    return sum(1 for u in group.units if u.quality == 2)


def round_die(die: int, totals, group, foe) -> dict:
    """One side's close combat die for the event: the score it needed to beat the other side's total (its
    modifier counted) and how the round went for it (RU-CC-11/12)."""
    own, other = totals
    outcome = "tie" if own == other else f"{group.name} wins" if own > other else f"{foe.name} wins"
    score = other - (own - die) + 1
    beat = f"for {group.name} to beat {foe.name}'s {other}"
    needs = f"any score {beat}" if score <= 1 else f"{score}+ {beat}" if score <= 6 else f"7+ {beat}, out of reach"
    return roll((die,), outcome, needs=needs)


def fight_round(game, attacker, defender) -> None:
    """One round: higher total wins, the loser takes 2d3 or 1d3 results; a tie costs each side one (RU-CC-11/12)."""
    attacker.fought = True
    rolls = [game.dice.d6(), game.dice.d6()]
    totals = [rolls[0] + game.cc_modifier(attacker, defender), rolls[1] + game.cc_modifier(defender, attacker)]
    a_units, d_units = len(attacker.units), len(defender.units)
    game.log.add("cc_round", f"close combat {attacker.name} {totals[0]} vs {defender.name} {totals[1]}", dice=rolls, rule="RU-CC-11",
                 rolls=[round_die(rolls[0], totals, attacker, defender), round_die(rolls[1], totals[::-1], defender, attacker)])
    attacker.rounds += 1
    defender.rounds += 1
    if totals[0] == totals[1]:
        for group in (attacker, defender):          # RU-CC-12: OK units first
            pool = group.ok_units() or group.units
            fire.hit_unit(game, group, fire.random_unit(game, pool))
    else:
        winner, loser = (attacker, defender) if totals[0] > totals[1] else (defender, attacker)
        high, low = max(totals), min(totals)
        count = game.dice.two_d3() if low <= 0 or high >= 2 * low else game.dice.d3()
        game.log.add("cc_result", f"{winner.name} wins; {loser.name} takes {count} result(s)", rule="RU-CC-11")
        fire.spread_results(game, loser, count)
        promote_lone_winner(game, winner, d_units if winner is attacker else a_units)
    end_if_over(game, attacker, defender)


def promote_lone_winner(game, winner, foe_units: int) -> None:
    """RU-CC-16: a single unit winning a round against a larger group becomes Veteran."""
    if len(winner.units) == 1 and foe_units > 1 and winner.units[0].quality < 2 and game.veterans_possible(winner):
        winner.units[0].quality = 2
        winner.unit_changes += 1
        game.log.add("veteran", f"{winner.units[0].name} becomes Veteran", side=winner.side, rule="RU-CC-16")


def end_if_over(game, a, b) -> None:
    """RU-CC-13: the fight ends when a group is gone; the survivor keeps the position."""
    if a.alive and b.alive:
        return
    for group in (a, b):
        group.engaged_with, group.defending, group.rounds = -1, False, 0


def enemy_may_fight(game, group, target) -> bool:
    """RU-CC-18/19: every unit Pistol/Rifle/SMG/AR, at least as many units, First Floor only from its Stripe."""
    if not all(u.weapon in CC_ONLY_WEAPONS for u in group.units) or len(group.units) < len(target.units):
        return False
    return target.level == 0 or group.start_stripe == target.stripe
