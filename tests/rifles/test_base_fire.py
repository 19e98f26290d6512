"""Fire, hits and morale (rules catalog §6, §7: RB-FIRE-*, RB-HIT-*, RB-MOR-*)."""
from __future__ import annotations

import pytest

from envs.rifles import enemy as enemy_rules
from envs.rifles import fire, morale
from envs.rifles.state import FIRST, QUALITY

from .builders import act, assert_illegal, dice, enemy, families, fresh, legal, one_on_one, only, player, put, rolled, texts, unit


# §6 Fire ---------------------------------------------------------------------------------------------
def test_RB_FIRE_1_each_ok_unit_whose_weapon_reaches_rolls_its_cf():
    game, b, x = one_on_one("B", 1, ["rifle"], 3)           # range 2: B1, B3 Rifles (1 die each), B2 LMG (2 dice)
    dice(game, 1, 1, 1, 1)
    act(game, "fire", x.gid, 0)
    assert rolled(game) == [(6, 1)] * 4
    game, b, x = one_on_one("B", 1, ["rifle"], 4)           # range 3: only the LMG reaches
    dice(game, 6, 1, 1)
    events = act(game, "fire", x.gid, 0)
    assert rolled(game) == [(6, 6), (6, 1), (6, 1)] and "(1 units" in texts(events)[0]
    assert x.units[0].suppressed


def test_RB_FIRE_1_no_weapon_in_range_no_fire():
    game, b, x = one_on_one("B", 1, ["rifle"], 4)
    unit(b, "B2").hits = 1                                   # the only weapon reaching range 3 is Suppressed
    game.refresh()
    assert_illegal(game, "fire", x.gid, 0)
    game, c, y = one_on_one("C", 1, ["rifle"], 4)            # Rifles reach 2
    assert_illegal(game, "fire", y.gid, 0)


def test_RB_FIRE_2_tn_is_range_base_plus_cover_capped_at_six():
    game = fresh()
    rifle = game.tables.weapons["rifle"]
    tn = fire.target_number
    assert tn(game, (2, 0, 0), (2, 0, 0), rifle) == 3
    assert tn(game, (1, 0, 0), (2, 2, 0), rifle) == 5        # range 1 + wall
    assert tn(game, (4, 0, 0), (2, 1, 0), rifle) == 6        # range 2 + building = 7, capped
    assert game.tables.tn_cap == 6
    # capped, not 7: a 5 with a BAP hits, a 4 with a BAP misses
    game, c, x = one_on_one("C", 4, ["rifle"], "2a")
    dice(game, 5, 4, 1)
    events = act(game, "fire", x.gid, 1)
    assert "1 hit(s)" in texts(events)[0] and x.units[0].suppressed


@pytest.mark.parametrize("faces, bap, hits, usn", [((4, 3), 0, 1, (1, 1)), ((3, 3), 1, 2, (1, 1, 1)), ((2, 2), 1, 0, ())])
def test_RB_FIRE_3_a_die_hits_when_die_plus_drm_reaches_tn(faces, bap, hits, usn):
    game, c, x = one_on_one("C", 1, ["rifle", "rifle"], 2)  # range 1, Open: TN 4
    dice(game, *faces, *usn)                                 # USN 1 per hit: a random OK unit
    events = act(game, "fire", x.gid, bap)
    assert f"{hits} hit(s)" in texts(events)[0]
    assert sum(u.suppressed for u in x.units) == hits and game.dice.remaining == 0


def test_RB_FIRE_4_natural_one_misses_natural_six_hits():
    assert not fire.is_hit(1, 5, 3) and fire.is_hit(6, -5, 6) and fire.is_hit(2, 1, 3) and not fire.is_hit(5, -1, 5)
    # a natural 1 misses even at DRM +2 (First Floor +1, BAP +1) against TN 3
    game, a, x = one_on_one("A", "4a", ["rifle"], 4)
    a.level = FIRST
    game.refresh()
    dice(game, 1, 1, 1, 1, 1, 2, 1)                          # A1 SMG, A2 SMG, A3, A4: only the 2 hits; USN 1
    events = act(game, "fire", x.gid, 1)
    assert "DRM +2" in texts(events)[0] and "1 hit(s)" in texts(events)[0]


def test_RB_FIRE_4_natural_six_hits_despite_a_negative_drm():
    game = fresh()
    only(game, "B")
    b = player(game, "B")                                    # in 1a (Wall), range 3 from Stripe 4: TN 6
    x = enemy(game, "X", ["lmg"], "4a")
    dice(game, 1)                                            # order 1: @Cover (fire at -1)
    act(game, "end_phase")
    act(game, "e_activate", x.gid)
    assert game.decision[0] == "move_up"
    act(game, "e_no")
    assert game.decision[0] == "target" and game.decision[1]["drm"] == -1
    dice(game, 6, 5, 1, 2)                                   # 6-1 = 5 < 6 but hits; 5-1 misses; USN 1, d3 2 -> B2
    act(game, "e_target", b.gid)
    assert [u.name for u in b.units if u.suppressed] == ["B2"]


