"""Urban War rule tests: scripted dice, exact outcomes, named by catalog ID (shared/rules/urbanwar.md)."""
from __future__ import annotations

import pytest

from envs.engine.contract import IllegalActionError
from envs.engine.dice import DiceError, ScriptedDice
from envs.urbanwar import combat
from envs.urbanwar import geometry as geo
from envs.urbanwar.actions import BREAK_OFF, CHARGE, DISRUPT, INTERCEPT, MOVE_SHOOT, REACH, RUSH
from envs.urbanwar.flow import Decision
from envs.urbanwar.game import UrbanWarGame
from tests.urbanwar.helpers import RULESET, cell, model, play, position, rules, window

R = REACH


# 1. Table, distance, dice ---------------------------------------------------------------------------------------
def test_UW_GRID_3_within_is_the_exact_square_test():
    assert geo.within(cell(0, 0), cell(12, 5), 12)            # 144 + 25 = 169 = 13^2
    assert not geo.within(cell(0, 0), cell(13, 1), 12)        # 170


def test_UW_GRID_4_base_contact_is_the_eight_neighbours():
    assert geo.contact(cell(5, 5), cell(6, 6)) and not geo.contact(cell(5, 5), cell(7, 5))


def test_UW_SHOOT_2_bands_follow_UW_TAB_1():
    bands = RULESET.new_game(seed=0).tables.bands
    assert [geo.band_of(bands, cell(0, 0), cell(x, y)) for x, y in ((1, 1), (12, 5), (13, 1), (24, 7), (36, 0), (47, 47))] \
        == [0, 1, 2, 2, 3, -1]


def test_UW_MOVE_1_and_UW_MOVE_2_costs_in_half_inches():
    game = position({"models": {"A3": [5, 1], "B3": [40, 1]}, "map": {"%": [[6, 1]]}, "start": ("action", "A3")})
    dests = game.view(0).destinations(model(game, "A3"), MOVE_SHOOT)      # MV 4 = 8 half-inches
    assert dests[cell(8, 0)] == 3 + 2 + 2 and dests[cell(8, 1)] == 3 + 2 + 3   # diagonal 1.5", orthogonal 1"
    assert dests[cell(6, 1)] == 4                                          # debris costs double
    assert cell(9, 1) not in dests and cell(9, 0) not in dests


# 3. Set-up -------------------------------------------------------------------------------------------------------
def test_UW_SETUP_2_and_UW_SETUP_3_roll_off_loser_decides_who_deploys_first():
    game = UrbanWarGame.new("block_7", dice=ScriptedDice([5, 5, 3, 7]))
    assert game.decision[0] == Decision.DEPLOY_FIRST and game.current_side == 0 and game.rolloff_winner == 1


def test_UW_SETUP_4_and_UW_SETUP_5_alternate_deployment_within_six_inches():
    game = UrbanWarGame.new("block_7", dice=ScriptedDice([3, 7]))
    play(game, "deploy_first", 1)                                         # B deploys first
    assert game.current_side == 1 and game.decision[0] == Decision.DEPLOY
    mask = game.legal_action_mask()
    assert mask.sum() == 48 * 6 - 7                                       # rows 0-5 less the seven wall cells at y 5
    play(game, "deploy", 10, 0)
    assert model(game, "B1").cell == cell(10, 0) and game.current_side == 0
    play(game, "deploy", 10, 0)
    assert model(game, "A1").cell == cell(10, 47)


def test_UW_SETUP_6_turn_one_initiative_is_the_start_of_game_roll():
    game = position({"models": {"A3": [5, 1], "B3": [30, 1]}, "phase": "orders", "first": 1})
    play(game, "order", 0)
    play(game, "order", 0)
    assert game.decision[0] == Decision.INITIATIVE and game.current_side == 1


# 4. Turn sequence ---------------------------------------------------------------------------------------------------
def test_UW_TURN_3_and_UW_TURN_4_contact_gets_face_up_snap_fire_others_choose():
    game = position({"models": {"A3": [5, 1], "B3": [6, 1], "A4": [20, 1]}, "phase": "orders"})
    b3, a4 = model(game, "B3"), model(game, "A4")
    assert game.orders.seen_by(0, b3.idx) == 0 and not game.face_down(b3)
    assert game.decision[0] == Decision.ORDER and game.decision[1]["model"] == a4.idx


