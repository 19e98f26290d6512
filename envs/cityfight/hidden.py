"""Hidden information (CF-HID-3, CF-HID-14/15): states that differ only in what a side may not know.

`hidden_variants(state, side)` is the hook the generic suite looks up (tests/checkers.py,
check_hidden_information): every copy it returns must give `side` the very same observation and,
when `side` decides, the very same legal mask.

  * CF-HID-3: no side sees the future dice: a copy with another dice stream is a variant for both.
  * CF-HID-3: a side never sees where unspotted enemy elements are, nor their suppression, AP spent,
    OOA or section pools: for each enemy element that is not in an Engaged or currently SPOTTED square,
    a copy with it moved to another square (free of the side's elements, not Engaged, not SPOTTED,
    room in the stack), and a copy with its status flipped and its section's pool changed.
  * CF-HID-3: a side never sees the enemy's AP pools: for each enemy section, copies with its pool moved by
    -2, -1, +1 and +2 (never below 0), so that what the enemy may still do (CF-TURN-4/6) is hidden too.
"""
from __future__ import annotations

from envs.engine.dice import with_other_dice

from .state import DEAD


def hidden_variants(state, side: int) -> list:
    """Copies of `state` that differ only in what `side` may not know."""
    copy = copier(state)
    return [with_other_dice(state)] + moved_variants(state, side, copy) + status_variants(state, side, copy) \
        + pool_variants(state, side, copy)


def copier(state):
    """A function that makes a fresh copy of `state` as it is now (saved once: the variants are many)."""
    saved = state.to_dict()
    return lambda: type(state).from_dict(saved)         # from_dict never aliases what it reads


def hidden_enemies(state, side: int) -> list:
    """Enemy elements the side cannot know the position of: not Engaged, not in a SPOTTED square."""
    engaged, spotted = state.engaged_squares(), set(state.knowledge[side].spotted)
    return [e for e in state.elements[1 - side] if e.square != DEAD and e.square not in engaged | spotted]


def free_squares(state, side: int) -> list[int]:
    """Squares a hidden enemy could be in without the side knowing better."""
    own = {e.square for e in state.elements[side]}
    spotted = set(state.knowledge[side].spotted)
    counts: dict[int, int] = {}
    for e in state.elements[1 - side]:
        counts[e.square] = counts.get(e.square, 0) + 1
    return [s for s in range(state.board.size) if s not in own and s not in spotted and counts.get(s, 0) < 3]


def moved_variants(state, side: int, copy=None) -> list:
    """Each hidden enemy moved to another square it could be in: every one, so that a square that held one is seen
    both occupied and empty (the prompt-leak check needs the occupant of the square fired at moved away)."""
    found, copy = [], copy or copier(state)
    free = free_squares(state, side)
    for e in hidden_enemies(state, side):
        options = [s for s in free if s != e.square]
        if not options:
            continue
        variant = copy()
        variant.elements[1 - side][e.slot].square = options[(e.slot * 37 + state.turn * 11) % len(options)]
        found.append(variant)
    return found


def status_variants(state, side: int, copy=None) -> list:
    """The first hidden enemy's status flipped; never the element in the middle of its activation, which could
    not be acting if it were suppressed (a state no game reaches)."""
    enemies = [e for e in hidden_enemies(state, side) if (e.side, e.slot) != (state.active_side, state.active)]
    if not enemies:
        return []
    variant = (copy or copier(state))()
    e = variant.elements[1 - side][enemies[0].slot]
    e.suppressed, e.ooa, e.fired_still = not e.suppressed, not e.ooa, not e.fired_still
    variant.sections[1 - side][e.section].pool += 3
    return [variant]


#: how far a pool variant moves an enemy section's pool
POOL_SHIFTS = (-2, -1, 1, 2)


def pool_variants(state, side: int, copy=None) -> list:
    """CF-HID-3: each enemy section's AP pool moved by -2..+2 (never below 0): the pool is never told."""
    found, copy = [], copy or copier(state)
    for section in state.sections[1 - side]:
        for shift in POOL_SHIFTS:
            if section.pool + shift < 0:
                continue
            variant = copy()
            variant.sections[1 - side][section.index].pool += shift
            found.append(variant)
    return found