def test_RB_FIRE_5_each_hit_is_one_unit_selection_roll():
    game, c, x = one_on_one("B", 2, ["rifle", "lmg", "rifle"], 2)
    # 4 dice at TN 3: three hits. USN 4: heaviest (X2 LMG); USN 6: a Suppressed unit (X2: eliminated);
    # USN 5: a Leader, none -> random unit of X1, X3 (d2 2 -> X3)
    dice(game, 6, 6, 6, 1, 4, 6, 5, 2)
    act(game, "fire", x.gid, 0)
    assert [(u.name, u.hits) for u in x.units] == [("X1", 0), ("X3", 1)]
    assert "X2" in game.graveyard and game.dice.remaining == 0


def test_RB_FIRE_6_engaged_groups_neither_fire_nor_are_fired_at():
    game = fresh()
    only(game, "A", "C")
    a, c = put(game, "A", 2), put(game, "C", 2)
    x = enemy(game, "X", ["rifle"], 2)
    y = enemy(game, "Y", ["rifle"], 2)
    a.engaged_with, x.engaged_with = x.gid, a.gid
    act(game, "activate", c.gid)
    assert legal(game, "fire", y.gid, 0)
    assert_illegal(game, "fire", x.gid, 0)                   # X is Engaged
    act(game, "activate", a.gid)
    assert "fire" not in families(game)                      # A is Engaged
    assert fire.shooters(game, y, a) == [] and fire.shooters(game, x, c) == []
    assert enemy_rules.targets(game, y) == [c.gid]


def test_RB_FIRE_7_flamethrower_ignores_cover():
    game, a, x = one_on_one("A", 2, ["rifle"], "2a")        # range 0 into a Building: TN 5, the FT's TN 3
    unit(a, "A3").weapon = "flamethrower"
    ft = game.tables.weapons["flamethrower"]
    assert fire.target_number(game, a.position, x.position, ft) == 3
    # A1 SMG 4 4, A2 SMG 4 4, A3 FT 3 3 3, A4 Rifle 4: three hits (the FT's); USN 1, USN 1: X1 eliminated
    dice(game, 4, 4, 4, 4, 3, 3, 3, 4, 1, 1)
    events = act(game, "fire", x.gid, 0)
    assert "3 hit(s)" in texts(events)[0] and not x.units and game.dice.remaining == 0


def test_RB_FIRE_7_mortar_cannot_fire_at_range_zero():
    game = fresh()
    only(game, "A")
    a = put(game, "A", 2)
    unit(a, "A3").weapon = "mortar"
    near, far = enemy(game, "X", ["rifle"], 2), enemy(game, "Y", ["rifle"], 3)
    assert [u.name for u in fire.shooters(game, a, near)] == ["A1", "A2", "A4"]
    assert [u.name for u in fire.shooters(game, a, far)] == ["A1", "A2", "A3", "A4"]
    put(game, "A", 1)
    z = enemy(game, "Z", ["rifle"], 6)                        # range 5: only the Mortar reaches
    assert [u.name for u in fire.shooters(game, a, z)] == ["A3"]


# §6 Hits ------------------------------------------------------------------------------------------------
def test_RB_HIT_1_a_result_suppresses_then_eliminates():
    game, c, x = one_on_one("C", 2, ["rifle"], 2)
    dice(game, 6, 1, 1)                                       # one hit: X1 Suppressed
    events = act(game, "fire", x.gid, 0)
    assert x.units[0].suppressed and x.units[0].alive and "X1 of X is suppressed" in texts(events)
    game, c, x = one_on_one("C", 2, ["rifle"], 2)
    dice(game, 6, 6, 1, 1)                                    # two hits on the one unit: eliminated
    events = act(game, "fire", x.gid, 0)
    assert not x.units and "X1" in game.graveyard and "X1 of X is eliminated" in texts(events)


def test_RB_HIT_2_a_suppressed_unit_cannot_fire_and_moves_with_its_group():
    game, c, x = one_on_one("C", 2, ["rifle"], 2)
    unit(c, "C2").hits = 1
    game.refresh()
    dice(game, 1)                                             # one die: only C1 rolls
    act(game, "fire", x.gid, 0)
    assert rolled(game) == [(6, 1)] and not unit(c, "C2").fired
    act(game, "move", 1, 2, 0)                                # 1 of 2 Suppressed: the group moves, C2 with it
    assert c.position == (2, 2, 0) and [u.name for u in c.units] == ["C1", "C2"] and unit(c, "C2").suppressed