def test_UW_TURN_5_and_UW_HID_5_order_sequence_and_observation_ignore_the_answers():
    seqs, obs = [], []
    for answer in (0, 1):
        game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [30, 1], "B4": [32, 1]}, "phase": "orders"})
        seq = []
        while game.decision[0] == Decision.ORDER:
            seq.append((game.current_side, game.decision[1]["model"]))
            if game.current_side == 1:
                obs.append(game.observation(1).tobytes())
                break
            play(game, "order", answer)
        seqs.append(seq)
    assert seqs[0] == seqs[1] and obs[0] == obs[1]


def test_UW_TURN_7_initiative_minus_one_for_a_dead_or_panicked_commander():
    game = position({"models": {"A3": [5, 1], "B3": [30, 1], "B1": [20, 1]}, "panic": ["B1"], "phase": "orders",
                     "turn": 2}, [6, 6, 6, 7])
    for _ in range(3):
        play(game, "order", 0)
    # A: 6 - 1 (A1 dead) = 5, B: 6 - 1 (B1 panicked) = 5: tie, re-rolled with the same modifiers: 5 against 6
    assert game.decision[0] == Decision.INITIATIVE and game.current_side == 1


def test_UW_TURN_8_and_UW_TURN_9_first_activation_and_counter_removed():
    game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [30, 1]}, "orders": {"A3": "snap", "A4": "snap",
                     "B3": "overwatch"}})
    assert game.decision[0] == Decision.ACTIVATE and game.current_side == 0
    play(game, "activate", 2)
    assert not game.orders.has(model(game, "A3").idx) and model(game, "A3").activated


def test_UW_TURN_11_a_side_without_snap_fire_models_is_skipped():
    game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [40, 1]},
                     "orders": {"A3": "snap", "A4": "snap", "B3": "overwatch"}})
    play(game, "activate", 2)
    play(game, "action", RUSH)
    play(game, "dest", R, R)
    # B3 could not react (out of range and reach) and has no Snap-fire model: A activates again, its only
    # candidate A4 unasked (UW-DEC-9)
    assert game.decision[0] == Decision.ACTION and game.current_side == 0 and game.act["model"] == model(game, "A4").idx


def test_UW_TURN_13_and_UW_ACT_4_a_model_may_hold_move_shoot_in_place_with_no_shot():
    game = position({"models": {"A3": [5, 1], "B3": [40, 1]}, "start": ("action", "A3")})
    play(game, "action", MOVE_SHOOT)
    events = play(game, "dest", R, R)
    assert model(game, "A3").cell == cell(5, 1) and "UW-SHOOT-8" not in rules(events)


# 5. Actions and movement ---------------------------------------------------------------------------------------------
def test_UW_ACT_6_in_contact_only_assault():
    game = position({"models": {"A3": [5, 1], "B3": [6, 1]}, "start": ("action", "A3")})
    assert game.decision[1]["legal"] == sorted([play_code("action", 3), play_code("action", 4)])


def play_code(name, *args):
    from envs.urbanwar.actions import CODEC
    return CODEC.encode(name, *args)


def test_UW_MOVE_5_rush_never_enters_contact_and_UW_ACT_9_charge_needs_los():
    game = position({"models": {"A3": [5, 1], "B3": [9, 1]}, "start": ("action", "A3")})
    view = game.view(0)
    a3 = model(game, "A3")
    rush = view.destinations(a3, RUSH)
    assert cell(8, 1) not in rush and cell(7, 1) in rush
    assert cell(8, 1) in view.destinations(a3, CHARGE)


def test_UW_MOVE_7_an_illegal_destination_changes_nothing():
    game = position({"models": {"A3": [5, 1], "B3": [9, 1]}, "start": ("action", "A3")})
    play(game, "action", RUSH)
    before = game.to_dict()
    with pytest.raises(IllegalActionError):
        play(game, "dest", R + 3, R)                                       # (8, 1) touches B3
    assert game.to_dict() == before


# 6. Line of sight -------------------------------------------------------------------------------------------------------
def test_UW_LOS_3_a_friend_within_two_inches_never_blocks_but_UW_LOS_2_a_farther_one_does():
    near = position({"models": {"A3": [5, 1], "A4": [8, 1], "B3": [12, 1]}})
    far = position({"models": {"A3": [5, 1], "A4": [9, 1], "B3": [12, 1]}})
    assert near.los(model(near, "A3"), model(near, "B3"))
    assert not far.los(model(far, "A3"), model(far, "B3"))


def test_UW_LOS_4_a_wall_blocks_most_lines():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "map": {"#": [[8, 0], [8, 1], [8, 2]]}})
    assert not game.los(model(game, "A3"), model(game, "B3"))


