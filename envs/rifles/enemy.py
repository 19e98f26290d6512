"""The Enemy Phase: activation order, orders and their execution (RB-TURN-5, RB-AI-*, RU-AI-*, RU-CC-17..19).

Every choice the automaton makes is a decision of the enemy side (rules catalog §13, *agent:*); the
scripted policy in agents/scripted/rifles.py answers them as the automaton would.
"""
from __future__ import annotations

from envs.engine.events import roll

from . import closecombat, fire, geometry, morale, movement
from .flow import Decision, answer, task
from .state import FIRST, GROUND, OPEN
from .tasks import (
    END_PHASE,
    ENEMY_NEXT,
    Advance,
    Attack,
    CloseCombat,
    Cover,
    CoverFire,
    EnemyAct,
    EnemyNext,
    EnemyPhase,
    MoveUp,
    MsFloor,
    Order,
    Place,
)

ORDER_NAMES = ("cover", "attack", "advance", "close_combat")


def visible_players(game) -> list:
    """RB-HID-3: groups in the sewer count for no target, distance or 'nearest'."""
    return [g for g in game.players if g.units and not g.exited and not g.in_sewer]     # Group.on_map as fields


def nearest_distance(game, group, visible=None) -> int:
    """Range to the nearest of `visible` (default: the visible player groups), 99 if none."""
    visible = visible_players(game) if visible is None else visible
    return min((geometry.group_distance(game, group, p) for p in visible), default=99)


def activation_key(game, group, visible=None) -> tuple:
    """RB-AI-2: Engaged first, then distance to the nearest visible player group, lower Stripe, lower ID.

    `visible`: the visible player groups, when the caller already has them (a sort asks for every group)."""
    return (not group.engaged, nearest_distance(game, group, visible), group.stripe, group.gid)


@task(EnemyPhase)
def enemy_phase(game) -> None:
    game.phase = "enemy"
    game.enemy_orders = {}                               # the last Enemy Phase's orders are cleared
    for group in game.enemies:
        group.activated = False
    game.push(ENEMY_NEXT)


@task(EnemyNext)
def enemy_next(game) -> None:
    """RB-TURN-5: each revealed enemy group activates once; the choice of which is the enemy's (RB-AI-2).

    RB-EM-4: markers are not groups, so only revealed groups act. RB-MOVE-3: enemy groups spend no AP
    and move only by their order (or RB-AI-5 placement, RU-AI-2/3/4).
    """
    waiting = [g for g in game.enemies if g.units and not g.exited and not g.activated]   # on_map as fields
    if not waiting:
        game.push(END_PHASE)
        return
    if len(waiting) > 1:
        visible = visible_players(game)
        waiting.sort(key=lambda g: activation_key(game, g, visible))
    game.decide(Decision.ACTIVATE, options=[g.gid for g in waiting])


@answer(Decision.ACTIVATE)
def activate_answer(game, ctx, slot: int) -> None:
    group = game.enemies[slot]
    group.activated, group.fired, group.fought, group.start_stripe = True, False, False, group.stripe
    game.push(EnemyAct(slot), ENEMY_NEXT)


@task(EnemyAct)
def enemy_act(game, slot: int) -> None:
    """RB-AI-3: an Engaged group fights a round; otherwise it rolls its order (RB-AI-4)."""
    group = game.enemies[slot]
    if not group.on_map:
        return
    if group.engaged:
        closecombat.fight_round(game, group, game.players[group.engaged_with])
        return
    game.push(*game.module.enemy_order_tasks(game, group))


def roll_order(game, group) -> list:
    """RB-AI-4: d6 + posture on RB-TAB-7; a choice of the enemy side under RB-AI-1."""
    if game.options["enemy_rolls_as_choices"]:
        game.decide(Decision.ORDER, group=group.gid)
        return []
    die = game.dice.d6()
    total = die + game.scenario.posture
    order = next(o for top, o in game.tables.enemy_orders if total <= top)
    game.log.add("order", f"{group.name} order: {order}", side=1, dice=(die,), rule="RB-AI-4",
                 rolls=[roll((die,), order, table=f"the enemy order table, posture {game.scenario.posture:+d}")])
    return [Order(group.gid, ORDER_NAMES.index(order))]


