"""Derived values: cached on a game until the state they were computed from changes (observations, tables), or
kept across games in a `BoundedStore` under keys of game data alone (sight lines, covers, paths, firing weapons).

A value is stored under a key of the game's `__dict__` with a copy of the state it came from (a tuple of the game's
lists and scalars); comparing that copy with the state now costs well under a microsecond, re-deriving the value
(converting a board-sized list to numpy, encoding a unit) tens. Those values live in the game's own `__dict__`, so a
restored or cloned game starts without them, and a ruleset's `refresh` drops them with `forget`. A `BoundedStore`
belongs to whoever declares it (see its docstring).
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


# Values kept across games --------------------------------------------------------------------------------------
_MISSING = object()


class BoundedStore:
    """Values worked out from game data alone, kept under a key that holds all of that data (a board, a tables'
    digest, the states of the units and sections read), so that any game, any copy of one and either side's view
    may share them: the same key always means the same answer, whoever filled it.

    Who owns a store: whoever declares it says so where it is declared. A store declared at module level lives for
    the process and is shared by every game in it; that is safe only because each value is a pure function of its
    key (never key a store on `id()` of an object, which another object takes once the first is freed, nor on a
    view's object identity). Past `limit` values the store starts afresh, so a long training run's memory stays
    bounded; what is dropped is worked out again, so no answer depends on what a store holds."""

    __slots__ = ("name", "limit", "values")

    def __init__(self, name: str, limit: int) -> None:
        self.name, self.limit, self.values = name, limit, {}

    def get(self, key, work, *args):
        """The value kept under `key`, worked out by `work(*args)` the first time."""
        found = self.values.get(key, _MISSING)
        if found is _MISSING:
            if len(self.values) >= self.limit:
                self.values.clear()
            found = self.values[key] = work(*args)
        return found

    def find(self, key):
        """The value kept under `key`, or None: for a hot path that tries the store before building `work`'s call."""
        return self.values.get(key)

    def clear(self) -> None:
        self.values.clear()

    def __len__(self) -> int:
        return len(self.values)
