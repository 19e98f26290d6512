"""Ammunition resupply (CF-AMMO-1)."""
from envs.cityfight import ammo

from .builders import build, dice, el, scenario

MAP = """
......
......
......
"""


def test_CF_AMMO_1_ooa_weapons_recover_from_the_next_turn_on_d6_at_or_under_ar():
    game = build(spec=scenario(MAP, ammo_rating=(3, 2)), attackers=[("A1", "D", "a1"), ("A2", "D", "b1"), ("A3", "D", "c1")],
                 defenders=[("D1", "B", "f3", "RPG")])
    a1, a2, a3, d1 = (el(game, n) for n in ("A1", "A2", "A3", "D1"))
    a1.ooa, a1.ooa_turn = True, 1               # ran out this turn: no roll yet
    a2.ooa, a2.ooa_turn = True, 0
    a3.ooa, a3.ooa_turn = True, 0
    d1.special_ooa, d1.special_ooa_turn = True, 0
    dice(game, 3, 4, 3)
    ammo.resupply(game)
    assert a1.ooa and not a2.ooa and a3.ooa and d1.special_ooa   # 3 <= 3; 4 > 3; defender AR 2: 3 > 2
    assert game.dice.remaining == 0
