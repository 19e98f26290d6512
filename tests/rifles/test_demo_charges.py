"""Demo Charges (rules catalog §10, RU-DC-1..8)."""

from envs.rifles import geometry
from envs.rifles.demo import BREACH, DIRECT
from envs.rifles.state import FIRST, GROUND

from .builders import act, assert_illegal, dice, enemy, fresh, kinds, legal, only, player, put, ready, where


def spot(game, fid):
    """The place number of feature `fid` on its Stripe."""
    return where(game, fid)[1]


def sapper(at=4):
    """A fresh game with only A (two Demo Charges) and the Strongpoint S in 4b, A activated on `at`; (game, a)."""
    game = fresh()
    only(game, "A", "S")
    return game, ready(game, "A", at)


def test_RU_DC_1_only_groups_given_charges_have_them():
    game = fresh()
    assert {g.name: g.demo_charges for g in game.players} == {"A": 2, "B": 0, "C": 0}
    only(game, "B", "S")
    ready(game, "B", 4)
    assert_illegal(game, "demo_place", spot(game, "4b"), BREACH)
    assert_illegal(game, "demo_place", spot(game, "4b"), DIRECT)
    game2, _ = sapper()
    assert legal(game2, "demo_place", spot(game2, "4b"), BREACH)


def test_RU_DC_2_targets_on_the_groups_stripe():
    game = fresh()
    only(game, "A", "S", "X")
    enemy(game, "X", ["rifle"], "4a", level=FIRST)
    ready(game, "A", 4)
    allowed = {(p, m) for p in range(4) for m in (BREACH, DIRECT) if legal(game, "demo_place", p, m)}
    assert allowed == {(spot(game, "4b"), BREACH), (spot(game, "4b"), DIRECT), (spot(game, "4a"), DIRECT)}
    assert_illegal(game, "demo_place", spot(game, "4a"), BREACH)  # not Sealed
    assert_illegal(game, "demo_place", 0, DIRECT)             # the Open is no building


def test_RU_DC_2_no_target_on_another_stripe_or_empty_building():
    game, _ = sapper(at=3)
    assert_illegal(game, "demo_place", spot(game, "4b"), BREACH)  # 4b is on Stripe 4
    put(game, "A", 2)
    game.refresh()
    assert_illegal(game, "demo_place", spot(game, "2a"), DIRECT)  # 2a holds no enemy and is not Sealed


def test_RU_DC_2_not_its_own_position_nor_a_building_with_player_units():
    game = fresh()
    only(game, "A", "C", "X")
    enemy(game, "X", ["rifle"], "4a", level=FIRST)
    ready(game, "A", "4a", GROUND)
    assert_illegal(game, "demo_place", spot(game, "4a"), DIRECT)  # its own position
    put(game, "A", 4)
    put(game, "C", "4a", GROUND)                              # a friendly unit inside
    game.refresh()
    assert_illegal(game, "demo_place", spot(game, "4a"), DIRECT)
    put(game, "C", 1)
    game.refresh()
    assert legal(game, "demo_place", spot(game, "4a"), DIRECT)


def test_RU_DC_3_place_costs_two_ap_and_three_plus_detonates():
    game, a = sapper()
    assert game.tables.ap_costs["demo_charge"] == 2 and game.tables.dc_fail_on == 2
    dice(game, 1, 2)                                          # 2d6 = 3: placed, detonates at once
    events = act(game, "demo_place", spot(game, "4b"), BREACH)
    assert kinds(events)[:2] == ["demo", "breach"]
    assert game.ap == 2 and a.demo_charges == 1
    assert not game.feature_by_id("4b").sealed
    assert game.dice.remaining == 0


def test_RU_DC_3_needs_two_ap():
    game, _ = sapper()
    game.ap = 1
    game.refresh()
    assert_illegal(game, "demo_place", spot(game, "4b"), BREACH)


def test_RU_DC_4_a_two_leaves_the_charge_at_the_target_for_a_retry():
    game, a = sapper()
    dice(game, 1, 1)
    act(game, "demo_place", spot(game, "4b"), BREACH)
    assert game.feature_by_id("4b").sealed and game.ap == 2 and a.demo_charges == 1
    assert game.demo == {a.gid: (4, spot(game, "4b"), BREACH)}
    assert legal(game, "demo_retry") and legal(game, "demo_take_back")
    assert_illegal(game, "demo_place", spot(game, "4b"), DIRECT)  # one charge at a time
    dice(game, 3, 3)
    act(game, "demo_retry")
    assert not game.feature_by_id("4b").sealed
    assert game.ap == 0 and a.demo_charges == 1 and game.demo == {}


