"""The Konflikt '47 actors shipped in results/ were trained on version 1 of the observation (1080 features, before the
ranging-in and revealed features of KC-HID-3 and KC-HID-9 were appended): they load and play on by reading that
prefix, which the ruleset declares (`prefix_observation_sizes`, agents/trained.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents import trained
from envs import registry
from envs.engine.contract import decide
from envs.k47.observation import RANGING_AT

RULESET = registry.get("k47")
RESULTS = Path(__file__).resolve().parents[2] / "results" / "k47"
SHIPPED = sorted(RESULTS.rglob("actor.zip"))
ACTOR = RESULTS / "A-bc-ppo-30min" / "actor.zip"


def test_every_shipped_actor_was_trained_on_the_version_1_prefix_and_loads():
    assert len(SHIPPED) >= 4    # the tracked ones: both single-opponent runs and the named league actors (results/README.md)
    assert RULESET.prefix_observation_sizes == (RANGING_AT,) == (1080,)
    for path in SHIPPED:
        actor = trained.read_actor(path)
        assert actor.observation_space_shape == (1080,)
        assert trained.check_fits(actor, RULESET, None, path) == 1080


def test_a_shipped_actor_plays_a_whole_game_reading_the_prefix():
    agent = trained.load(ACTOR, RULESET, side=0)
    assert agent.reads == 1080
    scripted = registry.agents("k47")["scripted"](1, 0)
    game = RULESET.new_game(seed=5)
    seen = 0
    while game.current_side is not None:
        side = game.current_side
        if side == 0:
            obs, mask = game.observation(0), game.legal_action_mask()
            action = agent.act(obs, mask, game.view(0))
            assert mask[action]
            assert action == int(np.argmax(np.where(mask, agent.policy.logits(obs[:1080]), -np.inf)))
            seen += 1
            game.apply(action)
        else:
            game.apply(decide(scripted, game, side))
    assert seen > 10 and game.is_over


def test_an_actor_of_an_undeclared_size_is_refused_in_one_line():
    actor = trained.read_actor(ACTOR)
    odd = trained.Actor([(np.zeros((4, 1000), np.float32), np.zeros(4, np.float32)),
                         (np.zeros((RULESET.num_actions, 4), np.float32), np.zeros(RULESET.num_actions, np.float32))],
                        actor.activation, dict(actor.meta))
    with pytest.raises(trained.ModelFileError, match=rf"\({RULESET.observation_size},\) \(or an earlier 1080\)"):
        trained.check_fits(odd, RULESET, 0, "odd.zip")


def test_the_registry_plays_a_shipped_actor_as_an_opponent():
    import gymnasium as gym

    env = gym.make(RULESET.gym_id, opponent=str(ACTOR), learner_side=1)
    obs, info = env.reset(seed=0)
    assert obs.shape == (RULESET.observation_size,)
    for _ in range(20):
        mask = info["action_mask"]
        obs, _, done, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        if done or truncated:
            break
    env.close()
