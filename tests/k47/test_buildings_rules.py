"""KB-: entering, fire from and into buildings, HE, fire, leaping out, artillery, bunkers, ram scores (scripted dice)."""
from __future__ import annotations

import numpy as np

from envs.engine.dice import ScriptedDice
from envs.k47 import flames, geometry
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.ruleset import K47
from envs.k47.shooting import damage_roll
from envs.k47.state import ORDERS

RS = K47()
A1, A4, A5, B1, B2, B3, B4 = 0, 3, 4, 5, 6, 7, 8
PASS = CODEC.encode("pass")


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def game(spec, dice=()):
    return RS.build_position(spec, ScriptedDice(list(dice)))


def legal(g):
    return {CODEC.decode(int(a)) for a in np.flatnonzero(g.legal_action_mask())}


def rules(events):
    return [e.rule for e in events]


def test_KB_ENTER_1_only_infantry_enters():
    tank = game({"only": ["A5", "B1"], "units": {"A5": {"at": [18, 13]}}, "decide": ["order", "A5"]})
    tank.apply(order("run"))
    squad = game({"only": ["A1", "B1"], "units": {"A1": {"at": [18, 13]}}, "decide": ["order", "A1"]})
    squad.apply(order("run"))
    w = squad.board.section_named("W").index
    assert not [a for a in legal(tank) if a[0] == "enter"] and ("enter", (w,)) in legal(squad)


def test_KB_ENTER_4_one_move_never_leaves_one_building_and_enters_another():
    g = game({"only": ["B1", "A1"], "units": {"B1": {"in": ["T1", 0]}}, "decide": ["order", "B1"]})
    g.apply(order("run"))
    moves = legal(g)
    assert ("cell", (4 * 24 + 9,)) in moves                      # it may leave (KB-LEAVE-2) ...
    assert not [a for a in moves if a[0] == "enter"]             # ... but not into K or W in the same Run


def plunging(floor, facing, dice, vclass="heavy_tank"):
    """B3 (bazooka) in T2 on `floor` fires at A5 at (12, 11): 7" from the south door/window S(12,7)."""
    g = game({"only": ["A5", "B3"], "units": {"A5": {"at": [12, 11], "facing": facing}, "B3": {"in": ["T2", floor]}},
              "decide": ["order", "B3"]}, dice)
    g.units[A5].vclass = vclass
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", A5, 0))
    assert g.decision[0] == Decision.DOWN
    return g, g.apply(PASS)


def test_KB_FROM_6_plunging_fire_adds_one_pen_from_floor_1_up():
    # to hit 4+ (shaped -1); penetration 4 + Pen 5 (+1 plunging) >= 10; damage 4: knocked out
    g, ev = plunging(2, 0, [4, 4, 4])
    assert not g.units[A5].alive and "KV-TAB-1" in rules(ev) and g.dice.remaining == 0
    g, ev = plunging(0, 0, [4, 4])                        # floor 0: 4 + 5 = 9 < 10, one pin only (KV-DMG-3)
    assert g.units[A5].alive and g.units[A5].pins == 1 and g.dice.remaining == 0


def test_KB_FROM_7_plunging_fire_does_not_stack_with_the_rear_bonus():
    g, ev = plunging(2, 4, [4, 2])                        # facing S: the shot comes from the rear (+2); 2+5+2 = 9
    assert g.units[A5].alive and g.units[A5].pins == 1 and g.dice.remaining == 0
    g, ev = plunging(2, 4, [4, 3, 1])                     # 3+5+2 = 10 penetrates; damage 1: stunned
    assert g.units[A5].pins == 2 and g.units[A5].order == "down"


def test_KB_FROM_7_KV_DMG_2_no_plunging_fire_on_walkers():
    g, ev = plunging(2, 4, [4, 4, 1], vclass="heavy_walker")   # rear and top ignored: 4 + 5 = 9 >= 9; stunned
    assert g.units[A5].pins == 2 and g.units[A5].order == "down" and g.dice.remaining == 0
    g, ev = plunging(2, 4, [4, 3], vclass="heavy_walker")  # 3 + 5 = 8 < 9 (a tank's +2 would make it 10)
    assert g.units[A5].alive and g.units[A5].pins == 1 and g.dice.remaining == 0