def test_RU_DC_4_retry_needs_two_ap_take_back_one():
    game, a = sapper()
    game.ap = 3
    game.refresh()
    dice(game, 1, 1)
    act(game, "demo_place", spot(game, "4b"), DIRECT)
    assert game.ap == 1
    assert_illegal(game, "demo_retry")
    assert game.tables.ap_costs["demo_take_back"] == 1
    act(game, "demo_take_back")
    assert game.ap == 0 and a.demo_charges == 2 and game.demo == {}


def test_RU_DC_4_charge_lost_when_the_group_leaves_the_stripe():
    game, a = sapper()
    dice(game, 1, 1)
    act(game, "demo_place", spot(game, "4b"), BREACH)
    dice(game, 1, 1)                                          # D66 11
    act(game, "move", 2, 0, 0)                                # to Stripe 3
    assert game.demo == {} and a.demo_charges == 1
    assert_illegal(game, "demo_take_back")
    assert_illegal(game, "demo_retry")


def test_RU_DC_4_charge_kept_on_a_move_within_the_stripe():
    game, a = sapper()
    dice(game, 1, 1)
    act(game, "demo_place", spot(game, "4b"), BREACH)
    act(game, "move", 3, spot(game, "4a"), 0)                 # 4a on its own Stripe
    assert game.demo == {a.gid: (4, spot(game, "4b"), BREACH)}
    assert game.ap == 1 and legal(game, "demo_take_back") and not legal(game, "demo_retry")
    game.ap = 2
    game.refresh()
    assert legal(game, "demo_retry")


def test_RU_DC_4_charge_lost_when_close_combat_carries_the_group_off_the_stripe():
    game = fresh()
    only(game, "A", "X")
    x = enemy(game, "X", ["rifle"], "5a", level=GROUND)
    y = enemy(game, "Y", ["rifle"], "4b")
    game.feature_by_id("4b").sealed = False
    a = ready(game, "A", "4a", GROUND)
    dice(game, 1, 1)
    act(game, "demo_place", spot(game, "4b"), DIRECT)
    assert game.demo == {a.gid: (4, spot(game, "4b"), DIRECT)}
    game.active = -1                                          # a new turn's activation of A, AP back to 4
    a.activated = a.fought = a.fired = False
    game.ap = 4
    game.refresh()
    act(game, "activate", a.gid)
    # morale 6 passes; the attacker joins X in 5a (Stripe 5): round A 6 vs X 1, 2d3 = 1 + 1 eliminates X
    dice(game, 6, 6, 1, 1, 1)
    act(game, "close_combat", x.gid, 0)
    assert a.stripe == 5 and not x.alive and y.alive
    assert game.demo == {} and a.demo_charges == 1
    assert_illegal(game, "demo_take_back")


def test_RU_DC_5_breach_unseals_the_building():
    game, a = sapper()
    s = game.enemies[0]
    assert_illegal(game, "close_combat", s.gid, 0)
    dice(game, 6, 6)                                          # a breach rolls no collapse die
    act(game, "demo_place", spot(game, "4b"), BREACH)
    assert not game.feature_by_id("4b").sealed and game.feature_by_id("4b").kind == "building"
    assert game.dice.remaining == 0 and s.alive
    assert legal(game, "close_combat", s.gid, 0)              # RU-TER-4 no longer applies
    s.units = []
    game.refresh()
    assert legal(game, "move", 3, spot(game, "4b"), 0)
    assert a.demo_charges == 1


def test_RU_DC_6_direct_attack_cf3_tn3_per_group_on_both_levels():
    game = fresh()
    only(game, "A", "X", "Y")
    x = enemy(game, "X", ["rifle", "rifle", "rifle"], "4a", level=GROUND)
    y = enemy(game, "Y", ["rifle"], "4a", level=FIRST)
    ready(game, "A", 4)
    assert (game.tables.dc_attack_cf, game.tables.dc_attack_tn) == (3, 3)
    dice(game, 3, 3,                                          # 2d6 = 6: detonates
         3, 2, 6, 1, 1, 1, 1,                                 # X: 3 and 6 hit TN 3 (cover ignored); USN 1 -> X1, then X2
         2, 2, 1,                                             # Y: none
         5)                                                   # collapse die: no
    events = act(game, "demo_place", spot(game, "4a"), DIRECT)
    assert [e.dice for e in events if e.kind == "demo_attack"] == [(3, 2, 6), (2, 2, 1)]
    assert [u.hits for u in x.units] == [1, 1, 0] and [u.hits for u in y.units] == [0]
    assert game.feature_by_id("4a").kind == "ms" and game.dice.remaining == 0


