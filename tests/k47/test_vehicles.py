"""KV-: vehicles as units, their movement and facing, walkers, Down, rams (scripted dice, exact outcomes)."""
from __future__ import annotations

import numpy as np

from envs.engine.dice import ScriptedDice
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.ruleset import K47
from envs.k47.shooting import need
from envs.k47.state import ORDERS

RS = K47()
A5, B2, B3 = 4, 6, 7
PASS = CODEC.encode("pass")


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def game(spec, dice=()):
    return RS.build_position(spec, ScriptedDice(list(dice)))


def cells(g):
    return {CODEC.decode(int(a))[1][0] for a in np.flatnonzero(g.legal_action_mask()) if CODEC.decode(int(a))[0] == "cell"}


def idx(x, y):
    return y * 24 + x


def test_KV_GEN_1_a_vehicle_is_one_model_with_a_damage_value_a_die_and_order_tests():
    g = game({"only": ["A5", "B2"], "units": {"A5": {"pins": 2}}, "decide": ["order", "A5"]}, [5, 5])
    a5 = g.units[A5]
    assert len(a5.models) == 1 and g.tables.vehicle_damage[a5.vclass] == 10 and g.tables.quality[a5.quality][0] == 9
    ev = g.apply(order("advance"))                   # KC-ORD-7 as infantry: 5 + 5 = 10 > 9 - 2: Down instead
    assert a5.order == "down" and a5.pins == 2 and "KC-ORD-7" in [e.rule for e in ev]


def test_KV_MOVE_1_tracked_9_and_18_inches_and_never_into_buildings():
    g = game({"only": ["A5", "B2"], "units": {"A5": {"at": [0, 17]}}, "decide": ["order", "A5"]})
    g.apply(order("advance"))
    assert idx(0, 13) in cells(g) and idx(0, 12) not in cells(g)             # 8" yes, 10" no
    g = game({"only": ["A5", "B2"], "units": {"A5": {"at": [0, 17]}}, "decide": ["order", "A5"]})
    g.apply(order("run"))
    assert idx(0, 8) in cells(g) and idx(0, 7) not in cells(g)               # 18" yes, 20" no
    assert not [a for a in np.flatnonzero(g.legal_action_mask()) if CODEC.decode(int(a))[0] == "enter"]


def test_KV_MOVE_1_slow_vehicles_6_and_12_inches():
    g = game({"only": ["A5", "B2"], "units": {"A5": {"at": [0, 17]}}, "decide": ["order", "A5"]})
    g.units[A5].tracked = False
    g.refresh()
    g.apply(order("advance"))
    assert idx(0, 14) in cells(g) and idx(0, 13) not in cells(g)             # 6" yes, 8" no


def test_KV_MOVE_2_a_vehicle_faces_the_way_it_moved():
    for to, facing in (((3, 17), 2), ((0, 13), 0), ((2, 15), 1)):
        g = game({"only": ["A5", "B2"], "units": {"A5": {"at": [0, 17], "facing": 4}}, "decide": ["order", "A5"]})
        g.apply(order("advance"))
        g.apply(CODEC.encode("cell", idx(*to)))
        assert g.units[A5].cell == to and g.units[A5].facing == facing         # E, N, NE


def test_KV_DMG_4_going_down_does_not_make_a_vehicle_harder_to_hit():
    g = game({"only": ["A5", "B3"], "units": {"B3": {"at": [19, 12]}}, "decide": ["unit", 0]})
    b3, a5 = g.units[B3], g.units[A5]
    up = need(g, b3, "bazooka", a5, 8.0, False)
    a5.order = "down"
    assert need(g, b3, "bazooka", a5, 8.0, False) == up == 4                # base 3, shaped -1
    before = need(g, a5, "mmg", b3, 8.0, False)
    b3.order = "down"                                                        # infantry Down: -2 (KC-ORD-6)
    assert need(g, a5, "mmg", b3, 8.0, False) == before + 2


def test_KV_DMG_2_walkers_get_no_side_or_rear_bonus():
    def shot(vclass, dice):
        g = game({"only": ["A5", "B3"], "units": {"A5": {"at": [19, 15], "facing": 4}, "B3": {"at": [19, 12]}},
                  "decide": ["order", "B3"]}, dice)
        g.units[A5].vclass = vclass
        g.apply(order("fire"))
        g.apply(CODEC.encode("target", A5, 0))
        g.apply(PASS)
        return g
    tank = shot("heavy_tank", [4, 3, 1])        # rear +2: 3 + 5 + 2 = 10 >= 10 penetrates, stunned
    walker = shot("heavy_walker", [4, 3])       # no bonus: 3 + 5 = 8 < 9
    assert tank.units[A5].pins == 2 and walker.units[A5].pins == 1 and walker.dice.remaining == 0


def ram_from(at, dice):
    g = game({"only": ["A5", "B1", "B2"], "units": {"A5": {"at": at}, "B2": {"in": ["W", 0]}},
              "decide": ["order", "A5"]}, dice)
    g.apply(order("run"))
    w = g.board.section_named("W").index
    return g, w, g.apply(CODEC.encode("ram", w))


def test_KV_RAM_2_a_ram_ends_on_a_cell_sharing_an_edge_occupants_react_from_over_6_inches():
    g, w, _ = ram_from([19, 16], [])                 # KC-CQ-3 (clarified): B2 decides while A5 is at its start
    assert g.units[A5].cell == (19, 16) and g.decision[0] == Decision.REACT_FIRE and g.current_side == 1
    g, w, ev = ram_from([18, 13], [6, 1, 1])     # 3" from W's wall: no reaction; 16 against 2: collapse
    assert g.units[A5].cell == (18, 11) and g.section_state[w] == "rubble" and not g.units[B2].alive
    assert "KV-RAM-6" in [e.rule for e in ev] and g.dice.remaining == 0
