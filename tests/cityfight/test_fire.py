"""Kinetic fire (CF-FIRE-1..19), results (CF-RES-1..8), automatic spotting and return fire (CF-AUTO-1..5)."""
from dataclasses import replace

import numpy as np

from envs.cityfight import fire
from envs.cityfight.actions import OFF, SQUARES
from envs.cityfight.config import CATEGORIES
from envs.cityfight.observation import PLANES, P, encode

from .builders import OFFICE, act, activate, build, decision, el, illegal, legal, scenario, search_msq, sq

MAP = """
.........
.........
..BB.....
..Bb.....
.........
.........
.........
.........
.........
"""
OPEN, BRICK = (6, 8), (9, 11)


def shooter(row="D", at="a1", enemies=(("D1", "B", "a3"),), friends=(), **kw):
    game = build(MAP, attackers=[("A1", row, at), *friends], defenders=list(enemies), **kw)
    activate(game, "A1")
    return game


def test_CF_FIRE_1_needs_los_and_range_one_to_max():
    tables = replace(OFFICE.tables, elements=dict(OFFICE.tables.elements, B=replace(OFFICE.tables.elements["B"], max_range=3)))
    game = build(spec=scenario(MAP, tables=tables), attackers=[("A1", "B", "a9")], defenders=[("D1", "B", "i1")])
    activate(game, "A1")
    assert legal(game, "fire", "a6")
    illegal(game, "fire", "a5")                          # range 4 > 3
    game = shooter("D", "b3")
    illegal(game, "fire", "e3")                          # through the building c3-d3
    assert legal(game, "fire", "c3")                     # the building square itself is in sight


def test_CF_FIRE_2_any_square_but_engaged_or_own():
    game = shooter(friends=[("A2", "B", "c1"), ("A3", "B", "f6")], enemies=[("D1", "B", "f6")])
    assert legal(game, "fire", "h1")                     # an empty square
    illegal(game, "fire", "c1")                          # own element there
    illegal(game, "fire", "f6")                          # Engaged
    illegal(game, "fire", "a1")                          # own square: close assault only when Engaged


def test_CF_FIRE_3_ooa_elements_make_no_kinetic_fire():
    game = shooter()
    el(game, "A1").ooa = True
    game.refresh()
    illegal(game, "fire", "a3")


def test_CF_FIRE_4_one_or_two_dice_a_sniper_one():
    game = shooter(dice=[2])
    act(game, "fire", "a3")
    assert decision(game) == "dice" and legal(game, "dice", 1) and legal(game, "dice", 2)
    game = shooter("S", dice=[2])
    act(game, "fire", "a3")                              # no dice decision: one die rolled
    assert game.dice.remaining == 0 and decision(game) != "dice"


def test_CF_FIRE_5_fs_by_range_band():
    game = shooter("C", at="a1")
    a1 = el(game, "A1")
    assert [fire.fire_strength(game, a1, sq(game, s)) for s in ("a3", "a4", "a9")] == [6, 3, 3]
    assert game.tables.range_bands == (2, 10)


def occupants(game, *flags):
    out = []
    for name, f in zip(("D1", "D2"), flags):
        e = el(game, name)
        for k, v in f.items():
            setattr(e, k, v)
        out.append(e)
    return out


def test_CF_FIRE_6_doubled_when_every_occupant_moved_twice():
    game = shooter(enemies=[("D1", "B", "a3"), ("D2", "B", "a3")])
    assert fire.modified_fs(4, occupants(game, {"entered": 2}, {"entered": 2}), True) == 8
    assert fire.modified_fs(4, occupants(game, {"entered": 2}, {"entered": 1}), True) == 4


def test_CF_FIRE_7_halved_when_every_occupant_is_suppressed():
    game = shooter(enemies=[("D1", "B", "a3"), ("D2", "B", "a3")])
    assert fire.modified_fs(3, occupants(game, {"suppressed": True}, {"suppressed": True}), True) == 2
    assert fire.modified_fs(3, occupants(game, {"suppressed": True}, {"suppressed": False}), True) == 3


def test_CF_FIRE_8_halved_if_unspotted_doubling_first_each_halving_rounded_up():
    game = shooter(enemies=[("D1", "B", "a3")])
    moved_suppressed = occupants(game, {"entered": 2, "suppressed": True})
    assert fire.modified_fs(3, moved_suppressed, False) == 2      # 3 x2 = 6, /2 = 3, /2 = 2
    assert fire.modified_fs(3, [], False) == 2


def test_CF_FIRE_9_spotted_fire_is_ifa_return_overwatch_or_assault_else_unspotted():
    game = shooter(enemies=[("D1", "B", "a3")], dice=[6, 6])
    act(game, "fire", "a3")
    act(game, "dice", 2)                                 # plain fire: unspotted, K becomes S
    assert el(game, "D1").alive and el(game, "D1").suppressed
    game = shooter(enemies=[("D1", "B", "a3")], dice=[1, 1, 6, 6])
    search_msq(game, "A1")
    act(game, "fire", "a3")                              # IFA: spotted
    act(game, "dice", 2)
    assert not el(game, "D1").alive


