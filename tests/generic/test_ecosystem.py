"""The ecosystem's conventions on every registered ruleset: what a client written elsewhere expects to just work."""
from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from envs.engine.contract import GameOverError, IllegalActionError
from envs.gym_env import RubbleEnv
from envs.pettingzoo_env import RubbleAECEnv
from tests import checkers


def gym_env(ruleset, **kwargs) -> RubbleEnv:
    kwargs.setdefault("opponent", checkers.default_opponent(ruleset))
    return RubbleEnv(ruleset.name, **kwargs)


def gym_state_with_illegal_action(env: RubbleEnv, seed: int):
    """Reset and play random legal steps until the learner has a masked-out action; that action, or None."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(500):
        illegal = np.flatnonzero(env.action_masks() == 0)
        if illegal.size:
            return int(illegal[rng.integers(illegal.size)])
        if env.step(checkers.random_action(rng, env.action_masks()))[2]:
            env.reset()
    return None


# 1. Illegal actions ----------------------------------------------------------------------------------------
def test_gymnasium_check_env_passes_in_the_default_mode(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym_env(ruleset), skip_render_check=True)


def test_action_space_sample_loop_runs_to_an_end(ruleset):
    env = gym_env(ruleset)
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(10_000):
        _, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if terminated or truncated:
            assert reward == -1.0 or not info["illegal_action"]
            return
    raise AssertionError("the quick-start loop did not end")


@pytest.mark.parametrize("mode", ["lose", "penalize"])
def test_gym_illegal_action_changes_nothing(ruleset, mode):
    env = gym_env(ruleset, illegal_action=mode, illegal_reward=-0.5)
    action = gym_state_with_illegal_action(env, seed=1)
    if action is None:
        pytest.skip("no state with a masked-out action met")
    before, mask = env.state.to_dict(), env.action_masks().copy()
    obs, reward, terminated, truncated, info = env.step(action)
    assert env.state.to_dict() == before, "an illegal action changed the game"
    assert reward == -0.5 and info["illegal_action"] is True and truncated is False
    assert terminated is (mode == "lose")
    if mode == "penalize":
        assert np.array_equal(env.action_masks(), mask), "the same decision must be asked again"
        checkers.check_gym_timestep(env, obs, info)
    else:
        with pytest.raises(GameOverError, match="reset"):
            env.step(action)


def test_gym_out_of_space_action_always_raises(ruleset):
    env = gym_env(ruleset, illegal_action="lose")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(ruleset.num_actions)


def test_unknown_illegal_action_mode_is_one_clear_line(ruleset):
    with pytest.raises(ValueError, match="illegal_action='ignore': expected one of lose, penalize, raise"):
        gym_env(ruleset, illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_action"):
        RubbleAECEnv(ruleset.name, illegal_action="ignore")


def aec_illegal_action(env: RubbleAECEnv, seed: int):
    """Play random legal steps until the selected agent has a masked-out action; that action, or None."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(2000):
        if env.game.current_side is None:
            return None
        mask = env.observe(env.agent_selection)["action_mask"].astype(bool)
        if not mask.all():
            illegal = np.flatnonzero(~mask)
            return int(illegal[rng.integers(illegal.size)])
        env.step(checkers.random_action(rng, mask))
    return None


@pytest.mark.parametrize("mode", ["lose", "penalize"])
def test_aec_illegal_action_changes_nothing(ruleset, mode):
    env = RubbleAECEnv(ruleset.name, illegal_action=mode, illegal_reward=-2.0)
    action = aec_illegal_action(env, seed=2)
    if action is None:
        pytest.skip("no state with a masked-out action met")
    agent, before = env.agent_selection, env.game.to_dict()
    env.step(action)
    assert env.game.to_dict() == before, "an illegal action changed the game"
    assert env.rewards[agent] == -2.0 and env.infos[agent]["illegal_action"] is True
    others = [a for a in env.agents if a != agent]
    assert all(env.rewards[a] == 0.0 and env.infos[a]["illegal_action"] is False for a in others)
    if mode == "lose":
        assert all(env.terminations.values())
        while env.agents:
            env.step(None)
    else:
        assert env.agent_selection == agent and not any(env.terminations.values())


