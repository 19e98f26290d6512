"""The scripted player's priority rules R1-R10 (KC-AI-4..13), each from a built position and its side's view."""
from __future__ import annotations

import numpy as np

from agents.scripted.k47 import SCALE, K47Scripted
from envs.engine.dice import ScriptedDice
from envs.k47 import geometry
from envs.k47.actions import CODEC
from envs.k47.ruleset import K47
from envs.k47.state import ORDERS

RS = K47()
A1, A3, A5, B1, B2, B3, B4 = 0, 2, 4, 5, 6, 7, 8


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def position(spec, **options):
    return RS.build_position(spec, ScriptedDice([]), **options)


def act(g):
    side = g.current_side
    return K47Scripted(side).act(None, g.legal_action_mask(), g.view(side))


def plan(g, uid):
    return K47Scripted(g.units[uid].side).plan(g.view(g.units[uid].side), g.view(g.units[uid].side).units[uid])


def test_KC_AI_4_R1_assault_inside_with_twice_its_models():
    g = position({"only": ["A1", "B3"], "units": {"A1": {"at": [9, 1]}, "B3": {"in": ["T1", 0]}},
                  "decide": ["order", "A1"]})
    assert act(g) == order("run")                              # 8 models >= 2 x 2
    g.apply(order("run"))
    assert act(g) == CODEC.encode("assault", B3)
    g = position({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 1]}, "B1": {"in": ["T1", 0]}},
                  "decide": ["order", "A1"]})
    assert plan(g, A1)[0] != 1                                 # 8 < 2 x 8: no assault


def test_KC_AI_4_R1_assault_outside_when_round_1_kills_cover_its_models():
    # A1: SMG 2 attacks + 7 others, each kills on 4+ (1/2): E = 9/2 >= B3's 2 models
    g = position({"only": ["A1", "B3"], "units": {"A1": {"at": [9, 14]}, "B3": {"at": [9, 9]}}, "decide": ["order", "A1"]})
    assert plan(g, A1)[:3] == (1, 2 * SCALE, "run")              # scored by its 2 models (in 288ths)
    g.apply(order("run"))
    assert act(g) == CODEC.encode("assault", B3)


def test_KC_AI_5_R2_flamethrower_prefers_the_bunker_to_a_bigger_squad_in_the_open():
    g = position({"only": ["A3", "B2", "B4"], "units": {"A3": {"at": [4, 9]}, "B2": {"at": [6, 9]}},
                  "decide": ["order", "A3"]})
    assert plan(g, A3)[0] == 2 and act(g) == order("fire")
    g.apply(order("fire"))
    mask = g.legal_action_mask()
    assert mask[CODEC.encode("target", B2, 0)] and act(g) == CODEC.encode("target", B4, 0)


def test_KC_AI_7_R4_rally_at_3_pins_before_firing():
    g = position({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 3}, "B2": {"at": [2, 9]}},
                  "decide": ["order", "A1"]})
    assert plan(g, A1)[0] == 4 and act(g) == order("rally")
    g.units[A1].pins = 2
    assert plan(g, A1)[0] == 5 and act(g) == order("fire")     # R5 at 2 pins


def test_KC_AI_9_R6_occupy_the_nearby_empty_house():
    g = position({"only": ["A1", "B1"], "units": {"A1": {"at": [18, 14]}}, "decide": ["order", "A1"]})
    assert plan(g, A1)[0] == 6 and act(g) == order("run")
    g.apply(order("run"))
    assert act(g) == CODEC.encode("enter", g.board.section_named("W").index)


def test_KC_AI_10_R7_climb_with_no_target():
    g = position({"only": ["A5", "B1"], "units": {"A5": {"at": [0, 17]}, "B1": {"in": ["T1", 0]}},
                  "decide": ["order", "B1"]})
    assert plan(g, B1)[0] == 7 and act(g) == order("advance")   # small arms cannot hurt the tank: no target
    g.apply(order("advance"))
    assert act(g) == CODEC.encode("floor", g.units[B1].section, 1)


