"""Konflikt '47 core: turns, orders, decisions and movement (KC-TURN, KC-ORD, KC-DEC, KC-MOVE), exact outcomes."""
from __future__ import annotations

from envs.k47 import geometry
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.shooting import need
from tests.k47.core import A1, A5, B1, B2, PASS, cell, game, legal, order, rules


def duel(dice=(), **units):
    spec = {"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}, **units},
            "decide": ["order", "A1"]}
    return game(spec, dice)


def test_KC_TURN_3_a_die_with_no_eligible_unit_is_set_aside():
    # KC-TURN-8 never lets this happen in play; a bag forced out of step shows the safeguard
    g = duel([1, 1], A1={"at": [2, 16], "order": "fire"})
    g.bag.put(0)                                          # a stray A die, no unordered A unit
    g.drawn = None
    from envs.k47.tasks import Draw
    g.decision, g.tasks = None, [Draw()]
    g.run()
    assert "KC-TURN-3" in rules(g.log.take())
    assert g.decision[0] == Decision.UNIT and g.current_side == 1      # the next die (B's) is drawn


def test_KC_ORD_1_fire_shoots_from_where_it_stands_without_the_move_penalty():
    g = duel()
    g.apply(order("fire"))
    kind, ctx = g.decision
    assert kind == Decision.TARGET and ctx["moved"] is False and g.units[A1].cell == (2, 16)
    assert ("cell", (14 * 24 + 2,)) not in legal(g) and legal(g) == {("pass", ()), ("target", (B2, 0))}
    a1, b2 = g.units[A1], g.units[B2]
    assert need(g, a1, "rifle", b2, 14.0, False) == 4 and need(g, a1, "rifle", b2, 14.0, True) == 5


def test_KC_ORD_2_advance_moves_up_to_6_then_shoots_with_the_penalty():
    g = duel([3] + [1] * 11)
    g.apply(order("advance"))
    assert legal(g) >= {("cell", (13 * 24 + 2,)), ("pass", ())} and ("cell", (12 * 24 + 2,)) not in legal(g)
    g.apply(cell(2, 13))
    kind, ctx = g.decision
    assert kind == Decision.TARGET and ctx["moved"] is True and g.units[A1].moved
    g.apply(CODEC.encode("target", B2, 0))
    ev = g.apply(PASS)                                    # B2 declines to go Down
    # 8" to B2: LMG and rifles 3+ -1 moved = 4+ (the LMG's 3 misses); the SMG ignores the move (Assault) but is at
    # long range (> 6"): 4+
    to_hit = [e.text for e in ev if e.rule == "KC-SHOOT-5"]
    assert to_hit == ["A1's lmg x4 needs 4+: 0 hits", "A1's smg x2 needs 4+: 0 hits", "A1's rifle x6 needs 4+: 0 hits"]


def test_KC_ORD_2_one_ambush_window_before_the_advance_shoots_none_after():
    g = duel([1] * 12, B2={"at": [2, 9], "order": "ambush"})
    g.apply(order("advance"))
    g.apply(cell(2, 14))
    assert g.decision[0] == Decision.AMBUSH and g.current_side == 1
    g.apply(PASS)                                         # B2 lets it pass
    assert g.decision[0] == Decision.TARGET and g.current_side == 0
    g.apply(CODEC.encode("target", B2, 0))
    assert g.decision[0] == Decision.KEEP                 # B2 is not asked again after A1 shot: the turn ends


def test_KC_ORD_3_run_moves_up_to_12_and_never_shoots():
    g = duel()
    g.apply(order("run"))
    assert ("cell", (11 * 24 + 2,)) in legal(g) and ("cell", (10 * 24 + 2,)) not in legal(g)  # 10"; next to B2
    ev = g.apply(cell(2, 11))
    assert g.units[A1].cell == (2, 11) and g.decision[0] == Decision.UNIT and g.current_side == 1   # no target
    assert not any(e.rule == "KC-SHOOT-1" for e in ev)


def test_KC_ORD_3_only_run_may_assault_or_enter():
    def options(name):
        g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [18, 14]}, "B2": {"at": [15, 12]}},
                  "decide": ["order", "A1"]})
        g.apply(order(name))
        return {a[0] for a in legal(g)}
    assert {"enter", "assault"} <= options("run")
    assert not {"enter", "assault"} & options("advance")


def test_KC_ORD_4_ambush_neither_moves_nor_shoots_now():
    g = duel([2])
    ev = g.apply(order("ambush"))
    a1 = g.units[A1]
    assert a1.order == "ambush" and a1.cell == (2, 16) and "KC-ORD-4" in rules(ev)
    assert not any(e.rule in ("KC-SHOOT-5", "KC-MAP-4") for e in ev)
    assert g.decision[0] == Decision.UNIT and g.current_side == 1


def panic_game(spec, dice):
    g = game(spec, dice)
    ev = g.apply(order("fire"))
    return g, ev


def test_KC_ORD_11_panic_runs_to_the_cell_farthest_from_the_closest_visible_enemy():
    # FUBAR (6, 6), then 4 on KC-TAB-6: panic; B2 at (2,9) is the only enemy; A1 Runs 12" from (12,16)
    g, ev = panic_game({"only": ["A1", "B2"], "units": {"A1": {"at": [12, 16], "pins": 1}, "B2": {"at": [2, 9]}},
                        "decide": ["order", "A1"]}, [6, 6, 4, 1])
    a1 = g.units[A1]
    assert a1.order == "run" and "KC-ORD-11" in rules(ev)
    assert a1.cell == (18, 16)        # 12" due east: 2 * hypot(16, 7) from B2's centre, the farthest in reach