def test_aec_raise_mode_raises(ruleset):
    env = RubbleAECEnv(ruleset.name, illegal_action="raise")
    action = aec_illegal_action(env, seed=3)
    if action is None:
        pytest.skip("no state with a masked-out action met")
    before = env.game.to_dict()
    with pytest.raises(IllegalActionError):
        env.step(action)
    assert env.game.to_dict() == before


# 2. Masks ----------------------------------------------------------------------------------------------------
def test_every_consumer_takes_the_mask_as_it_is(ruleset):
    pytest.importorskip("sb3_contrib", reason="SB3 is the [train] extra (the core install runs without)")
    import torch
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    env = gym_env(ruleset)
    _, info = env.reset(seed=0)
    mask = env.action_masks()
    assert mask.dtype == np.int8 and info["action_mask"] is mask
    env.action_space.seed(0)
    for _ in range(20):                                   # Gymnasium's masked sampling wants int8 exactly
        assert mask[env.action_space.sample(mask=mask)] == 1
    distribution = MaskableCategoricalDistribution(ruleset.num_actions)
    distribution.proba_distribution(torch.zeros(1, ruleset.num_actions))
    distribution.apply_masking(mask[None])                 # MaskablePPO's path for action_masks()
    assert torch.isfinite(distribution.distribution.logits).all()
    assert bool(mask[int(distribution.sample())])


def test_dict_observation_carries_the_mask(ruleset):
    env = gym_env(ruleset, dict_observation=True)
    assert checkers.check_gym_env(env, seed=4, steps=200) >= 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym_env(ruleset, dict_observation=True), skip_render_check=True)


def test_terminal_masks_are_never_all_false(ruleset):
    env = gym_env(ruleset)
    rng, ends = np.random.default_rng(6), 0
    env.reset(seed=6)
    for _ in range(800):
        obs, _, terminated, _, info = env.step(checkers.random_action(rng, env.action_masks()))
        assert info["action_mask"].any()
        if terminated:
            ends += 1
            assert info["action_mask"].all()
            env.reset()
    aec = RubbleAECEnv(ruleset.name)
    aec.reset(seed=6)
    for agent in aec.agent_iter(100_000):
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert obs["action_mask"].all(), f"{agent}'s terminal mask"
            aec.step(None)
        else:
            aec.step(checkers.random_action(rng, obs["action_mask"]))
    assert ends or pytest.skip("no game ended in 800 steps")


# 3. Observation bounds and infos ------------------------------------------------------------------------------
#: Random games per ruleset whose every observation (each side, each decision) must lie inside the bounds.
BOUNDS_GAMES = checkers.env_int("RUBBLE_BOUNDS_GAMES", 200)
BOUNDS_CHUNKS = 8


@pytest.mark.parametrize("chunk", range(BOUNDS_CHUNKS))
def test_every_observation_lies_inside_the_declared_bounds(ruleset, chunk):
    scenarios = checkers.scenario_names(ruleset)
    for seed in range(chunk, BOUNDS_GAMES, BOUNDS_CHUNKS):
        state, rng = ruleset.new_game(scenario=scenarios[seed % len(scenarios)], seed=seed), np.random.default_rng(seed)
        for _ in range(checkers.MAX_DECISIONS):
            for side in range(len(ruleset.sides)):
                checkers.check_in_bounds(ruleset, state.observation(side))
            if state.current_side is None:
                break
            state.apply(checkers.random_action(rng, state.legal_action_mask()))


def test_bounds_are_tight_where_features_are_flags(ruleset):
    low, high = ruleset.observation_bounds()
    assert np.isfinite(low).all() and np.isfinite(high).all() and (high > low).all()
    assert (high <= 100).all() and (low >= -100).all(), "bounds this wide squash every rescaled feature"


def test_info_keys_and_types_are_the_same_every_step(ruleset):
    env, rng = gym_env(ruleset), np.random.default_rng(8)
    _, info = env.reset(seed=8)
    signature = {key: type(value) for key, value in info.items()}
    for _ in range(300):
        _, _, terminated, _, info = env.step(checkers.random_action(rng, env.action_masks()))
        assert {key: type(value) for key, value in info.items()} == signature
        if terminated:
            _, info = env.reset()
            assert {key: type(value) for key, value in info.items()} == signature


