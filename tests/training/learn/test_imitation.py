"""Behaviour cloning (training/learn/imitation.py): the teacher's games are recorded and the policy fits them."""
import numpy as np
from sb3_contrib import MaskablePPO

from envs import registry
from envs.gym_env import RubbleEnv
from tests.training.helpers import ENV
from training import lookup
from training.learn.imitation import clone, collect


def demonstrations(games=2):
    rs = registry.get(ENV)
    return collect(rs, None, 0, [lookup.agent(rs, "scripted")] * 2, list(range(games)), gamma=0.9)


def test_demonstrations_hold_only_the_learners_legal_choices():
    demos = demonstrations()
    assert demos.games == 2 and len(demos.actions) == len(demos.observations) == len(demos.masks)
    assert demos.masks[np.arange(len(demos.actions)), demos.actions].all()
    assert set(np.abs(demos.returns[-1:]).round(6)) <= {0.0, 1.0}   # the last decision carries the result


def test_cloning_uses_its_own_learning_rate_and_gives_ppo_its_own_back():
    model = MaskablePPO("MlpPolicy", RubbleEnv(ENV), learning_rate=1e-4, n_steps=64, batch_size=64, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    optimizer, seen = model.policy.optimizer, []
    step = optimizer.step
    optimizer.step = lambda *a, **k: (seen.append(optimizer.param_groups[0]["lr"]), step(*a, **k))[1]
    stats = clone(model.policy, demonstrations(1), epochs=1, batch_size=512, vf_coef=0.5, seed=0,
                  learning_rate=3e-3)
    assert seen and set(seen) == {3e-3}
    assert optimizer.param_groups[0]["lr"] == 1e-4
    assert stats["epochs"] == 1 and 0.0 <= stats["accuracy"] <= 1.0
