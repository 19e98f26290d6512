"""The scripted opponent (UW-AI-1..13): from its side's view only, exact odds, no randomness; it beats random."""
from __future__ import annotations

from agents.base import RandomAgent
from agents.scripted.urbanwar import UrbanWarDoctrine
from envs.engine.contract import decide
from envs.engine.dice import ScriptedDice
from envs.urbanwar import geometry as geo
from envs.urbanwar.actions import BREAK_OFF, CHARGE, CODEC, DISRUPT, FIGHT, INTERCEPT, MOVE_SHOOT, REACH, RUSH
from envs.urbanwar.flow import Decision
from envs.urbanwar.game import UrbanWarGame
from tests.urbanwar.helpers import RULESET, model, play, position

R = REACH


def answer(game, side=None):
    side = game.current_side if side is None else side
    return CODEC.decode(decide(UrbanWarDoctrine(side), game, side))


def test_UW_AI_1_no_randomness_of_its_own():
    game = RULESET.new_game(seed=3)
    for _ in range(60):
        side = game.current_side
        a, b = UrbanWarDoctrine(side, 0), UrbanWarDoctrine(side, 99)
        choice = decide(a, game, side)
        assert choice == decide(b, game, side)
        game.apply(choice)


def test_UW_AI_2_roles_come_from_the_profiles():
    profiles = RULESET.new_game(seed=0).tables.profiles
    assert profiles["trooper"].role == "shooter" and profiles["brawler"].role == "melee"


def test_UW_AI_3_lets_the_opponent_deploy_first_and_picks_the_most_covered_cell():
    game = UrbanWarGame.new("block_7", dice=ScriptedDice([3, 7]))
    assert answer(game) == ("deploy_first", (1,))
    game.apply(CODEC.encode("deploy_first", 1))
    name, (x, r) = answer(game)
    covers = []
    for a in game.decision[1]["legal"]:
        _, (cx, cr) = CODEC.decode(a)
        covers.append(sum(1 for c, _ in geo.NEIGHBOURS[cr * 48 + cx] if game.board.cover[c]))
    assert sum(1 for c, _ in geo.NEIGHBOURS[r * 48 + x] if game.board.cover[c]) == max(covers)


def test_UW_AI_4_orders_shooter_with_target_snap_melee_waiting_overwatch_cap_half():
    game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [12, 1], "B4": [25, 1]}, "phase": "orders"})
    assert answer(game) == ("order", (0,))                                   # A3 has a target now
    play(game, "order", 0)
    play(game, "order", 0)
    # B3 can charge A4 now: Snap-fire; B4 cannot charge but is within 2 x 10": Overwatch (cap 1 of 2)
    assert answer(game) == ("order", (0,))
    play(game, "order", 0)
    assert answer(game) == ("order", (1,))


def test_UW_AI_5_goes_first_iff_a_snap_fire_model_can_strike_now():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1]}, "phase": "orders"})
    play(game, "order", 0)
    play(game, "order", 1)
    assert game.decision[0] == Decision.INITIATIVE and answer(game) == ("initiative", (0,))


def test_UW_AI_6_and_UW_AI_7_activates_the_model_in_contact_and_a_shooter_breaks_off():
    game = position({"models": {"A3": [20, 20], "A4": [5, 1], "B3": [6, 1]}, "orders": {"A3": "snap", "A4": "snap"}})
    assert answer(game) == ("activate", (3,))
    play(game, "activate", 3)
    assert answer(game) == ("action", (BREAK_OFF,))


def test_UW_AI_7_a_melee_model_fights_the_weakest():
    game = position({"models": {"B1": [5, 1], "A1": [6, 1], "A3": [4, 1]}, "wounds": {}, "start": ("action", "B1"),
                     "first": 1})
    assert answer(game) == ("action", (FIGHT,))
    play(game, "action", FIGHT)
    assert answer(game)[0] == "cc_target"


