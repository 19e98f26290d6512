"""Hidden information (UW-HID-2/5/7): copies of a game that differ only in what a side may not know.

  * the future dice (UW-HID-7);
  * the other side's face-down orders: two of its face-down counters (one Overwatch, one Snap-fire) swapped,
    which keeps every public fact (who holds a face-down counter, whether a side has a Snap-fire model left,
    UW-HID-4); one counter flipped where that keeps whether the side has a Snap-fire model left (how many it has
    is hidden); during the order phase, a sealed choice of the other side flipped (UW-HID-5).
"""
from __future__ import annotations

from envs.engine.dice import with_other_dice


def hidden_variants(state, side: int) -> list:
    out = [with_other_dice(state)]
    other = 1 - side
    downs = [m for m in state.side_models(other) if m.placed and state.face_down(m)]
    ow = [m for m in downs if state.order_of(m) == 1]
    sf = [m for m in downs if state.order_of(m) == 0]
    if ow and sf:
        copy = type(state).from_dict(state.to_dict())
        copy.orders = copy.orders.swapped(ow[0].idx, sf[0].idx)
        copy.refresh()
        out.append(copy)
    flipped = flippable(state, other, downs) if state.orders.pending() is None else None
    if flipped is not None:
        copy = type(state).from_dict(state.to_dict())
        copy.orders.values[flipped.idx] = 1 - copy.orders.values[flipped.idx]
        copy.refresh()
        out.append(copy)
    if state.orders.pending() is not None and downs:
        copy = type(state).from_dict(state.to_dict())
        m = downs[-1]
        copy.orders.values[m.idx] = 1 - copy.orders.values[m.idx]
        copy.refresh()
        out.append(copy)
    return out


def flippable(state, side: int, downs: list):
    """A face-down model of `side` whose order can flip without changing whether the side has a Snap-fire model
    left to activate (public, UW-HID-4): an Overwatch one beside a Snap-fire one, or one of two Snap-fire ones."""
    snaps = [m for m in state.side_models(side) if state.can_activate(m)]
    for m in downs:
        if state.order_of(m) == 1 and snaps or state.order_of(m) == 0 and len(snaps) >= 2:
            return m
    return None
