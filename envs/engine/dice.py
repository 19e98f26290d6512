"""Injected dice: every roll of every ruleset goes through a `Dice`.

`SeededDice` draws from a numpy Generator (same seed, same rolls); `ScriptedDice` returns the faces a
test lists. Every roll is logged as (die size, face) so events and tests can show what was rolled.
Derived dice (d3, 2d3, 2d6, D66, 2d10) are built from primitive rolls here, once, for all rulesets.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

_BUFFER = 512  # uniform floats drawn per refill: one numpy call per 512 rolls keeps dice cheap


class DiceError(ValueError):
    """A scripted die is exhausted or a scripted face cannot come up on the die asked for."""


class Dice:
    """Base class: subclasses provide `_face(sides)`; everything else is shared."""

    #: whether the stream can run out mid-resolution (a scripted list can; a seeded generator cannot)
    finite = False

    def __init__(self) -> None:
        self.log: list[tuple[int, int]] = []

    def _face(self, sides: int) -> int:
        raise NotImplementedError

    def roll(self, sides: int) -> int:
        """One die of `sides` faces, 1..sides, logged."""
        face = self._face(sides)
        self.log.append((sides, face))
        return face

    def d6(self) -> int:
        return self.roll(6)

    def d10(self) -> int:
        return self.roll(10)

    def d3(self) -> int:
        """A d6 halved, rounded up (RB-GEN-1)."""
        return (self.roll(6) + 1) // 2

    def two_d3(self) -> int:
        return self.d3() + self.d3()

    def two_d6(self) -> int:
        return self.roll(6) + self.roll(6)

    def two_d10(self) -> int:
        return self.roll(10) + self.roll(10)

    def d66(self) -> int:
        """Two distinguishable d6: first is tens, second units; 11..66 (RB-GEN-2)."""
        return 10 * self.roll(6) + self.roll(6)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """`count` dice of `sides` faces, in order."""
        return [self.roll(sides) for _ in range(count)]

    def pick(self, n: int) -> int:
        """Index 0..n-1 of a uniform pick among n items; one die of size n, none rolled when n == 1."""
        if n <= 0:
            raise DiceError("cannot pick among zero items")
        return 0 if n == 1 else self.roll(n) - 1

    def branch(self) -> Dice:
        """An independent stream for a clone; this stream's future rolls are not changed."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    @staticmethod
    def from_dict(data: dict) -> Dice:
        kind = data["kind"]
        if kind == "seeded":
            return SeededDice.from_dict(data)
        if kind == "scripted":
            return ScriptedDice.from_dict(data)
        raise DiceError(f"unknown dice kind {kind!r}; expected 'seeded' or 'scripted'")


