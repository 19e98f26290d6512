"""The training environments: RubbleEnv on the learner's side, in a DummyVecEnv or a SubprocVecEnv.

Measured on the 2-core machine, rifles-urban, MaskablePPO [128, 128], one torch thread, whole learn() loop
(see the issue's final report for the full table):
    DummyVecEnv   2 envs:  835 steps/s    8 envs: 1,072 steps/s   16 envs: 1,234 steps/s
    SubprocVecEnv 2 envs:  546 steps/s    8 envs:   816 steps/s
SubprocVecEnv loses: one rifles-urban step takes ~0.17 ms, less than the pipe round trip that moves its
observation and mask between processes, and the second core is busy with the PPO update anyway. More
environments in one process help because the policy's forward pass is batched over them. Hence
`vec_env: dummy` and `envs: 8` in configs/training/default.yaml.
"""
from __future__ import annotations

from functools import partial

import gymnasium
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import envs  # noqa: F401 - registers the rulesets (also inside SubprocVecEnv's fresh worker processes)
from envs.gym_env import RubbleEnv


class TrainingInfo(gymnasium.Wrapper):
    """Drops the per-step event log from `info`: DummyVecEnv deep-copies every info dict, and the events
    (~11 % of training time in a profile) are for people, not for the learner."""

    def reset(self, **kwargs):
        observation, info = self.env.reset(**kwargs)
        return observation, _lean(info)

    def step(self, action):
        observation, reward, terminated, truncated, info = self.env.step(action)
        return observation, reward, terminated, truncated, _lean(info)

    def action_masks(self):
        return self.env.unwrapped.action_masks()


def _lean(info: dict) -> dict:
    return {k: v for k, v in info.items() if k != "events"}


def make_env(env_name: str, scenario: str | None, opponent: str, side: str) -> gymnasium.Env:
    """One training environment: the learner plays `side`, `opponent` the others; Monitor records episodes."""
    env = RubbleEnv(env_name, scenario=scenario, opponent=opponent, learner_side=side)
    return Monitor(TrainingInfo(env))


def make_vec_env(env_name: str, scenario: str | None, opponent: str, side: str, count: int, kind: str) -> VecEnv:
    """`count` environments, stepped in this process ("dummy") or one process each ("subproc")."""
    factories = [partial(make_env, env_name, scenario, opponent, side) for _ in range(count)]
    return DummyVecEnv(factories) if kind == "dummy" else SubprocVecEnv(factories)
