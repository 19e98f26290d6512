"""More Urban War rule tests (scripted dice, exact outcomes), by catalog section."""
from __future__ import annotations

import numpy as np

from envs.engine.d10 import command_test, natural_test, p_command, plain_test
from envs.engine.dice import ScriptedDice
from envs.urbanwar import combat, config
from envs.urbanwar import geometry as geo
from envs.urbanwar.actions import BREAK_OFF, CHARGE, CODEC, DISRUPT, FIGHT, INTERCEPT, MOVE_SHOOT, REACH, RUSH
from envs.urbanwar.command import command_check
from envs.urbanwar.flow import Decision
from tests.urbanwar.helpers import RULESET, cell, model, play, position, rules

R = REACH


def code(name, *args):
    return CODEC.encode(name, *args)


# 1-2. Table, dice, stat line ------------------------------------------------------------------------------------
def test_UW_GRID_1_and_UW_TAB_2_a_48_inch_table_and_one_model_per_cell():
    game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [40, 1]}, "start": ("action", "A3")})
    assert len(game.board.chars) == 48 * 48 and game.board.cost[cell(5, 1)] == (2, 3)
    play(game, "action", RUSH)
    assert not game.legal_action_mask()[code("dest", R + 2, R)]            # A4's cell


def test_UW_GRID_2_no_step_leaves_the_table():
    assert len(geo.NEIGHBOURS[0]) == 3 and len(geo.NEIGHBOURS[cell(47, 47)]) == 3


def test_UW_GRID_5_terrain_at_exactly_one_inch_gives_no_cover_beyond_it_does():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "map": {"%": [[7, 1]]}})
    assert geo.cover_class(game.board, cell(5, 1), cell(12, 1)) == geo.NO_COVER       # dx^2 + dy^2 = 4
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "map": {"%": [[8, 1]]}})
    assert geo.cover_class(game.board, cell(5, 1), cell(12, 1)) == geo.FLIMSY         # 9 > 4


def test_UW_GRID_6_and_UW_HID_1_distances_and_positions_are_public():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "start": ("action", "A3")})
    a3 = model(game, "A3")
    assert game.view(1).destinations(a3, RUSH) == game.view(0).destinations(a3, RUSH)
    assert game.observation(0)[3 * 48 * 48:].tolist() != [] and "A3 (5,1)" in game.render_text(1)


def test_UW_DICE_2_and_UW_STAT_8_saves_have_no_natural_result_but_hits_do():
    assert plain_test(ScriptedDice([1]), 9, 10).success and not natural_test(ScriptedDice([1]), 9, 10).success
    assert natural_test(ScriptedDice([10]), -9, 10).success and not plain_test(ScriptedDice([10]), -9, 10).success


def test_UW_STAT_4_an_smg_rolls_two_attack_dice():
    game = position({"models": {"A3": [5, 1], "B6": [12, 1]}}, [1, 1])
    combat.shoot(game, model(game, "B6"), model(game, "A3"), moved=False, panicked=False)
    assert game.dice.remaining == 0 and model(game, "A3").alive


def test_UW_STAT_5_a_shock_maul_rolls_two_damage_dice_per_hit():
    game = position({"models": {"A3": [5, 1], "B2": [6, 1]}, "orders": {"A3": "snap!"}}, [6, 5, 6])
    assert combat.strike(game, model(game, "B2"), model(game, "A3"), charged=False, panicked=False) == (1, 1)


def test_UW_STAT_2_and_UW_STAT_7_first_strike_values():
    game = position({"models": {"A1": [5, 1], "B3": [40, 1]}})
    assert combat.first_strike(game, model(game, "A1"), False) == 2                   # FS 2, CAL not added again
    game = position({"models": {"A3": [5, 1], "B3": [40, 1]}})
    assert combat.first_strike(game, model(game, "B3"), True) == 0 + 1 + 3            # chain-blade +1, charge +3


def test_UW_STAT_3_and_UW_TAB_3_a_pistol_has_no_medium_band():
    game = position({"models": {"A3": [5, 1], "B3": [19, 1]}, "start": ("action", "B3"), "first": 1})
    assert game.view(1).targets(model(game, "B3")) == []                              # d2 = 196 > 169
    assert not game.tables.weapons["pistol"].usable(2) and game.tables.weapons["pistol"].bands[1] == (1, 1, 3, 1)


def test_UW_STAT_1_and_UW_TAB_4_profiles_as_listed():
    p = RULESET.new_game(seed=0).tables.profiles["blade_leader"]
    assert (p.AS, p.SH, p.ST, p.T, p.W, p.CD, p.SZ, p.MV, p.CAL, p.FS) == (6, 3, 5, 4, 2, 5, 2, 5, 2, 2)
    assert p.high_morale and p.role == "melee"


