"""Konflikt '47 rule tests: positions built with build_position, scripted dice, exact outcomes (rule IDs by name)."""
from __future__ import annotations

import numpy as np
import pytest

from envs.engine.dice import ScriptedDice
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.ruleset import K47
from envs.k47.shooting import need
from envs.k47.state import ORDERS

RS = K47()
A1, A3, A4, B1, B2, B4 = 0, 2, 3, 5, 6, 8
YES, PASS = CODEC.encode("yes"), CODEC.encode("pass")


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def game(spec, dice):
    return RS.build_position(spec, ScriptedDice(dice))


def rules(events):
    return [e.rule for e in events]


def open_fight(dice, down=False, **units):
    """A1 at (2,16) fires at B2 at (2,9): 14" in the open, no cover (KC-MAP-9)."""
    spec = {"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}, **units},
            "decide": ["order", "A1"]}
    g = game(spec, dice)
    g.apply(order("fire"))
    assert g.decision[0] == Decision.TARGET
    g.apply(CODEC.encode("target", B2, 0))
    assert g.decision[0] == Decision.DOWN and g.current_side == 1       # KC-SHOOT-2: the target's owner decides
    events = g.apply(YES if down else PASS)
    return g, events


def test_KC_SHOOT_5_KC_SHOOT_8_KC_SHOOT_9_open_fire_exact():
    # LMG first (most shots, KB-FROM-4) at 3+ (14" <= 15"), rifles 4+ (long range), SMG out of range (12")
    g, ev = open_fight([3, 2, 1, 6, 4, 3, 5, 1, 6, 2, 4, 1, 6, 3, 5])
    b2 = g.units[B2]
    assert len(b2.models) == 5 and b2.pins == 1                           # KC-SHOOT-7: one pin for the attack
    assert [m.role for m in b2.models] == ["nco", "rifleman", "rifleman", "rifleman", "rifleman"]
    assert [w for m in b2.models for w, _ in m.weapons].count("automatic_rifle") == 1   # KC-SHOOT-9: riflemen first
    assert "KC-SHOOT-8" in rules(ev) and g.dice.remaining == 0


def test_KC_SHOOT_2_KC_ORD_6_down_reaction_takes_a_bag_die_and_minus_2():
    g, ev = open_fight([5, 4, 6, 1, 6, 5, 6, 6, 1, 2, 1, 1, 1, 1, 1], down=True)
    b2 = g.units[B2]
    assert b2.order == "down" and len(b2.models) == 8 and b2.pins == 1   # LMG needs 5, rifles 6: 5 hits, no kill
    assert g.bag.counts == [0, 0]                                          # KC-TURN-8: its die left the bag
    assert g.decision[0] == Decision.KEEP and g.current_side == 1          # KC-TURN-5: turn end, B keeps or returns


def test_KC_ORD_12_pinned_out_before_damage():
    g, ev = open_fight([6, 1, 1, 1, 1, 1, 1, 1, 1, 1], B2={"at": [2, 9], "pins": 8})
    assert not g.units[B2].alive and "KC-ORD-12" in rules(ev) and g.dice.remaining == 0
    assert g.is_over and g.returns() == (1.0, -1.0)                        # KC-SCN-9: no units left loses at once


def test_KC_ORD_12_flag_off_keeps_the_unit():
    spec = {"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9], "pins": 8}},
            "decide": ["order", "A1"]}
    g = RS.build_position(spec, ScriptedDice([6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), pinned_out=False)
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B2, 0))
    g.apply(PASS)
    assert g.units[B2].alive and g.units[B2].pins == 9


def test_KC_ORD_7_failed_order_test_goes_down():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 2}, "B2": {"at": [2, 9]}},
              "decide": ["order", "A1"]}, [5, 5])
    ev = g.apply(order("fire"))
    assert g.units[A1].order == "down" and g.units[A1].pins == 2 and "KC-ORD-7" in rules(ev)