def test_KC_AI_11_R8_advance_to_the_best_cover():
    g = position({"only": ["A1", "B1"], "units": {"A1": {"at": [14, 16]}, "B1": {"in": ["T1", 2]}},
                  "decide": ["order", "A1"]}, no_building_entry=True)
    assert plan(g, A1)[0] == 8 and act(g) == order("advance")
    g.apply(order("advance"))
    threat = g.point_of(g.units[B1])
    cells = [CODEC.decode(int(a))[1][0] for a in np.flatnonzero(g.legal_action_mask()) if CODEC.decode(int(a))[0] == "cell"]
    best = max(geometry.cover(g, threat, g.board.cell_of(c)) for c in cells)
    chosen = CODEC.decode(act(g))[1][0]
    assert best == 2 and geometry.cover(g, threat, g.board.cell_of(chosen)) == best      # hard cover reachable


def test_KC_AI_12_R9_hold_on_the_top_floor_with_an_enemy_within_24():
    g = position({"only": ["A5", "B1"], "units": {"A5": {"at": [9, 12]}, "B1": {"in": ["T1", 2]}},
                  "decide": ["order", "B1"]})
    assert plan(g, B1)[0] == 9 and act(g) == order("ambush")


def test_KC_AI_13_R10_down_inside_when_it_cannot_get_closer():
    g = position({"only": ["A5", "B1"], "units": {"A5": {"at": [23, 17]}, "B1": {"in": ["T1", 2]}},
                  "decide": ["order", "B1"]})
    assert plan(g, B1)[0] == 10 and act(g) == order("down")


def test_KC_AI_15_the_fixed_weapon_takes_the_opening_seeing_most_enemies():
    g = position({"only": ["A1", "A2", "B4"], "units": {"A1": {"at": [7, 6]}, "A2": {"at": [7, 9]}},
                  "decide": ["order", "B4"]})
    g.apply(order("advance"))
    g.apply(CODEC.encode("pass"))
    assert g.decision[0] == "opening"
    # the east slit of (4, 7) sees A1 and A2; the south slits only A2
    assert act(g) == CODEC.encode("cell", 7 * 24 + 5)


def test_KC_AI_15_keep_ambush_without_a_target_and_down_at_2_pins():
    agent = K47Scripted(1)
    g = position({"only": ["A5", "B1", "B2"], "units": {"A5": {"at": [0, 17]}, "B1": {"in": ["T1", 2], "order": "ambush"},
                  "B2": {"at": [19, 6], "order": "down", "pins": 2}}, "decide": ["none"]})
    view = g.view(1)
    assert agent.on_keep(view, {"uid": B1}, None) == CODEC.encode("yes")       # small arms cannot hurt the tank
    assert agent.on_keep(view, {"uid": B2}, None) == CODEC.encode("yes")
    g.units[B2].pins = 1
    assert agent.on_keep(g.view(1), {"uid": B2}, None) == CODEC.encode("pass")


def test_KC_AI_8_inside_the_value_of_a_target_is_that_of_its_sides_firers():
    from fractions import Fraction

    from agents.scripted.k47 import expected_kills
    g = position({"only": ["A1", "A2", "B1"], "units": {"A1": {"at": [8, 11]}, "A2": {"at": [5, 6]},
                  "B1": {"in": ["T1", 1]}}, "decide": ["order", "B1"]})
    g.apply(order("fire"))
    agent, view = K47Scripted(1), g.view(1)
    west = agent.side_weapons(view, view.units[B1], view.units[1], g.decision[1])
    # the west window: SMG and automatic rifle at 5" (point blank, 2+), each 2 shots killing on 4+
    assert [n for _, n, _, _ in west] == ["smg", "automatic_rifle"]
    assert expected_kills(view, view.units[B1], view.units[1], False, weapons=west) == 4 * Fraction(5, 6) * Fraction(1, 2) * SCALE
    assert act(g) == CODEC.encode("target", 1, 0)                        # A2 (west) first: 5/3 against A1's less
    g.apply(CODEC.encode("target", 1, 0))
    assert act(g) == CODEC.encode("target", A1, 0)                       # then A1 with the south side's rifles