def test_UW_TAB_5_and_UW_CMD_1_and_UW_CMD_2_command_odds_and_the_auto_fail():
    assert [round(float(p_command(b)) * 100) for b in (9, 5, 0, -5, -6)] == [90, 64, 21, 1, 0]
    assert not command_test(ScriptedDice([2, 3]), 30).success
    game = position({"models": {"A1": [5, 1], "B3": [40, 1]}}, [4, 4])
    assert command_check(game, model(game, "A1"), "test", "UW-CMD-2")                 # 8 + 7 = 15


def test_UW_PANIC_1_and_UW_PANIC_5_checks_in_roster_order_and_a_panicked_model_takes_none():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1], "B4": [14, 1], "B5": [14, 3]}, "panic": ["B4"]},
                    [6, 6, 1, 1])
    combat.shoot(game, model(game, "A3"), model(game, "B3"), moved=False, panicked=False)
    assert model(game, "B5").panic and game.dice.remaining == 0                      # B4 rolled nothing


def test_UW_PANIC_10_a_non_acting_model_is_panicked_iff_it_holds_a_counter():
    game = position({"models": {"A3": [5, 1], "B3": [6, 1]}, "panic": ["B3"], "start": ("action", "A3")},
                    [6, 5, 5, 2])
    play(game, "action", FIGHT)         # B3 strikes first: 6 + 5 - 4 - 2 = 5, a miss (unpanicked: 7, a hit)
    assert model(game, "A3").alive and model(game, "B3").alive and game.decision[0] == Decision.INITIATIVE


# 3-4. Set-up and turns -------------------------------------------------------------------------------------------
def test_UW_SETUP_1_the_scenario_map_is_the_table():
    game = RULESET.new_game(seed=1)
    assert game.board.rows == config.load_scenario(config.scenario_path(None)).map


def test_UW_TURN_1_and_UW_TURN_2_panic_counters_stay_orders_and_activations_go():
    game = position({"models": {"A3": [5, 1], "B3": [30, 1]}, "panic": ["A3"], "activated": ["B3"],
                     "phase": "orders", "turn": 2})
    assert model(game, "A3").panic and not model(game, "B3").activated and game.decision[0] == Decision.ORDER


def test_UW_TURN_6_initiative_ties_are_re_rolled():
    game = position({"models": {"A1": [5, 1], "B1": [30, 1]}, "phase": "orders", "turn": 2}, [4, 4, 2, 9])
    play(game, "order", 0)
    play(game, "order", 0)
    assert game.decision[0] == Decision.INITIATIVE and game.current_side == 1


def test_UW_TURN_10_and_UW_TURN_12_and_UW_TURN_14_one_action_then_done_overwatch_idle():
    game = position({"models": {"A3": [5, 1], "B3": [40, 1]}, "orders": {"A3": "snap", "B3": "overwatch"}})
    assert game.decision[0] == Decision.ACTION                               # A3 activated unasked
    play(game, "action", RUSH)
    play(game, "dest", R, R)
    # B3 (Overwatch, nothing to react to) never activates: the turn ends
    assert game.turn == 2 and game.decision[0] == Decision.ORDER


def test_UW_ACT_1_and_UW_ACT_2_and_UW_ACT_3_actions_and_their_allowances():
    game = position({"models": {"A1": [5, 1], "B3": [40, 10]}, "start": ("action", "A1")})
    assert game.decision[1]["legal"] == [code("action", RUSH), code("action", MOVE_SHOOT)]
    view, a1 = game.view(0), model(game, "A1")
    assert cell(15, 1) in view.destinations(a1, RUSH) and cell(16, 1) not in view.destinations(a1, RUSH)   # 2x4+2
    assert cell(9, 1) in view.destinations(a1, MOVE_SHOOT) and cell(10, 1) not in view.destinations(a1, MOVE_SHOOT)


def test_UW_ACT_7_and_UW_CC_1_two_enemies_in_contact_the_attacker_picks_one():
    game = position({"models": {"B1": [5, 1], "A3": [6, 1], "A4": [4, 1]}, "start": ("action", "B1"),
                     "first": 1})
    play(game, "action", FIGHT)
    assert game.decision[0] == Decision.CC_TARGET and len(game.decision[1]["legal"]) == 2