def test_KC_ORD_7_passed_order_test_removes_a_pin():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 2}, "B2": {"at": [2, 9]}},
              "decide": ["order", "A1"]}, [3, 4])
    g.apply(order("fire"))
    assert g.units[A1].order == "fire" and g.units[A1].pins == 1 and g.decision[0] == Decision.TARGET


def test_KC_ORD_8_double_one_clears_all_pins():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 5}, "B2": {"at": [2, 9]}},
              "decide": ["order", "A1"]}, [1, 1])
    g.apply(order("advance"))
    assert g.units[A1].pins == 0 and g.decision[0] == Decision.MOVE


def test_KC_ORD_9_KC_TAB_6_KC_ORD_10_fubar_friendly_fire_without_friends_goes_down():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 1}, "B2": {"at": [2, 9]}},
              "decide": ["order", "A1"]}, [6, 6, 2])
    ev = g.apply(order("fire"))
    r = [x for x in rules(ev) if x in ("KC-ORD-9", "KC-TAB-6", "KC-ORD-10")]
    assert g.units[A1].order == "down" and r == ["KC-ORD-9", "KC-TAB-6", "KC-ORD-10"]


def test_KC_ORD_5_rally_ignores_pins_and_removes_1_plus_d6():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 4}, "B2": {"at": [2, 9]}},
              "decide": ["order", "A1"]}, [4, 4, 2])
    g.apply(order("rally"))
    assert g.units[A1].pins == 1 and g.units[A1].order == "rally"        # 8 <= 9 (pins ignored); 1 + 2 removed


def test_KC_SHOOT_6_seven_and_eight_plus():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16], "pins": 2}, "B2": {"at": [2, 9], "order": "down"}},
              "decide": ["unit", 0]}, [])
    a1, b2 = g.units[A1], g.units[B2]
    assert need(g, a1, "rifle", b2, 14.0, False) == 3 + 1 + 2 + 2           # long -1, 2 pins -2, Down -2 -> 8
    assert need(g, a1, "lmg", b2, 14.0, False) == 7                         # not long at 30"


def test_KB_AT_1_KB_AT_4_KB_AT_5_fire_into_a_window_and_extra_protection():
    g = game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 10]}}, "decide": ["order", "A1"]},
             [4, 4, 1, 2, 5, 3, 6, 1, 1, 1, 1, 1, 5, 6, 6, 4])
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B1, 0))
    assert g.decision[0] == Decision.DOWN                                   # KB-AT-4: may go Down
    ev = g.apply(PASS)
    b1 = g.units[B1]
    # 5" to window S(9,7): point blank +1, inside -2 -> 4+; 4 hits; Extra Protection: only the two 6s kill
    assert len(b1.models) == 6 and b1.pins == 1 and "KB-AT-5" in rules(ev) and g.dice.remaining == 0


def test_KC_IND_1_KB_HE_1_KB_TAB_2_mortar_runs_down_the_floors():
    g = game({"only": ["A4", "B1"], "units": {"A4": {"at": [9, 14]}}, "decide": ["order", "A4"]},
             [6, 2, 5, 5, 3, 2, 1])
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B1, 0))
    ev = g.apply(PASS)
    b1 = g.units[B1]
    # a natural 6 hits; floor 2 drops (2), floor 1 explodes (5); D3 of 5 = 3 hits at Pen +1 vs 4+: 3 kills, 2, 1 fail
    assert len(b1.models) == 7 and b1.pins == 1 and rules(ev).count("KB-TAB-2") == 2
    assert g.ranging == {f"{A4}-{B1}": [2, 1]}                            # KC-IND-3: zeroed in


def test_KB_HE_2_empty_floor_takes_the_blast():
    g = game({"only": ["A4", "B1"], "units": {"A4": {"at": [9, 14]}}, "decide": ["order", "A4"]}, [6, 5])
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B1, 0))
    ev = g.apply(PASS)
    assert len(g.units[B1].models) == 8 and g.units[B1].pins == 0 and "KB-HE-2" in rules(ev)


