"""HE/AS fire (CF-HE-1..13, CF-ACT-7, CF-HID-9), smoke (CF-SMK-1..5) and building damage (CF-BLD-1..8)."""
from envs.cityfight import damage, he, smoke
from envs.cityfight.board import sight
from envs.cityfight.config import BRICK, CLUTTERED, CONCRETE, OPEN, WOODEN_METAL

from .builders import act, activate, build, el, illegal, kinds, legal, sq

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


def gunner(weapon="LAW", at="e9", enemies=(("D1", "B", "a1"),), row="B", flags=None, **kw):
    item = ("A1", row, at, weapon) + ((flags,) if flags else ())
    game = build(MAP, attackers=[item, ("A9", "B", "i9")], defenders=list(enemies), **kw)
    activate(game, "A1")
    return game


def test_CF_ACT_7_fire_special_weapon_costs_two_ap():
    game = gunner(dice=[4, 4, 1, 1])
    act(game, "special", "e5")
    assert el(game, "A1").ap_spent == 2 and el(game, "A1").fired


def test_CF_HE_1_in_sight_within_min_max_range_targets_as_kinetic_fire():
    game = gunner(enemies=[("D1", "B", "e7"), ("D2", "B", "h9")], flags=None)
    assert legal(game, "special", "e5")
    illegal(game, "special", "e8")                     # LAW minimum range 3
    illegal(game, "special", "i9")                     # own element there
    game = gunner(at="b5")
    illegal(game, "special", "e3")                     # no LOS through the building


def test_CF_HE_2_accuracy_minus_two_once_clamped():
    game = gunner()
    c3, e5 = sq(game, "c3"), sq(game, "e5")
    assert he.accuracy(game, c3, True, [4, 4]) == 8
    assert he.accuracy(game, c3, False, [4, 4]) == 6 and he.accuracy(game, e5, False, [4, 4]) == 6
    assert he.accuracy(game, e5, True, [1, 1]) == 2


def land(game, origin, target, total, grid="G1", building=False):
    return game.name(he.landing(game, sq(game, origin), sq(game, target), grid, total, building))


def test_CF_HE_3_grid_frame_follows_the_line_of_fire():
    game = gunner()
    north = [land(game, "e9", "e5", t) for t in (3, 8, 11, 4, 6, 10, 2, 5, 12)]
    assert north == ["d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"]
    south = [land(game, "e1", "e5", t) for t in (3, 8, 4, 10)]
    assert south == ["f6", "e6", "f5", "d5"]             # the firer's left is east when firing south
    assert [land(game, "a9", "e5", t) for t in (8, 3, 4)] == ["f4", "e4", "d4"]   # a diagonal line turns the grid


def test_CF_HE_4_against_a_building_the_top_row_counts_as_the_cell_below():
    game = gunner()
    assert land(game, "h3", "d3", 3, building=True) == land(game, "h3", "d3", 4, building=True) == "d4"
    assert land(game, "h3", "d3", 3) == "c4"


def test_CF_HE_5_an_impact_off_the_map_has_no_effect():
    game = gunner(at="e5", dice=[5, 6])
    events = act(game, "special", "a5")                # 11 - 2 = 9: over the line, off the west edge
    assert "impact" in kinds(events) and game.dice.remaining == 0 and max(game.damage) == 0


def test_CF_HE_6_effect_higher_die_plus_fs_against_the_impact_cover():
    game = gunner("RPG", at="h3", enemies=[("D1", "B", "d3")], dice=[3, 4, 2, 1] + [1] * 16)
    act(game, "special", "d3")                         # 7 (building, unspotted) -2 = 5: short line -> e3
    assert el(game, "D1").alive
    game = gunner("RPG", at="h3", enemies=[("D1", "B", "d3")], dice=[4, 4, 2, 1] + [1] * 16)
    act(game, "special", "d3")                         # 8 - 2 = 6: on target; 2 + 7 = 9 vs Brick 9: S
    assert el(game, "D1").suppressed and el(game, "D1").alive
    assert he.he_result(game, sq(game, "d3"), 11) == "K"


def test_CF_HE_7_not_reduced_for_unspotted_targets_no_six_rules():
    game = gunner(enemies=[("D1", "B", "e5")], dice=[4, 4, 1, 1])
    act(game, "special", "e5")                         # 6: on target; 1 + 9 = 10 >= Open K 8, unspotted: still K
    assert not el(game, "D1").alive
    assert he.he_result(game, sq(game, "d3"), 6) is None   # a six gives nothing by itself


def test_CF_HE_8_blast_half_the_higher_die_plus_fs_on_the_eight_around():
    game = gunner(enemies=[("D1", "B", "e4"), ("D2", "B", "d4")], dice=[4, 4, 1, 1])
    act(game, "special", "e5")                         # blast: 1 + 9 = 10: K on Open e4; Brick d4 (S 9 K 11): S
    assert not el(game, "D1").alive and el(game, "D2").suppressed