def test_CF_FIRE_10_each_die_plus_fs_against_the_cover_row():
    assert fire.die_result(4, 4, OPEN) == "K" and fire.die_result(3, 4, OPEN) == "S"
    assert fire.die_result(1, 4, OPEN) is None and fire.die_result(4, 4, BRICK) is None


def test_CF_FIRE_11_a_six_gives_at_least_s():
    assert fire.die_result(6, 0, BRICK) == "S"


def test_CF_FIRE_12_double_six_gives_k():
    assert fire.roll_result([6, 6], 0, (10, 12)) == "K"


def test_CF_FIRE_13_the_better_of_two_dice():
    assert fire.roll_result([1, 4], 4, OPEN) == "K" and fire.roll_result([3, 1], 4, OPEN) == "S"


def test_CF_FIRE_14_result_hits_every_element_non_combat_too():
    game = shooter(enemies=[("DL", "L", "a3"), ("D1", "B", "a3")], dice=[2, 1])
    act(game, "fire", "a3")
    act(game, "dice", 2)                                 # FS 4 + 2 = 6: S on Open
    assert el(game, "DL").suppressed and el(game, "D1").suppressed


def test_CF_FIRE_15_unspotted_k_becomes_s():
    game = shooter(enemies=[("D1", "B", "a3")], dice=[5, 2])
    act(game, "fire", "a3")
    act(game, "dice", 2)                                 # 5 + 4 = 9 >= K 8, unspotted: S
    assert el(game, "D1").alive and el(game, "D1").suppressed


def test_CF_FIRE_16_ooa_without_mg_on_a_low_double():
    game = shooter("B")
    a1 = el(game, "A1")
    assert fire.runs_out(game, a1, [3, 3]) and not fire.runs_out(game, a1, [4, 4]) and not fire.runs_out(game, a1, [3])


def test_CF_FIRE_17_ooa_with_mg_on_any_double():
    game = shooter("D", dice=[5, 5])
    assert fire.runs_out(game, el(game, "A1"), [5, 5]) and not fire.runs_out(game, el(game, "A1"), [5, 4])
    act(game, "fire", "h1")
    act(game, "dice", 2)
    assert el(game, "A1").ooa


def test_CF_FIRE_18_origin_target_category_announced_not_the_firers():
    game = shooter("E", at="b1", friends=[("A2", "E", "b1")], dice=[1, 2])
    act(game, "fire", "h1")
    act(game, "dice", 2)
    origin, target, category, turn = game.knowledge[1].last_fire
    assert (origin, target, CATEGORIES[category], turn) == (sq(game, "b1"), sq(game, "h1"), "mg", 1)


def test_CF_FIRE_19_firing_does_not_spot_the_firer():
    game = shooter(dice=[1, 2])
    act(game, "fire", "h1")
    act(game, "dice", 2)
    assert game.knowledge[1].spotted == [] and el(game, "A1").fired_still


# Results ---------------------------------------------------------------------------------------------------
def result(enemies, square, res, **kw):
    game = build(MAP, attackers=[("A1", "D", "i9"), *kw.pop("friends", [])], defenders=enemies, **kw)
    fire.apply_result(game, sq(game, square), res, 0)
    return game


def test_CF_RES_1_s_suppresses_and_costs_one_ap_each():
    game = result([("D1", "B", "a3"), ("D2", "B", "a3"), ("D3", "B", "a3")], "a3", "S", pools=(12, 5))
    el(game, "D3").suppressed = True
    game = result([("D1", "B", "a3"), ("D2", "B", "a3")], "a3", "S", pools=(12, 5))
    assert el(game, "D1").suppressed and el(game, "D2").suppressed and game.sections[1][0].pool == 3


def test_CF_RES_1_already_suppressed_lose_nothing():
    game = build(MAP, attackers=[("A1", "D", "i9")], defenders=[("D1", "B", "a3")], pools=(12, 5))
    el(game, "D1").suppressed = True
    fire.apply_result(game, sq(game, "a3"), "S", 0)
    assert game.sections[1][0].pool == 5


def test_CF_RES_2_s_on_open_spreads_to_the_other_open_squares_of_the_msq():
    game = result([("D1", "B", "a3"), ("D2", "B", "b1"), ("D3", "B", "d4"), ("D4", "B", "a4")], "a3", "S",
                  friends=[("A2", "B", "c2")])
    assert el(game, "D2").suppressed                    # b1: Open, same MSq A1
    assert not el(game, "D4").suppressed                # a4: MSq A2
    assert not el(game, "A2").suppressed                # the firer's side is exempt
    game = result([("D1", "B", "c3"), ("D2", "B", "b1")], "c3", "S")
    assert not el(game, "D2").suppressed                # S on a building square does not spread


def test_CF_RES_3_k_kills_and_costs_two_ap_each():
    game = result([("D1", "B", "a3"), ("D2", "B", "a3")], "a3", "K", pools=(12, 5))
    assert not el(game, "D1").alive and not el(game, "D2").alive and game.sections[1][0].pool == 1