def test_KB_FLAME_1_KB_FLAME_2_KB_FLAME_4_KB_FLAME_6_KC_FLAME_5_bunker_flamed_evacuated_by_its_door():
    g = game({"only": ["A3", "B4"], "units": {"A3": {"at": [4, 9]}}, "decide": ["order", "A3"]},
             [4, 3, 1, 1, 1, 2, 3, 3, 5, 1])
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B4, 0))
    ev = g.apply(PASS)
    b4 = g.units[B4]
    # auto hit, 4 hits, D3 (3 -> 2) + 1 = 3 pins, one kill (2 + 2 >= 4), morale 6 <= 9 - 3, fire on 5, out
    assert len(b4.models) == 2 and b4.cell == (3, 5) and b4.pins == 4 and b4.order == "down"
    assert g.section_state[RS.build_position({}).board.section_named("K").index] == "burning"
    assert not g.units[A3].alive                                           # fuel roll of 1
    assert rules(ev).index("KB-FLAME-2") < rules(ev).index("KC-FLAME-5")   # KC-FLAME-6 order


def test_KB_ASLT_1_KB_ASLT_2_KB_ASLT_5_assault_the_bunker_door():
    g = game({"only": ["A1", "B4"], "units": {"A1": {"at": [3, 2]}}, "decide": ["order", "A1"]},
             [4, 1, 2, 4, 4, 4, 1, 1, 1, 1, 1])
    g.apply(order("run"))
    assert g.legal_action_mask()[CODEC.encode("assault", B4)]
    ev = g.apply(CODEC.encode("assault", B4))
    a1 = g.units[A1]
    # defenders strike first: 1 kill; A1's 8 attacks (SMG 2) kill 3 -> B4 wiped out; A1 takes its floor
    assert not g.units[B4].alive and len(a1.models) == 7
    assert a1.section == RS.build_position({}).board.section_named("K").index and a1.floor == 0
    assert rules(ev).count("KC-CQ-4") == 2


def test_KB_ENTER_2_run_into_the_house():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [18, 13]}}, "decide": ["order", "A1"]}, [])
    g.apply(order("run"))
    w = g.board.section_named("W").index
    ev = g.apply(CODEC.encode("enter", w))
    assert (g.units[A1].section, g.units[A1].floor, g.units[A1].cell) == (w, 0, None) and "KB-ENTER-2" in rules(ev)


def test_KC_MAP_6_advance_may_not_end_next_to_an_enemy():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [5, 13]}},
              "decide": ["order", "A1"]}, [])
    g.apply(order("advance"))
    mask = g.legal_action_mask()
    assert not mask[CODEC.encode("cell", 14 * 24 + 4)] and mask[CODEC.encode("cell", 15 * 24 + 4)]
    assert mask[PASS]


def test_KC_TURN_7_no_seventh_turn_on_3_draw_on_points():
    g = game({"only": ["A1", "B2"], "units": {"B2": {"at": [2, 9], "order": "fire"}}, "turn": 6,
              "decide": ["order", "A1"]}, [3])
    g.apply(order("down"))
    assert g.decision[0] == Decision.KEEP
    ev = g.apply(PASS)
    assert g.is_over and g.returns() == (0.0, 0.0) and "KC-TURN-7" in rules(ev)


def test_KC_TURN_7_seventh_turn_on_4_and_KC_TURN_1_refill():
    g = game({"only": ["A1", "B2"], "units": {"B2": {"at": [2, 9], "order": "fire"}}, "turn": 6,
              "decide": ["order", "A1"]}, [4, 2])
    g.apply(order("down"))
    g.apply(PASS)
    assert g.turn == 7 and g.decision[0] == Decision.UNIT and g.current_side == 1   # face 2 of 2: B's die
    assert g.bag.counts == [1, 0]


