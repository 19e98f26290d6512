"""Close Combat, Urban module (rules catalog §11, RU-CC-1..19).

Dice are scripted face by face: a morale check is one d6, a round two d6 (attacker's, then
defender's), 1d3 one d6 face, 2d3 two faces, and each random unit a die of the group's size (none for
a pick among one). `remaining == 0` at the end of a test proves no other die was rolled.
"""
from __future__ import annotations

import pytest

from envs.rifles import closecombat
from envs.rifles.state import FIRST, GROUND, PLAYER, QUALITY, Unit

from .builders import act, assert_illegal, dice, enemy_turn, legal, legal_actions, one_on_one, player, put, unit

REGULAR, VETERAN = QUALITY["regular"], QUALITY["veteran"]


# Helpers ------------------------------------------------------------------------------------------
def round_event(events) -> str:
    texts = [e.text for e in events if e.kind == "cc_round"]
    assert len(texts) == 1, texts
    return texts[0]


def regular_c(game):
    """Group C as two Regular riflemen (no Veteran, no Leader): every CC modifier is zero against two riflemen."""
    c = player(game, "C")
    for u in c.units:
        u.quality = REGULAR
    return c


def engage_by_hand(game, g, x, defender) -> None:
    """Put g and x in an ongoing fight on x's position (x defends unless told otherwise)."""
    g.stripe, g.place, g.level = x.position
    g.engaged_with, x.engaged_with = x.gid, g.gid
    x.defending, g.defending = defender is x, defender is g
    g.rounds = x.rounds = 1
    game.refresh()


# RU-CC-1 ------------------------------------------------------------------------------------------
def test_RU_CC_1_attack_at_range_zero_costs_one_ap():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), "3b")
    assert legal(game, "close_combat", x.gid, 0) and legal(game, "close_combat", x.gid, 1)
    dice(game, 5, 4, 1, 1, 1, 1)    # morale 5 vs Recruit 5 pass; round 4+1 (more Veterans) vs 1+1 (wall) -> 2d3 = 1+1; X1, X2
    events = act(game, "close_combat", x.gid, 0)
    assert game.ap == game.scenario.ap - game.tables.ap_costs["close_combat"] == 3
    assert round_event(events) == "close combat C 5 vs X 2"
    assert [u.hits for u in x.units] == [1, 1]
    assert c.engaged_with == x.gid and x.engaged_with == c.gid
    assert game.dice.remaining == 0


def test_RU_CC_1_no_attack_at_range_one_or_without_ap():
    game, c, x = one_on_one("C", 2, ("rifle", "rifle"), 3)
    assert_illegal(game, "close_combat", x.gid, 0)          # range 1
    put(game, "C", 3)
    game.refresh()
    assert legal(game, "close_combat", x.gid, 0)
    game.ap = 0
    game.refresh()
    assert_illegal(game, "close_combat", x.gid, 0)          # RB-AP-1: costs more than the AP left


def test_RU_CC_1_range_zero_across_a_complex_only_on_the_same_level():
    game, c, x = one_on_one("C", "4a", ("rifle", "rifle"), "5a")  # RU-CPX-2: same level of 4a and 5a is range 0
    assert legal(game, "close_combat", x.gid, 0)
    x.level = FIRST                                          # RU-CPX-3: other level of the complex, out of sight
    game.refresh()
    assert_illegal(game, "close_combat", x.gid, 0)


def test_RU_CC_1_no_close_combat_into_a_sealed_building():
    game, c, x = one_on_one("C", 4, ("rifle", "rifle"), "4b")  # RU-TER-4: 4b is Sealed
    assert_illegal(game, "close_combat", x.gid, 0)


# RU-CC-2 ------------------------------------------------------------------------------------------
def test_RU_CC_2_morale_uses_group_quality_and_leader_bonus():
    # B: Regular, Regular, Recruit -> Regular (target 4); B1 is a Leader: +1. A 3 passes.
    game, b, x = one_on_one("B", 3, ("rifle", "rifle"), 3)
    dice(game, 3, 2, 1, 1, 1, 1)    # morale 3+1 = 4 pass; round B 2 (-1 LMG, +1 more units) vs X 1 -> 2d3 = 2: X1, X2
    events = act(game, "close_combat", x.gid, 0)
    assert any(e.kind == "morale" and "morale 3+1 vs 4: pass" in e.text for e in events)
    assert b.engaged_with == x.gid


