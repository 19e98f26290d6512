"""Urban terrain (rules catalog §8): Rubble, Walls, Sealed Buildings, Multi-Story Buildings, complexes, RU-ADV-1."""
import pytest

from envs.engine.dice import ScriptedDice
from envs.rifles import enemy as enemy_rules
from envs.rifles import fire, geometry, movement
from envs.rifles.game import RiflesGame
from envs.rifles.state import FIRST, GROUND

from .builders import act, assert_illegal, dice, enemy, fresh, kinds, legal, move_args, only, player, put, ready, where


# RU-TER: terrain cover and the Sealed Building -------------------------------------------------------
def test_RU_TER_1_rubble_gives_building_cover():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], "3a")
    assert game.tables.cover["rubble"] == game.tables.cover["building"] == 2
    assert fire.target_number(game, (2, 0, 0), x.position, game.tables.weapons["rifle"]) == 6
    ready(game, "C", 2)
    dice(game, 5, 6, 1, 2)           # C1: 5 misses TN 6 (4 + 2), C2: 6 hits; USN 1 -> OK unit, pick 2 -> X2
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [0, 1]
    assert game.dice.remaining == 0 and game.ap == 3


def test_RU_TER_1_same_dice_hit_in_the_open():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    ready(game, "C", 2)
    dice(game, 5, 6, 1, 1, 1)        # TN 4 in the Open: both hit; USN 1 pick 1 -> X1, USN 1 (one OK unit left) -> X2
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [1, 1]
    assert game.dice.remaining == 0


def test_RU_TER_2_rubble_has_no_floors():
    game = fresh()
    only(game, "C")
    ready(game, "C", "3a")
    assert not movement.movement_barred(player(game, "C"))
    assert_illegal(game, "floor")
    game2 = fresh()
    only(game2, "C")
    ready(game2, "C", "4a")
    assert legal(game2, "floor")


def test_RU_TER_2_rubble_defender_gets_cover_bonus_first_round_only():
    game = fresh()
    only(game, "C", "X", "Y")
    c = put(game, "C", 3)
    x = enemy(game, "X", ["rifle"], "3a")            # rubble
    y = enemy(game, "Y", ["rifle"], "2a")            # building
    x.defending = y.defending = True
    # C: 2 units vs 1 (+1), one Veteran vs none (+1) for the attacker; the defender's rifle is 0
    assert game.cc_modifier(x, c) == 1                # RU-CC-7 first round in Rubble
    assert game.cc_modifier(y, c) == 1                # RU-CC-6 Building
    x.rounds = y.rounds = 1
    assert game.cc_modifier(x, c) == 0                # Rubble is not a Building: no lasting +1
    assert game.cc_modifier(y, c) == 1


def test_RU_TER_2_rubble_is_not_a_demo_charge_target():
    game = fresh()
    only(game, "A", "X", "Y")
    x = enemy(game, "X", ["rifle"], "5b")             # rubble
    y = enemy(game, "Y", ["rifle"], "5a")             # MS
    ready(game, "A", 5)
    assert legal(game, "demo_place", where(game, "5a")[1], 1)
    assert_illegal(game, "demo_place", where(game, "5b")[1], 1)
    assert_illegal(game, "demo_place", where(game, "5b")[1], 0)
    assert x.alive and y.alive


def test_RU_TER_3_wall_adds_one_to_tn():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], "3b")
    assert game.tables.cover["wall"] == 1
    assert fire.target_number(game, (2, 0, 0), x.position, game.tables.weapons["rifle"]) == 5
    ready(game, "C", 2)
    dice(game, 4, 5, 1, 1)           # 4 misses TN 5 (4 + 1), 5 hits; USN 1 -> OK unit X1
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [1, 0]
    assert game.dice.remaining == 0