def test_KC_TURN_5_kept_down_sheds_d3_pins_and_stays_out_of_the_bag():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"pins": 3}, "B2": {"at": [2, 9], "order": "fire"}},
              "decide": ["order", "A1"]}, [5, 1, 1])
    g.apply(order("down"))
    g.apply(YES)
    a1 = g.units[A1]
    assert a1.kept and a1.order == "down" and a1.pins == 0              # D3 of 5 = 3
    assert g.turn == 2 and g.bag.counts == [0, 0] and g.decision[0] == Decision.UNIT and g.current_side == 1


def test_KC_TURN_6_reordering_a_kept_die_returns_it():
    g = game({"only": ["A1", "A2", "B2"], "units": {"A1": {"order": "down", "kept": True}, "B2": {"at": [2, 9]}},
              "decide": ["unit", 0]}, [])
    assert g.bag.counts == [0, 1]
    g.apply(CODEC.encode("unit", A1))
    assert not g.units[A1].kept and g.bag.counts == [1, 1] and g.decision[0] == Decision.ORDER


def test_KC_TURN_9_keep_choices_hidden_until_all_are_made():
    def after_a(choice):
        g = game({"only": ["A1", "B2"], "units": {"B2": {"at": [2, 9], "order": "down"}},
                  "decide": ["order", "A1"]}, [])
        g.apply(order("down"))
        assert g.decision[0] == Decision.KEEP and g.current_side == 0
        g.apply(choice)
        assert g.decision[0] == Decision.KEEP and g.current_side == 1
        return g
    kept, returned = after_a(YES), after_a(PASS)
    assert np.array_equal(kept.observation(1), returned.observation(1))
    assert np.array_equal(kept.legal_action_mask(), returned.legal_action_mask())


def test_KC_DEC_3_down_always_legal_and_KC_DEC_2_reactions_declinable():
    g = RS.new_game(seed=3)
    rng = np.random.default_rng(3)
    while not g.is_over:
        mask = g.legal_action_mask()
        kind = g.decision[0]
        if kind == Decision.ORDER:
            assert mask[order("down")]
        if kind in (Decision.DOWN, Decision.REACT_FIRE, Decision.AMBUSH, Decision.KEEP):
            assert mask[PASS] and mask[YES]
        g.apply(int(rng.choice(np.flatnonzero(mask))))


def test_KC_TURN_2_draw_is_a_logged_roll():
    g = game({"only": ["A1", "B2"], "units": {"B2": {"at": [2, 9]}}, "decide": ["order", "A1"]}, [2])
    ev = g.apply(order("ambush"))
    draws = [e for e in ev if e.rule == "KC-TURN-2"]
    assert draws and draws[0].dice == () and g.current_side == 1          # one side left: no roll
    g2 = game({"units": {}, "decide": ["order", "A1"]}, [5])
    ev = g2.apply(order("ambush"))
    draws = [e for e in ev if e.rule == "KC-TURN-2"]
    assert draws[0].dice == (5,) and g2.current_side == 1                  # faces 1-4 are A's 4 dice, 5-8 B's


def test_KC_AMB_1_ambush_fires_at_the_mover_before_it_shoots():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9], "order": "ambush"}},
              "decide": ["order", "A1"]}, [1] * 10)
    g.apply(order("advance"))
    g.apply(CODEC.encode("cell", 14 * 24 + 2))
    assert g.decision[0] == Decision.AMBUSH and g.current_side == 1
    ev = g.apply(YES)
    assert g.units[B2].order == "fire" and "KC-AMB-1" in rules(ev)
    assert g.decision[0] == Decision.TARGET and g.current_side == 0 and g.decision[1]["moved"]   # then it shoots


