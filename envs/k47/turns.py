"""Turns: the shared order-dice bag, the draw, the turn end with kept dice, the random 7th turn (catalog section 2)."""
from __future__ import annotations

from envs.engine.orderbag import OrderBag

from . import hidden
from .flow import Decision, answer, task
from .state import AMBUSH, DOWN
from .tasks import Draw, EndTurn, KeepNext, StartTurn, TurnOver


@task(StartTurn)
def start_turn(game) -> None:
    """KC-TURN-1: one die per surviving unit, except units holding a kept die."""
    for u in game.units:
        u.moved = False
        if not u.kept:
            u.order = None
    counts = [0] * len(game.scenario.side_names)
    for u in game.living():
        if not u.kept:
            counts[u.side] += 1
    game.bag = OrderBag.filled(counts)
    game.log.add("turn", f"turn {game.turn}: {counts[0]} + {counts[1]} dice in the bag", rule="KC-TURN-1")
    game.push(Draw())


@task(Draw)
def draw(game) -> None:
    """KC-TURN-2/4: draw one die; its side orders one of its unordered units. Empty bag: the turn ends."""
    if game.bag.empty:
        game.push(EndTurn())
        return
    before = len(game.dice.log)
    side = game.bag.draw(game.dice)
    game.drawn = side
    rolled = tuple(f for _, f in game.dice.log[before:])
    game.log.add("draw", f"{game.scenario.side_names[side]} die drawn", side, rolled, rule="KC-TURN-2")
    if not eligible(game, side):
        # KC-TURN-3: a safeguard; KC-TURN-8 keeps the bag equal to the unordered units, so this never fires.
        game.log.add("set_aside", "no unit to order: the die is set aside", side, rule="KC-TURN-3")
        game.push(Draw())
        return
    game.push(Draw())
    game.decide(Decision.UNIT, side=side)


def eligible(game, side: int) -> list:
    """KC-TURN-2 / KC-TURN-6: units of `side` with no order this turn, or holding a kept die."""
    return [u for u in game.units if u.alive and u.side == side and (u.order is None or u.kept)]


@answer(Decision.UNIT)
def choose_unit(game, ctx, name, uid) -> None:
    unit = game.units[uid]
    if unit.kept:   # KC-TURN-6: the kept die goes back to the bag; the drawn die re-orders the unit
        unit.kept, unit.order = False, None
        game.bag.put(unit.side)
        game.log.add("reorder", f"{unit.name} gives up its kept die", unit.side, rule="KC-TURN-6")
    game.decide(Decision.ORDER, side=unit.side, uid=uid)


@task(EndTurn)
def end_turn(game) -> None:
    """KC-TURN-5/9: each Down or Ambush die may be kept; side A decides first, then side B, by unit id."""
    game.pending_keep = {}
    game.push(KeepNext(-1))


def keepers(game) -> list:
    """KC-TURN-9: the Down/Ambush units in decision order (side A's by id, then side B's)."""
    return sorted((u for u in game.living() if u.order in (DOWN, AMBUSH)), key=lambda u: (u.side, u.uid))


@task(KeepNext)
def keep_next(game, after: int) -> None:
    order = keepers(game)
    if after + 1 >= len(order):
        game.push(TurnOver())
        return
    unit = order[after + 1]
    game.decide(Decision.KEEP, side=unit.side, uid=unit.uid, index=after + 1)


@answer(Decision.KEEP)
def keep_answer(game, ctx, name) -> None:
    # KC-TURN-9: the choice is recorded unseen by the other side until every choice is made
    game.pending_keep[str(ctx["uid"])] = name == "yes"
    game.push(KeepNext(ctx["index"]))


@task(TurnOver)
def turn_over(game) -> None:
    """KC-TURN-9: choices become public; each kept Down unit sheds D3 pins (A's then B's by id). KC-TURN-7."""
    keeping = keepers(game)
    ids = {u.uid for u in keeping}      # by id: `in` on the list compares units field by field
    for u in game.units:
        if u.uid not in ids:
            u.kept = False
    for u in keeping:
        keep = game.pending_keep.get(str(u.uid), False)
        u.kept = keep
        game.log.add("keep" if keep else "return", f"{u.name} {'keeps' if keep else 'returns'} its {u.order} die",
                     u.side, rule="KC-TURN-5")
        if keep and u.order == DOWN and u.pins:
            shed = game.dice.d3()
            u.pins = max(0, u.pins - shed)
            game.log.add("shed_pins", f"{u.name} stays Down and removes {shed} pins", u.side,
                         (game.dice.log[-1][1],), rule="KC-TURN-5", **hidden.owner_only(game, u))   # KC-HID-9: pins
    game.pending_keep = {}
    if game.turn < game.scenario.turns:
        next_turn(game)
    elif game.turn == game.scenario.turns:
        roll = game.dice.d6()
        extra = roll >= game.scenario.extra_turn_on
        game.log.add("extra_turn", "a final turn is played" if extra else "the game ends", dice=(roll,), rule="KC-TURN-7")
        if extra:
            next_turn(game)
        else:
            game.end_by_points()
    else:
        game.end_by_points()


def next_turn(game) -> None:
    game.turn += 1
    game.push(StartTurn())