def test_RU_TER_4_sealed_building_fire_allowed_cc_and_entry_not():
    game = fresh()
    only(game, "A", "S")
    s = game.enemies[0]
    fourb = where(game, "4b")
    ready(game, "A", 4)
    assert legal(game, "fire", s.gid, 0)              # fire is allowed
    assert_illegal(game, "close_combat", s.gid, 0)    # CC at range 0 is not, while sealed
    assert_illegal(game, "move", *move_args(game, "4b"))
    assert fourb[1] not in movement.enemy_places(game, 4)   # no enemy enters it either
    game.feature_by_id("4b").sealed = False           # breached (RU-DC-5)
    game.refresh()
    assert legal(game, "close_combat", s.gid, 0)


def test_RU_TER_4_sealed_building_cannot_be_entered_from_another_stripe():
    game = fresh()
    only(game, "A")
    ready(game, "A", 3)
    assert legal(game, "move", *move_args(game, "4a"))
    assert_illegal(game, "move", *move_args(game, "4b"))
    game.feature_by_id("4b").sealed = False
    game.refresh()
    assert legal(game, "move", *move_args(game, "4b"))


def test_RU_TER_4_group_inside_sealed_building_cannot_leave():
    game = fresh()
    only(game, "C")
    ready(game, "C", "4b")
    for at in (4, "4a", 3, 5, "5a"):
        assert_illegal(game, "move", *move_args(game, at))
    game.feature_by_id("4b").sealed = False
    game.refresh()
    assert legal(game, "move", *move_args(game, 4))


