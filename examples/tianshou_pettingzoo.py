"""Tianshou on Rubble's PettingZoo AEC env: `tianshou.env.PettingZooEnv` takes it as it is.

    python -m examples.tianshou_pettingzoo --env rifles-urban --episodes 4

Tianshou reads `observation["action_mask"]` (`== 1`: int8 works as it comes) into `obs.mask`, and its
multi-agent policy routes each decision to the policy of `agent_selection`. Here every side plays Tianshou's
masked random policy; swap one for a learning algorithm's policy (DQN, PPO) to train against it.
"""
from __future__ import annotations

import argparse

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv

import envs


def make_env(name: str) -> PettingZooEnv:
    return PettingZooEnv(envs.make_aec(name))


def collect(name: str, episodes: int, num_envs: int = 2, seed: int = 0):
    """`episodes` whole games, every side played by Tianshou's masked random policy; the collect stats."""
    venv = DummyVectorEnv([lambda: make_env(name) for _ in range(num_envs)])
    probe = make_env(name)
    policy = MultiAgentPolicy({agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(probe.action_space)
                               for agent in probe.agents})
    try:
        return Collector(policy, venv).collect(n_episode=episodes, reset_before_collect=True)
    finally:
        venv.close()


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="rifles-urban")
    parser.add_argument("--episodes", type=int, default=4)
    args = parser.parse_args(argv)
    stats = collect(args.env, args.episodes)
    print(f"{stats.n_collected_episodes} games, {stats.n_collected_steps} decisions")
    return stats


if __name__ == "__main__":
    main()
