"""HE/AS fire (CF-HE-1..13): accuracy grids, impact and blast.

TODO(stage 2): CF-HE-1..13. Until then no special weapon may fire (the mask offers none).
"""
from __future__ import annotations


def he_targets(game, e) -> list[int]:
    """CF-HE-1 (stage 2): squares the element's special weapon may fire at."""
    return []


def can_fire_special(game, e, square: int) -> bool:
    """CF-HE-1 (stage 2)."""
    return False


def do_special(game, e, target: int) -> None:
    """CF-ACT-7 (stage 2)."""
    raise NotImplementedError("HE/AS fire is not implemented yet")


def begin_special(game, e, target: int, spotted: bool, reaction: str) -> None:
    raise NotImplementedError("HE/AS fire is not implemented yet")
