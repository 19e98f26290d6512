"""Close assault (CF-CA-1..11): rounds started by a step into an enemy square or by fire into the own Engaged square.

A round is automatic (no decisions): the initiator rolls, then each surviving enemy element in the square
strikes back in element order until the initiating side has no element left there.
"""
from __future__ import annotations

from envs.engine.events import private

from . import ap, fire, knowledge
from .config import OPEN
from .flow import task
from .state import DEAD
from .tasks import AssaultRound


def may_assault_own_square(game, e) -> bool:
    """CF-CA-1 / CF-ACT-8 / CF-CA-9: fire (1 AP) into the own Engaged square; OOA elements may, suppressed may not."""
    return (e.square != DEAD and not e.fired and not e.suppressed and game.engaged(e.square)
            and ap.can_spend(game, e, 1))


def start_by_move(game, mover, square: int, was_engaged: bool) -> None:
    """CF-CA-1: a step into enemy: a terrain round, or an open one if the square was already Engaged."""
    first = not was_engaged
    for side in (0, 1):
        knowledge.told_occupied(game.knowledge[side], square, game.turn)   # CF-AUTO-1: both know
    game.push(AssaultRound(mover.side, mover.slot, square, first, first))


def start_by_fire(game, e) -> None:
    """CF-CA-1: fire into the own Engaged square: an open round; it is the element's fire (CF-ACT-8)."""
    e.fired, e.fired_still = True, True
    game.push(AssaultRound(e.side, e.slot, e.square, False, False))


def assault_total(game, e, dice: list[int]) -> int:
    """CF-CA-2: the higher die plus the element's CA; no FS modifiers."""
    return max(dice) + game.tables.elements[e.row].ca


def kills(game, e, dice: list[int], cover: int) -> bool:
    """CF-CA-3; CF-CA-4: against the cover row an S counts as K, so a 6 always kills."""
    return assault_total(game, e, dice) >= game.tables.cover[cover][0] or max(dice) == 6


def roll(game, e, square: int, cover: int) -> None:
    """One roller: 2D6 (CF-CA-2), K kills every enemy element there (CF-CA-6), any double kills the roller (CF-CA-5)."""
    dice = game.dice.dice(2)
    hit = kills(game, e, dice, cover)
    # CF-HID-3: enemy rolls; CF-HID-11: enemy numbers and types in an Engaged square (one roll per roller) stay
    # hidden; the enemy learns only its own losses and, by type, its kills (CF-CA-11, game.kill's `told`)
    game.log.add("assault", f"close assault in {game.name(square)}: {'K' if hit else 'no effect'}", e.side, dice=tuple(dice),
                 rule="CF-CA-2", **private(e.side))
    if hit:
        victims = game.at(square, 1 - e.side)
        fire.mark_fired_on(victims)
        fire.kill_square(game, victims, told=True)
        for v in victims:
            if v.square == DEAD:
                knowledge.told_killed(game.knowledge[e.side], v.row)          # CF-CA-11
    if dice[0] == dice[1] and e.square != DEAD:
        ap.lose(game, e, 2)
        game.kill(e, "a double in close assault", told=True)                          # CF-CA-5
        knowledge.told_killed(game.knowledge[1 - e.side], e.row)


@task(AssaultRound)
def assault_round(game, side: int, slot: int, square: int, terrain: bool, first: bool) -> None:
    """CF-CA-1..10: the initiator's roll, then the strike-backs; everyone there spends no more AP this turn."""
    initiator = game.element(side, slot)
    present = game.at(square, 0) + game.at(square, 1)
    for e in present:
        e.assaulted = True                                                   # CF-CA-10
    cover = game.cover[square] if terrain else OPEN                          # CF-CA-3
    if initiator.square == square and game.at(square, 1 - side):
        roll(game, initiator, square, cover)
    for striker in game.at(square, 1 - side):
        if not game.at(square, side):
            break                                                            # CF-CA-7: until none is left
        if striker.square != square or (first and striker.suppressed):       # CF-CA-8
            continue
        roll(game, striker, square, OPEN)                                    # CF-CA-3: strike-backs use Open
