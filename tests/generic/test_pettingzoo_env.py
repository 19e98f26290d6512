"""The generic PettingZoo AEC adapter on every registered ruleset: api_test, seed_test, turn order, rendering."""
from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

import envs
from envs.pettingzoo_env import RubbleAECEnv, aec_env_factory
from tests import checkers


def test_api_test(ruleset):
    env, _ = aec_env_factory(ruleset.name)
    with warnings.catch_warnings():
        # api_test warns about names it merely recommends ("player_0"); our agents are the sides' names.
        warnings.simplefilter("ignore")
        api_test(env(), num_cycles=1000)


def test_seed_test(ruleset):
    env, _ = aec_env_factory(ruleset.name)
    seed_test(env, num_cycles=200)


@pytest.mark.parametrize("seed", range(3))
def test_agent_selection_follows_current_side(ruleset, seed):
    env, _ = aec_env_factory(ruleset.name)
    checkers.check_aec_follows_game(env(), seed)


def test_raw_env_is_unwrapped(ruleset):
    _, raw_env = aec_env_factory(ruleset.name)
    env = raw_env()
    assert isinstance(env, RubbleAECEnv) and env.unwrapped is env
    env.reset(seed=0)
    assert env.possible_agents == list(ruleset.sides)


@pytest.mark.parametrize("mode", RubbleAECEnv.metadata["render_modes"])
@pytest.mark.parametrize("render_side", [None, 0])
def test_render(ruleset, mode, render_side):
    checkers.needs_window(mode)
    env, _ = aec_env_factory(ruleset.name)
    env = env(render_mode=mode, render_side=render_side)
    env.reset(seed=0)
    checkers.check_frame(env.render(), mode)
    env.close()


def test_observation_key_gives_rllibs_masking_module_its_keys():
    with pytest.raises(ValueError, match="observation_key"):
        envs.make_aec("cityfight", observation_key="obs")
    env = envs.make_aec("cityfight", observation_key="observations")
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    assert set(observation) == {"observations", "action_mask"}
    assert set(env.observation_space(env.agent_selection).spaces) == {"observations", "action_mask"}
