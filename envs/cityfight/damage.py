"""Building damage (CF-BLD-1..8).

TODO(stage 2): damage points, cover steps, rubble neighbours, blocked doorways.
"""
from __future__ import annotations


def hit_square(game, square: int, result: str, firer_square: int) -> None:
    """CF-BLD-1 hook (stage 2): an S or K on a building square adds damage."""
