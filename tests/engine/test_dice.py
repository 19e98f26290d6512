"""Dice: determinism, scripted faces, derived dice (RB-GEN-1..3), exact distributions, save/restore, branching."""
from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from envs.engine.dice import Dice, DiceError, ScriptedDice, SeededDice, distribution, probability_at_least

# Seeded determinism --------------------------------------------------------------------------------

def test_same_seed_same_rolls():
    a, b = SeededDice(7), SeededDice(7)
    assert [a.roll(s) for s in (6, 10, 3, 6) * 200] == [b.roll(s) for s in (6, 10, 3, 6) * 200]


def test_different_seeds_differ():
    assert SeededDice(1).dice(50) != SeededDice(2).dice(50)


def test_seeded_faces_stay_in_range():
    dice = SeededDice(3)
    for sides in (1, 2, 3, 6, 10, 20):
        faces = dice.dice(500, sides)
        assert min(faces) == 1 and max(faces) == sides


def test_log_records_sides_and_face():
    dice = ScriptedDice([4, 9, 2])
    dice.d6(), dice.d10(), dice.d3()
    assert dice.log == [(6, 4), (10, 9), (6, 2)]


def test_seeded_log_matches_results():
    dice = SeededDice(11)
    faces = dice.dice(5, 10)
    assert dice.log == [(10, f) for f in faces]


# Scripted dice -------------------------------------------------------------------------------------

def test_scripted_returns_faces_in_order():
    dice = ScriptedDice([6, 1, 4])
    assert [dice.d6(), dice.d6(), dice.d6()] == [6, 1, 4]
    assert dice.remaining == 0


def test_scripted_exhaustion_raises():
    dice = ScriptedDice([3])
    dice.d6()
    with pytest.raises(DiceError, match="exhausted"):
        dice.d6()


def test_scripted_wrong_face_raises():
    with pytest.raises(DiceError, match="cannot come up on a d6"):
        ScriptedDice([7]).d6()


def test_scripted_wrong_face_does_not_consume():
    dice = ScriptedDice([8, 2])
    with pytest.raises(DiceError):
        dice.d6()
    assert dice.remaining == 2 and dice.log == []


# Derived dice (RB-GEN-1..3) ------------------------------------------------------------------------

def test_RB_GEN_1_d3_is_d6_halved_rounded_up():
    dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    assert [dice.d3() for _ in range(6)] == [1, 1, 2, 2, 3, 3]
    assert all(sides == 6 for sides, _ in dice.log)


def test_RB_GEN_1_2d3_is_sum_of_two_d3():
    assert ScriptedDice([6, 3]).two_d3() == 5


def test_RB_GEN_2_d66_first_die_is_tens_second_units():
    assert ScriptedDice([2, 5]).d66() == 25
    assert ScriptedDice([5, 2]).d66() == 52


def test_RB_GEN_3_pick_of_one_rolls_nothing():
    dice = ScriptedDice([])
    assert dice.pick(1) == 0
    assert dice.log == []


def test_RB_GEN_3_pick_rolls_one_die_of_size_n():
    dice = ScriptedDice([3])
    assert dice.pick(4) == 2
    assert dice.log == [(4, 3)]


def test_pick_of_none_raises():
    with pytest.raises(DiceError):
        SeededDice(0).pick(0)


# Exact distributions -------------------------------------------------------------------------------

def _brute(dice_sides: list[int], join) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    weight = Fraction(1, int(np.prod(dice_sides)))
    for faces in product(*(range(1, s + 1) for s in dice_sides)):
        value = join(faces)
        out[value] = out.get(value, Fraction(0)) + weight
    return out


def _half_up(face: int) -> int:
    return (face + 1) // 2


BRUTE = {
    "d6": ([6], lambda f: f[0]),
    "2d6": ([6, 6], sum),
    "d3": ([6], lambda f: _half_up(f[0])),
    "2d3": ([6, 6], lambda f: _half_up(f[0]) + _half_up(f[1])),
    "D66": ([6, 6], lambda f: 10 * f[0] + f[1]),
    "d10": ([10], lambda f: f[0]),
    "2d10": ([10, 10], sum),
}


@pytest.mark.parametrize("expr", sorted(BRUTE))
def test_distribution_sums_to_one(expr):
    assert sum(distribution(expr).values()) == 1


@pytest.mark.parametrize("expr", sorted(BRUTE))
def test_distribution_matches_brute_force(expr):
    sides, join = BRUTE[expr]
    assert distribution(expr) == _brute(sides, join)


def test_known_values():
    assert distribution("2d6")[7] == Fraction(1, 6)
    assert len(distribution("D66")) == 36
    assert probability_at_least("2d6", 8) == Fraction(15, 36)
    assert probability_at_least("d6", 1) == 1


def test_unknown_expression_raises():
    with pytest.raises(DiceError, match="unknown dice expression"):
        distribution("3d7")


def test_seeded_2d6_frequencies_match_exact_distribution():
    dice = SeededDice(2024)
    n = 60_000
    counts = np.bincount([dice.two_d6() for _ in range(n)], minlength=13)
    for value, p in distribution("2d6").items():
        # The standard error is at most 0.0015 for n = 60k; 0.006 is four of them.
        assert abs(counts[value] / n - float(p)) < 0.006, value


# Save / restore and branching ----------------------------------------------------------------------

def test_seeded_to_dict_continues_identically():
    dice = SeededDice(5)
    dice.dice(700)  # past one buffer refill
    restored = Dice.from_dict(json.loads(json.dumps(dice.to_dict())))
    assert restored.dice(1200, 10) == dice.dice(1200, 10)
    assert restored.log[:700] == dice.log[:700]


def test_scripted_to_dict_continues_identically():
    dice = ScriptedDice([1, 2, 3, 4])
    dice.d6()
    restored = Dice.from_dict(dice.to_dict())
    assert restored.dice(3) == [2, 3, 4] and restored.log == [(6, 1)] + [(6, f) for f in (2, 3, 4)]


def test_unknown_kind_raises():
    with pytest.raises(DiceError, match="unknown dice kind"):
        Dice.from_dict({"kind": "loaded"})


def test_branch_does_not_change_parent_future_rolls():
    parent, twin = SeededDice(9), SeededDice(9)
    parent.dice(10), twin.dice(10)
    child = parent.branch()
    child.dice(100)
    assert parent.dice(600) == twin.dice(600)


def test_branch_gives_a_different_stream():
    parent = SeededDice(9)
    child = parent.branch()
    assert child.dice(50) != SeededDice(9).dice(50)
    assert parent.branch().dice(50) != parent.branch().dice(50)


def test_branch_is_reproducible():
    assert SeededDice(4).branch().dice(30) == SeededDice(4).branch().dice(30)


def test_unseeded_streams_branch_apart():
    # An unseeded stream takes a concrete seed, so branches of two unseeded games are not identical.
    a, b = SeededDice(None), SeededDice(None)
    assert isinstance(a.seed, int)
    assert a.branch().dice(30) != b.branch().dice(30)


def test_scripted_branch_keeps_parent_untouched():
    parent = ScriptedDice([1, 2, 3])
    parent.d6()
    child = parent.branch()
    assert child.dice(2) == [2, 3]
    assert parent.dice(2) == [2, 3]