def test_RB_HIT_3_results_spread_to_the_fewest_results_first_excess_lost():
    game, a, x = one_on_one("A", 2, ["rifle", "rifle"], 2)
    # morale 4: pass; round A 6+4 vs X 1: double -> 2d3 = 3 + 3 = 6 results on two units:
    # X1 (d2 1), X2 (fewest), X2 (d2 2: eliminated), X1 (eliminated); two results lost
    dice(game, 4, 6, 1, 5, 6, 1, 2)
    events = act(game, "close_combat", x.gid, 0)
    assert any("takes 6 result(s)" in t for t in texts(events))
    assert not x.units and not a.engaged and game.dice.remaining == 0
    assert [e.text for e in events if e.kind == "eliminated"] == ["X2 of X is eliminated", "X1 of X is eliminated"]


def test_RB_HIT_3_ok_units_take_results_before_suppressed_ones():
    game = fresh()
    x = enemy(game, "X", ["rifle", "rifle", "rifle"], 2)
    x.units[0].hits = 1
    dice(game, 2)                                             # tie X2/X3: d2 2 -> X3; then X2 alone
    fire.spread_results(game, x, 2)
    assert [u.hits for u in x.units] == [1, 1, 1] and rolled(game) == [(2, 2)]


# §7 Morale ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("face, passed", [(5, True), (4, False)])
def test_RB_MOR_1_rally_passes_on_die_plus_drm_at_least_the_quality_target(face, passed):
    game = fresh()
    only(game, "C")
    c = player(game, "C")
    unit(c, "C2").hits = 1                                    # C2 Recruit: target 5, no Leader
    act(game, "activate", c.gid)
    dice(game, face)
    act(game, "rally", 0)
    assert unit(c, "C2").suppressed is not passed


def test_RB_MOR_1_a_natural_one_fails():
    game = fresh()
    only(game, "A")
    a = player(game, "A")
    a2 = unit(a, "A2")
    a2.quality, a2.hits = QUALITY["veteran"], 1               # Veteran 3; +1 Leader +1 BAP: 1 + 2 = 3 would pass
    act(game, "activate", a.gid)
    dice(game, 1)
    events = act(game, "rally", 1)
    assert a2.suppressed and "fail" in texts(events)[-1]
    dice(game, 1, 2)
    assert not morale.check(game, QUALITY["veteran"], 5, "test") and morale.check(game, QUALITY["veteran"], 1, "test")


def test_RB_MOR_2_group_checks_with_its_most_common_quality_ties_lowest():
    game = fresh()
    q = morale.group_quality
    assert q(player(game, "A").units) == QUALITY["regular"]   # 1 Veteran, 3 Regular
    assert q(player(game, "B").units) == QUALITY["regular"]   # 2 Regular, 1 Recruit
    assert q(player(game, "C").units) == QUALITY["recruit"]   # 1 Veteran, 1 Recruit: lowest
    a = player(game, "A").units
    assert q([a[0], a[1]]) == QUALITY["regular"]              # Veteran + Regular: Regular


@pytest.mark.parametrize("face, engaged", [(4, False), (5, True)])
def test_RB_MOR_2_close_combat_check_uses_the_group_quality(face, engaged):
    game, c, x = one_on_one("C", 2, ["rifle", "rifle"], 2)
    dice(game, face, 3, 4, 1, 1)                              # C checks as Recruit (5), not Veteran (3)
    act(game, "close_combat", x.gid, 0)
    assert c.engaged is engaged and game.ap == 3


def test_RB_MOR_3_rally_each_suppressed_unit_with_the_leader_bonus():
    game = fresh()
    only(game, "B")
    b = player(game, "B")
    unit(b, "B2").hits = unit(b, "B3").hits = 1
    act(game, "activate", b.gid)
    assert legal(game, "rally", 0)
    dice(game, 3, 4)                                          # B2 Regular 3+1 = 4 pass; B3 Recruit 4+1 = 5 pass
    act(game, "rally", 0)
    assert not any(u.suppressed for u in b.units) and game.ap == 3
    assert_illegal(game, "rally", 0)                          # nothing left to rally


def test_RB_MOR_3_no_leader_bonus_when_the_leader_is_suppressed():
    game = fresh()
    only(game, "B")
    b = player(game, "B")
    for u in b.units:
        u.hits = 1
    act(game, "activate", b.gid)
    dice(game, 3, 3, 5)                                       # B1 3 fail; B2 3 fail (no +1); B3 Recruit 5 pass
    act(game, "rally", 0)
    assert [u.suppressed for u in b.units] == [True, True, False]