# RU-RUB: entering Rubble ---------------------------------------------------------------------------
@pytest.mark.parametrize("face, cost", [(1, 1), (2, 1), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_RU_RUB_1_entry_roll_sets_cost(face, cost):
    game = fresh()
    only(game, "C")
    c = ready(game, "C", 3)                           # a reposition on its own Stripe: no Exposed Movement
    assert game.tables.rubble_two_ap_from == 5
    dice(game, face)
    act(game, "move", *move_args(game, "3a"))
    if cost == 2:
        assert game.decision[0] == "rubble_cost" and c.place == 0 and game.ap == 4
        act(game, "rubble_pay")
    assert c.position == (3, where(game, "3a")[1], GROUND)
    assert game.ap == 4 - cost
    assert game.dice.remaining == 0 and game.decision == ("player", {})


def test_RU_RUB_1_entry_roll_on_a_stripe_move():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", 2)
    dice(game, 4, 1, 1)                               # rubble 4 -> 1 AP, then D66 11: nothing
    events = act(game, "move", *move_args(game, "3a"))
    assert kinds(events)[:3] == ["rubble", "move", "exposed"]
    assert c.position == (3, 1, GROUND) and game.ap == 3


def test_RU_RUB_2_decline_cancels_at_no_cost():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", 2)
    dice(game, 6)
    act(game, "move", *move_args(game, "3a", recon=1))
    assert game.decision[0] == "rubble_cost"
    assert legal(game, "rubble_pay") and legal(game, "rubble_decline")
    events = act(game, "rubble_decline")
    assert "rubble_cancel" in kinds(events)
    assert c.position == (2, 0, GROUND)
    assert game.ap == 4 and game.recon == 2           # no AP and no Recon Point spent
    assert game.active == c.gid and game.decision == ("player", {})
    assert legal(game, "move", *move_args(game, "3b"))   # may do anything else
    assert legal(game, "end_activation")


def test_RU_RUB_2_lacking_two_ap_cancels_without_asking():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", 3)
    game.ap = 1
    game.refresh()
    dice(game, 5)
    events = act(game, "move", *move_args(game, "3a"))
    assert kinds(events) == ["rubble", "rubble_cancel"]
    assert game.decision == ("player", {}) and game.ap == 1
    assert c.position == (3, 0, GROUND) and game.active == c.gid
    assert legal(game, "move", *move_args(game, "3b"))


def test_RU_RUB_3_no_second_try_this_turn():
    game = fresh()
    only(game, "C", "B")
    c = ready(game, "C", 3)
    dice(game, 5)
    act(game, "move", *move_args(game, "3a"))
    act(game, "rubble_decline")
    assert_illegal(game, "move", *move_args(game, "3a"))
    # another group may still try that Rubble
    put(game, "B", 3)
    act(game, "activate", player(game, "B").gid)
    assert legal(game, "move", *move_args(game, "3a"))
    # next turn C may try again
    act(game, "end_phase")
    assert game.turn == 2 and game.decision == ("player", {})
    act(game, "activate", c.gid)
    assert legal(game, "move", *move_args(game, "3a"))


def test_RU_RUB_4_cancelled_attempt_rolls_no_exposed_movement_and_reveals_nothing():
    game = fresh(markers=True)
    only(game, "C")
    c = ready(game, "C", 2)
    markers = [m.name for m in game.markers if m is not None]
    dice(game, 5)                                     # only the rubble die
    act(game, "move", *move_args(game, "3a"))
    events = act(game, "rubble_decline")
    assert "exposed" not in kinds(events) and "reveal" not in kinds(events)
    assert [m.name for m in game.markers if m is not None] == markers
    assert game.dice.remaining == 0 and c.stripe == 2


def test_RU_RUB_4_rubble_roll_before_exposed_movement_before_reveal():
    game = fresh(markers=True)
    only(game, "C")
    c = ready(game, "C", 2)
    dice(game, 5, 1, 1, 1, 1)                          # rubble 5, D66 11, reveal E1 (Stripe 3): 1, E2 (Stripe 4): 1
    first = act(game, "move", *move_args(game, "3a"))
    assert kinds(first) == ["rubble"]
    events = act(game, "rubble_pay")
    assert kinds(events) == ["move", "exposed", "reveal", "reveal"]
    assert c.position == (3, 1, GROUND) and game.ap == 2
    assert game.markers[0] is None and game.markers[1] is None
    assert game.dice.remaining == 0


# RU-MS: Multi-Story Buildings ---------------------------------------------------------------------
def test_RU_MS_1_ms_has_ground_and_first_floor():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", "4a")
    assert game.feature_by_id("4a").kind == "ms" and game.feature_by_id("4a").is_building
    act(game, "floor")
    assert c.level == FIRST
    act(game, "floor")
    assert c.level == GROUND
    game2 = fresh()
    only(game2, "C")
    ready(game2, "C", "2a")                           # a standard Building has one level
    assert_illegal(game2, "floor")


def test_RU_MS_2_entering_an_ms_puts_the_group_on_the_ground_floor():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", 3)
    dice(game, 1, 1)                                  # D66 11
    act(game, "move", *move_args(game, "4a"))
    assert c.position == (4, 1, GROUND)
    game2 = fresh()
    only(game2, "C")
    c2 = ready(game2, "C", "4a", FIRST)               # leaving a First Floor for another MS by a Move
    dice(game2, 1, 1)
    act(game2, "move", *move_args(game2, "5a"))
    assert c2.position == (5, 1, GROUND)


def test_RU_MS_3_floor_change_costs_one_ap_each_way():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", "4a")
    assert game.tables.ap_costs["floor"] == 1
    act(game, "floor")
    assert (c.level, game.ap) == (FIRST, 3)
    act(game, "floor")
    assert (c.level, game.ap) == (GROUND, 2)


def test_RU_MS_3_floor_change_needs_an_ap_and_a_level_free_of_enemies():
    game = fresh()
    only(game, "C", "X")
    c = ready(game, "C", "4a")
    x = enemy(game, "X", ["rifle"], "4a", level=FIRST)
    assert_illegal(game, "floor")
    x.units = []
    game.ap = 0
    game.refresh()
    assert_illegal(game, "floor")
    assert c.level == GROUND


def test_RU_MS_4_first_floor_fire_gets_plus_one_at_any_range():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], 2)       # range 2 from Stripe 4: TN 5
    ready(game, "C", "4a", FIRST)
    dice(game, 4, 4, 1, 1, 1)                         # 4 + 1 >= 5: both hit
    events = act(game, "fire", x.gid, 0)
    assert "DRM +1" in next(e.text for e in events if e.kind == "fire")
    assert [u.hits for u in x.units] == [1, 1]


