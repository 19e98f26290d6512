"""A first rule test through the builders: fire at range 1 into a building."""
from envs.rifles.state import FIRST

from .builders import act, dice, enemy, fresh, only, player, put


def test_RB_FIRE_2_range_one_into_building_needs_six():
    game = fresh()
    only(game, "B", "X")
    x = enemy(game, "X", ["rifle", "rifle"], "2a")
    put(game, "B", 1)
    act(game, "activate", player(game, "B").gid)
    # B1 rifle 1 die, B2 LMG 2 dice, B3 rifle 1 die: TN 4 + 2 = 6
    dice(game, 5, 6, 5, 5, 1, 1)   # one hit (the 6); USN d6=1 -> random OK unit, d2 -> first
    act(game, "fire", x.gid, 0)
    assert [u.suppressed for u in x.units] == [True, False]
    assert game.ap == 3
    assert x.level != FIRST
