"""Set-up (UW-SETUP-1..6), the turn sequence (UW-TURN-1..12), initiative and alternation, victory at the limit."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from envs.engine.derived import BoundedStore
from envs.engine.secret_orders import SecretOrders

from . import config
from .actions import CODEC
from .flow import Decision, answer, task
from .tasks import AskOrder, BeginAction, Deploy, Initiative, NextActivation, RollOff, TurnEnd, TurnStart

SNAP, OVERWATCH = 0, 1


def roll_off(game, rule: str, modifiers=(0, 0)) -> int:
    """A d10 each, the higher total wins, ties re-rolled (UW-SETUP-2, UW-TURN-6; no natural results, UW-DICE-2)."""
    while True:
        a, b = game.dice.d10(), game.dice.d10()
        ta, tb = a + modifiers[0], b + modifiers[1]
        game.log.add("roll_off", f"roll-off: A {a}{modifiers[0]:+d} = {ta}, B {b}{modifiers[1]:+d} = {tb}", None,
                     [a, b], rule=rule)
        if ta != tb:
            return 0 if ta > tb else 1


@task(RollOff)
def run_roll_off(game) -> None:
    """UW-SETUP-2/3/6: the roll-off; the winner may pick an edge (flag), the loser decides who deploys first."""
    game.rolloff_winner = roll_off(game, "UW-SETUP-2")
    if game.options["choose_edges"]:
        game.decide(Decision.EDGE, game.rolloff_winner, [CODEC.encode("edge", 0), CODEC.encode("edge", 1)])
    else:
        ask_deploy_first(game)


def ask_deploy_first(game) -> None:
    loser = 1 - game.rolloff_winner                                     # UW-SETUP-3
    game.decide(Decision.DEPLOY_FIRST, loser, [CODEC.encode("deploy_first", 0), CODEC.encode("deploy_first", 1)])


@answer(Decision.EDGE)
def on_edge(game, ctx, name, edge) -> None:
    side = ctx["side"]
    game.edges[side] = config.EDGES[edge]
    game.edges[1 - side] = config.EDGES[1 - edge]
    game.log.add("edge", f"{game.scenario.sides[side].name} takes the {game.edges[side]} edge", side, rule="UW-SETUP-2")
    ask_deploy_first(game)


@answer(Decision.DEPLOY_FIRST)
def on_deploy_first(game, ctx, name, choice) -> None:
    first = ctx["side"] if choice == 0 else 1 - ctx["side"]
    game.log.add("deploy_first", f"{game.scenario.sides[first].name} deploys first", ctx["side"], rule="UW-SETUP-3")
    game.push(Deploy(first))


DEPLOY_AT = CODEC.offset("deploy")


def deploy_mask(game, side: int) -> np.ndarray:
    """UW-SETUP-5: passable, empty cells within 6" of the own edge, as deploy actions (x, row from the edge) in a
    mask: the zone's (`deploy_places`) less the few cells models stand on (a cell is taken iff a model's cell is
    there and game.occ holds it)."""
    edge = game.edges[side]
    zone = DEPLOY_PLACES.get((game.board.key, edge), deploy_places, game.board, edge)
    mask, occ, action_at = zone.mask.copy(), game.occ, zone.action_at
    for m in game.models:
        cell = m.cell
        if cell >= 0 and occ[cell] >= 0 and cell in action_at:
            mask[action_at[cell]] = False
    return mask


def deploy_cells(game, side: int) -> list[int]:
    """`deploy_mask`'s deploy actions, in order."""
    return np.flatnonzero(deploy_mask(game, side)).tolist()


#: process-wide (envs.engine.derived.BoundedStore): (a board's digest, an edge) -> `deploy_places`, public terrain
DEPLOY_PLACES = BoundedStore("urbanwar deploy places", 64)


