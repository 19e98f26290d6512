"""The Darkness doctrine (rules catalog §13, RD-AI-1/2) and the scripted automaton's answers to it."""
from __future__ import annotations

import numpy as np

from agents.scripted.rifles import ScriptedEnemy
from envs.rifles.actions import CODEC
from envs.rifles.game import RiflesGame

from .builders import act, activate, assert_illegal, dark, dice, enemy_turn, kinds, legal_actions, night, player, put, stalker_chose_p, texts


class FixedDie:
    """A stand-in for the automaton's generator: `integers` always gives `face`."""

    def __init__(self, face: int) -> None:
        self.face = face

    def integers(self, low, high):
        return self.face


def enemy_answer(game, seed: int = 0) -> int:
    agent = ScriptedEnemy(1, seed)
    return agent.act(game.observation(1), game.legal_action_mask(), game.view(1))


# RD-AI-1 ------------------------------------------------------------------------------------------
def test_RD_AI_1_a_player_group_within_range_one_is_attacked_without_an_order_roll():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 2)
    p, q = player(game, "P"), player(game, "Q")
    events = enemy_turn(game, k)               # no die scripted: none is rolled
    assert "order" not in kinds(events)
    assert game.decision == ("target", {"group": k.gid, "options": [q.gid, p.gid], "mode": "close_combat", "drm": 0,
                                        "left": 1})
    assert legal_actions(game) == {("e_target", (q.gid,)), ("e_target", (p.gid,))}
    assert CODEC.decode(enemy_answer(game)) == ("e_target", (q.gid,))      # RB-AI-10 ties: fewest units


def test_RD_AI_1_range_zero_before_range_one_and_no_unit_count_limit():
    game = night()
    b = dark(game, "B", ["brute"], 2)
    p = put(game, "P", 2)
    enemy_turn(game, b)
    assert game.decision[1]["options"] == [p.gid]       # Q (range 1) is not offered; one Brute may attack four units
    assert_illegal(game, "e_target", player(game, "Q").gid)


def test_RD_AI_1_ranged_groups_fight_too_when_the_squad_is_close():
    game = night()
    s = dark(game, "S", ["spitter", "spitter"], 2)
    enemy_turn(game, s)
    assert game.decision[0] == "target" and game.decision[1]["mode"] == "close_combat"


def test_RD_AI_1_a_fast_group_may_fight_instead_and_the_automaton_makes_fast_attacks():
    game, t, p = stalker_chose_p()
    assert game.decision == ("fast", {"group": t.gid, "target": p.gid, "left": 2})
    assert legal_actions(game) == {("e_fast", (0,)), ("e_fast", (1,))}
    assert_illegal(game, "e_target", p.gid)
    assert enemy_answer(game) == CODEC.encode("e_fast", 1)
    assert game.action_label(CODEC.encode("e_fast", 0)) == "enemy fights in close combat"
    assert game.action_label(CODEC.encode("e_fast", 1)) == "enemy makes a Fast attack"


def test_RD_AI_1_an_engaged_target_gets_no_fast_attack_the_fast_group_joins():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "1a")
    t = dark(game, "T", ["stalker"], 1)
    p, q = player(game, "P"), player(game, "Q")
    k.engaged_with, q.engaged_with, q.defending, k.rounds, q.rounds = q.gid, k.gid, True, 1, 1
    enemy_turn(game, k, 1, 1, 1, 1)         # RB-AI-3: K 1+3 = 4 vs Q 1+2 = 3: 1d3 = 1 on Q, pick 1 -> Q1
    activate(game, t)
    assert game.decision[1]["options"] == [q.gid, p.gid]
    events = act(game, "e_target", q.gid)   # no "fast" decision: Q is Engaged; K has activated, so T merges
    assert texts(events, "join") == ["T joins K against Q", "K has activated: the joiners fight in the next round"]
    assert len(k.units) == 3 and not t.alive and game.phase == "player"
    assert game.dice.remaining == 0


# RD-AI-2 ------------------------------------------------------------------------------------------
def test_RD_AI_2_d6_one_or_two_attack_with_ranged_cf():
    game = night()
    s = dark(game, "S", ["spitter", "spitter"], 3)
    p, q = player(game, "P"), player(game, "Q")
    events = enemy_turn(game, s, 2)
    assert texts(events, "order") == ["S order: attack"]
    assert game.decision == ("target", {"group": s.gid, "options": [p.gid, q.gid], "mode": "fire", "drm": 0, "left": 2})
    assert CODEC.decode(enemy_answer(game)) == ("e_target", (p.gid,))      # RB-AI-6: lowest TN (Q is behind a wall)


def test_RD_AI_2_d6_three_to_six_advance():
    game = night()
    s = dark(game, "S", ["spitter", "spitter"], 3)
    events = enemy_turn(game, s, 3)
    assert texts(events, "order") == ["S order: advance"]
    assert game.decision == ("advance", {"group": s.gid, "options": [0, -1]})
    dice(game)
    act(game, "e_advance", 0)               # toward Stripe 1
    assert game.decision == ("place", {"group": s.gid, "stripe": 2, "options": [0, 1, 2]})
    act(game, "e_place", 2)                 # RB-AI-5: the Building first
    assert game.place_name(s.stripe, s.place) == "2b (building)"


def test_RD_AI_2_attack_without_ranged_cf_or_target_becomes_advance():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 4)
    events = enemy_turn(game, k, 1)         # @Attack, but Crawlers have no ranged attack
    assert texts(events, "order") == ["K order: attack"] and game.decision[0] == "advance"
    game = night()
    s = dark(game, "S", ["spitter"], 5)     # range 4: no target
    enemy_turn(game, s, 2)
    assert game.decision[0] == "advance"


def test_RD_AI_2_under_RB_AI_1_the_order_is_the_enemys_choice_of_attack_or_advance():
    game = night(enemy_rolls_as_choices=True)
    s = dark(game, "S", ["spitter"], 3)
    enemy_turn(game, s)
    assert game.decision == ("order", {"group": s.gid})
    assert legal_actions(game) == {("e_order", (1,)), ("e_order", (2,))}  # @Attack, @Advance
    assert_illegal(game, "e_order", 0)                                    # @Cover
    assert_illegal(game, "e_order", 3)                                    # Close Combat
    agent = ScriptedEnemy(1, 0)
    agent.rng = FixedDie(2)
    assert agent.act(None, game.legal_action_mask(), game.view(1)) == CODEC.encode("e_order", 1)
    agent.rng = FixedDie(3)
    assert agent.act(None, game.legal_action_mask(), game.view(1)) == CODEC.encode("e_order", 2)
    act(game, "e_order", 1)
    assert game.decision[0] == "target" and game.decision[1]["mode"] == "fire"
    assert game.dice.remaining == 0


def test_RD_AI_2_the_scripted_automaton_plays_night_crossing_with_rolls_as_choices():
    from agents.scripted.rifles import ScriptedPlayer
    from envs.engine.contract import advance
    for seed in range(20):
        game = RiflesGame.new("night_crossing", seed=seed, enemy_rolls_as_choices=True)
        advance(game, {0: ScriptedPlayer(0, seed), 1: ScriptedEnemy(1, seed)})
        assert game.is_over and game.outcome in (-1, 1)
    assert np.isfinite(game.observation(1)).all()
