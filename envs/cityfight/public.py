"""What both sides of a Cityfight game may know (CF-HID-1, CF-OW-1, CF-HID-9, CF-HID-11), as the contract's
`public_facts` (envs.engine.contract).

The effect dice of HE (CF-HID-9) are public too, but they belong to the event log, not to the position."""
from __future__ import annotations

from .flow import Decision
from .state import DEAD


def public_facts(game) -> tuple:
    """CF-HID-1: the map, the markers, the turn and phase, Outs, conditions and both starting orders of battle;
    CF-HID-11: the Engaged squares."""
    return (game.turn, game.phase, game.winner, tuple(game.outs), whose_activation(game), public_map(game),
            overwatch_markers(game), tuple(sorted(game.engaged_squares())), conditions(game), orders_of_battle(game))


def whose_activation(game) -> int | None:
    """CF-HID-1: the side whose activation it is, taking one or choosing its next (CF-HID-4: how far into its
    activation the enemy is stays hidden); None outside the activations."""
    if game.active_side != DEAD:
        return game.active_side
    if game.decision is not None and game.decision[0] == Decision.ACTIVATE:
        return game.decision[1]["side"]
    return None


def public_map(game) -> tuple:
    """CF-HID-1, CF-BLD-8, CF-HID-9: cover, doorways and breaches, damage, rubble, smoke."""
    return (tuple(game.cover), tuple(game.door), tuple(game.damage), tuple(game.rubble),
            tuple(s > 0 for s in game.smoke))


def overwatch_markers(game) -> tuple:
    """CF-OW-1: each side's OVERWATCH markers, by the square they lie on."""
    return tuple(frozenset(e.overwatch for e in game.elements[s] if e.overwatch != DEAD) for s in (0, 1))


def conditions(game) -> tuple:
    """CF-HID-1: the conditions (time, weather) and the options the scenario plays with."""
    return tuple(sorted((k, str(v)) for k, v in game.conditions.items()))


def orders_of_battle(game) -> tuple:
    """CF-HID-1: both sides' starting elements, by slot and row (never where they are now: CF-HID-3)."""
    return tuple(tuple((e.slot, e.row) for e in game.elements[s]) for s in (0, 1))