# 9. Shooting and cover ------------------------------------------------------------------------------------------------------
def shoot_position(faces, **extra):
    spec = {"models": {"A3": [5, 1], "B3": [12, 1]}, "start": ("action", "A3")}
    spec.update(extra)
    game = position(spec, faces)
    play(game, "action", MOVE_SHOOT)
    return game


def test_UW_SHOOT_8_and_UW_SHOOT_10_and_UW_WIN_1_a_hit_and_a_wound_remove_the_last_enemy():
    game = shoot_position([6, 6])
    play(game, "dest", R, R)
    events = play(game, "shoot", 2)
    assert not model(game, "B3").alive and game.winner == 0 and game.returns() == (1.0, -1.0)
    assert {"UW-SHOOT-8", "UW-SHOOT-10", "UW-SHOOT-11", "UW-WIN-1"} <= rules(events)


def test_UW_SHOOT_8_a_five_misses_and_the_turn_goes_on():
    game = shoot_position([5])
    play(game, "dest", R, R)
    play(game, "shoot", 2)
    assert model(game, "B3").alive and game.decision[0] == Decision.ORDER and game.turn == 2


def test_UW_ACT_5_moved_penalty_at_short_range():
    game = shoot_position([6])
    play(game, "dest", R + 1, R)
    play(game, "shoot", 2)                                                   # 6 + 4 - 1 = 9: a miss
    assert model(game, "B3").alive


def test_UW_COVER_3_and_UW_COVER_4_solid_cover_saves_on_six():
    game = shoot_position([6, 6, 6], map={"=": [[12, 1]]})
    play(game, "dest", R, R)
    play(game, "shoot", 2)
    assert model(game, "B3").alive


def test_UW_COVER_5_flimsy_cover_fails_on_seven():
    game = shoot_position([6, 6, 7], map={"%": [[12, 1]]})
    play(game, "dest", R, R)
    play(game, "shoot", 2)
    assert not model(game, "B3").alive


def test_UW_COVER_2_terrain_within_one_inch_of_the_shooter_gives_no_cover():
    game = shoot_position([6, 6], map={"=": [[6, 1]]})
    play(game, "dest", R, R)
    play(game, "shoot", 2)                                                   # no cover save rolled
    assert not model(game, "B3").alive


def test_UW_SHOOT_4_and_UW_SHOOT_5_a_farther_target_needs_a_command_check():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1], "B4": [12, 4]}, "start": ("action", "A3")}, [3, 3])
    play(game, "action", MOVE_SHOOT)
    play(game, "dest", R, R)
    events = play(game, "shoot", 3)                                          # 2d10 = 6 + 4 < 15: the shot is lost
    assert "UW-SHOOT-5" in rules(events) and model(game, "B4").alive


def test_UW_SHOOT_9_and_UW_SPEC_2_and_UW_PANIC_4_big_armoured_target():
    game = position({"models": {"A6": [5, 1], "B3": [12, 1]}}, [5, 6, 8, 10, 10], heavy_armour=True)
    a6, b3 = model(game, "A6"), model(game, "B3")
    combat.shoot(game, b3, a6, moved=False, panicked=False)                  # 5 + 3 + 1 + 1 = 10 hits; armour 6 + 3 fails
    assert a6.w == 1 and a6.halved and not a6.panic                          # damage 8 - 2 = 6; panic check 20 passes


def test_UW_SPEC_2_heavy_armour_ignores_a_hit_on_ten():
    game = position({"models": {"A6": [5, 1], "B3": [12, 1]}}, [5, 7], heavy_armour=True)
    combat.shoot(game, model(game, "B3"), model(game, "A6"), moved=False, panicked=False)
    assert model(game, "A6").w == 2


def test_UW_DICE_1_and_UW_PANIC_6_a_natural_ten_hits_whatever_the_penalties():
    game = position({"models": {"A3": [5, 1], "B3": [35, 1]}}, [10, 6])
    combat.shoot(game, model(game, "A3"), model(game, "B3"), moved=True, panicked=True)   # 10 + 4 - 1 - 3 - 2 = 8
    assert not model(game, "B3").alive


def test_UW_SPEC_4_battleshield_adds_one_toughness_against_shooting():
    game = position({"models": {"A3": [5, 1], "B2": [12, 1]}}, [6, 6])
    combat.shoot(game, model(game, "A3"), model(game, "B2"), moved=False, panicked=False)   # 6 + 4 - 5 = 5: no wound
    assert model(game, "B2").alive


