"""The generic Gymnasium adapter on every registered ruleset: API, masks, seeding, rendering, opponents."""
from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from envs import registry
from envs.engine.contract import IllegalActionError
from envs.gym_env import RubbleEnv
from tests import checkers


def make(ruleset, **kwargs) -> RubbleEnv:
    kwargs.setdefault("opponent", checkers.default_opponent(ruleset))
    return RubbleEnv(ruleset.name, **kwargs)


def test_mask_aware_api_check(ruleset):
    for side in range(len(ruleset.sides)):
        checkers.check_gym_env(make(ruleset, learner_side=side), seed=side, steps=300)


def test_gymnasium_checks_that_apply(ruleset):
    checkers.run_gymnasium_checks(make(ruleset))


@pytest.mark.parametrize("mode", RubbleEnv.metadata["render_modes"])
def test_render(ruleset, mode):
    checkers.needs_window(mode)
    checkers.check_render(ruleset, mode, checkers.default_opponent(ruleset))


def test_made_by_gym_id(ruleset):
    env = gymnasium.make(ruleset.gym_id, opponent=checkers.default_opponent(ruleset))
    _, info = env.reset(seed=3)
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])
    assert env.unwrapped.ruleset is ruleset


def test_same_seed_same_episode(ruleset):
    episodes = []
    for _ in range(2):
        env, rng = make(ruleset, umpire_events=True), np.random.default_rng(5)
        obs, info = env.reset(seed=5)
        trace = [(obs.tobytes(), [str(e) for e in info["events"]])]
        for _ in range(200):
            obs, reward, terminated, _, info = env.step(checkers.random_action(rng, env.action_masks()))
            trace.append((obs.tobytes(), reward, [str(e) for e in info["events"]]))
            if terminated:
                obs, info = env.reset()
        episodes.append(trace)
    assert episodes[0] == episodes[1]


def test_different_seeds_give_different_games(ruleset):
    env, games = make(ruleset), set()
    for seed in range(3):
        env.reset(seed=seed)
        games.add(str(env.state.to_dict()))
    assert len(games) > 1, "reset(seed=...) does not change the game"


def test_illegal_action_raises_and_changes_nothing(ruleset):
    env, rng = make(ruleset, illegal_action="raise"), np.random.default_rng(0)
    env.reset(seed=0)
    for _ in range(500):
        illegal = np.flatnonzero(env.action_masks() == 0)
        if illegal.size:
            before = env.state.to_dict()
            with pytest.raises(IllegalActionError):
                env.step(int(illegal[0]))
            assert env.state.to_dict() == before
            return
        if env.step(checkers.random_action(rng, env.action_masks()))[2]:
            env.reset()
    pytest.skip("no state with a masked-out action met")


def test_numpy_actions_accepted(ruleset):
    env = make(ruleset)
    env.reset(seed=0)
    action = checkers.legal_action(env, 0)
    env.step(np.array(action))  # model.predict returns 0-d arrays
    env.reset(seed=0)
    env.step(np.int64(action))


def test_every_listed_agent_can_be_the_opponent(ruleset):
    for name in registry.agents(ruleset.name):
        checkers.check_gym_env(make(ruleset, opponent=name), seed=1, steps=50)


def test_opponent_object_and_factory(ruleset):
    from agents.base import RandomAgent

    checkers.check_gym_env(make(ruleset, opponent=RandomAgent(seed=0)), seed=2, steps=50)
    checkers.check_gym_env(make(ruleset, opponent=RandomAgent), seed=2, steps=50)


def test_unknown_opponent_is_a_clear_error(ruleset):
    with pytest.raises(ValueError, match="unknown opponent"):
        make(ruleset, opponent="no-such-agent")


def test_a_missing_model_opponent_fails_when_the_env_is_made(ruleset):
    from agents.trained import ModelFileError
    with pytest.raises(ModelFileError, match="^models/not-there.zip: no such file$"):
        make(ruleset, opponent="models/not-there.zip")


def test_a_step_after_the_end_is_the_suites_error(ruleset):
    from envs.engine.contract import GameOverError
    env = make(ruleset)
    env.reset(seed=0)
    rng, terminated = np.random.default_rng(0), False
    while not terminated:
        _, _, terminated, _, _ = env.step(checkers.random_action(rng, env.action_masks()))
    with pytest.raises(GameOverError, match="after the episode ended"):
        env.step(0)
    with pytest.raises(GameOverError, match="the game is over"):
        env.unwrapped.state.apply(0)


def test_every_scenario_resets(ruleset):
    env = make(ruleset)
    for name in ruleset.scenarios():
        obs, info = env.reset(seed=0, options={"scenario": name})
        checkers.check_gym_timestep(env, obs, info)


def test_a_game_over_before_the_learners_first_decision_is_dealt_again():
    # rifles-darkness, learner enemy, reset seed 864: the scripted player wins before any enemy decision.
    env = RubbleEnv("rifles-darkness", learner_side="enemy")
    observation, info = env.reset(seed=864)
    assert info["games_without_decision"] == 1
    assert env.state.current_side == env.learner_side and info["action_mask"].any()
    again, info_again = RubbleEnv("rifles-darkness", learner_side="enemy").reset(seed=864)
    assert np.array_equal(observation, again) and np.array_equal(info["action_mask"], info_again["action_mask"])
    _, ordinary = env.reset(seed=0)
    assert ordinary["games_without_decision"] == 0
