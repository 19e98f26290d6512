"""The order-dice bag (envs.engine.orderbag): draws on the dice stream, counts, save/restore."""
from __future__ import annotations

from collections import Counter

import pytest

from envs.engine.dice import ScriptedDice, SeededDice
from envs.engine.orderbag import BagError, OrderBag


def test_scripted_face_picks_side_by_position_in_the_bag():
    bag = OrderBag.filled([3, 2])
    dice = ScriptedDice([3, 4])
    assert bag.draw(dice) == 0          # faces 1..3 are side 0's dice
    assert bag.counts == [2, 2]
    assert bag.draw(dice) == 1          # now faces 1..2 side 0, 3..4 side 1
    assert bag.counts == [2, 1]
    assert dice.log == [(5, 3), (4, 4)]  # the die's size is the number of dice in the bag


def test_one_side_left_draws_without_rolling():
    bag = OrderBag.filled([0, 2])
    dice = ScriptedDice([])
    assert bag.draw(dice) == 1
    assert dice.log == []


def test_empty_bag_refuses_to_draw():
    with pytest.raises(BagError, match="empty bag"):
        OrderBag.filled([0, 0]).draw(ScriptedDice([1]))


def test_take_and_put_change_only_that_side():
    bag = OrderBag.filled([2, 1])
    bag.take(1)
    assert bag.counts == [2, 0]
    with pytest.raises(BagError, match="side 1 has no die"):
        bag.take(1)
    bag.put(1, 2)
    assert bag.counts == [2, 2] and bag.total == 4


def test_draw_is_uniform_over_dice_not_sides():
    counts = Counter()
    dice = SeededDice(11)
    for _ in range(6000):
        counts[OrderBag.filled([5, 1]).draw(dice)] += 1
    assert 0.80 < counts[0] / 6000 < 0.87      # 5/6 = 0.833


def test_same_seed_same_draw_order():
    def order(seed):
        bag, dice = OrderBag.filled([4, 4]), SeededDice(seed)
        return [bag.draw(dice) for _ in range(8)]
    assert order(3) == order(3)
    assert sorted(order(3)) == [0] * 4 + [1] * 4


def test_save_restore_round_trip_does_not_alias():
    bag = OrderBag.filled([3, 1])
    copy = OrderBag.from_dict(bag.to_dict())
    copy.take(0)
    assert bag.counts == [3, 1] and copy.counts == [2, 1]
    assert bag.probability(1) == 0.25