def test_UW_ACT_8_a_charge_ends_in_contact():
    game = position({"models": {"B3": [5, 1], "A3": [14, 1]}, "start": ("action", "B3"), "first": 1}, [1, 1, 5, 2])
    play(game, "action", CHARGE)
    play(game, "dest", R + 8, R)
    assert model(game, "B3").cell == cell(13, 1) and geo.contact(model(game, "B3").cell, model(game, "A3").cell)


def test_UW_MOVE_3_walls_and_windows_are_impassable_and_UW_TERR_1_windows_do_not_block_sight():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "map": {"W": [[8, 0], [8, 1], [8, 2]]},
                     "start": ("action", "A3")})
    assert cell(8, 1) not in game.view(0).destinations(model(game, "A3"), RUSH)
    assert game.los(model(game, "A3"), model(game, "B3"))


def test_UW_MOVE_6_a_break_off_ends_out_of_contact():
    game = position({"models": {"A3": [5, 1], "B3": [6, 1]}, "start": ("action", "A3")}, [6, 6, 1])
    play(game, "action", BREAK_OFF)
    dests = game.view(0).destinations(model(game, "A3"), BREAK_OFF)
    assert dests and all(not geo.contact(c, cell(6, 1)) for c in dests)


def test_UW_LOS_1_sight_is_all_round():
    game = position({"models": {"A3": [20, 1], "B3": [10, 1], "B4": [30, 1], "B5": [20, 2]}})
    assert all(game.los(model(game, "A3"), model(game, b)) for b in ("B3", "B4", "B5"))


# 7. Overwatch ---------------------------------------------------------------------------------------------------
def test_UW_OW_2_one_attempt_per_action_no_second_window_after_a_failed_one():
    game = position({"models": {"A3": [5, 1], "B3": [14, 1], "B6": [16, 4]},
                     "orders": {"B3": "overwatch", "B6": "overwatch"}, "start": ("action", "A3")}, [1, 1, 6, 6, 10, 10])
    play(game, "action", MOVE_SHOOT)
    play(game, "dest", R, R)
    assert game.decision[0] == Decision.REACT
    play(game, "react", 2, DISRUPT, 0)                                       # check 1 + 1: failed
    assert game.decision[0] == Decision.SHOOT
    play(game, "shoot", 2)                                                    # kills B3; B6 passes its check
    assert game.decision[0] == Decision.ORDER and game.turn == 2             # no second window for B6


def test_UW_OW_3_window_one_offers_every_path_position():
    game = position({"models": {"A3": [5, 1], "B6": [16, 1]}, "orders": {"B6": "overwatch"},
                     "start": ("action", "A3")})
    play(game, "action", RUSH)
    play(game, "dest", R + 3, R)
    legal = game.decision[1]["legal"]
    assert all(code("react", 5, DISRUPT, pos) in legal for pos in range(4))


def test_UW_OW_6_a_reactor_in_contact_cannot_shoot():
    game = position({"models": {"A3": [5, 1], "A4": [20, 2], "B6": [20, 1]}, "orders": {"B6": "overwatch",
                     "A4": "snap"}, "start": ("action", "A3")})
    play(game, "action", RUSH)
    play(game, "dest", R + 2, R)
    legal = game.decision[1]["legal"] if game.decision[0] == Decision.REACT else []
    assert not any(CODEC.decode(a)[0] == "react" and CODEC.decode(a)[1][1] == DISRUPT for a in legal)


def test_UW_OW_10_and_UW_OW_12_intercept_reach_and_contact():
    far = position({"models": {"A3": [3, 1], "B3": [16, 1]}, "orders": {"B3": "overwatch"},
                    "start": ("action", "A3")})
    play(far, "action", RUSH)
    play(far, "dest", R - 1, R)
    legal = far.decision[1]["legal"] if far.decision[0] == Decision.REACT else []
    assert code("react", 2, INTERCEPT, 0) not in legal                       # 12 cells: more than 10" away
    held = position({"models": {"A3": [5, 1], "B4": [6, 1], "B3": [9, 1]}, "orders": {"B3": "overwatch"},
                     "start": ("action", "A3")})
    play(held, "action", FIGHT)
    legal = held.decision[1]["legal"] if held.decision[0] == Decision.REACT else []
    assert code("react", 2, INTERCEPT, 0) not in legal                       # A3 is in contact with B4 only


def test_UW_FU_3_and_UW_FU_4_a_follow_up_is_a_fresh_action_with_its_own_rally():
    game = position({"models": {"A2": [5, 1], "B3": [40, 1]}, "start": ("action", "A2")}, [1, 1])
    play(game, "action", RUSH)
    play(game, "dest", R + 1, R)
    model(game, "A2").panic = True
    play(game, "followup", 1)                                                 # rally 1 + 1: failed
    assert game.act["panicked"] and not game.act["moved"] and model(game, "A2").panic


