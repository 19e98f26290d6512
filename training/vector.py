"""The training environments: RubbleEnv on the learner's side, in a DummyVecEnv or a SubprocVecEnv.

Measured on the 2-core machine (`python -m training.measure rifles-urban`: timesteps/s of the whole learn()
loop, the default config's MaskablePPO [128, 128], one torch thread, rollouts of 4,096 decisions):
    DummyVecEnv    1 env: 882    2: 1,244    4: 1,804    8: 2,321    16: 2,566
    SubprocVecEnv             2:   812    4:   836    8:   963    16: 1,134
SubprocVecEnv loses at every count although it puts the second core to work: one rifles-urban step takes
~0.17 ms, less than the pipe round trips (step, then `action_masks` through env_method) that carry each
step's action, observation (989 floats), mask and info between processes, and the environments are only
about a third of the loop's time anyway (training.measure: environments 34 %, PPO update 36 %, the rest
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


MAX_SKIPPED = 100   # games in a row without a learner decision before giving up (a ruleset bug, surely)


class TrainingInfo(gymnasium.Wrapper):
    """What training needs of RubbleEnv: only games in which the learner decides, and a lean `info`."""

    # DummyVecEnv deep-copies every info dict; an event log in it cost ~11 % of training time in a profile.
    # RubbleEnv adds the umpire's events only with `umpire_events=True` (training leaves it off); any that
    # do appear are dropped here all the same.

    def reset(self, **kwargs):
        """A new game in which the learner decides at least once."""
        # A game can end before the learner's first decision (rifles-darkness, learner enemy, seed 864: the
        # scripted player wins in turn 2 before any enemy decision, about 1 game in 1,000). RubbleEnv.reset
        # then returns an all-false mask, and a reset cannot end an episode, so MaskablePPO would act in a
        # finished game. Such a game teaches nothing: the next one is played instead.
        for _ in range(MAX_SKIPPED):
            observation, info = self.env.reset(**kwargs)
            if info["action_mask"].any():
                return observation, _lean(info)
            kwargs = {k: v for k, v in kwargs.items() if k != "seed"}   # the next game of the env's own generator
        raise RuntimeError(f"{MAX_SKIPPED} games in a row ended before the learner's first decision")

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
