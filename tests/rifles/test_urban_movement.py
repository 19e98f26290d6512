"""Special movement (rules catalog §9): Exposed Movement (RU-EXP-*) and sewers (RU-SEW-*)."""
import pytest

from envs.rifles import enemy as enemy_rules
from envs.rifles import fire, movement
from envs.rifles.state import FIRST, GROUND, Marker

from .builders import act, assert_illegal, dice, enemy, fresh, kinds, legal, move_args, only, player, put, ready, where


def marker_game(marker, a_at, keep=()):
    """A fresh game with only A (and `keep`), A activated on `a_at`, one marker (E1) on Stripe `marker`; (game, a)."""
    game = fresh()
    only(game, "A", *keep)
    game.markers = [Marker(0, "E1", marker)] + [None] * (len(game.markers) - 1)
    return game, ready(game, "A", a_at)


# RU-EXP: Exposed Movement ----------------------------------------------------------------------
@pytest.mark.parametrize("roll, effect", [(11, "none"), (36, "none"), (41, "sniper"), (46, "sniper"),
                                          (51, "opportunity_fire"), (56, "opportunity_fire"),
                                          (61, "contact"), (63, "contact"), (64, "ambush"), (66, "ambush")])
def test_RU_EXP_1_table_from_config(roll, effect):
    game = fresh()
    assert movement.exposed_effect(game, roll) == effect


def test_RU_EXP_1_stripe_move_rolls_d66_before_any_reveal():
    game, a = marker_game(marker=3, a_at=1)
    dice(game, 3, 6, 1)                               # D66 36: nothing; then the reveal of E1 (Stripe 3): 1, removed
    events = act(game, "move", *move_args(game, 2))
    assert kinds(events) == ["move", "exposed", "reveal"]
    exposed = next(e for e in events if e.kind == "exposed")
    assert exposed.dice == (3, 6) and "36" in exposed.text
    assert a.position == (2, 0, GROUND) and game.ap == 3
    assert game.markers[0] is None and game.dice.remaining == 0


def test_RU_EXP_1_move_on_the_same_stripe_rolls_nothing():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 1)
    dice(game)
    events = act(game, "move", *move_args(game, "1a"))
    assert "exposed" not in kinds(events)
    assert a.position == (1, 1, GROUND) and game.ap == 3


def test_RU_EXP_1_sniper_hits_a_random_ok_unit():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 1)
    a.units[0].hits = 1                               # A1 Suppressed: the sniper picks among A2..A4
    dice(game, 4, 1, 2)                               # D66 41 sniper; pick 2 of 3 OK units -> A3
    act(game, "move", *move_args(game, 2))
    assert [u.hits for u in a.units] == [1, 0, 1, 0]
    assert game.dice.remaining == 0


def test_RU_EXP_2_recon_point_skips_the_roll():
    game, a = marker_game(marker=3, a_at=1)
    dice(game, 1)                                     # only the reveal of E1
    events = act(game, "move", *move_args(game, 2, recon=1))
    assert "exposed" not in kinds(events)
    assert a.stripe == 2 and game.recon == 1 and game.ap == 3
    assert game.dice.remaining == 0


def test_RU_EXP_2_recon_only_on_a_stripe_move_and_only_with_points_left():
    game = fresh()
    only(game, "A")
    ready(game, "A", 1)
    assert legal(game, "move", *move_args(game, 2, recon=1))
    assert_illegal(game, "move", *move_args(game, "1a", recon=1))  # no roll to skip on its own Stripe
    game.recon = 0
    game.refresh()
    assert_illegal(game, "move", *move_args(game, 2, recon=1))
    assert legal(game, "move", *move_args(game, 2, recon=0))


def test_RU_EXP_3_complex_hop_never_rolls():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", "4a")
    dice(game)
    events = act(game, "hop")
    assert a.stripe == 5 and "exposed" not in kinds(events)


def test_RU_EXP_3_sewer_move_never_rolls():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 1)
    act(game, "sewer_enter")
    dice(game, 1)                                     # only the sewer die
    events = act(game, "sewer_move", 1)
    assert a.stripe == 2 and "exposed" not in kinds(events)
    assert game.dice.remaining == 0


