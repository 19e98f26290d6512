"""The RLlib example (examples/rllib_selfplay.py) in RLlib's own venv (`.venv-rllib`: RLlib pins its Gymnasium);
skipped where RLlib is not installed. CI runs it in `.venv-rllib`."""
from __future__ import annotations

import math

import pytest

pytest.importorskip("tree", reason='the rllib extra, in its own venv: pip install -e ".[rllib]"')
pytest.importorskip("ray.rllib.algorithms.ppo", reason='the rllib extra, in its own venv: pip install -e ".[rllib]"')

from examples import rllib_selfplay  # noqa: E402


def test_rllib_self_play_trains_one_policy_per_side():
    (result,) = rllib_selfplay.train("rifles-urban", iterations=1, batch=128)
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
    for side in ("player", "enemy"):
        loss = result["learners"][side]["policy_loss"]
        assert math.isfinite(float(loss)), f"{side}'s policy did not train"