def test_RU_DC_6_no_drm_from_a_bap():
    game = fresh()
    only(game, "A", "X")
    enemy(game, "X", ["rifle"], "4a")
    ready(game, "A", 4)
    bap = game.bap
    assert bap > 0 and legal(game, "demo_place", spot(game, "4a"), DIRECT)
    dice(game, 3, 3, 2, 2, 2, 1)                              # 2 < 3 with no DRM: no hit
    act(game, "demo_place", spot(game, "4a"), DIRECT)
    assert game.bap == bap and game.enemies[-1].units[0].hits == 0


def test_RU_DC_7_collapse_on_six_rubble_kills_inside_and_ends_the_complex():
    game = fresh()
    only(game, "A", "X", "Y", "Z")
    x = enemy(game, "X", ["rifle", "rifle"], "4a", level=GROUND)
    y = enemy(game, "Y", ["hmg"], "4a", level=FIRST)
    z = enemy(game, "Z", ["rifle"], "5a", level=GROUND)
    ready(game, "A", 4)
    assert game.tables.dc_collapse_on == 6
    dice(game, 3, 3, 1, 1, 1, 1, 1, 1, 6)                     # detonates, no hit on X nor Y, collapse 6
    events = act(game, "demo_place", spot(game, "4a"), DIRECT)
    assert "collapse" in kinds(events)
    fa, fb = game.feature_by_id("4a"), game.feature_by_id("5a")
    assert fa.kind == "rubble" and not x.alive and not y.alive and z.alive
    assert fa.complex is None and fb.complex is None and game.complexes == {}
    assert geometry.complex_partner(game, 5, fb.place) is None
    assert geometry.distance(game, (4, fa.place, GROUND), z.position) == 1
    assert {"X1", "X2", "Y1"} <= set(game.graveyard)


def test_RU_DC_7_no_collapse_below_six():
    game = fresh()
    only(game, "A", "X")
    x = enemy(game, "X", ["rifle"], "4a")
    ready(game, "A", 4)
    dice(game, 3, 3, 1, 1, 1, 5)
    act(game, "demo_place", spot(game, "4a"), DIRECT)
    assert game.feature_by_id("4a").kind == "ms" and x.alive
    assert game.feature_by_id("4a").complex is not None


def test_RU_DC_8_a_detonated_charge_is_discarded():
    game, a = sapper()
    dice(game, 2, 2)
    act(game, "demo_place", spot(game, "4b"), BREACH)
    assert a.demo_charges == 1 and game.demo == {}
    assert_illegal(game, "demo_retry")
    assert_illegal(game, "demo_take_back")
    dice(game, 2, 2, 1, 1, 1, 1)                              # second charge: direct attack on S, no hit, no collapse
    act(game, "demo_place", spot(game, "4b"), DIRECT)
    assert a.demo_charges == 0 and game.ap == 0
    game.ap = 4
    game.refresh()
    assert_illegal(game, "demo_place", spot(game, "4b"), DIRECT)
    assert player(game, "A").demo_charges == 0


def test_RU_DC_4_no_retry_once_the_target_is_no_longer_legal():
    game = fresh()
    only(game, "A", "C", "X")
    x = enemy(game, "X", ["rifle"], "4a", level=FIRST)
    a = ready(game, "A", 4)
    dice(game, 1, 1)
    act(game, "demo_place", spot(game, "4a"), DIRECT)
    game.ap = 4
    game.refresh()
    assert legal(game, "demo_retry")
    put(game, "C", "4a", GROUND)                              # a friendly unit now inside (RU-DC-2)
    game.refresh()
    assert_illegal(game, "demo_retry")
    assert legal(game, "demo_take_back")
    put(game, "C", 1)
    x.units = []                                              # the garrison is gone: nothing to attack
    game.refresh()
    assert_illegal(game, "demo_retry")
    act(game, "demo_take_back")
    assert a.demo_charges == 2 and game.demo == {}