def test_RU_EXP_3_close_combat_placement_never_rolls():
    game = fresh()
    only(game, "C", "X")
    x = enemy(game, "X", ["rifle"], "5a")
    c = ready(game, "C", "4a")                        # range 0 across the complex; placement changes the Stripe
    # morale 5 passes (Recruit/Veteran tie -> Recruit, 5); round C 6+2 vs X 1+1: 8 >= 2x2 -> 2d3 = 1+1
    dice(game, 5, 6, 1, 1, 1)
    events = act(game, "close_combat", x.gid, 0)
    assert "exposed" not in kinds(events)
    assert game.dice.remaining == 0
    assert c.position == (5, where(game, "5a")[1], GROUND) and not x.alive


def test_RU_EXP_4_opportunity_fire_is_a_free_attack_outside_activation():
    game = fresh()
    only(game, "A", "X")
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    x.units[0].fired = True                           # already fired this turn: a free attack is not limited
    a = ready(game, "A", 1)
    dice(game, 5, 1)                                  # D66 51: opportunity fire
    act(game, "move", *move_args(game, 2))
    assert game.decision == ("free_attacker", {"target": a.gid, "drm": 0, "options": [x.gid]})
    assert game.current_side == 1
    dice(game, 4, 4, 1, 1, 1, 1)                      # range 1 into the Open: TN 4, two hits; USN 1 pick 1 twice
    events = act(game, "e_free_attacker", x.gid)
    assert "fire" in kinds(events)
    assert [u.hits for u in a.units] == [1, 1, 0, 0]
    assert [u.fired for u in x.units] == [True, False]    # the free attack marks no unit as having fired
    assert not x.activated and not x.fired
    assert game.decision == ("player", {}) and game.dice.remaining == 0


def test_RU_EXP_4_opportunity_fire_picks_among_enemies_in_range():
    game = fresh()
    only(game, "A", "X", "Y", "Z")
    x = enemy(game, "X", ["rifle"], 4)                # range 2 from Stripe 2: a rifle reaches
    y = enemy(game, "Y", ["rifle"], 3)                # range 1
    enemy(game, "Z", ["smg"], 5)                      # range 3: the SMG does not reach
    a = ready(game, "A", 1)
    dice(game, 5, 6)
    act(game, "move", *move_args(game, 2))
    assert game.decision[0] == "free_attacker"
    assert game.decision[1]["options"] == [y.gid, x.gid]     # nearest first (RB-AI-11)
    assert legal(game, "e_free_attacker", x.gid) and not legal(game, "e_free_attacker", 3)
    dice(game, 1)                                     # X's rifle misses
    act(game, "e_free_attacker", x.gid)
    assert all(u.hits == 0 for u in a.units)


def test_RU_EXP_1_the_roll_and_a_missed_free_attack_are_in_both_observations():
    """RB-HID-1: the D66 is public, and a missed free attack leaves no other trace, yet it asked the enemy to choose
    the attacker: the appended block shows the effect one-hot and the attacker's slot, to both sides."""
    from envs.rifles import observation as ob
    from envs.rifles.public import public_facts
    game = fresh()
    only(game, "A", "X", "Y")
    x = enemy(game, "X", ["rifle"], 4)
    y = enemy(game, "Y", ["rifle"], 3)
    a = ready(game, "A", 1)
    assert not game.observation(0)[ob.EXPOSED_AT:].any()          # no roll yet this turn
    dice(game, 5, 3)                                               # D66 53: opportunity fire
    act(game, "move", *move_args(game, 2))
    block = [0.0] * ob.EXPOSED
    block[2] = 1.0                                                 # (none, sniper, opportunity_fire, contact, ambush)
    assert list(game.observation(1)[ob.EXPOSED_AT:]) == block and game.current_side == 1
    dice(game, 1)                                                  # X's rifle misses
    act(game, "e_free_attacker", x.gid)
    assert all(u.hits == 0 for u in a.units) and game.decision == ("player", {}) and game.dice.remaining == 0
    block[len(ob.EXPOSED_EFFECTS) + x.gid] = 1.0                   # X made the free attack
    for side in (0, 1):
        assert list(game.observation(side)[ob.EXPOSED_AT:]) == block
    assert game.observation(0).size == ob.SIZE == ob.EXPOSED_AT + 5 + 12 + 48 and ob.PREFIX_SIZES == (ob.EXPOSED_AT,)
    assert public_facts(game)[-2:] == (("opportunity_fire", x.gid), ())          # no Enemy Phase yet: no orders
    saved = type(game).from_dict(game.to_dict())                   # kept through a save
    assert (saved.observation(0) == game.observation(0)).all()
    assert y.gid != x.gid
    # a roll of nothing on the next move shows "none"; the attacker is cleared
    dice(game, 1, 1)
    act(game, "move", *move_args(game, 3))
    assert list(game.observation(0)[ob.EXPOSED_AT:]) == [1.0] + [0.0] * (ob.EXPOSED - 1)


