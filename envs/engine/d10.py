"""d10 tests shared by d10 rulesets: a target roll with natural results, and the 2d10 command check.

Kept in the engine so that every d10 game (Urban War today) rolls and reckons its odds the same way, with
the exact odds a scripted agent needs (Fractions, from envs.engine.dice.distribution).
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import NamedTuple

from .dice import Dice, distribution


class Roll(NamedTuple):
    """One d10 test: the natural face, the modified total and the outcome."""

    face: int
    total: int
    success: bool


def natural_test(dice: Dice, modifier: int, target: int) -> Roll:
    """d10 + modifier >= target, where a natural 1 always fails and a natural 10 always succeeds."""
    face = dice.d10()
    total = face + modifier
    return Roll(face, total, face == 10 or (face != 1 and total >= target))


def plain_test(dice: Dice, modifier: int, target: int) -> Roll:
    """d10 + modifier >= target with no natural-result rule (only the total counts)."""
    face = dice.d10()
    return Roll(face, face + modifier, face + modifier >= target)


def p_natural(modifier: int, target: int) -> Fraction:
    """Exact chance of `natural_test` succeeding."""
    wins = sum(1 for f in range(1, 11) if f == 10 or (f != 1 and f + modifier >= target))
    return Fraction(wins, 10)


def p_plain(modifier: int, target: int) -> Fraction:
    return Fraction(sum(1 for f in range(1, 11) if f + modifier >= target), 10)


def command_test(dice: Dice, bonus: int, target: int = 15, auto_fail: int = 5) -> Roll:
    """2d10: an unmodified total <= auto_fail fails; otherwise total + bonus >= target passes."""
    total = dice.two_d10()
    return Roll(total, total + bonus, total > auto_fail and total + bonus >= target)


@cache
def p_command(bonus: int, target: int = 15, auto_fail: int = 5) -> Fraction:
    """Exact chance of `command_test` passing (kept per bonus: a scripted player asks it at every window)."""
    return sum((p for v, p in distribution("2d10").items() if v > auto_fail and v + bonus >= target), Fraction(0))