def test_RU_CC_2_without_leader_the_same_roll_fails():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)                 # C: two Regulars, no Leader: target 4, DRM 0
    dice(game, 3)
    events = act(game, "close_combat", x.gid, 0)
    assert any(e.kind == "morale" and "morale 3+0 vs 4: fail" in e.text for e in events)
    assert not c.engaged and c.position == (3, 0, 0) and game.dice.remaining == 0


def test_RU_CC_2_a_bap_adds_one_and_is_spent():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    bap = game.bap
    dice(game, 3, 4, 3, 1, 1)       # morale 3+1 (BAP) pass; round 4 vs 3 -> 1d3 = 1: X1
    events = act(game, "close_combat", x.gid, 1)
    assert any("morale 3+1 vs 4: pass" in e.text for e in events)
    assert game.bap == bap - 1 and c.engaged
    assert game.dice.remaining == 0


def test_RU_CC_2_natural_one_fails_whatever_the_drm():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    c.units[0].leader = True
    c.units[1].quality = VETERAN    # Veteran target 3; Leader +1, BAP +1: 1+2 = 3 would pass
    dice(game, 1)
    events = act(game, "close_combat", x.gid, 1)
    assert any("morale 1+2 vs 3: fail" in e.text for e in events)
    assert not c.engaged and game.dice.remaining == 0


# RU-CC-3 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("heavy", ["hmg", "flamethrower"])
def test_RU_CC_3_hmg_or_flamethrower_in_target_minus_one(heavy):
    game, b, x = one_on_one("B", 3, (heavy, "rifle"), 3)
    dice(game, 3)                   # 3 +1 Leader -1 heavy = 3 < 4
    events = act(game, "close_combat", x.gid, 0)
    assert any("morale 3+0 vs 4: fail" in e.text for e in events)
    assert not b.engaged and game.dice.remaining == 0
    assert closecombat.morale_drm(game, b, x, bap=True) == 1


def test_RU_CC_3_other_heavy_weapons_do_not_count():
    game, b, x = one_on_one("B", 3, ("lmg", "mortar"), 3)
    assert closecombat.morale_drm(game, b, x, bap=False) == 1   # Leader only


# RU-CC-4 ------------------------------------------------------------------------------------------
def test_RU_CC_4_fail_spends_ap_and_nothing_else():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), "3a")
    before = (c.position, x.position, [u.hits for u in c.units + x.units])
    dice(game, 4)                   # Recruit target 5
    events = act(game, "close_combat", x.gid, 0)
    assert [e.kind for e in events if e.kind in ("cc_refused", "cc_round", "engaged")] == ["cc_refused"]
    assert (c.position, x.position, [u.hits for u in c.units + x.units]) == before
    assert game.ap == 3 and c.fought and not c.engaged and not x.engaged
    assert_illegal(game, "close_combat", x.gid, 0)          # RB-AP-2: one round per activation


def test_RU_CC_4_pass_joins_rubble_position_without_rubble_roll():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), "3a")  # 3a is Rubble: no RU-RUB-1 roll for CC placement
    regular_c(game)
    dice(game, 4, 6, 1, 1, 1, 1)    # morale pass; round 6 vs 1+1 (Rubble, first round) -> 2d3 = 2: X1, X2
    act(game, "close_combat", x.gid, 0)
    assert c.position == x.position == (3, game.feature_by_id("3a").place, GROUND)
    assert c.engaged_with == x.gid and x.engaged_with == c.gid
    assert x.defending and not c.defending
    assert game.ap == 3 and game.dice.remaining == 0


def test_RU_CC_4_attacker_joins_the_first_floor_of_an_ms():
    game, c, x = one_on_one("C", "4a", ("rifle", "rifle"), "4a", enemy_level=FIRST)  # RU-MS-5: range 0
    regular_c(game)
    dice(game, 6, 6, 1, 1, 1, 1)    # morale; 6 vs 1+1 (MS) -> 2d3 = 2: X1, X2
    act(game, "close_combat", x.gid, 0)
    assert c.position == (4, game.feature_by_id("4a").place, FIRST)


# RU-CC-5 ------------------------------------------------------------------------------------------
CATALOG_CC_MOD = {"pistol": 1, "rifle": 0, "smg": 1, "ar": 1, "lmg": -1, "hmg": -1, "mortar": -1,
                  "flamethrower": -1, "at": -1}


