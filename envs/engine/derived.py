"""Derived values cached on a game until the state they were computed from changes (observations, tables).

A value is stored under a key of the game's `__dict__` with a copy of the state it came from (a tuple of the game's
lists and scalars); comparing that copy with the state now costs well under a microsecond, re-deriving the value
(converting a board-sized list to numpy, encoding a unit) tens. Everything here lives in the game's own `__dict__`,
so a restored or cloned game starts without it, and a ruleset's `refresh` drops it with `forget`.
"""
from __future__ import annotations

PREFIX = "_derived_"   # the keys of every cached value start so (`forget` drops them all)


def unchanged_since(game, key: str, state: tuple):
    """What was stored under `key` for `state` if it is equal now, else None."""
    hit = game.__dict__.get(key)
    return hit[1] if hit is not None and hit[0] == state else None


def remember(game, key: str, state: tuple, value):
    """Store `value` for a copy of `state` (lists copied: the game changes them in place); returns `value`."""
    game.__dict__[key] = (tuple(list(x) if isinstance(x, list) else x for x in state), value)
    return value


def forget(game) -> None:
    """Drop every value cached under a `PREFIX` key (a position set up by hand: `refresh`)."""
    for key in [k for k in game.__dict__ if k.startswith(PREFIX)]:
        del game.__dict__[key]
