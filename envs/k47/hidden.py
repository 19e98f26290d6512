"""Hidden information: copies of a game that differ only in what a side may not know (KC-HID-4, KC-TURN-9)."""
from __future__ import annotations

from envs.engine.dice import with_other_dice


def hidden_variants(state, side: int) -> list:
    """KC-HID-4: another future dice stream; KC-TURN-9: the other side's keep choices not yet public, flipped."""
    variants = [with_other_dice(state)]
    theirs = [k for k in state.pending_keep if state.units[int(k)].side != side]
    if theirs:
        data = state.to_dict()
        for k in theirs:
            data["pending_keep"][k] = not data["pending_keep"][k]
        variants.append(type(state).from_dict(data))
    return variants
