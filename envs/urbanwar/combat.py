"""Shooting and cover (UW-SHOOT-1..11, UW-COVER-1..6), close combat (UW-CC-1..13) and the specials that act in
them (UW-SPEC-2, -4..6), with the natural results of UW-DICE-1/2."""
from __future__ import annotations

from envs.engine.d10 import natural_test, plain_test

from . import command
from . import geometry as geo


def heavy_armour_ignores(game, target) -> bool:
    """UW-SPEC-2: per hit, d10 + N >= 10 ignores it (no natural result, UW-DICE-2)."""
    n = target.profile.heavy_armour
    if not n:
        return False
    roll = plain_test(game.dice, n, 10)
    game.log.add("heavy_armour", f"{target.id} heavy armour {roll.face}+{n}: {'ignored' if roll.success else 'no'}",
                 target.side, [roll.face], rule="UW-SPEC-2")
    return roll.success


def wound(game, target, rule: str) -> None:
    """UW-SHOOT-11: each unsaved wound removes 1 W; at 0 W the model is removed at once."""
    target.w -= 1
    game.log.add("wound", f"{target.id} loses a wound ({target.w} left)", target.side, rule=rule)
    if target.w <= 0:
        game.remove(target)


def to_hit_modifier(game, shooter, target, *, moved: bool, panicked: bool, disruption: bool = False) -> int:
    """UW-SHOOT-8: what is added to the d10 (a hit on 10 or more): SH, the weapon's band modifier (UW-STAT-3/6),
    a big target, moving, panic."""
    band = geo.band_of(game.tables.bands, shooter.cell, target.cell)
    mod = game.tables.weapons[shooter.profile.ranged].bands[band][0]
    drm = shooter.profile.SH + mod
    drm += 1 if target.profile.SZ >= 4 else 0                                   # UW-SHOOT-9
    drm += game.tables.bands[band - 1].moved if moved and not disruption else 0   # UW-ACT-5, UW-OW-8
    drm -= 2 if panicked else 0                                                 # UW-PANIC-6
    return drm


def shoot(game, shooter, target, *, moved: bool, panicked: bool, disruption: bool = False) -> None:
    """UW-SHOOT-1, UW-SHOOT-8..11: to-hit, heavy armour, damage, cover save, wounds; panic checks after
    (UW-PANIC-5). UW-STAT-8: the natural results are implemented from the rules though the placeholders never
    need them."""
    band = geo.band_of(game.tables.bands, shooter.cell, target.cell)
    _mod, ndice, strength, rolls = game.tables.weapons[shooter.profile.ranged].bands[band]
    drm = to_hit_modifier(game, shooter, target, moved=moved, panicked=panicked, disruption=disruption)
    toughness = target.profile.T + (1 if target.profile.battleshield else 0)    # UW-SPEC-4
    cover = geo.cover_class(game.board, shooter.cell, target.cell)
    save = {geo.SOLID: game.tables.cover_saves["solid"], geo.FLIMSY: game.tables.cover_saves["flimsy"]}.get(cover)
    start_cell, hit_idx = target.cell, set()
    for _ in range(ndice):                                                      # UW-STAT-4
        if not target.alive:
            break
        hit = natural_test(game.dice, drm, 10)                                  # UW-SHOOT-8, UW-DICE-1
        game.log.add("to_hit", f"{shooter.id} shoots {target.id}: {hit.face}{drm:+d} {'hit' if hit.success else 'miss'}",
                     shooter.side, [hit.face], rule="UW-SHOOT-8")
        if not hit.success or heavy_armour_ignores(game, target):
            continue
        for _ in range(rolls):                                                  # UW-STAT-5
            if not target.alive:
                break
            dmg = natural_test(game.dice, strength - toughness, 6)              # UW-SHOOT-10
            game.log.add("damage", f"damage {dmg.face}{strength - toughness:+d}: {'wound' if dmg.success else 'none'}",
                         shooter.side, [dmg.face], rule="UW-SHOOT-10")
            if not dmg.success:
                continue
            if save is not None:                                                # UW-COVER-1/4/5
                cs = plain_test(game.dice, 0, save)
                game.log.add("cover_save", f"{target.id} cover save {cs.face} (needs {save}): "
                             f"{'saved' if cs.success else 'failed'}", target.side, [cs.face],
                             rule="UW-COVER-4" if cover == geo.SOLID else "UW-COVER-5")
                if cs.success:
                    continue
            hit_idx.add(target.idx)
            wound(game, target, "UW-SHOOT-11")
    deaths = [(target.idx, start_cell)] if not target.alive else []
    command.panic_checks(game, command.triggers_after(game, deaths, hit_idx))


# Close combat ---------------------------------------------------------------------------------------------------------
def shield_bonus(game, m, enemy) -> int:
    """UW-SPEC-5, UW-SPEC-6: +1 T against the first enemy it fights; the bonus passes on when that one dies or leaves."""
    if not m.profile.battleshield:
        return 0
    guarded = game.models[m.shield_enemy] if m.shield_enemy >= 0 else None
    if guarded is None or not guarded.placed or not geo.contact(guarded.cell, m.cell):
        m.shield_enemy = enemy.idx
    return 1 if m.shield_enemy == enemy.idx else 0


