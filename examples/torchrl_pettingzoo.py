"""TorchRL on Rubble's PettingZoo AEC env: `PettingZooWrapper(use_mask=True)` with no wrapper of Rubble's own.

    python -m examples.torchrl_pettingzoo --env rifles-urban --steps 200

Every side is a TorchRL group; `use_mask=True` reads `observation["action_mask"]` (int8 as it comes) into each
group's `action_mask` and samples only legal actions; `return_state=True` adds Rubble's `state()` (every side's
observation, for a centralised critic). A masked MLP policy per group samples through MaskedCategorical.
"""
from __future__ import annotations

import argparse

import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor

import envs


def make_env(name: str, seed: int = 0) -> PettingZooWrapper:
    env = PettingZooWrapper(env=envs.make_aec(name), use_mask=True, categorical_actions=True, return_state=True,
                            seed=seed)
    return env


def group_policy(env: PettingZooWrapper, group: str) -> ProbabilisticActor:
    """A small masked MLP for one group: logits from the observation, the group's action_mask applied."""
    observations = env.observation_spec[group, "observation", "observation"].shape[-1]
    actions = env.full_action_spec[group, "action"].space.n
    net = TensorDictModule(nn.Sequential(nn.Linear(observations, 64), nn.Tanh(), nn.Linear(64, actions)),
                           in_keys=[(group, "observation", "observation")], out_keys=[(group, "logits")])
    return ProbabilisticActor(net, in_keys={"logits": (group, "logits"), "mask": (group, "action_mask")},
                              out_keys=[(group, "action")], distribution_class=MaskedCategorical)


def rollout(name: str, steps: int, seed: int = 0):
    """`steps` decisions played by one masked policy per side; the rollout TensorDict."""
    torch.manual_seed(seed)
    env = make_env(name, seed)
    policies = {group: group_policy(env, group) for group in env.group_map}

    def policy(td):
        for actor in policies.values():   # every group proposes; the env plays the one whose turn it is
            actor(td)
        return td

    try:
        return env.rollout(steps, policy=policy, break_when_any_done=False)
    finally:
        env.close()


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="rifles-urban")
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args(argv)
    data = rollout(args.env, args.steps)
    print(f"{data.batch_size[0]} steps, state {tuple(data['state'].shape)}")
    return data


if __name__ == "__main__":
    main()