@pytest.mark.parametrize("weapon", sorted(CATALOG_CC_MOD))
def test_RU_CC_5_per_unit_weapon_modifier(weapon):
    game, c, x = one_on_one("C", 3, ("rifle",), 3)
    c.units = [Unit("C1", PLAYER, REGULAR, weapon)]
    assert game.tables.weapons[weapon].cc_mod == CATALOG_CC_MOD[weapon]       # from configs (RB-TAB-3)
    assert closecombat.round_modifier(game, c, x) == CATALOG_CC_MOD[weapon]
    c.units[0].hits = 1
    assert closecombat.round_modifier(game, c, x) == CATALOG_CC_MOD[weapon] - 1   # Suppressed -1


def test_RU_CC_5_modifiers_add_up_in_a_round():
    # A: SMG+1, SMG+1 (A2 Suppressed -1), Rifle 0, Rifle 0 = +1; more units +1; more Veterans +1 -> +3
    # X: Rifle, LMG -1 in the Open -> -1
    game, a, x = one_on_one("A", 3, ("rifle", "lmg"), 3)
    unit(a, "A2").hits = 1
    dice(game, 4, 1, 5, 1, 1)       # morale 4+1 (A: Regular, Leader) pass; A 1+3 = 4 vs X 5-1 = 4: tie, A1 and X1
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat A 4 vs X 4"


# RU-CC-6 / RU-CC-7 -------------------------------------------------------------------------------
def test_RU_CC_6_defender_in_building_plus_one_every_round():
    game, c, x = one_on_one("C", 2, ("rifle", "rifle"), "2a")
    regular_c(game)
    dice(game, 6, 3, 2, 1, 1)       # morale; C 3 vs X 2+1 = 3 tie -> C: pick(2)=C1, X: pick(2)=X1
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat C 3 vs X 3"
    # later rounds: still +1 (units now C1 Suppressed, X1 Suppressed: both -1)
    assert closecombat.round_modifier(game, x, c) == -1 + 1
    assert closecombat.round_modifier(game, c, x) == -1


def test_RU_CC_6_ms_counts_as_building_for_the_defender():
    game, c, x = one_on_one("C", "4a", ("rifle", "rifle"), "4a", enemy_level=FIRST)
    regular_c(game)
    x.defending, x.rounds = True, 3
    assert closecombat.round_modifier(game, x, c) == 1


@pytest.mark.parametrize("where", ["3a", "3b"])            # Rubble, Wall
def test_RU_CC_7_rubble_or_wall_defender_first_round_only(where):
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), where)
    regular_c(game)
    dice(game, 6, 4, 1, 1, 1, 1)    # morale; C 4 vs X 1+1 = 2 -> 2d3 = 1+1 = 2: pick(2)=X1, then X2
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat C 4 vs X 2"
    assert x.rounds == 1 and x.defending
    assert closecombat.round_modifier(game, x, c) == -2      # round 2: two Suppressed, no terrain bonus
    assert game.dice.remaining == 0


def test_RU_CC_7_attacker_gets_no_terrain_bonus():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    put(game, "C", "3b")
    c.defending = False
    assert closecombat.round_modifier(game, c, x) == 0


# RU-CC-8 / RU-CC-9 -------------------------------------------------------------------------------
def test_RU_CC_8_more_units_plus_one():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle", "rifle"), 3)
    regular_c(game)
    assert closecombat.round_modifier(game, x, c) == 1
    assert closecombat.round_modifier(game, c, x) == 0
    x.units.pop()
    assert closecombat.round_modifier(game, x, c) == 0          # equal: nobody


def test_RU_CC_9_more_veterans_plus_one():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    # C: C1 Veteran, C2 Recruit; X: two Regulars
    assert closecombat.round_modifier(game, c, x) == 1
    assert closecombat.round_modifier(game, x, c) == 0
    x.units[0].quality = VETERAN
    assert closecombat.round_modifier(game, c, x) == 0          # one each: nobody


