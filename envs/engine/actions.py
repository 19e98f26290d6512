"""ActionCodec: structured actions <-> one flat Discrete index, and masks from legal actions.

A ruleset declares its action families in order, each with a shape, e.g.
`ActionCodec([("end_phase", ()), ("move", (6, 4, 2))])`; family "move" then owns 48 consecutive
indices. Every family keeps its own exact mask, so one flat `Discrete(n)` stays small.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    shape: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        return prod(self.shape)


class ActionCodec:
    """Maps (family, *args) to an int and back."""

    def __init__(self, families: list[tuple[str, tuple[int, ...]]]) -> None:
        self.families: dict[str, Family] = {}
        offset = 0
        for name, shape in families:
            if name in self.families:
                raise ValueError(f"action family {name!r} declared twice")
            family = Family(name, tuple(shape), offset)
            self.families[name] = family
            offset += family.size
        self.size = offset
        self._owner = np.empty(offset, dtype=np.int32)
        self._ordered = list(self.families.values())
        for i, family in enumerate(self._ordered):
            self._owner[family.offset:family.offset + family.size] = i
        # The family of each flat index as a plain list: decode runs on every action, and a list lookup
        # is several times cheaper than indexing the numpy array.
        self._family_of = [self._ordered[i] for i in self._owner.tolist()]
        # (family name, arguments) of every flat index, worked out once: decode is then one list lookup, and a caller
        # that has already checked the index (TaskGame.apply, against the mask) reads the list itself. Read only.
        self.decoded = [self._unravel(action) for action in range(offset)]
        # ... and back: encode is then one dict lookup when every argument is a plain int in range.
        self._encoded = {decoded: action for action, decoded in enumerate(self.decoded)}

    def encode(self, name: str, *args: int) -> int:
        """Flat index of family `name` with arguments `args` (row-major over the family's shape)."""
        index = self._encoded.get((name, args))
        if index is not None:
            for arg in args:
                if arg.__class__ is not int:   # 1.0 or True find the same entry: they take the checks below
                    break
            else:
                return index
        family = self.families[name]
        if len(args) != len(family.shape):
            raise ValueError(f"action {name} takes {len(family.shape)} arguments, got {len(args)}")
        index = 0
        for arg, dim in zip(args, family.shape):
            # Non-integers would silently give a fractional "index" (encode("move", 1.5, 0) -> 5.5).
            if not isinstance(arg, (int, np.integer)) or not 0 <= arg < dim:
                raise ValueError(f"action {name} argument {arg!r} is not an integer in 0..{dim - 1}")
            index = index * dim + arg
        return family.offset + index

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """(family name, arguments) of a flat index."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} outside 0..{self.size - 1}")
        return self.decoded[action]

    def _unravel(self, action: int) -> tuple[str, tuple[int, ...]]:
        family = self._family_of[action]
        rest = action - family.offset
        args = []
        for dim in reversed(family.shape):
            args.append(rest % dim)
            rest //= dim
        return family.name, tuple(reversed(args))

    def table(self, name: str) -> list:
        """The flat indices of family `name` as nested lists, `table(name)[a][b] == encode(name, a, b)`: a list
        lookup for hot loops, where encode's checks cost more than the decision using it."""
        family = self.families[name]
        flat: list = list(range(family.offset, family.offset + family.size))
        for dim in reversed(family.shape[1:]):
            flat = [flat[i:i + dim] for i in range(0, len(flat), dim)]
        return flat

    def offset(self, name: str) -> int:
        return self.families[name].offset

    def mask(self, legal) -> np.ndarray:
        """A bool mask of length `size` with the given flat indices set."""
        indices = np.asarray(list(legal))
        # Negative indices would wrap around (a -1 "none" sentinel would mark the last action legal).
        if indices.size and (indices.dtype.kind not in "iu" or indices.min() < 0 or indices.max() >= self.size):
            raise ValueError(f"legal actions must be integers in 0..{self.size - 1}; got {indices.tolist()}")
        mask = np.zeros(self.size, dtype=bool)
        mask[indices.astype(np.int64)] = True
        return mask