@answer(Decision.ORDER)
def order_answer(game, ctx, order: int) -> None:
    """RB-AI-1: the chosen order is carried out by the module's order task (RB-AI-7..10, or RD-AI-2)."""
    game.push(game.module.order_task(ctx["group"], order))


def in_sealed_building(game, group) -> bool:
    f = geometry.feature(game, group.stripe, group.place)
    return f is not None and f.sealed


@task(Order)
def execute_order(game, slot: int, order: int) -> None:
    """RB-AI-7..10; RU-AI-5 binds groups in a Sealed Building; RU-CC-18 turns an ineligible Close Combat into @Attack."""
    group = game.enemies[slot]
    game.enemy_orders[slot] = order                      # RB-HID-1: the order die (or RB-AI-1 choice) is public
    name = ORDER_NAMES[order]
    sealed = in_sealed_building(game, group)
    if sealed and name in ("advance", "close_combat"):
        name = "attack"
    if name == "close_combat" and not all(u.weapon in closecombat.CC_ONLY_WEAPONS for u in group.units):
        name = "attack"
    if name == "cover":
        game.push(MoveUp(slot), Cover(slot, int(sealed)))
    elif name == "attack":
        game.push(MoveUp(slot), Attack(slot, 0))
    elif name == "advance":
        game.push(Advance(slot))
    else:
        game.push(CloseCombat(slot))


@task(MoveUp)
def move_up(game, slot: int) -> None:
    """RU-AI-3: on an MS Ground Floor with @Cover or @Attack, first move up, free (the enemy may decline)."""
    group = game.enemies[slot]
    if group.level == GROUND and geometry.kind_at(game, group.stripe, group.place) == "ms" \
            and not geometry.groups_at(game.players, group.stripe, group.place, FIRST):
        game.decide(Decision.MOVE_UP, group=slot)


@answer(Decision.MOVE_UP)
def move_up_answer(game, ctx, yes: bool) -> None:
    if yes:
        movement.set_level(game, game.enemies[ctx["group"]], FIRST)


def targets(game, group, units=None) -> list:
    """Visible player groups some shooter reaches (of `units`, when given), ordered per RB-AI-6: nearest, lowest TN,
    lower ID."""
    found = [target for target in visible_players(game) if fire.has_shooter(game, group, target, units=units)]
    if len(found) <= 1:                                   # nothing to order: no range or TN to work out
        return [target.gid for target in found]
    keys = sorted((geometry.group_distance(game, group, target), fire.lowest_tn(game, group, target, units), target.gid)
                  for target in found)
    return [gid for _, _, gid in keys]


@task(Attack)
def attack(game, slot: int, drm: int) -> None:
    """RB-AI-7: Fire at the target; none in range: @Advance (not for a group bound by RU-AI-5)."""
    group = game.enemies[slot]
    options = targets(game, group)
    if options:
        game.decide(Decision.TARGET, group=slot, options=options, mode="fire", drm=drm)
    elif not in_sealed_building(game, group):
        game.push(Advance(slot))


@task(Cover)
def cover(game, slot: int, sealed: int) -> None:
    """RB-AI-8: move to a better free feature on its Stripe, Suppressed units rally, OK units fire at -1.

    The move comes first with its MS floor roll (RU-AI-2, pushed by take_better_cover), then the rally and fire.
    """
    game.push(CoverFire(slot))
    if not sealed:
        take_better_cover(game, game.enemies[slot])


@task(CoverFire)
def cover_fire(game, slot: int) -> None:
    """RB-AI-8 after the move: Suppressed units test to rally; the units already OK fire at -1 DRM."""
    group = game.enemies[slot]
    if not group.on_map:
        return
    already_ok = group.ok_units()
    for unit in [u for u in group.units if u.suppressed]:
        if morale.check(game, unit.quality, 0, f"rally {unit.name}"):
            unit.hits = 0
            group.unit_changes += 1
    options = targets(game, group, set(already_ok))
    if options:
        game.decide(Decision.TARGET, group=slot, options=options, mode="cover_fire", drm=-1, units=[u.name for u in already_ok])