def test_RU_EXP_4_contact_reveals_destination_markers_and_each_new_group_fires():
    game, a = marker_game(marker=3, a_at=2)
    dice(game, 6, 1, 2)                               # D66 61: contact; reveal E1: 2 -> two Rifles
    act(game, "move", *move_args(game, 3))
    assert game.decision[0] == "place"
    dice(game, 3, 2, 1, 1)                            # range 0, Open: TN 3; 3 hits, 2 misses; USN 1 pick 1 -> A1
    act(game, "e_place", 0)
    e1 = game.enemies[-1]
    assert e1.name == "E1" and e1.position == (3, 0, GROUND)
    assert [u.hits for u in a.units] == [1, 0, 0, 0]
    assert game.active == a.gid and game.decision == ("player", {})   # contact does not end the activation
    assert game.dice.remaining == 0


def test_RU_EXP_5_ambush_free_attacks_at_plus_one_and_ends_the_activation():
    game, a = marker_game(marker=3, a_at=2, keep=("B",))
    dice(game, 6, 4, 2)                               # D66 64: ambush; reveal E1: two Rifles
    events = act(game, "move", *move_args(game, 3))
    assert "ambush" in kinds(events)
    assert game.active == -1
    dice(game, 2, 2, 1, 1, 1, 1)                      # 2 + 1 >= TN 3: both hit (no hit without the +1)
    act(game, "e_place", 0)
    assert [u.hits for u in a.units] == [1, 1, 0, 0]
    assert game.decision == ("player", {}) and game.active == -1 and a.activated
    assert_illegal(game, "activate", a.gid)
    assert_illegal(game, "end_activation")
    assert_illegal(game, "move", *move_args(game, 4))
    assert legal(game, "activate", player(game, "B").gid)


def test_RU_EXP_5_ambush_without_markers_still_ends_activation():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 1)
    dice(game, 6, 6)
    act(game, "move", *move_args(game, 2))
    assert game.active == -1 and a.stripe == 2 and game.ap == 3
    assert_illegal(game, "activate", a.gid)


def test_RU_VAR_2_exposed_movement_off_skips_the_roll():
    game = fresh(exposed_movement=False)
    only(game, "A")
    a = ready(game, "A", 1)
    dice(game)
    events = act(game, "move", *move_args(game, 2))
    assert "exposed" not in kinds(events) and a.stripe == 2
    assert_illegal(game, "move", *move_args(game, 3, recon=1))  # no Recon Point to spend on a roll that never comes
    assert game.recon == 2


# RU-SEW: sewers ---------------------------------------------------------------------------------
def test_RU_SEW_1_only_groups_the_scenario_allows():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 1)
    assert all(g.sewers for g in game.players)
    assert legal(game, "sewer_enter")
    a.sewers = False
    game.refresh()
    assert_illegal(game, "sewer_enter")


def test_RU_SEW_2_enter_costs_one_ap_and_hides_the_group():
    game = fresh()
    only(game, "A", "X")
    x = enemy(game, "X", ["rifle"], 2)
    a = ready(game, "A", "1a")
    assert game.tables.ap_costs["sewer"] == 1
    act(game, "sewer_enter")
    assert a.in_sewer and a.position == (1, 0, GROUND) and game.ap == 3
    view = game.view(1)
    assert view.group(0, a.gid) is None and a not in view.foe_groups()
    assert enemy_rules.visible_players(game) == [] and enemy_rules.targets(game, x) == []