# 10. Close combat ----------------------------------------------------------------------------------------------------------
def charge(faces, **extra):
    spec = {"models": {"B3": [5, 1], "A3": [9, 1]}, "start": ("action", "B3"), "first": 1}
    spec.update(extra)
    game = position(spec, faces)
    play(game, "action", CHARGE)
    return game


def test_UW_CC_4_and_UW_CC_7_and_UW_CC_9_a_charger_strikes_first_and_kills():
    game = charge([4, 4])
    events = play(game, "dest", R + 3, R)
    assert not model(game, "A3").alive and game.winner == 1
    assert {"UW-CC-4", "UW-CC-6", "UW-CC-8"} <= rules(events)


def test_UW_CC_2_the_target_fights_back_and_kills():
    game = charge([3, 7, 6])                                                 # B3 misses (3 + 2), A3 hits 7 - 1, wounds 6
    play(game, "dest", R + 3, R)
    assert not model(game, "B3").alive and model(game, "A3").alive and game.winner == 0


def test_UW_CC_10_and_UW_PANIC_2_the_loser_checks_and_UW_TURN_3_contact_next_turn():
    game = charge([4, 3, 5, 5, 5, 6, 3])
    play(game, "dest", R + 3, R)
    a3, b3 = model(game, "A3"), model(game, "B3")
    assert a3.panic and not b3.panic
    assert game.decision[0] == Decision.INITIATIVE and game.current_side == 0
    assert game.orders.seen_by(1, a3.idx) == 0 and game.orders.seen_by(0, b3.idx) == 0


def test_UW_CC_11_and_UW_CC_13_and_UW_CC_3_break_off_free_strike_spends_an_overwatch_striker():
    game = position({"models": {"A3": [5, 1], "B3": [6, 1]}, "orders": {"B3": "overwatch"},
                     "start": ("action", "A3")}, [6, 6, 2])
    events = play(game, "action", BREAK_OFF)
    b3 = model(game, "B3")
    assert {"UW-CC-11", "UW-CC-13", "UW-CC-3", "UW-HID-3"} <= rules(events)
    assert b3.activated and not game.orders.has(b3.idx) and game.decision[0] == Decision.DEST


def test_UW_CC_12_a_failed_break_off_must_fight():
    game = position({"models": {"A3": [5, 1], "B3": [6, 1]}, "start": ("action", "A3")}, [1, 1, 1, 1, 5, 2])
    events = play(game, "action", BREAK_OFF)
    assert "UW-CC-12" in rules(events) and model(game, "A3").cell == cell(5, 1)


def test_UW_SPEC_5_and_UW_SPEC_6_battleshield_guards_against_the_first_enemy_in_close_combat():
    game = position({"models": {"A3": [5, 1], "B2": [6, 1], "A4": [7, 1]}, "orders": {"A3": "snap!", "A4": "snap!"}},
                    [7, 6, 7, 6, 7, 6])
    a3, b2, a4 = model(game, "A3"), model(game, "B2"), model(game, "A4")
    assert combat.strike(game, a3, b2, charged=False, panicked=False) == (1, 0)   # damage 6 + 4 - 5 = 5
    assert b2.shield_enemy == a3.idx
    assert combat.strike(game, a4, b2, charged=False, panicked=False) == (1, 1)   # no shield against A4: 6 + 4 - 4
    game.place(a3, -1)
    a3.w = 0
    assert combat.strike(game, a4, b2, charged=False, panicked=False) == (1, 0)   # A3 gone: the shield passes on


# 7. Overwatch interrupts and UW-HID-6 windows ---------------------------------------------------------------------------------
def test_UW_HID_6_and_UW_HID_8_a_window_is_offered_whatever_the_real_order():
    # B4 keeps a Snap-fire model unactivated in both: alone, an Overwatch B3 would be known Overwatch (UW-HID-4)
    snap, over = (window(order, B4=([40, 1], "snap")) for order in ("snap", "overwatch"))
    assert snap.current_side == over.current_side == 1
    assert snap.decision[0] == over.decision[0] == Decision.REACT
    assert snap.observation(0).tobytes() == over.observation(0).tobytes()
    assert snap.render_text(0) == over.render_text(0) and (snap.render_rgb(0) == over.render_rgb(0)).all()
    assert snap.decision[1]["legal"] == [play_code("react_none")]
    assert play_code("react", 2, DISRUPT, 2) in over.decision[1]["legal"]