def test_RU_MS_4_no_bonus_from_the_ground_floor():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], 2)
    ready(game, "C", "4a", GROUND)
    dice(game, 4, 4)                                  # 4 < 5: both miss
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [0, 0] and game.dice.remaining == 0


def test_RU_MS_4_no_bonus_at_a_target_on_a_first_floor():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], "5a", level=FIRST)   # same level of the complex: range 0, TN 3 + 2
    ready(game, "C", "4a", FIRST)
    assert geometry.first_floor_bonus(player(game, "C").position, x.position, game.tables) == 0
    dice(game, 4, 4)
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [0, 0] and game.dice.remaining == 0


def test_RU_MS_4_enemy_fire_from_a_first_floor_gets_it_too():
    game = fresh()
    only(game, "C", "X")
    c = put(game, "C", 2)
    x = enemy(game, "X", ["rifle", "rifle"], "4a", level=FIRST)
    dice(game, 4, 4, 1, 1, 1)
    fire.resolve(game, x, c, 0)
    assert [u.hits for u in c.units] == [1, 1]


def test_RU_MS_5_two_levels_at_range_zero_may_hold_opposing_groups():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle"], "4a", level=FIRST)
    c = ready(game, "C", 4)
    assert legal(game, "move", *move_args(game, "4a"))    # the Ground Floor is free
    act(game, "move", *move_args(game, "4a"))
    assert c.position == (4, 1, GROUND) and x.position == (4, 1, FIRST)
    assert geometry.distance(game, c.position, x.position) == 0
    assert legal(game, "fire", x.gid, 0) and legal(game, "close_combat", x.gid, 0)
    assert_illegal(game, "floor")                         # RB-MAP-4: not onto the enemy's level


def test_RU_MS_5_ground_floor_held_by_enemy_cannot_be_entered():
    game = fresh()
    only(game, "C", "X")
    enemy(game, "X", ["rifle"], "4a", level=GROUND)
    ready(game, "C", 4)
    assert_illegal(game, "move", *move_args(game, "4a"))


def test_RU_MS_6_other_level_of_own_ms_is_cover_one():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], "4a", level=FIRST)
    c = ready(game, "C", "4a", GROUND)
    assert game.tables.own_ms_other_level_cover == 1
    assert fire.target_number(game, c.position, x.position, game.tables.weapons["rifle"]) == 4
    dice(game, 3, 4, 1, 1)                            # TN 3 + 1: 3 misses, 4 hits; USN 1 -> X1
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [1, 0] and game.dice.remaining == 0


def test_RU_MS_6_from_the_first_floor_down_with_the_first_floor_bonus():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle", "rifle"], "4a", level=GROUND)
    c = ready(game, "C", "4a", FIRST)
    assert fire.target_number(game, c.position, x.position, game.tables.weapons["rifle"]) == 4
    dice(game, 3, 2, 1, 1)                            # 3 + 1 >= 4 hits, 2 + 1 misses
    act(game, "fire", x.gid, 0)
    assert [u.hits for u in x.units] == [1, 0] and game.dice.remaining == 0


# RU-CPX: the Building Complex ---------------------------------------------------------------------
def test_RU_CPX_1_block_six_complex_is_4a_and_5a():
    game = fresh()
    fa, fb = game.feature_by_id("4a"), game.feature_by_id("5a")
    assert fa.complex == fb.complex is not None
    assert sorted(f.fid for f in game.complexes[fa.complex]) == ["4a", "5a"]
    assert (fa.stripe, fb.stripe) == (4, 5) and fa.kind == fb.kind == "ms"
    assert geometry.complex_partner(game, 4, fa.place) is fb
    assert geometry.complex_partner(game, 5, fb.place) is fa
    assert geometry.complex_partner(game, 6, game.feature_by_id("6a").place) is None
    assert geometry.complex_partner(game, 4, 0) is None