def test_CF_HE_9_impact_and_blast_hit_both_sides_then_msq_spread():
    game = gunner(enemies=[("D1", "B", "e4"), ("D2", "B", "h7")], dice=[4, 4, 1, 1])
    from .builders import place
    place(game, 0, "A8", "B", "f5")
    act(game, "special", "e5")
    assert not el(game, "A8").alive and not el(game, "D1").alive
    assert not el(game, "D2").suppressed                # h7 is in MSq C3, not e5's MSq B2


def test_CF_HE_10_ugl_does_not_announce_its_origin_the_others_do():
    game = gunner("UGL", dice=[3, 4, 1, 1])
    act(game, "special", "e5")
    assert game.knowledge[1].last_fire[0] == -1 and game.knowledge[1].last_fire[1] == sq(game, "e5")
    game = gunner("RPG", dice=[3, 4, 1, 1])
    act(game, "special", "e5")
    assert game.knowledge[1].last_fire[0] == sq(game, "e9")


def test_CF_HE_11_an_accuracy_double_can_put_the_weapon_out_of_ammunition():
    game = gunner("UGL", dice=[2, 2, 1, 1])
    act(game, "special", "e5")
    assert el(game, "A1").special_ooa
    assert he.runs_out("low_double", [4, 4]) is False and he.runs_out("any_double", [5, 5]) and not he.runs_out("none", [1, 1])
    game = gunner("RPG")
    el(game, "A1").special_ooa = True
    game.refresh()
    illegal(game, "special", "e5")


def test_CF_HE_12_a_law_fires_once_and_is_removed():
    game = gunner("LAW", dice=[3, 4, 1, 1])
    act(game, "special", "e5")
    assert el(game, "A1").special is None


def test_CF_HE_13_an_rpg_impact_breaches_a_building_square():
    game = gunner("RPG", at="h3", enemies=[("D1", "B", "a9")], dice=[4, 4, 1, 1])
    d3 = sq(game, "d3")
    assert game.door[d3] == 0
    act(game, "special", "d3")
    assert game.door[d3] == 1
    game.door[d3] = 1
    from envs.cityfight.movement import building_step_ok
    assert building_step_ok(game, sq(game, "e3"), d3, False)


def test_CF_HID_9_he_impacts_are_public():
    game = gunner(dice=[4, 4, 1, 1])
    act(game, "special", "e5")
    assert game.knowledge[0].impacts[sq(game, "e5")] == 1 == game.knowledge[1].impacts[sq(game, "e5")]


# Smoke ----------------------------------------------------------------------------------------------------
def smoker(**kw):
    return gunner("UGL", flags={"smoke": True}, **kw)


def test_CF_SMK_1_smoke_capable_weapons_fire_smoke_in_range_and_sight():
    game = smoker(dice=[3, 4])
    assert legal(game, "smoke", "e5")
    act(game, "smoke", "e5")
    assert el(game, "A1").ap_spent == 2 and el(game, "A1").fired
    game = gunner("UGL")
    illegal(game, "smoke", "e5")                       # not smoke-capable


def test_CF_SMK_2_landing_from_the_grid_fills_a_three_by_three_block():
    game = smoker(dice=[3, 4])                         # 7 (no DMs): on target
    act(game, "smoke", "e5")
    smoked = {game.name(s) for s in range(game.board.size) if game.smoke[s]}
    assert smoked == {"d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"}
    game = smoker()
    smoke.place(game, sq(game, "a1"))                  # a corner: the off-map parts are lost
    assert sum(1 for s in range(game.board.size) if game.smoke[s]) == 4


def test_CF_SMK_3_a_double_ends_the_weapons_smoke_but_this_smoke_lands():
    game = smoker(dice=[3, 3])
    act(game, "smoke", "e5")
    assert el(game, "A1").smoke_spent and game.smoke[sq(game, "e4")]    # 6: level line is e5 in G1 (6-7)


def test_CF_SMK_4_smoke_blocks_sight_and_does_no_damage():
    game = smoker(enemies=[("D1", "B", "e5")], dice=[3, 4])
    act(game, "smoke", "e5")
    assert el(game, "D1").alive and not el(game, "D1").suppressed
    assert not sight(game, sq(game, "e9"), sq(game, "e1"))


def test_CF_SMK_5_blocks_decay_by_the_table_and_are_gone_after_five_turns():
    game = smoker()
    smoke.place(game, sq(game, "e5"))
    left = []
    for turn in range(2, 7):
        game.turn = turn
        smoke.decay(game)
        left.append(sorted(game.name(s) for s in range(game.board.size) if game.smoke[s]))
    assert "d4" not in left[0] and "f6" not in left[0] and "f4" in left[0]
    assert left[3] == ["e5"] and left[4] == [] and game.smoke_blocks == []