# RU-CC-10 -------------------------------------------------------------------------------------------
def test_RU_CC_10_defender_keeps_its_role_when_it_starts_the_round():
    game, c, x = one_on_one("C", 2, ("rifle", "rifle"), "2a")
    regular_c(game)
    dice(game, 6, 5, 3, 1, 1)       # morale; C 5 vs X 3+1 = 4 -> C wins, 1d3 = 1 -> X1 (pick 2)
    act(game, "close_combat", x.gid, 0)
    assert [u.hits for u in x.units] == [1, 0]
    act(game, "end_phase")
    assert game.decision == ("activate", {"options": [x.gid]})
    dice(game, 5, 2, 1, 1, 1)       # X's round: X 5 -1 (X1) +1 (still defender in 2a) = 5 vs C 2 -> 2d3 = 2: C1, C2
    events = act(game, "e_activate", x.gid)
    assert round_event(events) == "close combat X 5 vs C 2"
    assert x.defending and not c.defending
    assert [u.hits for u in c.units] == [1, 1]
    assert game.dice.remaining == 0 and game.turn == 2


# RU-CC-11 -------------------------------------------------------------------------------------------
def test_RU_CC_11_double_the_loser_takes_two_d3():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    dice(game, 6, 6, 3, 2, 1, 1)    # 6 vs 3: 6 >= 2x3 -> 2d3 = 1 + 1 = 2; pick(2)=X1, X2
    events = act(game, "close_combat", x.gid, 0)
    assert any(e.text == "C wins; X takes 2 result(s)" for e in events)
    assert [u.hits for u in x.units] == [1, 1] and game.dice.remaining == 0


def test_RU_CC_11_less_than_double_takes_one_d3():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    dice(game, 6, 5, 3, 4, 2)       # 5 vs 3 -> 1d3 (face 4 -> 2): pick(2)=X2, then X1
    events = act(game, "close_combat", x.gid, 0)
    assert any(e.text == "C wins; X takes 2 result(s)" for e in events)
    assert [u.hits for u in x.units] == [1, 1] and game.dice.remaining == 0


def test_RU_CC_11_results_spread_and_excess_is_lost():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    dice(game, 6, 6, 1, 6, 6, 1, 2)     # 6 vs 1 -> 2d3 = 6 results on 2 units: X1, X2, X2 (dies), X1 (dies), 2 lost
    events = act(game, "close_combat", x.gid, 0)
    assert any(e.text == "C wins; X takes 6 result(s)" for e in events)
    assert not x.alive and game.dice.remaining == 0


def test_RU_CC_11_loser_at_zero_or_below_takes_two_d3():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3, keep=("B",))
    regular_c(game)
    for u in c.units:
        u.hits = 1                  # C: -2
    dice(game, 6, 2, 1, 1, 1, 1)    # C 2-2 = 0 vs X 1 -> X wins, loser <= 0 -> 2d3 = 2: C1, C2 eliminated
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat C 0 vs X 1"
    assert any(e.text == "X wins; C takes 2 result(s)" for e in events)
    assert not c.alive and game.dice.remaining == 0


# RU-CC-12 -------------------------------------------------------------------------------------------
def test_RU_CC_12_tie_one_result_each_ok_units_first():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    unit(c, "C2").hits = 1          # C -1
    dice(game, 6, 4, 3, 2)          # C 4-1 = 3 vs X 3: tie; C's only OK unit C1 (no die), X: pick(2) = X2
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat C 3 vs X 3"
    assert [u.hits for u in c.units] == [1, 1] and [u.hits for u in x.units] == [0, 1]
    assert not any(e.kind == "cc_result" for e in events)
    assert game.dice.remaining == 0 and c.engaged


# RU-CC-13 -------------------------------------------------------------------------------------------
def test_RU_CC_13_survivor_keeps_the_position_and_is_free():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), "3a")
    regular_c(game)
    dice(game, 6, 6, 1, 6, 6, 1, 2)     # 6 vs 1+1 -> 2d3 = 6: X wiped out
    act(game, "close_combat", x.gid, 0)
    assert not x.alive and not c.engaged and c.engaged_with == -1 and not c.defending
    assert c.position == (3, game.feature_by_id("3a").place, GROUND)
    assert game.dice.remaining == 0


def test_RU_CC_13_both_surviving_stay_engaged():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    dice(game, 6, 5, 3, 1, 1)
    act(game, "close_combat", x.gid, 0)
    assert c.engaged_with == x.gid and x.engaged_with == c.gid
    act(game, "end_activation")
    act(game, "end_phase")
    dice(game, 3, 3, 1)             # X's round: X 3-1 = 2 vs C 3 -> C wins, 1d3 = 1 on X2 (fewest results)
    act(game, "e_activate", x.gid)
    assert c.engaged and x.engaged and game.turn == 2