def test_KB_HE_3_KB_HE_4_direct_he_at_a_unit_inside_no_floor_roll_no_extra_protection():
    # A5 at (10, 9): 3" to T1's wall (KB-AT-2). Heavy AT gun as HE D3: point blank +1, inside -2: 4+.
    g = game({"only": ["A5", "B1"], "units": {"A5": {"at": [10, 9]}}, "decide": ["order", "A5"]}, [4, 6, 3, 2, 1])
    g.units[A5].models[0].weapons = [("heavy_at_gun", "turret")]   # the gun alone: its MMGs would fire too (KC-HE-1)
    g.refresh()                   # a model changed by hand (Unit.arms)
    g.apply(order("fire"))
    assert g.legal_action_mask()[CODEC.encode("target", B1, 1)]
    g.apply(CODEC.encode("target", B1, 1))
    ev = g.apply(PASS)
    b1 = g.units[B1]
    # D3 of 6 = 3 hits at Pen +1 against damage value 4 (not 6): 3+1 kills, 2+1 and a natural 1 do not
    assert len(b1.models) == 7 and b1.pins == 1 and "KB-TAB-2" not in rules(ev) and g.dice.remaining == 0


def howitzer(b1_order, dice):
    """A4 made a medium howitzer team (HE 2D6) at (20, 17), 26" from T1, firing indirect (mode 1, KC-TAB-3); B1 on
    T1's top floor."""
    g = game({"only": ["A4", "B1"], "units": {"A4": {"at": [20, 17]}, "B1": {"in": ["T1", 2], "order": b1_order}},
              "decide": ["order", "A4"]}, dice)
    g.units[A4].models[1].weapons = [("medium_howitzer", "hand")]
    g.refresh()                   # a model changed by hand (Unit.arms)
    g.apply(order("fire"))
    ev = g.apply(CODEC.encode("target", B1, 1))               # B1 holds a die: no Down reaction
    return g, ev


def test_KB_HE_5_two_d6_he_rolling_12_hits_collapses_the_section():
    # natural 6 hits; floor 2 explodes on 5; 2D6 = 6+6 = 12 hits; D3 extra pins (1 -> 1); 12 damage rolls of 1
    g, ev = howitzer("down", [6, 5, 6, 6, 1] + [1] * 6)   # Down halves the 12 to 6 damage rolls: collapse anyway
    t1 = g.board.section_named("T1").index
    assert g.section_state[t1] == "rubble" and not g.units[B1].alive and "KB-HE-5" in rules(ev)
    assert "KB-TAB-2" in rules(ev)                                      # indirect: the floor roll
    g, ev = howitzer("down", [6, 5, 6, 5, 1] + [1] * 5)   # 11 hits: no collapse
    assert g.section_state[t1] == "intact" and g.units[B1].alive and g.dice.remaining == 0


def test_KB_FLAME_3_a_burning_section_cannot_be_entered_and_blocks_sight():
    g = game({"only": ["A1", "B1"], "units": {"A1": {"at": [18, 13]}}, "sections": {"W": "burning"},
              "decide": ["order", "A1"]})
    g.apply(order("run"))
    assert not [a for a in legal(g) if a[0] == "enter"]
    assert not geometry.clear(g, (16.5, 10.5), (20.5, 10.5))          # through W's interior
    assert not geometry.passable(g, (18, 10))


def test_KB_FLAME_5_artillery_in_a_burning_section_is_destroyed():
    g = game({"only": ["A1", "B3"], "decide": ["unit", 0]}, [4])
    g.units[B3].kind = "artillery"
    t2 = g.units[B3].section
    flames.catch_fire(g, t2)
    assert g.section_state[t2] == "burning" and not g.units[B3].alive
    assert [e.rule for e in g.log.take() if e.kind == "destroyed"] == ["KB-FLAME-5"]