def test_UW_AI_8_a_melee_model_charges_by_the_cheapest_path():
    game = position({"models": {"B3": [5, 1], "A3": [10, 1]}, "start": ("action", "B3"), "first": 1})
    assert answer(game) == ("action", (CHARGE,))
    play(game, "action", CHARGE)
    assert answer(game) == ("dest", (R + 4, R))                              # (9, 1), 4"


def test_UW_AI_9_a_shooter_with_a_target_shoots_the_priority_without_moving():
    game = position({"models": {"A3": [5, 1], "B3": [12, 1], "B4": [12, 4]}, "start": ("action", "A3")})
    assert answer(game) == ("action", (MOVE_SHOOT,))
    play(game, "action", MOVE_SHOOT)
    assert answer(game) == ("dest", (R, R))
    play(game, "dest", R, R)
    assert answer(game) == ("shoot", (2,))


def test_UW_AI_10_a_shooter_moves_to_gain_a_target():
    game = position({"models": {"A3": [5, 1], "B3": [5, 25]}, "map": {"#": [[x, 3] for x in range(2, 9)]},
                     "start": ("action", "A3")})
    assert game.view(0).targets(model(game, "A3")) == []
    assert answer(game) == ("action", (MOVE_SHOOT,))
    play(game, "action", MOVE_SHOOT)
    name, (dx, dy) = answer(game)
    dest = (1 + dy - R) * 48 + 5 + dx - R
    assert game.view(0).targets(model(game, "A3"), dest)


def test_UW_AI_11_otherwise_rushes_towards_the_closest_enemy():
    game = position({"models": {"B3": [5, 1], "A3": [40, 40]}, "start": ("action", "B3"), "first": 1})
    assert answer(game) == ("action", (RUSH,))
    play(game, "action", RUSH)
    name, (dx, dy) = answer(game)
    assert dx > R and dy > R


def test_UW_AI_12_a_follow_up_iff_it_could_strike_now():
    game = position({"models": {"A2": [5, 1], "B3": [30, 1]}, "start": ("action", "A2")})
    play(game, "action", RUSH)
    play(game, "dest", R, R)
    assert answer(game) == ("followup", (1,))                                # the sniper sees B3 at 25"


def test_UW_AI_13_a_melee_reactor_intercepts_first():
    game = position({"models": {"A3": [3, 1], "B3": [12, 1]}, "orders": {"B3": "overwatch"},
                     "start": ("action", "A3")})
    play(game, "action", RUSH)
    play(game, "dest", R + 4, R)
    name, args = answer(game)
    assert name == "react" and args[1] == INTERCEPT


def test_UW_OW_4_UW_OW_11_UW_OW_15_no_window_inside_an_interrupt_and_no_rally_for_the_reactor():
    game = position({"models": {"A3": [3, 1], "B3": [12, 1], "B4": [20, 3]}, "orders": {"B3": "overwatch",
                     "B4": "overwatch"}, "panic": ["B3"], "start": ("action", "A3")}, [6, 6, 1, 1, 10, 10, 5, 2])
    play(game, "action", RUSH)
    play(game, "dest", R + 4, R)
    assert game.decision[0] == Decision.REACT
    events = play(game, "react", 2, DISRUPT, 0)        # check 12 + 4 passes (no rally first); shot 1: a miss
    assert "UW-PANIC-8" not in {e.rule for e in events} and model(game, "B3").panic
    assert game.decision is None or game.decision[0] != Decision.REACT


def test_the_scripted_side_beats_random_from_both_sides():
    wins, losses = {0: 0, 1: 0}, {0: 0, 1: 0}
    for seed in range(6):
        for side in (0, 1):
            game = RULESET.new_game(seed=seed)
            players = {side: UrbanWarDoctrine(side), 1 - side: RandomAgent(1 - side, seed)}
            while game.current_side is not None:
                game.apply(decide(players[game.current_side], game, game.current_side))
            wins[side] += game.returns()[side] > 0
            losses[side] += game.returns()[side] < 0
    assert wins[0] > losses[0] and wins[1] > losses[1], (wins, losses)
