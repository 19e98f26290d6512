"""Overwatch (CF-OW-1..6, CF-ACT-5): a public marker on one square, reports of enemies stepping in and out,
and one free spotted fire at the square after a reported entry."""
from __future__ import annotations

import numpy as np

from envs.engine import reaction as reaction_window
from envs.engine.events import private

from . import ap, fire, he, knowledge
from .board import sight_row
from .flow import Decision, answer, task
from .state import DEAD, SIDE_NAMES
from .tasks import OverwatchOffer

KINETIC, SPECIAL = 0, 1


def watch_squares(game, e) -> np.ndarray | None:
    """CF-ACT-5 / CF-OW-1: only as its first AP of the turn (2 AP); any other square in its LOS."""
    if e.suppressed or e.ap_spent != 0 or not ap.can_spend(game, e, 2) or game.engaged(e.square):
        return None
    squares = sight_row(game, e.square).copy()
    squares[e.square] = False
    return squares


def do_overwatch(game, e, square: int) -> None:
    """CF-OW-1: a public OVERWATCH marker on the square; the element takes no other action (CF-ACT-5)."""
    ap.spend(game, e, 2)
    e.overwatch = square
    game.log.add("overwatch", f"an OVERWATCH marker is placed on {game.name(square)}", e.side, square=square, rule="CF-OW-1")


def markers(game, side: int) -> list[int]:
    """CF-HID-1: the public overwatch markers of `side`."""
    return [e.overwatch for e in game.elements[side] if e.overwatch != DEAD]


def watchers(game, side: int, square: int) -> list:
    """CF-OW-6: `side`'s elements watching `square`, in element order (a suppressed or dead watcher has stopped)."""
    return [e for e in game.elements[side] if e.overwatch == square and e.square != DEAD and not e.suppressed]


def entered(game, mover, square: int, came_from: int) -> None:
    """CF-OW-2/4, CF-HID-10: report the entry (type, size, direction) to the watcher's side only, then offer
    the watchers' fire."""
    side = 1 - mover.side
    if not watchers(game, side, square):
        return
    entry = game.board.direction(came_from, square)
    mover.reported = square
    knowledge.told_report(game.knowledge[side], square, mover.row, entry, -1, game.turn)
    game.log.add("overwatch_report", f"overwatch report: a {mover.row} element enters {game.name(square)}", side,
                 square=square, rule="CF-OW-2", **private(side))     # CF-HID-10: the watcher's side only
    game.push(OverwatchOffer(side, square, mover.slot, [w.slot for w in watchers(game, side, square)]))


def left(game, mover, square: int, going_to: int) -> None:
    """CF-OW-3: a reported element stepping out: its exit direction is reported."""
    if mover.reported != square:
        return
    mover.reported = DEAD
    side = 1 - mover.side
    if watchers(game, side, square):
        knowledge.told_report(game.knowledge[side], square, mover.row, -1, game.board.direction(square, going_to), game.turn)
        game.log.add("overwatch_report", f"overwatch report: an element leaves {game.name(square)}", side, square=square, rule="CF-OW-3",
                     **private(side))                     # CF-HID-10: the watcher's side only


def fire_options(game, w, square: int) -> list[int]:
    """CF-OW-4: any weapon in range and LOS, once (CF-ACT-8); never into or out of an Engaged square (CF-AUTO-2)."""
    if w.fired or w.suppressed or game.engaged(square) or game.engaged(w.square) or game.at(square, w.side):
        return []
    options = []
    if not w.ooa and fire.target_squares(game, w)[square]:
        options.append(KINETIC)
    if he.can_fire_special(game, w, square):
        options.append(SPECIAL)
    return options


@task(OverwatchOffer)
def overwatch_offer(game, side: int, square: int, mover: int, slots: list) -> None:
    """CF-OW-5/6: watchers in element order, each a fire-or-not decision of its side, before the mover's next step.
    CF-HID-4/10: a window for every public OVERWATCH marker still on the square, whether or not its watcher can
    fire (fired already, out of ammunition, a friend in the square): then it may only pass."""
    if game.element(1 - side, mover).square != square:
        return                                                 # the mover is dead (or gone): nothing to fire at
    for i, slot in enumerate(slots):
        w = game.element(side, slot)
        if reaction_window.open_window(game, Decision.OVERWATCH_FIRE, side, w.overwatch == square,
                                       fire_options(game, w, square), element=slot, target=square, mover=mover,
                                       rest=slots[i + 1:]):
            return


@answer(Decision.OVERWATCH_FIRE)
def answer_overwatch_fire(game, ctx, name, *args) -> None:
    """CF-OW-4: no AP; spotted fire (CF-FIRE-9)."""
    side, square = ctx["side"], ctx["target"]
    game.push(OverwatchOffer(side, square, ctx["mover"], ctx["rest"]))
    if name == "pass":
        return
    w = game.element(side, ctx["element"])
    game.log.add("overwatch_fire", f"overwatch fire at {game.name(square)} ({SIDE_NAMES[side]})", side, rule="CF-OW-4")
    if args[0] == SPECIAL:
        he.begin_special(game, w, square, spotted=True, reaction="overwatch")
    else:
        fire.begin_fire(game, w, square, True, "overwatch")