# RU-CC-14 -------------------------------------------------------------------------------------------
def test_RU_CC_14_engaged_group_may_only_fight_a_round():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), "3a", keep=("B",), activate=False)
    regular_c(game)
    unit(c, "C2").hits = 1          # a Suppressed unit, yet no rally
    engage_by_hand(game, c, x, defender=x)
    act(game, "activate", c.gid)
    b = player(game, "B")
    assert legal_actions(game) == {
        ("end_phase", ()), ("end_activation", ()), ("activate", (b.gid,)), ("close_combat", (x.gid, 0))}
    for family, args in (("close_combat", (x.gid, 1)), ("rally", (0,)), ("move", (1, 0, 0)), ("fire", (x.gid, 0))):
        assert_illegal(game, family, *args)
    dice(game, 3, 3, 1)             # no morale check: round C 3-1 = 2 vs X 3 -> X wins 1d3 = 1 -> C's fewest: C1
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat C 2 vs X 3"
    assert not any(e.kind == "morale" for e in events)
    assert game.ap == 3 and game.dice.remaining == 0
    assert_illegal(game, "close_combat", x.gid, 0)          # one round per activation (RB-AP-2)


def test_RU_CC_14_engaged_group_without_ap_has_no_round():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    engage_by_hand(game, c, x, defender=x)
    game.ap = 0
    game.refresh()
    assert_illegal(game, "close_combat", x.gid, 0)


# RU-CC-15 -------------------------------------------------------------------------------------------
def join_setup(weapons=("rifle", "rifle")):
    """C active on Stripe 3; B, not yet activated, already fighting X (`weapons`) in 3a; returns (game, b, c, x)."""
    game, c, x = one_on_one("C", 3, weapons, "3a", keep=("B",))
    b = put(game, "B", 3)
    engage_by_hand(game, b, x, defender=x)
    return game, b, c, x


def test_RU_CC_15_join_merges_into_the_unactivated_friend_and_fights():
    game, b, c, x = join_setup()
    assert not b.activated
    assert legal(game, "close_combat", x.gid, 0)
    # C (Recruit target 5, no Leader): 5 passes. Round: merged B+C (5 units vs 2: +1; Veteran C1: +1;
    # B2 LMG -1) = +1 -> 4+1 = 5 vs X 2 (+0: Rubble but not its first round) -> 2d3 = 2: X1, X2
    dice(game, 5, 4, 2, 1, 1, 1)
    events = act(game, "close_combat", x.gid, 0)
    assert round_event(events) == "close combat B 5 vs X 2"
    assert [u.name for u in b.units] == ["B1", "B2", "B3", "C1", "C2"]
    assert not c.alive and b.activated and b.fought
    assert game.active == b.gid
    assert [u.hits for u in x.units] == [1, 1] and game.dice.remaining == 0
    assert legal_actions(game) == {("end_phase", ()), ("end_activation", ())}


def test_RU_CC_15_no_join_once_the_friend_has_activated():
    game, b, c, x = join_setup()
    b.activated = True
    game.refresh()
    assert_illegal(game, "close_combat", x.gid, 0)


def test_RU_CC_15_join_needs_the_morale_check():
    game, b, c, x = join_setup(("hmg", "rifle"))
    dice(game, 5)                   # 5 - 1 (HMG, RU-CC-3) = 4 < Recruit 5: no join
    act(game, "close_combat", x.gid, 0)
    assert c.alive and len(b.units) == 3 and not b.activated and game.dice.remaining == 0


# RU-CC-16 -------------------------------------------------------------------------------------------
def test_RU_CC_16_lone_unit_beating_a_larger_group_becomes_veteran():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    c.units = [Unit("C1", PLAYER, REGULAR, "rifle")]
    dice(game, 4, 6, 1, 1, 1, 1)    # morale 4 vs Regular 4; C 6 vs X 1+1 (more units) -> 2d3 = 2
    events = act(game, "close_combat", x.gid, 0)
    assert c.units[0].quality == VETERAN
    assert any(e.kind == "veteran" for e in events)


def test_RU_CC_16_no_promotion_against_a_single_unit():
    game, c, x = one_on_one("C", 3, ("rifle",), 3)
    c.units = [Unit("C1", PLAYER, REGULAR, "rifle")]
    dice(game, 4, 6, 1, 1, 1)       # 6 vs 1 -> 2d3 = 2 on X1 alone
    act(game, "close_combat", x.gid, 0)
    assert c.units[0].quality == REGULAR and not x.alive