class SeededDice(Dice):
    """Dice from a numpy PCG64 generator; the seed fixes every roll."""

    def __init__(self, seed: int | None = 0, *, _state: dict | None = None) -> None:
        super().__init__()
        # An unseeded stream gets a concrete seed from OS entropy, kept for to_dict and branch():
        # branch() derives children from the seed, and with None every unseeded game branched alike.
        self.seed = int(np.random.SeedSequence().entropy) if seed is None else seed
        self._rng = np.random.Generator(np.random.PCG64(self.seed))
        if _state is not None:
            self._rng.bit_generator.state = _state
        self._buffer: list[float] = []
        self._next = 0
        self._branches = 0

    def _face(self, sides: int) -> int:
        if self._next >= len(self._buffer):
            self._buffer = self._rng.random(_BUFFER).tolist()
            self._next = 0
        u = self._buffer[self._next]
        self._next += 1
        return int(u * sides) + 1

    def branch(self) -> SeededDice:
        # The child's seed comes from this stream's seed and a branch counter, not from its future
        # rolls, so rollouts on a clone never shift (or reveal) the game's own dice.
        self._branches += 1
        seq = np.random.SeedSequence(entropy=[self.seed, self._branches, len(self.log)])
        child = SeededDice(int(seq.generate_state(1, dtype=np.uint64)[0]))
        return child

    def to_dict(self) -> dict:
        return {
            "kind": "seeded",
            "seed": self.seed,
            "state": self._rng.bit_generator.state,
            "buffer": self._buffer[self._next:],
            "branches": self._branches,
            "log": [list(r) for r in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict) -> SeededDice:
        dice = cls(data["seed"], _state=data["state"])
        dice._buffer = list(data["buffer"])
        dice._branches = data["branches"]
        dice.log = [tuple(r) for r in data["log"]]
        return dice


class ScriptedDice(Dice):
    """Dice that return the listed faces in order: `ScriptedDice([6, 1, 4])`. For rule tests."""

    finite = True

    def __init__(self, faces) -> None:
        super().__init__()
        self.faces = list(faces)
        self._next = 0

    def _face(self, sides: int) -> int:
        if self._next >= len(self.faces):
            raise DiceError(f"scripted dice exhausted after {len(self.faces)} rolls (a d{sides} was asked for)")
        face = self.faces[self._next]
        if not 1 <= face <= sides:
            raise DiceError(f"scripted face {face} (roll {self._next + 1}) cannot come up on a d{sides}")
        self._next += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self._next


    def branch(self) -> ScriptedDice:
        branched = ScriptedDice(self.faces[self._next:])
        return branched

    def to_dict(self) -> dict:
        return {"kind": "scripted", "faces": self.faces[self._next:], "log": [list(r) for r in self.log]}

    @classmethod
    def from_dict(cls, data: dict) -> ScriptedDice:
        dice = cls(data["faces"])
        dice.log = [tuple(r) for r in data["log"]]
        return dice


class ManualDice(Dice):
    """Dice rolled by a person at the table (`rubble play --dice manual`): each roll is asked for through the `ask`
    callback, `ask(count, sides) -> list of count faces`, which says why and validates; the engine sees only the Dice
    interface. `dice(count)` asks for the whole handful at once; a derived die (2d6, D66, d3) asks for its parts.
    A clone's rollouts (`branch`) are not the table's rolls: they go to seeded dice, never to the person."""

    def __init__(self, ask, seed: int = 0) -> None:
        super().__init__()
        self.ask = ask
        self.seed = seed
        self._branches = 0

    def _faces(self, count: int, sides: int) -> list[int]:
        faces = [int(f) for f in self.ask(count, sides)]
        if len(faces) != count or not all(1 <= f <= sides for f in faces):
            raise DiceError(f"asked for {count} d{sides}, the answer was {faces}")
        return faces

    def _face(self, sides: int) -> int:
        return self._faces(1, sides)[0]

    def dice(self, count: int, sides: int = 6) -> list[int]:
        faces = self._faces(count, sides) if count > 0 else []
        self.log.extend((sides, f) for f in faces)
        return faces

    def two_d6(self) -> int:
        return sum(self.dice(2, 6))

    def two_d10(self) -> int:
        return sum(self.dice(2, 10))

    def branch(self) -> SeededDice:
        self._branches += 1
        return SeededDice(int(np.random.SeedSequence([self.seed, self._branches, len(self.log)]).generate_state(1)[0]))

    def to_dict(self) -> dict:
        return {"kind": "manual", "seed": self.seed, "log": [list(r) for r in self.log]}

    @classmethod
    def from_dict(cls, data: dict, ask=None) -> ManualDice:
        if ask is None:
            raise DiceError("manual dice need the person's `ask` callback: ManualDice.from_dict(data, ask)")
        dice = cls(ask, data.get("seed", 0))
        dice.log = [tuple(r) for r in data["log"]]
        return dice


# Seeds: the one home of every seed the suite derives ------------------------------------------------------
def derive_seeds(rng: np.random.Generator, count: int) -> list[int]:
    """`count` independent seeds in 0..2**63-1 drawn from an env's seeded generator (same seed, same list)."""
    # Raw 64-bit draws: five times cheaper than rng.integers, and resets are on the hot path of short games.
    return [x >> 1 for x in rng.bit_generator.random_raw(count).tolist()]


def agent_seed(game_seed: int, side: int) -> int:
    """The seed of `side`'s agent in the game seeded `game_seed`, independent of the game's dice."""
    return int(np.random.SeedSequence([game_seed, side]).generate_state(1)[0])


def with_other_dice(state):
    """The same game with a different future dice stream and the same past rolls (hidden-information tests:
    no observation may depend on the dice to come)."""
    data = state.to_dict()
    old = data["dice"]
    dice = SeededDice(old.get("seed", 0) + 1 if old["kind"] == "seeded" else 1)
    dice.log = [tuple(r) for r in old["log"]]
    return type(state).from_dict(data, dice=dice)


def _uniform(sides: int) -> dict[int, Fraction]:
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def _combine(parts: list[dict[int, Fraction]], join) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for combo in product(*(p.items() for p in parts)):
        value = join([v for v, _ in combo])
        prob = Fraction(1)
        for _, p in combo:
            prob *= p
        out[value] = out.get(value, Fraction(0)) + prob
    return dict(sorted(out.items()))


def _d3() -> dict[int, Fraction]:
    return {v: Fraction(1, 3) for v in (1, 2, 3)}


DISTRIBUTIONS = {
    "d6": lambda: _uniform(6),
    "d3": _d3,
    "d10": lambda: _uniform(10),
    "2d6": lambda: _combine([_uniform(6)] * 2, sum),
    "2d3": lambda: _combine([_d3()] * 2, sum),
    "2d10": lambda: _combine([_uniform(10)] * 2, sum),
    "D66": lambda: _combine([_uniform(6)] * 2, lambda v: 10 * v[0] + v[1]),
}


def distribution(expr: str) -> dict[int, Fraction]:
    """Exact distribution of a dice expression (d6, 2d6, d3, 2d3, D66, d10, 2d10) as value -> Fraction."""
    try:
        return DISTRIBUTIONS[expr]()
    except KeyError:
        raise DiceError(f"unknown dice expression {expr!r}; known: {', '.join(DISTRIBUTIONS)}") from None


def probability_at_least(expr: str, target: int) -> Fraction:
    """P(expr >= target), exactly."""
    return sum((p for v, p in distribution(expr).items() if v >= target), Fraction(0))