def test_KC_CQ_3_KC_CQ_5_KC_CQ_6_reaction_fire_then_the_fight():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 11]}},
              "decide": ["order", "A1"]}, [1] * 10 + [4] * 9)
    g.apply(order("run"))
    g.apply(CODEC.encode("assault", B2))
    assert g.units[A1].cell == (2, 16)                                    # KC-CQ-3: the fire comes first
    assert g.decision[0] == Decision.REACT_FIRE and g.current_side == 1   # started 10" away
    ev = g.apply(YES)
    assert g.units[A1].cell == (2, 12)                                    # cheapest 8-adjacent cell (8")
    assert not g.units[B2].alive and len(g.units[A1].models) == 8
    assert "KC-CQ-3" in rules(ev) and "KC-CQ-5" in rules(ev) and g.returns() == (1.0, -1.0)
    assert any(e.text == "B2 loses 8 models" for e in ev)


def test_KC_CQ_3_no_reaction_within_6_inches():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 14]}, "B2": {"at": [2, 11]}},
              "decide": ["order", "A1"]}, [4] * 9)
    g.apply(order("run"))
    g.apply(CODEC.encode("assault", B2))
    assert not g.units[B2].alive


def test_KV_DMG_1_KV_DMG_3_KV_TAB_1_bazooka_immobilises_the_tank():
    g = game({"only": ["A5", "B3"], "units": {"B3": {"at": [19, 12]}}, "decide": ["order", "B3"]}, [4, 5, 2])
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", 4, 0))
    ev = g.apply(PASS)
    a5 = g.units[4]
    assert a5.immobile and a5.pins == 2 and rules(ev).count("KV-DMG-1") == 1 and "KV-TAB-1" in rules(ev)


def test_KB_ORD_1_advance_inside_one_floor_or_one_section():
    g = game({"only": ["B1", "B3", "A1"], "decide": ["order", "B1"]}, [])
    g.apply(order("advance"))
    t1, t2 = g.board.section_named("T1").index, g.board.section_named("T2").index
    legal = {CODEC.decode(int(a)) for a in np.flatnonzero(g.legal_action_mask())}
    assert legal == {("pass", ()), ("floor", (t1, 0)), ("floor", (t1, 2)), ("floor", (t2, 1))}


def test_KB_ORD_2_KB_ORD_3_run_inside_passes_friends_not_enemies():
    g = game({"only": ["B1", "B3", "A1"], "units": {"B1": {"in": ["T2", 0]}, "B3": {"in": ["T2", 1]},
                                                    "A1": {"in": ["T1", 0]}}, "decide": ["order", "B1"]}, [])
    g.apply(order("run"))
    t1, t2 = g.board.section_named("T1").index, g.board.section_named("T2").index
    legal = {CODEC.decode(int(a)) for a in np.flatnonzero(g.legal_action_mask())}
    assert ("floor", (t2, 2)) in legal                                    # passes its friend on floor 1
    assert ("floor", (t1, 0)) not in legal and ("assault", (A1,)) in legal   # KB-ASLT-3: adjoining section
    assert ("floor", (t2, 1)) not in legal


def test_KB_LEAVE_1_KB_LEAVE_2_step_out_for_one_inch():
    g = game({"only": ["B1", "A1"], "units": {"B1": {"in": ["T1", 0]}}, "decide": ["order", "B1"]}, [])
    g.apply(order("advance"))
    mask = g.legal_action_mask()
    assert mask[CODEC.encode("cell", 2 * 24 + 9)] and not mask[CODEC.encode("cell", 1 * 24 + 9)]   # 1 + 4 vs 1 + 6


def test_KC_MAP_4_diagonals_cost_3_inches():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}}, "decide": ["order", "A1"]}, [])
    g.apply(order("advance"))
    mask = g.legal_action_mask()
    assert mask[CODEC.encode("cell", 14 * 24 + 4)] and not mask[CODEC.encode("cell", 14 * 24 + 5)]