def test_RU_CC_16_no_promotion_for_a_loser():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    c.units = [Unit("C1", PLAYER, REGULAR, "rifle")]
    dice(game, 4, 1, 6, 1, 1)       # C 1 vs X 6+1 -> 2d3 = 2: C1 dies on the 2nd
    act(game, "close_combat", x.gid, 0)
    assert not c.alive


# RU-CC-17 / RU-CC-18 / RU-CC-19 --------------------------------------------------------------------
def test_RU_CC_17_enemy_close_combat_order_has_no_morale_check():
    game, c, x = one_on_one("C", 2, ("rifle", "rifle", "rifle"), 2)
    act(game, "end_activation")
    enemy_turn(game, x, 6)          # d6 6 + posture 0: Close Combat (RB-TAB-7)
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid], "mode": "close_combat", "drm": 0})
    dice(game, 5, 2, 1, 1, 1)       # no morale die: round X 5+1 (more units) vs C 2+1 (Veteran) -> 2d3 = 2
    events = act(game, "e_target", c.gid)
    assert round_event(events) == "close combat X 6 vs C 3"
    assert not any(e.kind == "morale" for e in events)
    assert x.engaged_with == c.gid and c.defending and not x.defending
    assert [u.hits for u in c.units] == [1, 1] and game.dice.remaining == 0


def test_RU_CC_17_enemy_fights_only_under_its_order():
    game, c, x = one_on_one("C", 2, ("rifle", "rifle", "rifle"), 2)
    act(game, "end_activation")
    enemy_turn(game, x, 2)          # @Attack: it fires, never fights
    assert game.decision[0] == "target" and game.decision[1]["mode"] == "fire"


@pytest.mark.parametrize("weapons", [("pistol", "rifle"), ("smg", "ar")])
def test_RU_CC_18_pistol_rifle_smg_ar_may_fight(weapons):
    game, c, x = one_on_one("C", 2, weapons, 2)
    act(game, "end_activation")
    enemy_turn(game, x, 6)
    assert game.decision[1]["mode"] == "close_combat" and game.decision[1]["options"] == [c.gid]


def test_RU_CC_18_any_other_weapon_makes_it_attack():
    game, c, x = one_on_one("C", 2, ("rifle", "lmg"), 2)
    act(game, "end_activation")
    enemy_turn(game, x, 6)
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid], "mode": "fire", "drm": 0})


def test_RU_CC_18_fewer_units_than_the_target_makes_it_attack():
    game, b, x = one_on_one("B", 2, ("rifle", "rifle"), 2)    # B has 3 units
    act(game, "end_activation")
    enemy_turn(game, x, 6)
    assert game.decision == ("target", {"group": x.gid, "options": [b.gid], "mode": "fire", "drm": 0})
    assert closecombat.enemy_may_fight(game, x, b) is False
    x.units.append(Unit("X3", 1, REGULAR, "rifle"))
    assert closecombat.enemy_may_fight(game, x, b) is True          # as many units: eligible


def test_RU_CC_19_first_floor_only_from_its_own_stripe():
    game, c, x = one_on_one("C", "4a", ("rifle", "rifle"), 3)
    c.level = FIRST
    act(game, "end_activation")
    enemy_turn(game, x, 6)          # range 1, First Floor, X started on Stripe 3: no charge -> @Attack
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid], "mode": "fire", "drm": 0})


def test_RU_CC_19_first_floor_allowed_when_it_started_on_that_stripe():
    game, c, x = one_on_one("C", "4a", ("rifle", "rifle"), 4)
    c.level = FIRST
    act(game, "end_activation")
    enemy_turn(game, x, 6)
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid], "mode": "close_combat", "drm": 0})
    dice(game, 6, 1, 1, 1, 1)       # X 6 vs C 1+1 (Veteran) +1 (defender in MS) = 3 -> 2d3 = 2: C1, C2
    act(game, "e_target", c.gid)
    assert x.position == c.position == (4, game.feature_by_id("4a").place, FIRST)


def test_RU_CC_19_ground_floor_charge_from_range_one():
    game, c, x = one_on_one("C", "4a", ("rifle", "rifle"), 3)
    act(game, "end_activation")
    enemy_turn(game, x, 6)
    assert game.decision[1]["mode"] == "close_combat" and game.decision[1]["options"] == [c.gid]