# Building damage --------------------------------------------------------------------------------------------
def hits(game, square, n, firer="h3"):
    for _ in range(n):
        damage.hit_square(game, sq(game, square), "S", sq(game, firer))


def test_CF_BLD_1_each_s_or_k_on_a_building_square_adds_a_point():
    game = gunner()
    hits(game, "d3", 1)
    damage.hit_square(game, sq(game, "e5"), "K", sq(game, "h3"))
    damage.hit_square(game, sq(game, "c3"), None, sq(game, "h3"))
    assert game.damage[sq(game, "d3")] == 1 and game.damage[sq(game, "e5")] == 0 and game.damage[sq(game, "c3")] == 0


def test_CF_BLD_2_rubble_neighbours_nearest_the_firer_ties_clockwise():
    game = gunner()
    order = damage.rubble_neighbours(game, sq(game, "d3"), sq(game, "h3"))
    assert [game.name(s) for s in order] == ["e3", "d2"]
    order = damage.rubble_neighbours(game, sq(game, "c3"), sq(game, "c9"))
    assert [game.name(s) for s in order] == ["b3", "c2"]


def test_CF_BLD_3_two_points_make_the_first_neighbour_rubble():
    game = gunner()
    hits(game, "d3", 2)
    assert game.rubble[sq(game, "e3")] and game.cover[sq(game, "e3")] == CLUTTERED and not game.rubble[sq(game, "d2")]


def test_CF_BLD_4_four_points_lower_cover_block_doorways_second_rubble():
    game = gunner()
    hits(game, "d4", 4, firer="h4")
    d4 = sq(game, "d4")
    assert game.cover[d4] == WOODEN_METAL and game.door[d4] == 2
    assert game.rubble[sq(game, "e4")] and game.rubble[sq(game, "d5")]


def test_CF_BLD_5_eight_points_two_classes_below_the_original_third_rubble():
    game = gunner()
    hits(game, "d4", 8, firer="h4")
    assert game.cover[sq(game, "d4")] == CLUTTERED


def test_CF_BLD_6_elements_in_a_square_that_becomes_rubble_are_killed():
    game = gunner(enemies=[("D1", "B", "e3")], dice=[4])
    hits(game, "d3", 2)
    assert not el(game, "D1").alive


def test_CF_BLD_7_cover_steps_down_but_it_stays_a_building():
    game = gunner()
    c = sq(game, "c3")
    assert damage.lowered_cover(game, c, 1) == WOODEN_METAL and damage.lowered_cover(game, c, 3) == OPEN
    assert game.tables.damage_steps == (CONCRETE, BRICK, WOODEN_METAL, CLUTTERED, OPEN)
    hits(game, "c3", 8)
    assert game.board.building[c] >= 0 and not sight(game, sq(game, "b3"), sq(game, "d3"))


def test_CF_BLD_8_damage_is_judged_before_the_occupant_modifiers():
    game = build(MAP, attackers=[("A1", "D", "d1")], defenders=[("D1", "B", "d3")], dice=[5, 1])
    el(game, "D1").suppressed = True
    activate(game, "A1")
    act(game, "fire", "d3")
    act(game, "dice", 2)                              # damage: 5 + 4 = 9 >= Brick S; result: 5 + 2 = 7: nothing
    assert game.damage[sq(game, "d3")] == 1 and el(game, "D1").fired_on


def test_CF_RES_8_fired_on_in_impact_and_blast_squares_whatever_the_result():
    game = gunner(enemies=[("D1", "B", "d4"), ("D2", "B", "h1")], dice=[4, 4, 1, 1])
    act(game, "special", "e5")                         # d4 (Brick) in the blast: 1 + 9 = 10 -> S anyway
    game = gunner("UGL", enemies=[("D1", "B", "d4"), ("D2", "B", "h1")], dice=[4, 4, 1, 1])
    act(game, "special", "e5")                         # UGL blast on Brick d4: 1 + 5 = 6: no effect
    assert el(game, "D1").fired_on and not el(game, "D1").suppressed and not el(game, "D2").fired_on


def test_CF_HE_13_a_breach_on_a_square_damaged_to_four_points_is_blocked_at_once():
    # accuracy 4+4-2 on the line (the target), effect 6+7 gives at least S: one damage point
    game = gunner("RPG", at="h3", enemies=[("D1", "B", "a9")], dice=[4, 4, 6, 5])
    d3 = sq(game, "d3")
    game.damage[d3] = 3                                # the impact's point makes 4 (CF-BLD-4 blocks doorways)
    act(game, "special", "d3")
    assert game.damage[d3] == 4 and game.door[d3] == 2
