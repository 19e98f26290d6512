"""RLlib multi-agent self-play on Rubble's PettingZoo AEC env: both sides learn, each its own PPO policy, with
action masking, on a local Ray. Configuration only: no wrapper of Rubble's own.

    python -m examples.rllib_selfplay --env rifles-urban --iterations 2

RLlib pins its own Gymnasium, so this runs in its own virtual environment (CI builds `.venv-rllib`):

    python3 -m venv .venv-rllib && .venv-rllib/bin/pip install torch==2.13.0 && .venv-rllib/bin/pip install -e ".[rllib]"

How the pieces meet:
* RLlib's `PettingZooEnv` turns the AEC env into its `MultiAgentEnv` (one agent acts at a time; an agent may act
  many times in a row, as Rubble's action points make it).
* RLlib's `ActionMaskingTorchRLModule` reads `"observations"` and `"action_mask"` from a Dict observation, so the
  env is built with `observation_key="observations"` (PettingZoo's own key is `"observation"`).
* One policy per side, mapped by agent name; to share one network between sides, map both to one policy.
* On a cluster, `ray.init(address="auto")` (or `RAY_ADDRESS`) and more `env_runners`: nothing else changes.
"""
from __future__ import annotations

import argparse

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

import envs

ENV_NAME = "rubble-aec"


def make_env(env_config: dict) -> PettingZooEnv:
    """RLlib's env creator (module level, so that env runners can pickle it)."""
    return PettingZooEnv(envs.make_aec(env_config["ruleset"], observation_key="observations"))


def policy_of(agent_id, episode=None, **kwargs) -> str:
    """Each side plays its own policy, named after the side."""
    return agent_id


def config(ruleset: str, batch: int = 256, seed: int = 0) -> PPOConfig:
    sides = list(envs.make_aec(ruleset).possible_agents)
    modules = {side: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": [64, 64]})
               for side in sides}
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"ruleset": ruleset})
        .multi_agent(policies=set(sides), policy_mapping_fn=policy_of)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=batch // 2, num_epochs=1)
        .debugging(seed=seed)
    )


def train(ruleset: str, iterations: int, batch: int = 256, seed: int = 0) -> list[dict]:
    """`iterations` PPO iterations of self-play; each iteration's result dict (RLlib's)."""
    register_env(ENV_NAME, make_env)
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    algo = config(ruleset, batch, seed).build_algo()
    try:
        return [algo.train() for _ in range(iterations)]
    finally:
        algo.stop()


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="rifles-urban")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args(argv)
    for i, result in enumerate(train(args.env, args.iterations, args.batch), start=1):
        steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
        returns = result["env_runners"].get("agent_episode_returns_mean", {})
        print(f"iteration {i}: {steps} env steps; mean episode return per side {returns}")
    ray.shutdown()


if __name__ == "__main__":
    main()