def bunker_in_the_corner() -> dict:
    """Village crossroads as data with K moved to x1-2, y0-1: its door N(1,0) opens off the board, and (0, 0),
    cell index 0, shares an edge with it."""
    import yaml

    from envs.k47 import config
    d = yaml.safe_load(open(config.scenario_path(None), encoding="utf-8"))
    d["map"][0] = ".KK" + d["map"][0][3:]
    d["map"][1] = ".KK" + d["map"][1][3:]
    for y in (6, 7):
        d["map"][y] = "..." + ".." + d["map"][y][5:]
    k = d["buildings"][2]["sections"][0]
    k["cells"] = [[1, 0], [2, 1]]
    k["openings"] = [{"floor": 0, "kind": "door", "edge": [1, 0, "N"]},
                     {"floor": 0, "kind": "slit", "edges": [[1, 1, "S"], [2, 1, "S"], [2, 1, "E"]]}]
    d["sides"][1]["units"][3]["fixed_opening"] = [2, 1, "S"]
    return d


def test_KB_FLAME_6_evacuation_takes_cell_index_0_first():
    # K burns on a 4; its door leads off the board, so B4 leaves by the lowest-index free cell sharing an edge with
    # it: (0, 0) (index 0), before (3, 0) (index 3); 1 pin and Down (KB-FLAME-4)
    g = game({"scenario": bunker_in_the_corner(), "only": ["A1", "B4"], "decide": ["unit", 0]}, [4])
    b4 = g.units[B4]
    flames.catch_fire(g, b4.section)
    assert b4.cell == (0, 0) and b4.pins == 1 and b4.order == "down" and g.dice.remaining == 0


def test_KB_ASLT_4_KC_CQ_3_leap_out_reaction_fire_from_the_opening_point_in_the_open():
    # B1 on T1 floor 0 leaps out through the south window S(9,7) at A1 (9, 12), 9" from the window's point: A1
    # may fire before B1 moves (KC-CQ-3, clarified 2026-11-28), at that point, in the open (no -2, no Extra
    # Protection) and never point blank: LMG x4 at 3+, SMG x2 at 4+ (long range), rifles x6 at 3+; 2 + 1 hits; B1 takes
    # 1 pin and loses 2 models to a 4 and a 5 (inside, Extra Protection would need 6). Then B1 runs in and fights:
    # its 7 attacks all 1s; A1's 9 attacks all 4s kill its last 6 models
    g = game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 12]}, "B1": {"in": ["T1", 0]}},
              "decide": ["order", "B1"]}, [3, 3, 2, 2, 4, 1] + [2] * 6 + [4, 5, 1] + [1] * 7 + [4] * 9)
    g.apply(order("run"))
    assert ("assault", (A1,)) in legal(g)
    g.apply(CODEC.encode("assault", A1))
    b1 = g.units[B1]
    south = g.board.openings[g.decision[1]["leaping"]]
    assert g.decision[0] == Decision.REACT_FIRE and g.current_side == 0
    assert b1.inside and (south.cell, south.side, south.floor) == ((9, 7), "S", 0)     # it has not moved yet
    ev = g.apply(CODEC.encode("yes"))
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == [
        "A1's lmg x4 needs 3+: 2 hits", "A1's smg x2 needs 4+: 1 hits", "A1's rifle x6 needs 3+: 0 hits"]
    assert [e.rule for e in ev if e.kind == "damage"] == ["KC-SHOOT-8"] * 3
    move = next(i for i, e in enumerate(ev) if e.kind == "move")
    assert move > max(i for i, e in enumerate(ev) if e.kind == "damage")             # it moves after the fire
    assert not b1.alive and len(g.units[A1].models) == 8 and g.dice.remaining == 0


