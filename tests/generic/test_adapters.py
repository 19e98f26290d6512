"""Adapter behaviour that needs a known game (the toy race) or no ruleset at all: loading, options, opponents."""
from __future__ import annotations

import numpy as np
import pytest

import envs
from agents.base import RandomAgent
from envs import registry
from envs.gym_env import RubbleEnv
from tests import toy_game
from tests.toy_game import PASS, ROLL

TOY = toy_game.NAME


def test_opponent_events_and_turn_reach_info():
    env = RubbleEnv(TOY, opponent="random", umpire_events=True)
    env.reset(seed=1)
    _, _, terminated, _, info = env.step(PASS)
    assert not terminated and info["turn"] == 2
    assert {e.side for e in info["events"]} == {0, 1}, "the opponent's events belong to the learner's step"


def test_umpire_events_stay_out_of_info_by_default():
    env = RubbleEnv(TOY, opponent="random")
    _, info = env.reset(seed=1)
    assert "events" not in info
    _, _, _, _, step_info = env.step(PASS)
    # The same keys after reset and step: TorchRL registers info keys from the first one.
    assert set(info) == set(step_info) == {"action_mask", "turn", "illegal_action", "games_without_decision"}


def test_learner_side_by_name_and_opponent_moves_first():
    env = RubbleEnv(TOY, learner_side="red", umpire_events=True)
    _, info = env.reset(seed=0)
    assert env.learner_side == 1 and env.state.current_side == 1
    assert info["events"] and all(e.side in (0, None) for e in info["events"])


def test_reward_shaping_needs_a_ruleset_with_a_standing_and_a_weight_of_zero_or_more():
    with pytest.raises(ValueError, match="declares no standing"):
        RubbleEnv(TOY, reward_shaping=True)
    with pytest.raises(ValueError, match="a number >= 0"):
        RubbleEnv("urbanwar", reward_shaping=-0.5)
    assert RubbleEnv(TOY, reward_shaping=0).reward_shaping == 0.0


def test_game_options_and_scenarios_reach_new_game():
    env = RubbleEnv(TOY, target=99)
    env.reset(seed=0)
    assert env.game.target == 99
    env.reset(seed=0, options={"scenario": "sprint"})
    assert env.game.turn_limit == 4


def test_unknown_reset_options_warn():
    env = RubbleEnv(TOY)
    with pytest.warns(UserWarning, match="ignored"):
        env.reset(seed=0, options={"speed": 2})


def test_saved_model_opponent_loads_once_and_reseeds(monkeypatch):
    calls = []

    def load(path, ruleset, side, seed):
        calls.append((path, ruleset.name, side))
        return RandomAgent(side, seed)

    monkeypatch.setattr(registry, "_LOADERS", {".zip": lambda rs, path: lambda side, seed: load(path, rs, side, seed)})
    monkeypatch.setattr(registry, "AGENT_LOADER_PROVIDERS", ())
    env = RubbleEnv(TOY, opponent="models/red.zip")
    assert calls == []
    first = env.reset(seed=4)[0], env.reset(seed=4)[0]
    assert calls == [("models/red.zip", TOY, 1)]
    assert np.array_equal(*first)


def test_one_agent_acts_many_times_in_a_row():
    env = envs.make_aec(TOY)
    env.reset(seed=0)
    assert env.agent_selection == "blue"
    env.step(ROLL)
    assert env.agent_selection == "blue"  # 1 AP left
    env.step(ROLL)
    assert env.agent_selection == "red"
    assert not env.observe("blue")["action_mask"].any()