def test_KC_MAP_7_los_blocked_by_interiors_not_edges():
    from envs.k47 import geometry
    g = game({"only": ["A1", "B2"], "decide": ["unit", 0]}, [])
    assert not geometry.clear(g, (7.5, 6.5), (14.5, 6.5))
    assert geometry.clear(g, (7.0, 5.0), (15.0, 5.0))
    g.section_state[g.board.section_named("T1").index] = "rubble"
    g.section_state[g.board.section_named("T2").index] = "rubble"
    g.refresh()
    assert geometry.clear(g, (7.5, 6.5), (14.5, 6.5))                      # rubble never blocks


def test_KC_HE_2_KC_SHOOT_7_halved_he_on_a_down_target_keeps_the_pin():
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 16]}, "B2": {"at": [2, 9], "order": "down"}},
              "decide": ["order", "A4"]}, [6, 6, 3])
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B2, 0))
    b2 = g.units[B2]
    assert len(b2.models) == 7 and b2.pins == 1 and g.dice.remaining == 0   # 3 HE hits halved to 1 roll


def test_KC_IND_2_ranging_in_steps_down():
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 16]}, "B2": {"at": [2, 9]}}, "turn": 2,
              "decide": ["unit", 0]}, [])
    a4, b2 = g.units[A4], g.units[B2]
    assert g.ranged_need(a4, b2) == 6
    g.ranging[f"{A4}-{B2}"] = [6, 1]
    assert g.ranged_need(a4, b2) == 5
    g.ranging[f"{A4}-{B2}"] = [6, 0]
    assert g.ranged_need(a4, b2) == 6                                        # not consecutive turns


def ram_position(dice, react=PASS):
    g = game({"only": ["A5", "B1", "B2"], "units": {"B2": {"in": ["W", 0]}}, "decide": ["order", "A5"]}, dice)
    g.apply(order("run"))
    w = g.board.section_named("W").index
    assert g.legal_action_mask()[CODEC.encode("ram", w)]
    g.apply(CODEC.encode("ram", w))
    assert g.units[4].cell == (19, 16)                                    # KC-CQ-3: still at its start
    assert g.decision[0] == Decision.REACT_FIRE and g.current_side == 1   # 9" away: the occupant may fire
    ev = g.apply(react)
    assert next(e.text for e in ev if e.kind == "move") == "A5 moves to (19, 12)"   # the cheapest cell on W's edge
    return g, w, ev


def test_KV_RAM_1_KV_RAM_6_KB_RUIN_1_vehicle_higher_collapses_the_house():
    g, w, ev = ram_position([3, 6, 6])
    a5 = g.units[4]
    assert g.section_state[w] == "rubble" and not g.units[B2].alive and "KB-RUIN-1" in rules(ev)
    assert a5.cell == (19, 11) and a5.order == "down" and a5.pins == 1 and "KV-RAM-7" in rules(ev)


def test_KV_RAM_5_tie_superficial_damage_then_collapse_and_move():
    g, w, ev = ram_position([2, 6, 6, 6])
    a5 = g.units[4]
    assert g.section_state[w] == "rubble" and a5.immobile and a5.cell == (19, 11) and a5.pins == 3
    assert rules(ev).index("KV-TAB-2") < rules(ev).index("KV-RAM-5")


def test_KV_RAM_4_KV_RAM_3_house_higher_vehicle_stays_with_superficial_damage():
    g, w, ev = ram_position([1, 6, 6, 2])
    a5 = g.units[4]
    assert g.section_state[w] == "intact" and g.units[B2].alive and a5.cell == (19, 12) and a5.pins == 2


def test_KB_BUNK_4_bunkers_cannot_be_rammed():
    g = game({"only": ["A5", "B2"], "units": {"A5": {"at": [4, 10]}}, "decide": ["order", "A5"]}, [])
    g.apply(order("run"))
    k = g.board.section_named("K").index
    assert not g.legal_action_mask()[CODEC.encode("ram", k)]


from envs.k47 import geometry  # noqa: E402
from envs.k47.shooting import arc_bonus, firing_weapons  # noqa: E402

B3, B4_, A5 = 7, 8, 4


