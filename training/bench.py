"""Speed of random masked play through the adapters, one process: `rubble bench`."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

PEER = "connect_four_v3"  # PettingZoo classic: a small masked AEC game to put our speeds in scale


@dataclass(frozen=True)
class Rate:
    """How much play fitted in `seconds`: decisions taken and games finished."""

    env: str
    api: str
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform legal action."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def time_gym(env, name: str, seconds: float, seed: int) -> Rate:
    """Random masked steps of a Gymnasium env with `action_masks()`, resetting after each game."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = now = time.perf_counter()
    while now - start < seconds:
        _, _, terminated, truncated, _ = env.step(random_legal(rng, env.action_masks()))
        steps += 1
        if terminated or truncated:
            games += 1
            env.reset()
        now = time.perf_counter()
    return Rate(name, "gym", steps, games, now - start)


def time_aec(env, name: str, seconds: float, seed: int) -> Rate:
    """Random masked play of a PettingZoo AEC env (mask in observation['action_mask'])."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = now = time.perf_counter()
    while now - start < seconds:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)  # AEC: a finished agent steps None until it is removed
            if not env.agents:
                games += 1
                env.reset()
        else:
            env.step(random_legal(rng, observation["action_mask"]))
            steps += 1
        now = time.perf_counter()
    return Rate(name, "aec", steps, games, now - start)


def peer_env():
    """PettingZoo's connect four, without pygame's greeting on stdout."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # The module itself: pettingzoo.classic.connect_four_v3 is a deprecated alias in newer PettingZoo.
    from pettingzoo.classic.connect_four.connect_four import env

    return env()


def bench_env(name: str, api: str, seconds: float, seed: int) -> Rate:
    """Time one registered env through the Gymnasium adapter (its default opponent) or the AEC adapter."""
    if api == "gym":
        from envs.gym_env import RubbleEnv

        return time_gym(RubbleEnv(name), name, seconds, seed)
    from envs import make_aec

    return time_aec(make_aec(name), name, seconds, seed)


def format_rates(rates: list[Rate], peer: Rate | None) -> str:
    """One row per env: steps/s, games/s and, with a peer, the ratio of steps/s to the peer's."""
    rows = ([peer] if peer else []) + rates
    width = max([len("env")] + [len(r.env) for r in rows])
    ratio_head = f"  steps/s vs {PEER}" if peer else ""
    lines = [f"{'env':<{width}}  api  {'steps/s':>9}  {'games/s':>8}  {'steps':>8}  {'games':>6}{ratio_head}"]
    for rate in rows:
        ratio = f"  {rate.steps_per_second / peer.steps_per_second:>8.2f}x" if peer else ""
        lines.append(
            f"{rate.env:<{width}}  {rate.api:<3}  {rate.steps_per_second:>9,.0f}  {rate.games_per_second:>8.1f}"
            f"  {rate.steps:>8}  {rate.games:>6}{ratio}"
        )
    if any(r.api == "gym" for r in rows):
        lines.append("gym steps are the learner's decisions; the opponent's happen inside each step")
    return "\n".join(lines)