def test_UW_OW_1_and_UW_OW_7_and_UW_OW_8_a_disruption_shot_kills_the_mover():
    game = window("overwatch", [6, 5, 6, 7])
    events = play(game, "react", 2, DISRUPT, 2)
    assert {"UW-OW-1", "UW-OW-8", "UW-HID-3"} <= rules(events) and game.winner == 1


def test_UW_OW_5_and_UW_OW_9_a_failed_check_spends_the_reactor_and_the_mover_goes_on():
    game = window("overwatch", [1, 1])
    events = play(game, "react", 2, DISRUPT, 2)
    assert "UW-OW-5" in rules(events) and model(game, "A3").cell == cell(7, 1)
    assert not game.orders.has(model(game, "B3").idx) or game.turn == 2


def test_UW_OW_13_and_UW_OW_14_an_intercept_stops_the_mover():
    game = position({"models": {"A3": [3, 1], "B3": [12, 1]}, "orders": {"B3": "overwatch"},
                     "start": ("action", "A3")}, [6, 5, 1, 6, 4, 1, 1, 5, 2])
    play(game, "action", RUSH)
    play(game, "dest", R + 4, R)
    assert game.decision[0] == Decision.REACT
    events = play(game, "react", 2, INTERCEPT, 0)
    assert model(game, "A3").cell == cell(3, 1) and model(game, "B3").cell == cell(4, 1)
    assert model(game, "B3").panic and {"UW-OW-13", "UW-OW-14", "UW-CC-10"} <= rules(events)


# 8. Follow-ups --------------------------------------------------------------------------------------------------------------------
def test_UW_FU_1_and_UW_FU_2_a_calibre_one_model_gets_one_follow_up():
    game = position({"models": {"A2": [5, 1], "B3": [40, 1]}, "start": ("action", "A2")})
    play(game, "action", RUSH)
    play(game, "dest", R, R)
    assert game.decision[0] == Decision.FOLLOWUP
    play(game, "followup", 1)
    assert game.decision[0] == Decision.ACTION and model(game, "A2").fu_used == 1
    play(game, "action", RUSH)
    play(game, "dest", R, R)
    assert game.decision[0] != Decision.FOLLOWUP


def test_UW_PANIC_8_and_UW_PANIC_11_a_rally_removes_the_counter_but_not_the_penalty():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "panic": ["A3"], "start": ("action", "A3")}, [10, 10, 6])
    a3 = model(game, "A3")
    assert not a3.panic and game.act["panicked"]
    play(game, "action", MOVE_SHOOT)
    play(game, "dest", R, R)
    play(game, "shoot", 2)                                                    # 6 + 4 - 2 = 8: a miss
    assert model(game, "B3").alive


def test_UW_SPEC_3_high_morale_lifts_the_restrictions_at_once():
    game = position({"models": {"B1": [5, 1], "A3": [12, 1]}, "panic": ["B1"], "start": ("action", "B1"),
                     "first": 1}, [10, 10])
    assert not game.act["panicked"]


def test_UW_PANIC_7_a_panicked_model_may_not_charge():
    game = position({"models": {"B3": [5, 1], "A3": [9, 1]}, "panic": ["B3"], "start": ("action", "B3"),
                     "first": 1}, [1, 1])
    assert play_code("action", CHARGE) not in game.decision[1]["legal"]


def test_UW_PANIC_3_a_friend_killed_within_nine_inches():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1], "B4": [14, 1]}}, [6, 6, 1, 1])
    combat.shoot(game, model(game, "A3"), model(game, "B3"), moved=False, panicked=False)
    assert model(game, "B4").panic


def test_UW_CMD_3_a_commander_within_nine_inches_adds_one():
    game = position({"models": {"A1": [5, 1], "A3": [10, 1], "B3": [40, 1]}})
    from envs.urbanwar.command import check_bonus
    assert check_bonus(game, model(game, "A3")) == 4 + 0 + 1 and check_bonus(game, model(game, "A1")) == 5 + 2


# 12. Victory ----------------------------------------------------------------------------------------------------------------------
def test_UW_WIN_3_after_the_last_turn_more_removals_win():
    spec = {"models": {"A3": [5, 1], "A4": [7, 1], "B3": [40, 1]}, "turn": 6}
    assert position(spec).winner == 0
    assert position(spec, limit_result="draw").winner == 2


def test_UW_DEC_9_single_options_are_applied_unasked_but_a_script_one_die_short_changes_nothing():
    game = shoot_position([6])
    play(game, "dest", R, R)
    before = game.to_dict()
    with pytest.raises(DiceError):
        play(game, "shoot", 2)                                               # the damage die is missing
    assert game.to_dict() == before
