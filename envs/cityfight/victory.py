"""Victory (CF-VIC-1..3, CF-SCN-7, CF-TURN-8)."""
from __future__ import annotations

from .state import ATTACKER, DEFENDER


def controls(game, side: int, square: int) -> bool:
    """CF-VIC-1: an element of `side` in the square and none of the enemy's."""
    return bool(game.at(square, side)) and not game.at(square, 1 - side)


def objectives_held(game, side: int = ATTACKER) -> int:
    return sum(controls(game, side, game.board.at(*sq)) for sq in game.scenario.objectives)


def check_at_once(game) -> bool:
    """CF-VIC-2 / CF-TURN-8: a side with no elements loses at once; both at once, a draw."""
    empty = [not game.living(side) for side in (ATTACKER, DEFENDER)]
    if empty[0] and empty[1]:
        game.finish(2, "no element is left on either side")
    elif empty[0] or empty[1]:
        loser = 0 if empty[0] else 1
        game.finish(1 - loser, f"the {('attacker', 'defender')[loser]} has no element left")
    else:
        return False
    return True


def end_of_turn(game) -> bool:
    """CF-SCN-7: all objectives at a check wins at once; at the end of the last turn the attacker needs `at_end`."""
    v = game.scenario.victory
    held, total = objectives_held(game), len(game.scenario.objectives)
    if v["all_at_once"] and total and held == total:
        game.finish(ATTACKER, f"it controls all {total} objectives")
        return True
    if game.turn >= game.scenario.turns:
        if total and held >= v["at_end"]:
            game.finish(ATTACKER, f"it controls {held} objectives at the end")
        else:
            game.finish(DEFENDER, f"the attacker controls only {held} objectives at the end")
        return True
    return False
