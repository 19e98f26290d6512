"""Secret simultaneous orders (envs/engine/secret_orders.py) and the d10 tests (envs/engine/d10.py)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from envs.engine.d10 import command_test, natural_test, p_command, p_natural, plain_test
from envs.engine.dice import ScriptedDice
from envs.engine.secret_orders import HIDDEN, SecretOrders


def round_of_four() -> SecretOrders:
    return SecretOrders([(0, 1), (0, 2), (1, 3), (1, 4)])


def test_the_sequence_of_questions_does_not_depend_on_the_answers():
    seqs = []
    for values in ((0, 0, 1, 1), (1, 1, 0, 0)):
        orders, seq = round_of_four(), []
        for v in values:
            seq.append(orders.pending())
            orders.choose(v)
        seqs.append(seq)
        assert orders.pending() is None
    assert seqs[0] == seqs[1] == [(0, 1), (0, 2), (1, 3), (1, 4)]


def test_a_sealed_choice_is_seen_only_by_its_owner_until_revealed():
    orders = round_of_four()
    orders.choose(1)
    assert orders.seen_by(0, 1) == 1 and orders.seen_by(1, 1) is HIDDEN and orders.seen_by(None, 1) == 1
    assert orders.is_face_down(1)
    assert orders.reveal(1) == 1 and orders.seen_by(1, 1) == 1 and not orders.is_face_down(1)


def test_a_sides_whole_view_of_the_counters_is_each_counter_as_it_sees_it():
    orders = round_of_four()
    for value in (1, 0, 1):
        orders.choose(value)
    orders.reveal(3)
    assert orders.all_seen_by(0) == {1: (True, 1), 2: (True, 0), 3: (False, 1)}
    assert orders.all_seen_by(1) == {1: (True, HIDDEN), 2: (True, HIDDEN), 3: (False, 1)}
    for side in (0, 1, None):
        assert orders.all_seen_by(side) == {k: (orders.is_face_down(k), orders.seen_by(side, k)) for k in (1, 2, 3)}


def test_a_face_up_placement_is_public_and_a_removed_order_forgotten():
    orders = round_of_four()
    orders.place_face_up(1, 9, 0)
    assert orders.seen_by(0, 9) == 0
    orders.choose(1)
    orders.remove(1)
    assert not orders.has(1) and orders.seen_by(0, 1) is HIDDEN


def test_swapped_exchanges_two_face_down_values_of_one_side_only():
    orders = round_of_four()
    for v in (0, 1, 0, 1):
        orders.choose(v)
    swapped = orders.swapped(3, 4)
    assert (swapped.true_value(3), swapped.true_value(4)) == (1, 0) and orders.true_value(3) == 0
    with pytest.raises(ValueError):
        orders.swapped(1, 3)


def test_save_and_restore_keep_every_field():
    orders = round_of_four()
    orders.choose(1)
    orders.reveal(1)
    assert SecretOrders.from_dict(orders.to_dict()).to_dict() == orders.to_dict()


def test_natural_one_fails_and_natural_ten_succeeds_whatever_the_modifier():
    dice = ScriptedDice([1, 10, 5])
    assert natural_test(dice, 20, 10).success is False
    assert natural_test(dice, -20, 10).success is True
    assert natural_test(dice, 4, 10).success is False
    assert plain_test(ScriptedDice([1]), 20, 10).success is True


def test_command_test_auto_fails_on_five_or_less_and_odds_are_exact():
    assert command_test(ScriptedDice([2, 3]), 20).success is False
    assert command_test(ScriptedDice([3, 3]), 9).success is True
    assert p_command(9) == Fraction(90, 100) and p_command(-6) == 0
    assert p_natural(0, 10) == Fraction(1, 10) and p_natural(30, 10) == Fraction(9, 10)
