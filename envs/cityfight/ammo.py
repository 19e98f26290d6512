"""Ammunition (CF-AMMO-1): OOA weapons recover in the Ammunition Resupply Phase."""
from __future__ import annotations

from envs.engine.events import private

from .state import ATTACKER, DEAD, DEFENDER


def resupply(game) -> None:
    """CF-AMMO-1: from the turn after it ran out, each OOA weapon recovers on D6 <= the side's AR."""
    for side in (ATTACKER, DEFENDER):
        rating = game.scenario.ammo_rating[side]
        for e in game.elements[side]:
            if e.square == DEAD:
                continue
            if e.ooa and e.ooa_turn < game.turn:
                e.ooa = not recovers(game, e, rating, "kinetic weapons")
            if e.special_ooa and e.special_ooa_turn < game.turn:
                e.special_ooa = not recovers(game, e, rating, e.special or "special weapon")


def recovers(game, e, rating: int, what: str) -> bool:
    die = game.dice.d6()
    ok = die <= rating
    game.log.add("resupply", f"{e.name} {'resupplies' if ok else 'is still out of ammunition for'} its {what}",
                 e.side, dice=(die,), rule="CF-AMMO-1", **private(e.side))   # CF-HID-3: enemy resupply rolls, OOA
    return ok
