"""Orders: the order choice, order tests, Rally, FUBAR with friendly fire and panic (catalog section 2)."""
from __future__ import annotations

from . import geometry, hidden
from .flow import Decision, answer, task
from .movement import panic_cells
from .state import ADVANCE, AMBUSH, DOWN, FIRE, ORDERS, RALLY, RUN
from .tasks import AfterMove, Carry, Declare, Fubar, OrderTest


@answer(Decision.ORDER)
def choose_order(game, ctx, name, index) -> None:
    unit = game.units[ctx["uid"]]
    order = ORDERS[index]
    game.log.add("order", f"{unit.name} is given {order}", unit.side, rule="KC-DEC-1", uid=unit.uid, order=order)
    game.push(OrderTest(unit.uid, order))


def morale(game, unit) -> int:
    """KC-TAB-1 morale; KC-WPN-2: a team down to one model has -1."""
    value = game.tables.quality[unit.quality][0]
    return value - 1 if unit.team and len(unit.models) == 1 else value


@task(OrderTest)
def order_test(game, uid: int, order: str) -> None:
    """KC-ORD-6/7/8/9, KC-ORD-5: Down needs no test; a pinned unit tests 2D6 <= morale - pins (Rally ignores pins)."""
    unit = game.units[uid]
    game.drawn = None                                      # the drawn die becomes this unit's order (KC-TURN-8)
    if order == DOWN or (unit.pins == 0 and order != RALLY):
        unit.order = order
        game.push(Carry(uid, order))
        return
    a, b = game.dice.d6(), game.dice.d6()
    target = morale(game, unit) - (0 if order == RALLY else unit.pins)
    if a == 6 and b == 6:                                  # KC-ORD-9
        unit.order = DOWN             # the order is lost; KC-TAB-6 decides what the die becomes
        game.log.add("fubar", f"{unit.name} rolls FUBAR", unit.side, (a, b), rule="KC-ORD-9")
        game.push(Fubar(uid))
        return
    if a == 1 and b == 1:                                  # KC-ORD-8: Incredible Courage
        unit.pins = 0
        unit.order = order
        game.log.add("courage", f"{unit.name} passes with double 1 and clears its pins", unit.side, (a, b), rule="KC-ORD-8",
                     **hidden.owner_only(game, unit))         # KC-HID-9: its own order tests show only the order
        game.push(Carry(uid, order))
        return
    if a + b <= target:
        if order != RALLY:
            unit.pins = max(0, unit.pins - 1)             # KC-ORD-7 (KC-ORD-5: Rally's removal replaces it)
        unit.order = order
        game.log.add("order_test", f"{unit.name} passes its order test", unit.side, (a, b), rule="KC-ORD-7",
                     **hidden.owner_only(game, unit))         # KC-HID-9, as above
        game.push(Carry(uid, order))
    else:
        unit.order = DOWN
        game.log.add("order_test", f"{unit.name} fails its order test and goes Down", unit.side, (a, b), rule="KC-ORD-7",
                     **hidden.owner_only(game, unit, public=f"{unit.name} goes Down"))   # KC-HID-9: the order only


@task(Carry)
def carry(game, uid: int, order: str) -> None:
    unit = game.units[uid]
    if order == FIRE:                                      # KC-ORD-1
        game.ask_target(unit, moved=False)
    elif order in (ADVANCE, RUN):                          # KC-ORD-2/3
        game.decide(Decision.MOVE, side=unit.side, uid=uid, order=order)
    elif order == RALLY:                                   # KC-ORD-5: a pass removes 1+D6 pins in total
        removed = 1 + game.dice.d6()
        unit.pins = max(0, unit.pins - removed)
        game.log.add("rally", f"{unit.name} rallies, removing {removed} pins", unit.side, (removed - 1,), rule="KC-ORD-5",
                     **hidden.owner_only(game, unit, public=f"{unit.name} rallies"))     # KC-HID-9: pins
    elif order == AMBUSH:                                  # KC-ORD-4
        game.log.add("ambush", f"{unit.name} waits in Ambush", unit.side, rule="KC-ORD-4")
    else:                                                  # KC-ORD-6
        game.log.add("down", f"{unit.name} goes Down", unit.side, rule="KC-ORD-6")


@task(Fubar)
def fubar(game, uid: int) -> None:
    """KC-TAB-6: 1-2 friendly fire (KC-ORD-10), 3-6 panic (KC-ORD-11)."""
    unit = game.units[uid]
    roll = game.dice.d6()
    result = next(r for top, r in game.tables.fubar if roll <= top)
    game.log.add("fubar_roll", f"{unit.name}: {result.replace('_', ' ')}", unit.side, (roll,), rule="KC-TAB-6")
    if result == "friendly_fire":
        hidden.reveal(game, unit, "it fires on its friends", "KC-HID-6")   # before the opponent may pick
        friends = friendly_targets(game, unit)
        if friends:
            unit.order = FIRE
            game.decide(Decision.FRIENDLY, side=1 - unit.side, uid=uid)   # KC-ORD-10: picked by the opponent
            return
        unit.order = DOWN
        game.log.add("down", f"{unit.name} has no friend to fire at and goes Down", unit.side, rule="KC-ORD-10")
        return
    panic(game, unit)


def friendly_targets(game, unit) -> list:
    """KC-ORD-10: visible friendly units in range of a weapon, with an enemy within 12" of them."""
    found = []
    for f in game.living():
        if f.side != unit.side or f is unit or geometry.same_building(game, unit, f):
            continue
        if not any(game.enemy_within(f, 12.0) for _ in (0,)):
            continue
        if game.weapons_reaching(unit, f):
            found.append(f)
    return found


@answer(Decision.FRIENDLY)
def friendly_answer(game, ctx, name, target, mode) -> None:
    unit = game.units[ctx["uid"]]
    game.log.add("friendly_fire", f"{unit.name} fires on {game.units[target].name}", 1 - unit.side, rule="KC-ORD-10")
    game.push(Declare(unit.uid, target, False))


def panic(game, unit) -> None:
    """KC-ORD-11: Run to the reachable cell farthest from the closest visible enemy; inside above floor 0 or no
    enemy seen or no move: Down."""
    cells = panic_cells(game, unit)
    if not cells:
        unit.order = DOWN
        game.log.add("panic", f"{unit.name} panics and goes Down", unit.side, rule="KC-ORD-11")
        return
    unit.order = RUN
    game.move_unit(unit, cells[0], rule="KC-ORD-11")
    game.push(AfterMove(unit.uid, RUN))
