"""The Konflikt '47 scripted player (KC-AI-1..15): exact table values, its reactions, and that it beats random."""
from __future__ import annotations

from fractions import Fraction

from agents.base import RandomAgent
from agents.scripted.k47 import SCALE, K47Scripted, expected_kills
from envs.engine.contract import advance
from envs.engine.dice import ScriptedDice
from envs.k47.actions import CODEC
from envs.k47.ruleset import K47
from envs.k47.state import ORDERS

RS = K47()
A1, B2 = 0, 6


def position(**units):
    spec = {"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}, **units},
            "decide": ["order", "A1"]}
    return RS.build_position(spec, ScriptedDice([]))


def test_KC_AI_2_expected_kills_are_exact_in_288ths():
    g = position()
    view = g.view(0)
    # LMG 4 shots at 3+ (4/6) killing on 4+ (3/6): 4/3; rifles 6 shots at 4+ (3/6) x 3/6: 3/2; SMG out of range
    assert expected_kills(view, view.units[A1], view.units[B2], False) == (Fraction(4, 3) + Fraction(3, 2)) * SCALE


def test_KC_AI_8_fire_at_the_best_target_and_KC_AI_14_go_down():
    g = position()
    agent = K47Scripted(0)
    assert agent.act(None, g.legal_action_mask(), g.view(0)) == CODEC.encode("order", ORDERS.index("fire"))   # R5
    g.apply(CODEC.encode("order", ORDERS.index("fire")))
    assert agent.act(None, g.legal_action_mask(), g.view(0)) == CODEC.encode("target", B2, 0)
    g.apply(CODEC.encode("target", B2, 0))
    # 17/6 >= 2 expected kills: B goes Down (KC-AI-14)
    assert K47Scripted(1).act(None, g.legal_action_mask(), g.view(1)) == CODEC.encode("yes")


def test_KC_AI_1_same_view_same_decision():
    g = RS.new_game(seed=5)
    a = K47Scripted(g.current_side)
    assert a.act(None, g.legal_action_mask(), g.view(g.current_side)) == \
        a.act(None, g.legal_action_mask(), g.clone().view(g.current_side))


def play(seed: int, scripted_side: int) -> float:
    g = RS.new_game(seed=seed)
    agents = {scripted_side: K47Scripted(scripted_side), 1 - scripted_side: RandomAgent(1 - scripted_side, seed)}
    advance(g, agents)
    return g.returns()[scripted_side]


def test_KC_AI_3_scripted_beats_random_from_both_sides():
    for side in (0, 1):
        results = [play(seed, side) for seed in range(100, 104)]
        assert sum(r > 0 for r in results) >= 3, (side, results)


def test_KC_AI_6_R3_the_tank_rams_the_held_wooden_house():
    g = RS.build_position({"only": ["A5", "B1", "B2"], "units": {"B2": {"in": ["W", 0]}}, "decide": ["order", "A5"]},
                          ScriptedDice([]))
    agent = K47Scripted(0)
    assert agent.act(None, g.legal_action_mask(), g.view(0)) == CODEC.encode("order", ORDERS.index("run"))
    g.apply(CODEC.encode("order", ORDERS.index("run")))
    w = g.board.section_named("W").index
    assert agent.act(None, g.legal_action_mask(), g.view(0)) == CODEC.encode("ram", w)