@dataclass(frozen=True)
class DeployZone:
    """The passable cells within 6" of an edge (`places`: each with its deploy action, rows from the edge outwards),
    and their actions as a read-only mask and by cell (what `places` fixes: left out of comparisons)."""
    places: tuple[tuple[int, int], ...]
    mask: np.ndarray = field(compare=False)
    action_at: dict[int, int] = field(compare=False)


def deploy_places(board, edge: str) -> DeployZone:
    """The passable cells within 6" of `edge`, each with its deploy action, rows from the edge outwards."""
    out = []
    for r in range(config.DEPLOY_ROWS):
        y = r if edge == "north" else config.SIZE - 1 - r
        for x in range(config.SIZE):
            cell = y * config.SIZE + x
            if board.passable[cell]:
                out.append((cell, DEPLOY_AT + x * config.DEPLOY_ROWS + r))
    mask = np.zeros(CODEC.size, dtype=bool)
    mask[[action for _, action in out]] = True
    mask.flags.writeable = False
    return DeployZone(tuple(out), mask, dict(out))


def next_undeployed(game, side: int):
    return next((m for m in game.side_models(side) if m.cell < 0 and m.alive), None)


@task(Deploy)
def run_deploy(game, side) -> None:
    """UW-SETUP-4: alternate, one model at a time (roster order); a side with none left lets the other go on."""
    if next_undeployed(game, side) is None:
        side = 1 - side
        if next_undeployed(game, side) is None:
            game.deployed = True
            game.push(TurnStart())
            return
    m = next_undeployed(game, side)
    game.decide_by_mask(Decision.DEPLOY, side, deploy_mask(game, side), model=m.idx)


@answer(Decision.DEPLOY)
def on_deploy(game, ctx, name, x, r) -> None:
    side = ctx["side"]
    m = game.models[ctx["model"]]
    y = r if game.edges[side] == "north" else config.SIZE - 1 - r
    game.place(m, y * config.SIZE + x)
    game.log.add("deployed", f"{m.id} deploys at ({x},{y})", side, rule="UW-SETUP-5")
    game.push(Deploy(1 - side))


@task(TurnStart)
def run_turn_start(game) -> None:
    """UW-TURN-1..5: marker phase, then orders: face-up Snap-fire in contact, face-down choices A then B."""
    game.log.add("turn", f"turn {game.turn}", None, rule="UW-TURN-1")
    slots = []
    contact = []
    for m in game.models:
        m.activated, m.first_enemy = False, -1                          # UW-TURN-2 (panic counters stay)
        if m.placed:
            (contact if game.in_contact(m) else slots).append(m)
    game.orders = SecretOrders([(m.side, m.idx) for m in slots])        # UW-TURN-5: roster order, A then B
    for m in contact:
        game.orders.place_face_up(m.side, m.idx, SNAP)                  # UW-TURN-3
        game.log.add("order", f"{m.id} is in contact: face-up Snap-fire", m.side, rule="UW-TURN-3")
    game.push(AskOrder())


@task(AskOrder)
def run_ask_order(game) -> None:
    """UW-TURN-4, UW-HID-5: the next slot of the fixed sequence; the answer stays sealed."""
    pending = game.orders.pending()
    if pending is None:
        game.log.add("orders_done", "every order is placed", None, rule="UW-TURN-4")
        game.push(Initiative())
        return
    side, idx = pending
    game.decide(Decision.ORDER, side, [CODEC.encode("order", 0), CODEC.encode("order", 1)], model=idx)


@answer(Decision.ORDER)
def on_order(game, ctx, name, value) -> None:
    game.orders.choose(value)
    game.log.add("order", f"{game.models[ctx['model']].id} gets a face-down order", ctx["side"], rule="UW-TURN-4")
    game.push(AskOrder())


def commander_down(game, side: int) -> bool:
    """UW-TURN-7: the commander is panicked or dead."""
    return any(m.commander and (not m.alive or m.panic) for m in game.side_models(side))


