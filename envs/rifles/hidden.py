"""Hidden information (rules catalog §14): states that differ only in what a side may not know.

`hidden_variants(state, side)` is the hook the generic suite looks up (tests/checkers.py,
check_hidden_information): every copy it returns must give `side` the very same observation and,
when `side` decides, the very same legal mask.

  * RB-HID-4: no side sees the future dice, so for either side a copy with another dice stream
    (the rolls already made kept in its log, RB-HID-1) is a variant.
  * RB-HID-3 / RB-HID-5: the enemy sees that a player group is in the sewer, not on which Stripe, so
    for the enemy each copy with one sewer group moved to another Stripe is a variant.
  * RB-HID-2: marker contents do not exist before the reveal (RB-EM-1), so there is nothing to vary.
"""
from __future__ import annotations

from envs.engine.dice import with_other_dice

from .config import STRIPES
from .state import ENEMY, OPEN


def hidden_variants(state, side: int) -> list:
    """Copies of `state` that differ only in what `side` may not know."""
    variants = [with_other_dice(state)]
    if side == ENEMY:
        variants.extend(sewer_variants(state))
    return variants


def sewer_variants(state) -> list:
    """RB-HID-5: one copy per (player group in the sewer, other Stripe) with that group moved below ground.

    A group with a failed Demo Charge pending is left alone: its charge stays on its Stripe (RU-DC-4), so a
    copy moving it would not be a state the game can reach.
    """
    found = []
    for group in state.players:
        if not (group.on_map and group.in_sewer) or group.gid in state.demo:
            continue
        for stripe in range(1, STRIPES + 1):
            if stripe == group.stripe:
                continue
            copy = type(state).from_dict(state.to_dict())
            moved = copy.players[group.gid]
            moved.stripe, moved.place, moved.level = stripe, OPEN, 0
            found.append(copy)
    return found
