"""The training environments: RubbleEnv on the learner's side, in a DummyVecEnv or a SubprocVecEnv.

Measured on the 2-core machine (`python -m training.learn.throughput rifles-urban`: timesteps/s of the whole learn()
loop, the default config's MaskablePPO [128, 128], one torch thread, rollouts of 4,096 decisions):
    DummyVecEnv    1 env: 882    2: 1,244    4: 1,804    8: 2,321    16: 2,566
    SubprocVecEnv             2:   812    4:   836    8:   963    16: 1,134
SubprocVecEnv loses at every count although it puts the second core to work: one rifles-urban step takes
~0.17 ms, less than the pipe round trips (step, then `action_masks` through env_method) that carry each
step's action, observation (989 floats), mask and info between processes, and the environments are only
about a third of the loop's time anyway (training.learn.throughput: environments 34 %, PPO update 36 %, the rest
mostly the policy's forward pass). More environments in one process help because that forward pass is
batched over them; past 8 the gain is small. Hence `vec_env: dummy` and `envs: 8` in
configs/training/default.yaml.
"""
from __future__ import annotations

from functools import partial

import gymnasium
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import envs  # noqa: F401 - registers the rulesets (also inside SubprocVecEnv's fresh worker processes)
from envs.gym_env import RubbleEnv


def make_env(env_name: str, scenario: str | None, opponent: str, side: str | None,
             reward_shaping: float = 0.0) -> gymnasium.Env:
    """One training environment: the learner plays `side`, `opponent` the others; Monitor records episodes."""
    env = RubbleEnv(env_name, scenario=scenario, opponent=opponent, learner_side=side, reward_shaping=reward_shaping)
    return Monitor(env)


def make_vec_env(env_name: str, scenario: str | None, opponent: str, side: str | None, count: int, kind: str,
                 reward_shaping: float = 0.0) -> VecEnv:
    """`count` environments, stepped in this process ("dummy") or one process each ("subproc")."""
    factories = [partial(make_env, env_name, scenario, opponent, side, reward_shaping) for _ in range(count)]
    return DummyVecEnv(factories) if kind == "dummy" else SubprocVecEnv(factories)