def names(entries):
    return [name for _, name, _, _ in entries]


def test_KB_AT_2_KB_AT_1_heavy_weapons_range_to_walls_small_arms_to_openings():
    g = game({"only": ["A5", "B1"], "units": {"A5": {"at": [10, 9]}}, "decide": ["unit", 0]}, [])
    a5, b1 = g.units[A5], g.units[B1]
    assert geometry.sight(g, a5, "heavy_at_gun", b1)[0] == pytest.approx(3.0)
    assert geometry.sight(g, a5, "mmg", b1)[0] == pytest.approx(2 * (1 + 1.5 ** 2) ** 0.5)


def test_KB_AT_3_flamethrower_needs_an_opening_within_6():
    far = game({"only": ["A3", "B1"], "units": {"A3": {"at": [9, 11]}}, "decide": ["unit", 0]}, [])
    near = game({"only": ["A3", "B1"], "units": {"A3": {"at": [9, 10]}}, "decide": ["unit", 0]}, [])
    assert firing_weapons(far, far.units[A3], far.units[B1], False) == []
    assert names(firing_weapons(near, near.units[A3], near.units[B1], False)) == ["flamethrower"]


def test_KB_AT_6_no_fire_inside_one_building():
    g = game({"only": ["A1", "B1"], "units": {"A1": {"in": ["T2", 1]}}, "decide": ["unit", 0]}, [])
    assert firing_weapons(g, g.units[B1], g.units[A1], False) == [] and g.targets(g.units[B1], False) == []


def test_KB_FROM_1_KB_FROM_2_KB_FROM_4_two_models_per_opening_from_its_point():
    g = game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 10]}}, "decide": ["unit", 0]}, [])
    fired = firing_weapons(g, g.units[B1], g.units[A1], False)
    assert names(fired) == ["smg", "automatic_rifle"] and [d for _, _, d, _ in fired] == [5.0, 5.0]


def test_KB_BUNK_2_KB_BUNK_3_KB_FROM_5_KC_WPN_3_bunker_slits_fixed_mmg():
    g = game({"only": ["A1", "B4"], "units": {"A1": {"at": [4, 9]}}, "decide": ["unit", 0]}, [])
    b4, a1 = g.units[B4_], g.units[A1]
    assert {o.kind for _, o in geometry.fire_points(g, b4, "rifle")} == {"slit"}
    assert [o.cell + (o.side,) for _, o in geometry.fire_points(g, b4, "mmg")] == [(4, 7, "S")]
    assert need(g, a1, "rifle", b4, 3.0, False) == 6                    # point blank +1, bunker -4
    assert names(firing_weapons(g, b4, a1, False)) == ["mmg"] and firing_weapons(g, b4, a1, True) == []


def test_KC_IND_1_minimum_range_and_KC_IND_5_not_from_inside():
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 16]}, "B2": {"at": [2, 11]}}, "decide": ["unit", 0]}, [])
    assert firing_weapons(g, g.units[A4], g.units[B2], False) == []     # 10" < 12"
    g2 = game({"only": ["A4", "B2"], "units": {"A4": {"in": ["W", 0]}, "B2": {"at": [18, 1]}}, "decide": ["unit", 0]}, [])
    assert firing_weapons(g2, g2.units[A4], g2.units[B2], False) == []


def test_KC_WPN_1_assault_weapons_ignore_the_move_and_KC_WPN_4_shaped():
    g = game({"only": ["A1", "B2", "B3", "A5"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 13]},
              "B3": {"at": [19, 12]}}, "decide": ["unit", 0]}, [])
    a1, b2 = g.units[A1], g.units[B2]
    assert need(g, a1, "smg", b2, 6.0, True) == 2 and need(g, a1, "rifle", b2, 6.0, True) == 3
    assert need(g, g.units[B3], "bazooka", g.units[A5], 8.0, False) == 4