def test_KC_ORD_11_panic_above_floor_0_goes_down():
    g, ev = panic_game({"only": ["B1", "A1"], "units": {"B1": {"pins": 1}, "A1": {"at": [9, 10]}},
                        "decide": ["order", "B1"]}, [6, 6, 5])
    b1 = g.units[B1]
    assert b1.order == "down" and (b1.floor, b1.cell) == (1, None) and "KC-ORD-11" in rules(ev)


def test_KC_ORD_11_panic_on_floor_0_runs_out_through_an_opening():
    g, ev = panic_game({"only": ["B1", "A1"], "units": {"B1": {"in": ["T1", 0], "pins": 1}, "A1": {"at": [9, 10]}},
                        "decide": ["order", "B1"]}, [6, 6, 5])
    b1 = g.units[B1]
    assert b1.order == "run" and b1.cell is not None and b1.section is None and "KC-ORD-11" in rules(ev)


def test_KC_ORD_11_panic_inside_flees_the_enemy_closest_to_its_section():
    # A1 is 5" from T1's south wall, A2 7" from its north door: B1 runs from A1, out of the door N(9,5) (1") and
    # 11" on to (6,0), the cell farthest from A1 that is not next to A2
    g, ev = panic_game({"only": ["B1", "A1", "A2"], "units": {"B1": {"in": ["T1", 0], "pins": 1}, "A1": {"at": [9, 10]},
                        "A2": {"at": [9, 1]}}, "decide": ["order", "B1"]}, [6, 6, 5])
    assert g.units[B1].cell == (6, 0) and g.units[B1].order == "run"


def test_KC_ORD_11_panic_with_no_enemy_in_sight_goes_down():
    # FUBAR, then 3: panic; B2 north of the town hall is out of A1's sight south of it
    g, ev = panic_game({"only": ["A1", "B2"], "units": {"A1": {"at": [10, 9], "pins": 1}, "B2": {"at": [11, 3]}},
                        "decide": ["order", "A1"]}, [6, 6, 3])
    assert g.units[A1].order == "down" and g.units[A1].cell == (10, 9)


def test_KC_DEC_1_an_activation_is_a_chain_unit_order_move_target_done():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}}, "decide": ["unit", 0]},
             [1] * 12)
    chain = [g.decision[0]]
    for action in (CODEC.encode("unit", A1), order("advance"), cell(2, 14), CODEC.encode("target", B2, 0), PASS):
        mask = g.legal_action_mask()
        assert mask[action]
        g.apply(action)
        chain.append(g.decision[0])
    assert chain == [Decision.UNIT, Decision.ORDER, Decision.MOVE, Decision.TARGET, Decision.DOWN, Decision.UNIT]


def test_KC_DEC_4_ties_go_to_the_lowest_cell():
    # the assault's end cell: (2,12) next to B2 is taken by A2, leaving (1,12) and (3,12) at 9" each
    g = game({"only": ["A1", "A2", "B2"], "units": {"A1": {"at": [2, 16]}, "A2": {"at": [2, 12]},
              "B2": {"at": [2, 11]}}, "decide": ["order", "A1"]}, [4] * 30)
    g.apply(order("run"))
    from envs.k47.closequarters import adjacent_cell
    a1 = g.units[A1]
    costs = geometry.reach(g, a1, 12.0)
    assert costs[(1, 12)] == costs[(3, 12)] == 9.0
    assert adjacent_cell(g, a1, (2, 11), a1.cell, 0.0, 12.0) == (1, 12)


def test_KC_MOVE_1_infantry_advance_6_run_12():
    g = duel()
    a1 = g.units[A1]
    from envs.k47.movement import allowance, outside_destinations
    assert (allowance(g, a1, "advance"), allowance(g, a1, "run")) == (6, 12)
    adv = outside_destinations(g, a1, "advance")
    run = outside_destinations(g, a1, "run")
    assert max(adv.values()) == 6 and max(run.values()) == 12
    assert (2, 13) in adv and (2, 12) not in adv and (2, 11) in run and (1, 10) not in run   # (1,10): 13"


def test_KC_MOVE_2_rubble_costs_infantry_nothing_extra():
    # (3,10) and (4,10) are rubble: A1 crosses them at the normal 2" per step
    g = game({"only": ["A1"], "units": {"A1": {"at": [2, 10]}}})
    costs = geometry.reach(g, g.units[A1], 6.0)
    assert costs[(5, 10)] == 6.0


def test_KC_MOVE_2_a_tracked_vehicle_entering_rubble_moves_at_most_its_advance():
    from envs.k47.movement import outside_destinations
    g = game({"only": ["A5", "B2"], "units": {"A5": {"at": [0, 10]}}})
    run = outside_destinations(g, g.units[A5], "run")
    assert run[(4, 10)] == 8.0 and run[(8, 10)] == 18.0               # into rubble within the 9" Advance; 18" Run
    assert run[(5, 10)] == 12.0                                        # through the rubble (10") is over 9": round it
    assert (6, 13) not in run and (6, 12) in run                       # rubble 15" away: out of reach on a Run