def test_KV_RAM_2_KC_CQ_3_occupants_fire_at_the_ram_before_it_moves():
    # B2, a bazooka team on W floor 0, fires at A5 still at (19, 16): 9.2" from the south door's point, not point
    # blank: 3+ -1 shaped = 4+, so a 3 misses (moved in first, A5 would be 2.2" away: 3+, a hit). Then A5 Runs to
    # (19, 12) and rams: 3 + 10 = 13 against 6 + 6 = 12: W collapses, B2 is buried, A5 moves in, Down, 1 pin
    g = game({"only": ["A5", "B1", "B2"], "units": {"B2": {
        "in": ["W", 0], "small": True, "loadout": [{"role": "crew"}, {"weapon": "bazooka", "role": "carrier"}]}},
        "decide": ["order", "A5"]}, [3, 3, 6, 6])
    g.apply(order("run"))
    w = g.board.section_named("W").index
    g.apply(CODEC.encode("ram", w))
    assert g.decision[0] == Decision.REACT_FIRE and g.units[A5].cell == (19, 16)
    ev = g.apply(CODEC.encode("yes"))
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["B2's bazooka x1 needs 4+: 0 hits"]
    assert [e.text for e in ev if e.kind == "move"][0] == "A5 moves to (19, 12)"
    a5 = g.units[A5]
    assert g.section_state[w] == "rubble" and not g.units[B2].alive and a5.cell == (19, 11)
    assert a5.order == "down" and a5.pins == 1 and g.dice.remaining == 0


def test_KV_RAM_2_KV_TAB_1_a_ram_immobilised_by_the_reaction_fire_never_reaches_the_house():
    # the bazooka hits on a 4; a 5 + Pen 5 reaches A5's 10+ from the front; KV-TAB-1 2: immobilised (+1 pin), so
    # it cannot Run on to W (KV-TAB-1: it never moves again) and no ram is rolled
    g = game({"only": ["A5", "B1", "B2"], "units": {"B2": {
        "in": ["W", 0], "small": True, "loadout": [{"role": "crew"}, {"weapon": "bazooka", "role": "carrier"}]}},
        "decide": ["order", "A5"]}, [4, 5, 2])
    g.apply(order("run"))
    w = g.board.section_named("W").index
    g.apply(CODEC.encode("ram", w))
    ev = g.apply(CODEC.encode("yes"))
    a5 = g.units[A5]
    assert a5.immobile and a5.cell == (19, 16) and a5.pins == 2 and g.section_state[w] == "intact"
    assert "ram_stopped" in [e.kind for e in ev] and "KV-RAM-3" not in [e.rule for e in ev]
    assert g.dice.remaining == 0


def test_KB_ART_2_artillery_set_up_inside_never_advances_or_runs():
    g = game({"only": ["A1", "B3"], "decide": ["order", "B3"]})
    g.units[B3].kind = "artillery"
    g.refresh()
    orders = {ORDERS[a[1][0]] for a in legal(g)}
    assert orders == {"fire", "ambush", "rally", "down"}


def test_KB_BUNK_1_a_bunker_is_a_building_extra_protection_and_fire():
    g = game({"only": ["A1", "B4"], "units": {"A1": {"at": [4, 9]}}, "decide": ["unit", 0]}, [5, 4])
    a1, b4 = g.units[A1], g.units[B4]
    assert damage_roll(g, a1, b4, "rifle", 3.0) == 0                    # 5 + 0 < 6: Extra Protection (KB-AT-5)
    k = b4.section
    flames.catch_fire(g, k)                                              # KB-FLAME-2 on 4+: bunkers burn too
    assert g.section_state[k] == "burning" and b4.cell == (3, 5) and b4.order == "down"


def test_KB_TAB_1_heavy_tank_d6_plus_10_against_brick_3d6():
    g = game({"only": ["A5", "B3"], "units": {"A5": {"at": [12, 12]}}, "decide": ["order", "A5"]}, [6, 5, 5, 5])
    g.apply(order("run"))
    t2 = g.board.section_named("T2").index
    g.apply(CODEC.encode("ram", t2))
    assert g.decision[0] == Decision.REACT_FIRE                          # 9" away: B3 may fire first (KV-RAM-2)
    ev = g.apply(PASS)
    roll = next(e for e in ev if e.kind == "ram_roll")
    assert roll.dice == (6, 5, 5, 5) and "scores 16 against T2's 15" in roll.text
    assert g.section_state[t2] == "rubble" and not g.units[B3].alive and "KV-RAM-6" in rules(ev)