def test_KV_ARC_1_KV_FIRE_1_arcs_and_hull_weapons():
    g = game({"only": ["A5", "B2"], "units": {"B2": {"at": [10, 16]}}, "decide": ["unit", 0]}, [])
    a5 = g.units[A5]
    assert [arc_bonus(g, a5, p) for p in ((19.5, 10.0), (25.0, 16.5), (19.5, 17.9))] == [0, 1, 2]
    assert names(firing_weapons(g, a5, g.units[B2], False)) == ["heavy_at_gun", "mmg"]   # hull MMG out of arc


def test_KC_SCN_8_objective_held_only_without_enemies():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"in": ["W", 0]}}, "decide": ["unit", 0]}, [])
    assert g.holder("W") == 0 and g.holder("T") is None
    g2 = game({"only": ["A1", "B2"], "units": {"A1": {"in": ["W", 0]}, "B2": {"in": ["W", 1]}}, "decide": ["unit", 0]}, [])
    assert g2.holder("W") is None


def test_KC_SHOOT_10_half_strength_morale_check_fails():
    g, ev = open_fight([3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 6, 5], B2={"at": [2, 9], "models": 4})
    assert not g.units[B2].alive and "KC-SHOOT-10" in rules(ev) and g.dice.remaining == 0


def test_KC_FLAME_1_KC_FLAME_2_KC_FLAME_3_flame_in_the_open():
    g = game({"only": ["A3", "B2"], "units": {"A3": {"at": [2, 13]}, "B2": {"at": [2, 11]}}, "decide": ["order", "A3"]},
             [3, 1, 1, 1, 3, 3, 6])   # point blank +1, long range (> 3") -1: 3+
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B2, 0))
    ev = g.apply(PASS)
    b2 = g.units[B2]
    assert b2.pins == 2 and len(b2.models) == 8 and "KC-FLAME-3" in rules(ev) and g.dice.remaining == 0


def test_KC_TURN_4_KC_TURN_8_unit_destroyed_before_its_order_takes_its_die_out():
    g = game({"only": ["A1", "B1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9], "pins": 8}},
              "decide": ["order", "A1"]}, [6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert g.bag.counts == [0, 2]
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B2, 0))
    g.apply(PASS)
    assert not g.units[B2].alive and g.bag.counts == [0, 0] and g.current_side == 1   # B1's die was drawn
    g.check_invariants()


def test_KB_ENTER_3_enemy_held_floor_only_by_assault():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [18, 13]}, "B2": {"in": ["W", 0]}},
              "decide": ["order", "A1"]}, [])
    g.apply(order("run"))
    w = g.board.section_named("W").index
    mask = g.legal_action_mask()
    assert not mask[CODEC.encode("enter", w)] and mask[CODEC.encode("assault", B2)]


def test_KC_MOVE_3_moving_resets_ranging_in():
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 17]}, "B2": {"at": [2, 9]}},
              "decide": ["order", "A4"]}, [])
    g.ranging[f"{A4}-{B2}"] = [4, 1]
    g.apply(order("advance"))
    g.apply(CODEC.encode("cell", 16 * 24 + 3))
    assert g.ranging == {}


def test_KC_HID_3_KC_HID_4_observation_shows_the_bag_not_the_future_dice():
    from envs.engine.dice import with_other_dice
    g = RS.new_game(seed=9)
    for side in (0, 1):
        assert np.array_equal(g.observation(side), with_other_dice(g).observation(side))
    obs = g.observation(0)
    assert obs[1] * 16 == g.bag.counts[0] and obs[2] * 16 == g.bag.counts[1]


def test_KC_SHOOT_4_targets_need_range_and_sight():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 17]}, "B2": {"at": [22, 0]}}, "decide": ["unit", 0]}, [])
    assert g.targets(g.units[A1], False) == []                            # 52" away: beyond every weapon
    g2 = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}}, "decide": ["unit", 0]}, [])
    assert g2.targets(g2.units[A1], False) == [B2]