def test_RU_CPX_2_same_level_across_the_complex_is_range_zero():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle"], "5a", level=GROUND)
    c = ready(game, "C", "4a", GROUND)
    assert geometry.distance(game, c.position, x.position) == 0
    assert fire.target_number(game, c.position, x.position, game.tables.weapons["rifle"]) == 5
    assert legal(game, "close_combat", x.gid, 0)           # range 0: Close Combat may be tried
    dice(game, 5, 4, 1)                                    # 5 hits TN 5 (3 + 2), 4 misses; USN 1
    act(game, "fire", x.gid, 0)
    assert x.units[0].hits == 1 and game.dice.remaining == 0
    y = enemy(game, "Y", ["rifle"], 5)                     # the Open of Stripe 5 stays range 1
    assert geometry.distance(game, c.position, y.position) == 1


def test_RU_CPX_3_different_levels_across_the_complex_cannot_fire():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle"], "5a", level=FIRST)
    c = ready(game, "C", "4a", GROUND)
    assert_illegal(game, "fire", x.gid, 0)
    assert_illegal(game, "close_combat", x.gid, 0)
    assert fire.shooters(game, x, c) == [] and enemy_rules.targets(game, x) == []
    assert geometry.distance(game, c.position, x.position) == 1    # only the same level is range 0
    put(game, "C", "4a", FIRST)
    put(game, "X", "5a", GROUND)
    game.refresh()
    assert_illegal(game, "fire", x.gid, 0)
    assert fire.shooters(game, x, c) == []


def test_RU_CPX_4_hop_keeps_level_costs_one_ap_no_exposed_movement():
    game = fresh()
    only(game, "C")
    c = ready(game, "C", "4a", FIRST)
    assert game.tables.ap_costs["hop"] == 1
    dice(game)                                             # no roll at all (ScriptedDice would raise)
    events = act(game, "hop")
    assert c.position == (5, where(game, "5a")[1], FIRST)
    assert game.ap == 3 and "exposed" not in kinds(events)
    act(game, "hop")
    assert c.position == (4, where(game, "4a")[1], FIRST) and game.ap == 2


def test_RU_CPX_4_no_hop_outside_a_complex_or_onto_an_enemy_level():
    game = fresh()
    only(game, "C", "X")
    ready(game, "C", "6a")
    assert_illegal(game, "hop")
    put(game, "C", "4a", GROUND)
    x = enemy(game, "X", ["rifle"], "5a", level=GROUND)
    assert_illegal(game, "hop")
    put(game, "X", "5a", FIRST)                            # the other level only: the hop is fine
    game.refresh()
    assert legal(game, "hop")
    assert x.level == FIRST


# RU-ADV-1: the advanced urban variant ------------------------------------------------------------
def test_RU_ADV_1_each_marked_building_is_rolled_at_setup():
    game = RiflesGame.new("block_six", dice=ScriptedDice([6, 4]), advanced_urban=True)
    assert game.feature_by_id("2a").kind == "rubble"
    assert game.feature_by_id("6a").kind == "ms"
    assert game.dice.remaining == 0
    advanced = [f.id for f in game.scenario.features if f.advanced]
    assert advanced == ["2a", "6a"]
    others = {f.id: f.kind for f in game.scenario.features if not f.advanced}
    assert {fid: game.feature_by_id(fid).kind for fid in others} == others


def test_RU_ADV_1_off_rolls_nothing():
    game = RiflesGame.new("block_six", dice=ScriptedDice([]))
    assert game.feature_by_id("2a").kind == "building"
    assert game.feature_by_id("6a").kind == "ms"
    assert game.options["advanced_urban"] is False
