"""The standing a learner's reward may be shaped by (Ruleset.standing): UW-WIN-3's measure as the game stands."""
from __future__ import annotations

import numpy as np
import pytest

from envs import registry
from envs.gym_env import RubbleEnv
from tests.urbanwar.helpers import position

URBANWAR = registry.get("urbanwar")


def test_UW_WIN_3_standing_is_removals_made_minus_removals_suffered_over_a_side():
    game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [40, 1]}})   # A lost 4 of 6, B lost 5 of 6
    assert URBANWAR.standing(game, 0) == pytest.approx(1 / 6)
    assert URBANWAR.standing(game, 1) == pytest.approx(-1 / 6)
    assert URBANWAR.standing(URBANWAR.new_game(seed=0), 0) == 0.0


@pytest.mark.parametrize("side", [0, 1])
def test_UW_WIN_3_shaped_rewards_add_up_to_the_result_plus_the_weighted_final_standing(side):
    env = RubbleEnv("urbanwar", opponent="scripted", learner_side=side, reward_shaping=0.5)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=11)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, _, info = env.step(action)
        total += reward
    final = URBANWAR.standing(env.state, side)
    assert final != 0.0   # casualties were taken, so the shaping is not trivially zero
    assert total == pytest.approx(env.state.returns()[side] + 0.5 * final, abs=1e-9)


def test_reward_shaping_off_leaves_the_reward_the_result_alone():
    env = RubbleEnv("urbanwar", opponent="scripted", learner_side=1)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=11)
    rewards, done = [], False
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        rewards.append(reward)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == env.state.returns()[1]
