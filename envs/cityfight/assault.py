"""Close assault (CF-CA-1..11).

TODO(stage 2): rounds started by a step into an enemy square or by fire into the own Engaged square.
"""
from __future__ import annotations


def start_by_move(game, mover, square: int) -> None:
    """CF-CA-1 hook (stage 2): `mover` stepped into a square holding enemy elements."""


def may_assault_own_square(game, e) -> bool:
    """CF-CA-1 (stage 2): fire into the own Engaged square."""
    return False


def start_by_fire(game, e) -> None:
    raise NotImplementedError("close assault is not implemented yet")