@task(Initiative)
def run_initiative(game) -> None:
    """UW-TURN-6..8 (UW-SETUP-6: turn 1 uses the start-of-game roll)."""
    if game.turn == 1:
        winner = game.rolloff_winner
        game.log.add("initiative", f"{game.scenario.sides[winner].name} has the initiative (start-of-game roll)", winner,
                     rule="UW-SETUP-6")
    else:
        mods = tuple(-1 if commander_down(game, s) else 0 for s in (0, 1))
        winner = roll_off(game, "UW-TURN-6", mods)
    game.decide(Decision.INITIATIVE, winner, [CODEC.encode("initiative", 0), CODEC.encode("initiative", 1)])


@answer(Decision.INITIATIVE)
def on_initiative(game, ctx, name, choice) -> None:
    first = ctx["side"] if choice == 0 else 1 - ctx["side"]
    game.log.add("first", f"{game.scenario.sides[first].name} activates first", ctx["side"], rule="UW-TURN-8")
    game.push(NextActivation(first))


def candidates(game, side: int) -> list:
    return [m for m in game.side_models(side) if game.can_activate(m)]


@task(NextActivation)
def run_next_activation(game, side) -> None:
    """UW-TURN-9/11/12: the side activates one Snap-fire model; a side with none is skipped; none at all ends it."""
    chosen = candidates(game, side)
    if not chosen:
        chosen = candidates(game, 1 - side)
        if chosen:
            game.log.add("skipped", f"{game.scenario.sides[side].name} has no Snap-fire model left", side,
                         rule="UW-TURN-11")
            side = 1 - side
        else:
            end_turn(game)
            return
    game.decide(Decision.ACTIVATE, side, [CODEC.encode("activate", m.slot) for m in chosen],
                always_ask=hides_overwatch(game, side, chosen))


def hides_overwatch(game, side: int, chosen: list) -> bool:
    """UW-HID-2, UW-HID-4: with one Snap-fire model left and other face-down models beside it, activating it unasked
    (UW-DEC-9) would show the other side that those models are on Overwatch before UW-HID-4 makes it public."""
    return len(chosen) == 1 and any(m is not chosen[0] and m.placed and not m.activated and game.face_down(m)
                                    for m in game.side_models(side))


@answer(Decision.ACTIVATE)
def on_activate(game, ctx, name, slot) -> None:
    m = game.side_models(ctx["side"])[slot]
    m.activated = True
    if game.face_down(m):
        game.orders.reveal(m.idx)
        game.log.add("revealed", f"{m.id}'s order is Snap-fire", m.side, rule="UW-HID-3")
    game.orders.remove(m.idx)                                           # UW-TURN-9: its counter is removed
    game.log.add("activated", f"{m.id} activates (Snap-fire)", m.side, rule="UW-TURN-9")
    game.push(BeginAction(m.idx, False))


def enemies_removed(game) -> list[int]:
    """UW-WIN-3's measure: the enemy models each side has removed so far (removals are seen by both sides)."""
    return [sum(1 for m in game.side_models(1 - s) if not m.alive) for s in (0, 1)]


@task(TurnEnd)
def run_turn_end(game) -> None:
    """UW-TURN-12: the turn's end, as a task (a built position that starts there, envs/urbanwar/position.py)."""
    end_turn(game)


def end_turn(game) -> None:
    """UW-TURN-12, UW-WIN-3: the phase ends; after the last turn the limit decides."""
    game.log.add("turn_end", f"end of turn {game.turn}", None, rule="UW-TURN-12")
    if game.turn >= game.scenario.turns:
        removed = enemies_removed(game)
        if game.options["limit_result"] == "draw" or removed[0] == removed[1]:
            game.finish(2, f"turn limit, {removed[0]} against {removed[1]} removed", "UW-WIN-3")
        else:
            game.finish(0 if removed[0] > removed[1] else 1, f"turn limit, {removed[0]} against {removed[1]} removed",
                        "UW-WIN-3")
        game.turn += 1
        return
    game.turn += 1
    game.push(TurnStart())
