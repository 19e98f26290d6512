"""The order-dice bag: a random draw that decides which side acts next, for every ruleset that needs one.

Games of the Bolt Action family put one die per unit of each side into a shared bag and draw them one at a
time; the side whose colour comes out orders one of its units. The draw is a chance event like any roll:
it goes through the game's injected `Dice` (so it is logged, seeded, scriptable in rule tests and branched
on clone) and never through a generator of its own.

The bag holds counts only, never unit identities: which unit a die orders is the drawn side's decision.
Dice a side keeps across turns (a unit starting the next turn on a kept order) simply stay out of the bag
when it is refilled; the ruleset says which units keep one.

Scripting a draw: the draw rolls one die whose size is the number of dice in the bag (none when only one
side has dice left) and takes side 0's dice as the first faces, then side 1's, and so on. So with
`counts == [3, 2]` a face of 1..3 draws side 0 and 4..5 side 1.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .dice import Dice


class BagError(ValueError):
    """A draw from an empty bag, or a die taken that the bag does not hold."""


@dataclass
class OrderBag:
    """Per-side counts of the order dice still in the bag."""

    counts: list[int] = field(default_factory=list)

    @classmethod
    def filled(cls, counts) -> OrderBag:
        """A bag holding `counts[side]` dice of each side (e.g. one per unit without a kept die)."""
        counts = [int(c) for c in counts]
        if any(c < 0 for c in counts):
            raise BagError(f"a bag cannot hold a negative number of dice: {counts}")
        return cls(counts)

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def empty(self) -> bool:
        return self.total == 0

    def sides_in(self) -> list[int]:
        """The sides that still have dice in the bag, in side order."""
        return [side for side, count in enumerate(self.counts) if count > 0]

    def draw(self, dice: Dice) -> int:
        """Draw one die uniformly at random and return its side; the die leaves the bag.

        Only one side left: no die is rolled (the draw is certain), so scripted tests need no face for it.
        """
        if self.empty:
            raise BagError("cannot draw from an empty bag")
        sides = self.sides_in()
        if len(sides) == 1:
            side = sides[0]
        else:
            index = dice.pick(self.total)    # one die of size total: uniform over the dice, not the sides
            side = 0
            while index >= self.counts[side]:
                index -= self.counts[side]
                side += 1
        self.counts[side] -= 1
        return side

    def take(self, side: int) -> None:
        """Take one of `side`'s dice out without a draw (a unit given an order outside a draw, or destroyed
        before its die came out)."""
        if self.counts[side] <= 0:
            raise BagError(f"side {side} has no die left in the bag to take")
        self.counts[side] -= 1

    def put(self, side: int, count: int = 1) -> None:
        """Return `count` of `side`'s dice to the bag (a kept die given up, a re-ordered unit's die)."""
        if count < 0:
            raise BagError(f"cannot return a negative number of dice ({count})")
        self.counts[side] += count

    def probability(self, side: int) -> float:
        """The chance that the next draw is `side`'s (public: both sides see the counts)."""
        return self.counts[side] / self.total if self.total else 0.0

    def to_dict(self) -> dict:
        return {"counts": list(self.counts)}

    @classmethod
    def from_dict(cls, data: dict) -> OrderBag:
        return cls.filled(data["counts"])