def test_CF_RES_4_k_on_any_square_spreads_to_open_squares_of_the_msq():
    game = result([("D1", "B", "c3"), ("D2", "B", "b1"), ("D3", "B", "a4")], "c3", "K")
    assert not el(game, "D1").alive and el(game, "D2").suppressed and not el(game, "D3").suppressed


def test_CF_RES_5_leaders_only_suppressed_by_results_on_their_square():
    game = result([("DL", "L", "b1"), ("D1", "B", "a3")], "a3", "S")
    assert not el(game, "DL").suppressed and el(game, "DL").fired_on


def test_CF_RES_6_leader_with_combat_element_rolls_on_k():
    game = build(MAP, attackers=[("A1", "D", "i9")], defenders=[("DL", "L", "a3"), ("D1", "B", "a3")], dice=[3, 4, 4])
    fire.apply_result(game, sq(game, "a3"), "K", 0)
    assert not el(game, "DL").alive
    game = build(MAP, attackers=[("A1", "D", "i9")], defenders=[("DL", "L", "a3"), ("D1", "B", "a3")], dice=[4])
    fire.apply_result(game, sq(game, "a3"), "K", 0)
    assert el(game, "DL").alive and el(game, "DL").suppressed and not el(game, "D1").alive


def test_CF_RES_7_k_with_no_combat_element_kills_all_non_combat():
    game = result([("DL", "L", "a3")], "a3", "K", dice=[4])
    assert not el(game, "DL").alive and game.dice.remaining == 0   # no CF-RES-6 roll; one CF-LDR-2 roll


def test_CF_RES_8_fired_on_target_and_spread():
    game = shooter(enemies=[("D1", "B", "a3"), ("D2", "B", "b1"), ("D3", "B", "h1")], dice=[1, 2])
    act(game, "fire", "a3")
    act(game, "dice", 2)                                 # 2 + 4 = 6: S, spreads to b1
    assert el(game, "D1").fired_on and el(game, "D2").fired_on and not el(game, "D3").fired_on


# Automatic spotting and return fire --------------------------------------------------------------------------
def test_CF_AUTO_1_engaged_squares_are_known_to_both_sides():
    game = shooter(friends=[("A2", "B", "f6")], enemies=[("D1", "B", "f6")])
    for side in (0, 1):
        obs = encode(game, side)
        from envs.cityfight.observation import CONTEXT, GLOBAL
        plane = obs[GLOBAL + CONTEXT:GLOBAL + CONTEXT + PLANES * SQUARES].reshape(PLANES, SQUARES)[P["engaged"]]
        assert plane[game.board.code[sq(game, "f6")]] == 1 and plane.sum() == 1


def test_CF_AUTO_2_no_fire_into_or_out_of_an_engaged_square():
    game = build(MAP, attackers=[("A1", "D", "f6"), ("A2", "D", "a1")], defenders=[("D1", "B", "f6"), ("D2", "B", "h1")])
    activate(game, "A1")
    illegal(game, "fire", "h1")                          # out of it
    act(game, "pass")
    act(game, "activate", "D2")
    illegal(game, "fire", "f6")                          # into it


def test_CF_AUTO_3_leaving_an_engaged_square_is_announced_without_direction():
    game = build(MAP, attackers=[("A1", "B", "f6")], defenders=[("D1", "B", "f6")])
    events = activate(game, "A1") + act(game, "move", 2)
    leave = [e for e in events if e.kind == "leaves_engaged"]
    assert leave and "f7" not in leave[0].text


def test_CF_AUTO_4_return_fire_from_the_target_square_at_the_origin():
    game = shooter(enemies=[("D1", "B", "a3"), ("D2", "B", "a3")], dice=[1, 1, 6, 6])
    act(game, "fire", "a3")
    act(game, "dice", 2)                                 # 1 + 4: no effect
    assert decision(game) == "return_fire" and game.current_side == 1
    assert legal(game, "react", "D1") and legal(game, "react", "D2") and legal(game, "pass")
    act(game, "react", "D2")
    act(game, "dice", 2)                                 # spotted: FS 4, 6 + 4 = 10 K, and a double six
    assert el(game, "D2").fired and el(game, "D2").ap_spent == 1
    assert game.knowledge[0].occupied[sq(game, "a3")] == 1


def test_CF_AUTO_5_no_return_fire_against_return_fire_nor_from_overwatch():
    game = shooter(enemies=[("D1", "B", "a3")], dice=[1, 1, 1, 2])
    act(game, "fire", "a3")
    act(game, "dice", 2)
    act(game, "react", "D1")
    act(game, "dice", 2)
    assert el(game, "A1").suppressed and decision(game) != "return_fire"
    game = shooter(enemies=[("D1", "B", "a3")], dice=[1, 2])
    el(game, "D1").overwatch = sq(game, "a5")
    act(game, "fire", "a3")
    act(game, "dice", 2)
    # CF-HID-4: the window still opens (the attacker cannot know D1 watches), but D1 may only pass
    assert decision(game) == "return_fire" and game.decision[1]["options"] == []
    assert np.flatnonzero(game.legal_action_mask()).tolist() == [OFF["pass"]]