def test_UW_PANIC_9_and_UW_PANIC_11_status_fixed_for_the_action():
    game = position({"models": {"B3": [5, 1], "A3": [9, 1]}, "panic": ["B3"], "start": ("action", "B3"),
                     "first": 1}, [10, 10])
    assert not model(game, "B3").panic and game.act["panicked"]
    assert code("action", CHARGE) not in game.decision[1]["legal"]


# 9-10. Shooting, cover, close combat -------------------------------------------------------------------------------
def test_UW_SHOOT_6_plus_two_when_the_priority_target_has_cover():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1], "B4": [12, 4]}, "map": {"=": [[12, 1]]},
                     "start": ("action", "A3")}, [5, 5, 1])
    play(game, "action", MOVE_SHOOT)
    play(game, "dest", R, R)
    events = play(game, "shoot", 3)                                           # 10 + 4 + 2 = 16: passed; then a 1
    assert "UW-SHOOT-8" in rules(events)


def test_UW_SHOOT_7_an_enemy_in_contact_with_a_friend_is_never_the_priority():
    game = position({"models": {"A3": [5, 1], "A4": [13, 1], "B3": [12, 1], "B4": [12, 5]}})
    view, a3 = game.view(0), model(game, "A3")
    targets = view.targets(a3)
    assert model(game, "B3") in targets and view.priority(a3, targets) == [model(game, "B4")]


def test_UW_SHOOT_1_and_UW_SHOOT_3_and_UW_COVER_1_and_UW_COVER_6_sequence_and_solid_first():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "map": {"%": [[9, 1]], "=": [[12, 1]]}}, [6, 6, 7])
    assert geo.cover_class(game.board, cell(5, 1), cell(12, 1)) == geo.SOLID
    combat.shoot(game, model(game, "A3"), model(game, "B3"), moved=False, panicked=False)
    assert model(game, "B3").alive                                            # 7 saves against solid 6+


def test_UW_CC_5_and_UW_WIN_2_equal_first_strike_both_die_a_draw():
    game = position({"models": {"A3": [5, 1], "B6": [6, 1]}, "start": ("action", "A3")}, [6, 6, 6, 6])
    play(game, "action", FIGHT)
    assert game.winner == 2 and game.returns() == (0.0, 0.0)


# 13-16. Decisions, hidden information, scenario -------------------------------------------------------------------------
def test_UW_DEC_1_UW_DEC_2_UW_DEC_3_UW_DEC_4_UW_DEC_5_UW_DEC_6_UW_DEC_7_UW_DEC_8_UW_SCEN_2_every_decision_kind():
    import agents.base  # noqa: F401
    kinds, sides = set(), set()
    for seed in range(4):
        game = RULESET.new_game(seed=seed)
        rng = np.random.default_rng(seed)
        while game.current_side is not None:
            kinds.add(str(game.decision[0]))
            sides.add(game.current_side)
            legal = np.flatnonzero(game.legal_action_mask())
            game.apply(int(legal[rng.integers(len(legal))]))
    assert {"deploy_first", "deploy", "order", "initiative", "activate", "action", "dest", "react", "shoot",
            "followup"} <= kinds and sides == {0, 1}
    assert game.edges == ["south", "north"] and RULESET.sides == ("team_a", "team_b")


def test_UW_HID_4_a_killed_models_face_down_order_stays_hidden():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1], "B4": [30, 1]}, "orders": {"B3": "overwatch",
                     "B4": "snap"}, "start": ("action", "A3")}, [6, 6, 1, 1])
    play(game, "action", MOVE_SHOOT)
    play(game, "dest", R, R)
    if game.decision[0] == Decision.REACT:
        play(game, "react_none")
    play(game, "shoot", 2)
    assert not model(game, "B3").alive and not game.orders.has(model(game, "B3").idx)


def test_UW_SCEN_3_and_UW_SCEN_4_turn_limit_and_decision_budget():
    from envs.engine.dice import SeededDice  # noqa: F401
    counts = []
    for seed in range(3):
        game = RULESET.new_game(seed=seed)
        rng = np.random.default_rng(seed)
        while game.current_side is not None:
            legal = np.flatnonzero(game.legal_action_mask())
            game.apply(int(legal[rng.integers(len(legal))]))
        counts.append(game.decisions)
        assert game.turn <= 7
    assert RULESET.turn_limit(game) == 6 and all(150 <= c <= 420 for c in counts), counts