def take_better_cover(game, group) -> None:
    here = geometry.priority_rank(game, group.stripe, group.place, 1)
    options = [p for p in movement.enemy_places(game, group.stripe) if p != group.place]
    if not options:
        return
    best = movement.best_place(game, group.stripe, options)
    if geometry.priority_rank(game, group.stripe, best, 1) < here:
        movement.relocate(game, group, group.stripe, best, GROUND)
        game.log.add("cover", f"{group.name} takes cover in {game.place_name(group.stripe, best)}", side=1, rule="RB-AI-8")
        if geometry.kind_at(game, group.stripe, best) == "ms":
            game.push(MsFloor(group.gid))


@answer(Decision.TARGET)
def target_answer(game, ctx, target_slot: int) -> None:
    group, target = game.enemies[ctx["group"]], game.players[target_slot]
    if ctx["mode"] in ("fire", "cover_fire"):
        game.module.enemy_fire(game, group, target, ctx)
    else:
        game.module.enemy_close_combat(game, group, target, ctx)


def advance_options(game, group) -> list[int]:
    """RB-AI-9 agent choices: stay, or an adjacent Stripe nearer some visible player group (none: toward Stripe 1)."""
    visible = visible_players(game)
    deltas = [0]
    for delta in (-1, 1):
        stripe = group.stripe + delta
        if not 1 <= stripe <= len(game.places) - 1:
            continue
        if visible and any(abs(stripe - p.stripe) < abs(group.stripe - p.stripe) for p in visible):
            deltas.append(delta)
        elif not visible and delta == -1:
            deltas.append(delta)
    return deltas


@task(Advance)
def advance(game, slot: int) -> None:
    group = game.enemies[slot]
    game.decide(Decision.ADVANCE, group=slot, options=advance_options(game, group))


@answer(Decision.ADVANCE)
def advance_answer(game, ctx, delta: int) -> None:
    if delta:
        enter_stripe(game, game.enemies[ctx["group"]], delta)


def enter_stripe(game, group, delta: int) -> None:
    """RB-AI-9 move; RU-AI-4 a group inside a complex moves through it keeping its level, else RB-AI-5 placement."""
    partner = geometry.complex_partner(game, group.stripe, group.place)
    if partner is not None and partner.stripe == group.stripe + delta \
            and not geometry.groups_at(game.players, partner.stripe, partner.place, group.level):
        game.decide(Decision.THROUGH_COMPLEX, group=group.gid, delta=delta)
        return
    stripe = group.stripe + delta
    movement.relocate(game, group, stripe, OPEN, GROUND)
    game.log.add("advance", f"{group.name} advances to Stripe {stripe}", side=1, rule="RB-AI-9")
    game.push(Place(group.gid, stripe))


@answer(Decision.THROUGH_COMPLEX)
def through_complex_answer(game, ctx, yes: bool) -> None:
    group = game.enemies[ctx["group"]]
    if yes:
        partner = geometry.complex_partner(game, group.stripe, group.place)
        movement.relocate(game, group, partner.stripe, partner.place, group.level)
        game.log.add("advance", f"{group.name} moves through the complex to {partner.fid}", side=1, rule="RU-AI-4")
        return
    stripe = group.stripe + ctx["delta"]
    movement.relocate(game, group, stripe, OPEN, GROUND)
    game.push(Place(group.gid, stripe))


def cc_targets(game, group) -> list[int]:
    """RB-AI-10: eligible player groups at range 0, else at range 1; fewest units, lower ID; never Engaged."""
    for wanted in (0, 1):
        found = [p for p in visible_players(game) if not p.engaged
                 and geometry.group_distance(game, group, p) == wanted
                 and geometry.groups_see(game, group, p)
                 and not in_sealed_building(game, p) and closecombat.enemy_may_fight(game, group, p)]
        if found:
            return [p.gid for p in sorted(found, key=lambda p: (len(p.units), p.gid))]
    return []


@task(CloseCombat)
def close_combat_order(game, slot: int) -> None:
    """RU-CC-17: under a Close Combat order, no morale check; no eligible target: @Attack."""
    group = game.enemies[slot]
    options = cc_targets(game, group)
    if options:
        game.decide(Decision.TARGET, group=slot, options=options, mode="close_combat", drm=0)
    else:
        game.push(MoveUp(slot), Attack(slot, 0))