def test_RU_SEW_2_only_on_a_stripe_with_an_entrance_and_from_the_ground():
    game = fresh()
    only(game, "A")
    assert game.scenario.sewer_stripes == frozenset({1, 3, 5})
    ready(game, "A", 2)
    assert_illegal(game, "sewer_enter")
    put(game, "A", "5a", FIRST)
    game.refresh()
    assert_illegal(game, "sewer_enter")
    put(game, "A", "5a", GROUND)
    game.refresh()
    assert legal(game, "sewer_enter")


@pytest.mark.parametrize("face, arrives", [(1, True), (5, True), (6, False)])
def test_RU_SEW_3_sewer_move_one_ap_then_d6(face, arrives):
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 3)
    act(game, "sewer_enter")
    assert game.tables.sewer_stuck_on == 6
    dice(game, face)
    act(game, "sewer_move", 1)
    assert a.stripe == (4 if arrives else 3) and a.in_sewer and game.ap == 2
    dice(game, face)
    act(game, "sewer_move", 0)
    assert a.stripe == 3 and game.ap == 1


def test_RU_SEW_3_no_sewer_move_off_the_map_or_without_ap():
    game = fresh()
    only(game, "A")
    ready(game, "A", 1)
    act(game, "sewer_enter")
    assert_illegal(game, "sewer_move", 0)
    assert legal(game, "sewer_move", 1)
    game.ap = 0
    game.refresh()
    assert_illegal(game, "sewer_move", 1)


def test_RU_SEW_4_leave_on_an_entrance_into_the_open():
    game = fresh()
    only(game, "A")
    a = ready(game, "A", 1)
    act(game, "sewer_enter")
    dice(game, 1)
    act(game, "sewer_move", 1)
    assert a.stripe == 2
    assert_illegal(game, "sewer_leave")               # no entrance on Stripe 2
    dice(game, 2)
    act(game, "sewer_move", 1)
    assert a.stripe == 3 and game.ap == 1
    act(game, "sewer_leave")
    assert not a.in_sewer and a.position == (3, 0, GROUND) and game.ap == 0


def test_RU_SEW_5_sewer_group_cannot_fire_fight_or_be_attacked():
    game = fresh()
    only(game, "A", "X")
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    a = ready(game, "A", 3)
    assert legal(game, "fire", x.gid, 0) and legal(game, "close_combat", x.gid, 0)
    act(game, "sewer_enter")
    assert_illegal(game, "fire", x.gid, 0)
    assert_illegal(game, "close_combat", x.gid, 0)
    assert not fire.can_target(game, x, a) and fire.shooters(game, x, a) == []
    assert enemy_rules.targets(game, x) == [] and enemy_rules.cc_targets(game, x) == []
    assert movement.opportunity_firers(game, a) == []


def test_RU_SEW_5_sewer_reveals_nothing_until_it_leaves():
    game, a = marker_game(marker=4, a_at=3)
    act(game, "sewer_enter")
    dice(game, 1)                                     # only the sewer die: Stripe 4 holds a marker, not revealed
    events = act(game, "sewer_move", 1)
    assert "reveal" not in kinds(events) and game.markers[0] is not None
    assert a.stripe == 4
    assert not legal(game, "recon_reveal", 0)         # nor can it spot for a Recon Point
    dice(game, 1)
    act(game, "sewer_move", 1)
    assert a.stripe == 5 and game.markers[0] is not None
    dice(game, 1)                                     # leaving: RB-EM-2 reveals E1 (range 1), roll 1: removed
    events = act(game, "sewer_leave")
    assert "reveal" in kinds(events) and game.markers[0] is None
    assert game.dice.remaining == 0


def test_RU_SEW_5_sewer_group_does_not_count_when_another_group_moves():
    game, a = marker_game(marker=4, a_at=3, keep=("B",))
    act(game, "sewer_enter")
    dice(game, 1)
    act(game, "sewer_move", 1)
    assert a.stripe == 4 and a.in_sewer
    act(game, "activate", player(game, "B").gid)
    dice(game, 1, 1)                                  # B's D66 only: the sweep after B's move ignores A below Stripe 4
    events = act(game, "move", *move_args(game, 2))
    assert "reveal" not in kinds(events) and game.markers[0] is not None
    assert game.dice.remaining == 0
