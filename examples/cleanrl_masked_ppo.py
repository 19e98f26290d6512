"""A single-file, CleanRL-style PPO with action masking on Gymnasium's AsyncVectorEnv: no wrapper needed.

    python -m examples.cleanrl_masked_ppo --env rubble/RiflesUrban-v0 --iterations 200

The mask comes from `info["action_mask"]` (int8, one row per env). Gymnasium's default NEXT_STEP autoreset keeps
a terminal observation as the next policy input: its mask is all ones by Rubble's convention, so the masked
logits stay finite; the step that resets (its action is ignored) is left out of the loss.
"""
from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import envs  # noqa: F401  (registers the rubble/* ids)


class Agent(nn.Module):
    def __init__(self, observations: int, actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(observations, 64), nn.Tanh(), nn.Linear(64, 1))
        self.actor = nn.Sequential(nn.Linear(observations, 64), nn.Tanh(), nn.Linear(64, actions))

    def policy(self, obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        # Masked-out logits get a large negative value; a mask is never all false, so this never yields NaN.
        return Categorical(logits=self.actor(obs).masked_fill(mask == 0, -1e8))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)


def train(env_id: str, num_envs: int, num_steps: int, iterations: int, seed: int = 0, context: str | None = None,
          gamma: float = 0.99, lam: float = 0.95, clip: float = 0.2, epochs: int = 4, lr: float = 2.5e-4) -> Agent:
    vector = gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="async",
                                vector_kwargs={"context": context} if context else {}, opponent="scripted")
    torch.manual_seed(seed)
    agent = Agent(vector.single_observation_space.shape[0], vector.single_action_space.n)
    optimizer = torch.optim.Adam(agent.parameters(), lr=lr, eps=1e-5)
    obs, info = vector.reset(seed=seed)
    obs, mask = torch.tensor(obs), torch.tensor(info["action_mask"])
    resetting = torch.zeros(num_envs)          # 1 where the coming step only resets (NEXT_STEP autoreset)
    returns_seen = []
    try:
        for _ in range(iterations):
            batch = {k: [] for k in ("obs", "mask", "action", "logp", "value", "reward", "done", "valid")}
            for _ in range(num_steps):
                with torch.no_grad():
                    dist = agent.policy(obs, mask)
                    action = dist.sample()
                    batch["logp"].append(dist.log_prob(action))
                    batch["value"].append(agent.value(obs))
                batch["obs"].append(obs), batch["mask"].append(mask), batch["action"].append(action)
                batch["valid"].append(1 - resetting)
                next_obs, reward, terminated, truncated, info = vector.step(action.numpy())
                done = torch.tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
                returns_seen += reward[done.numpy() > 0].tolist()
                batch["reward"].append(torch.tensor(reward, dtype=torch.float32)), batch["done"].append(done)
                obs, mask, resetting = torch.tensor(next_obs), torch.tensor(info["action_mask"]), done
            update(agent, optimizer, {k: torch.stack(v) for k, v in batch.items()}, obs, gamma, lam, clip, epochs)
    finally:
        vector.close()
    if returns_seen:
        print(f"{len(returns_seen)} episodes, mean return {np.mean(returns_seen):+.3f}")
    return agent


def update(agent: Agent, optimizer, batch: dict, last_obs, gamma: float, lam: float, clip: float, epochs: int) -> None:
    """GAE advantages, then clipped-surrogate epochs over the whole batch (transitions that only reset excluded)."""
    with torch.no_grad():
        next_value, advantage = agent.value(last_obs), torch.zeros_like(batch["reward"])
        running = torch.zeros_like(next_value)
        for t in reversed(range(len(batch["reward"]))):
            alive = 1 - batch["done"][t]
            delta = batch["reward"][t] + gamma * next_value * alive - batch["value"][t]
            running = delta + gamma * lam * alive * running
            advantage[t], next_value = running, batch["value"][t]
        target = advantage + batch["value"]
    flat = {k: v.flatten(0, 1) for k, v in batch.items()}
    adv, target, valid = advantage.flatten(), target.flatten(), flat["valid"]
    adv = (adv - adv[valid > 0].mean()) / (adv[valid > 0].std() + 1e-8)
    for _ in range(epochs):
        dist = agent.policy(flat["obs"], flat["mask"])
        ratio = (dist.log_prob(flat["action"]) - flat["logp"]).exp()
        policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv)
        value_loss = 0.5 * (agent.value(flat["obs"]) - target) ** 2
        loss = ((policy_loss + value_loss - 0.01 * dist.entropy()) * valid).sum() / valid.sum().clamp(min=1)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        optimizer.step()


def main(argv: list[str] | None = None) -> Agent:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="rubble/RiflesUrban-v0")
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=128)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--context", default=None, help='multiprocessing start method, e.g. "spawn"')
    args = parser.parse_args(argv)
    return train(args.env, args.num_envs, args.num_steps, args.iterations, context=args.context)


if __name__ == "__main__":
    main()