# 4. PettingZoo completeness and render_mode="human" ---------------------------------------------------------
def test_pettingzoo_render_test_with_human_mode(ruleset):
    pytest.importorskip("pygame", reason="render_mode human is the [human] extra (the core install runs without)")
    from pettingzoo.test import render_test

    from envs.pettingzoo_env import aec_env_factory
    env, _ = aec_env_factory(ruleset.name)
    render_test(env)


def test_gym_human_mode_draws_a_window_and_returns_none(ruleset):
    pytest.importorskip("pygame", reason="render_mode human is the [human] extra (the core install runs without)")
    env = gym_env(ruleset, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    env.step(checkers.legal_action(env, 0))
    env.close()


def test_missing_pygame_is_one_line_naming_the_extra(ruleset, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)       # as if not installed
    with pytest.raises(ImportError, match=r'pip install "rubble\[human\]"'):
        gym_env(ruleset, render_mode="human")
    with pytest.raises(ImportError, match=r"rubble\[human\]"):
        RubbleAECEnv(ruleset.name, render_mode="human")


def test_pettingzoo_state_and_state_space(ruleset):
    from pettingzoo.test.state_test import test_state, test_state_space

    from envs.pettingzoo_env import aec_env_factory
    env, _ = aec_env_factory(ruleset.name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                     # the state test reports problems as warnings
        test_state_space(env())
        test_state(env(), num_cycles=300)
    aec = env()
    aec.reset(seed=0)
    state = aec.state()
    sides = [aec.unwrapped.game.observation(side) for side in range(len(ruleset.sides))]
    assert np.array_equal(state, np.concatenate(sides)), "state() is every side's observation in side order"


def test_pettingzoo_parallel_api_test_on_the_turn_based_conversion(ruleset):
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    from envs.pettingzoo_env import aec_env_factory
    env, _ = aec_env_factory(ruleset.name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                    # recommended agent names ("player_0") only
        parallel_api_test(turn_based_aec_to_parallel(env()), num_cycles=300)


# 5. Pickling: tests/generic/test_copies.py holds every copy to the original -------------------------------------
SPAWN_RULESET = "rifles-urban"     # one ruleset: starting processes is the cost, not the game


def test_gymnasium_async_vector_env_with_spawn():
    import gymnasium

    import envs  # noqa: F401
    vector = gymnasium.make_vec("rubble/RiflesUrban-v0", num_envs=2, vectorization_mode="async",
                                vector_kwargs={"context": "spawn"})
    try:
        _, info = vector.reset(seed=0)
        for _ in range(3):
            assert info["action_mask"].dtype == np.int8 and info["action_mask"].any(axis=1).all()
            actions = np.array([vector.single_action_space.sample(mask=m) for m in info["action_mask"]])
            _, _, _, _, info = vector.step(actions)
    finally:
        vector.close()


def test_sb3_subproc_vec_env_with_spawn():
    pytest.importorskip("sb3_contrib", reason="SB3 is the [train] extra (the core install runs without)")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # A spawned process imports nothing of the parent's: "envs:" makes gymnasium.make import the package that
    # registers the id (Gymnasium's module:id convention). gymnasium.make_vec needs no prefix: it sends the spec.
    vector = make_vec_env("envs:rubble/RiflesUrban-v0", n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                          vec_env_kwargs={"start_method": "spawn"})
    try:
        vector.reset()
        for _ in range(3):
            masks = get_action_masks(vector)
            assert masks.shape == (2, vector.action_space.n) and masks.any(axis=1).all()
            vector.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    finally:
        vector.close()


def test_the_reuse_checker_sees_shared_arrays_and_dicts():
    from tests.checkers import data_shares_objects

    a = np.zeros(3)
    info = {"mask": a}
    assert data_shares_objects(a, a[1:]) and data_shares_objects(info, {"mask": a}) and data_shares_objects(info, info)
    assert not data_shares_objects(a, a.copy()) and not data_shares_objects({"mask": a}, {"mask": a.copy()})
