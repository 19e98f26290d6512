"""Overwatch (CF-OW-1..6, CF-ACT-5).

TODO(stage 2): reports (CF-OW-2/3) and overwatch fire (CF-OW-4/5) when an enemy steps in.
"""
from __future__ import annotations

import numpy as np

from . import ap
from .board import sight_row
from .state import DEAD


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
    game.log.add("overwatch", f"an OVERWATCH marker is placed on {game.name(square)}", e.side, square=square)


def markers(game, side: int) -> list[int]:
    """CF-HID-1: the public overwatch markers of `side`."""
    return [e.overwatch for e in game.elements[side] if e.overwatch != DEAD]


def entered(game, mover, square: int, came_from: int) -> None:
    """CF-OW-2/4 hook (stage 2): called after an element steps into `square`."""


def left(game, mover, square: int, going_to: int) -> None:
    """CF-OW-3 hook (stage 2): called before an element steps out of `square`."""