def strike(game, a, d, *, charged: bool, panicked: bool) -> tuple[int, int]:
    """One side's strikes: (hits not ignored by heavy armour, wounds) against d (applied by the caller)."""
    weapon = game.tables.weapons[a.profile.cc]
    mod, ndice, strength, rolls = weapon.bands[0]
    # UW-CC-6, UW-CC-7 (+1 for a charger), UW-PANIC-6; UW-STAT-6: the profile's one CC weapon, no choice to make
    drm = a.profile.AS - d.profile.AS + mod + (1 if charged else 0) - (2 if panicked else 0)
    toughness = d.profile.T + shield_bonus(game, d, a)
    hits = wounds = 0
    for _ in range(ndice):
        hit = natural_test(game.dice, drm, 6)
        game.log.add("cc_hit", f"{a.id} strikes {d.id}: {hit.face}{drm:+d} {'hit' if hit.success else 'miss'}",
                     a.side, [hit.face], rule="UW-CC-6")
        if not hit.success or heavy_armour_ignores(game, d):
            continue
        hits += 1
        for _ in range(rolls):
            dmg = natural_test(game.dice, strength - toughness + (1 if charged else 0), 6)   # UW-CC-8, UW-CC-9
            game.log.add("cc_damage", f"damage {dmg.face}: {'wound' if dmg.success else 'none'}", a.side, [dmg.face],
                         rule="UW-CC-8")
            wounds += dmg.success
    return hits, wounds


def apply_wounds(game, m, count: int) -> None:
    for _ in range(count):
        if m.alive:
            wound(game, m, "UW-CC-8")


def fights_back(game, attacker, target) -> bool:
    """UW-CC-2: the target replies only to the first enemy that attacked it this turn; a face-down replier is
    revealed and an Overwatch one spent (UW-CC-3, UW-HID-3)."""
    if target.first_enemy not in (-1, attacker.idx):
        return False
    target.first_enemy = attacker.idx
    game.turn_face_up_fighter(target)
    return True


def first_strike(game, m, charged: bool) -> int:
    """UW-CC-4: FS + the CC weapon's bonus (UW-STAT-7) + 3 for a charge; UW-STAT-2: the listed FS already holds
    +1 per CAL, so CAL is not added again."""
    return m.profile.FS + game.tables.weapons[m.profile.cc].fs + (3 if charged else 0)


def close_combat(game, attacker, target, *, a_charged: bool, t_charged: bool, a_panicked: bool) -> None:
    """UW-CC-1..10: one attacker against one target."""
    replies = fights_back(game, attacker, target)
    t_panicked = target.panic                                                   # UW-PANIC-10
    cells = {attacker.idx: attacker.cell, target.idx: target.cell}
    fa, ft = first_strike(game, attacker, a_charged), first_strike(game, target, t_charged)
    game.log.add("close_combat", f"{attacker.id} fights {target.id} (first strike {fa} against {ft})", attacker.side,
                 rule="UW-CC-4")
    taken = {attacker.idx: 0, target.idx: 0}
    if not replies or fa > ft:
        h, w = strike(game, attacker, target, charged=a_charged, panicked=a_panicked)
        taken[target.idx] += h
        apply_wounds(game, target, w)
        if replies and target.alive:
            h, w = strike(game, target, attacker, charged=t_charged, panicked=t_panicked)
            taken[attacker.idx] += h
            apply_wounds(game, attacker, w)
    elif ft > fa:
        h, w = strike(game, target, attacker, charged=t_charged, panicked=t_panicked)
        taken[attacker.idx] += h
        apply_wounds(game, attacker, w)
        if attacker.alive:
            h, w = strike(game, attacker, target, charged=a_charged, panicked=a_panicked)
            taken[target.idx] += h
            apply_wounds(game, target, w)
    else:                                                                       # UW-CC-5: simultaneous
        ha, wa = strike(game, attacker, target, charged=a_charged, panicked=a_panicked)
        ht, wt = strike(game, target, attacker, charged=t_charged, panicked=t_panicked)
        taken[target.idx] += ha
        taken[attacker.idx] += ht
        apply_wounds(game, target, wa)
        apply_wounds(game, attacker, wt)
    loser = -1
    if attacker.alive and target.alive and taken[attacker.idx] != taken[target.idx]:   # UW-CC-10
        loser = attacker.idx if taken[attacker.idx] > taken[target.idx] else target.idx
        game.log.add("cc_result", f"{game.models[loser].id} loses the close combat", game.models[loser].side,
                     rule="UW-CC-10")
    deaths = [(i, c) for i, c in cells.items() if not game.models[i].alive]
    hurt = {i for i, n in taken.items() if n}
    command.panic_checks(game, command.triggers_after(game, deaths, hurt, loser))


def free_strikes(game, breaker) -> None:
    """UW-CC-13: each enemy in contact (roster order) strikes once: no first strike, result or fight-back limit;
    a face-down striker counts as fighting back (UW-CC-3, UW-HID-3)."""
    start = breaker.cell
    hurt = set()
    for e in game.enemies_in_contact(breaker):
        if not breaker.alive:
            break
        game.turn_face_up_fighter(e)
        h, w = strike(game, e, breaker, charged=False, panicked=e.panic)
        game.log.add("free_strike", f"{e.id} strikes {breaker.id} breaking off", e.side, rule="UW-CC-13")
        if h:
            hurt.add(breaker.idx)
        apply_wounds(game, breaker, w)
    deaths = [(breaker.idx, start)] if not breaker.alive else []
    command.panic_checks(game, command.triggers_after(game, deaths, hurt))
